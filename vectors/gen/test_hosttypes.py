"""Unit tests of the host-type self-checks (spec §17; run: python3 -m unittest
vectors/gen/test_hosttypes.py).

Each test breaks one thing the generator checks, on a copy, and asserts that the check
refuses it: the spec's tables against hosttypes.VOCABULARIES (a wire type, a decode cell, a
missing row), vectors/schema.json's vocabularies and type names, and coverage (a type left
without an encode vector, a wire type no decode vector decodes). A check that stopped
working would let the tables, the schema and the vectors drift apart unnoticed."""

import json
import os
import re
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True

import checks_host  # noqa: E402
import hosttypes  # noqa: E402
from cases import s17_host_types  # noqa: E402


def copy_with(path, edit):
    """A temporary copy of `path` with `edit(text)` applied; the edit must change it."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    changed = edit(text)
    assert changed != text, "the edit did not apply"
    fd, out = tempfile.mkstemp(suffix=os.path.splitext(path)[1])
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(changed)
    return out


_CASES = []


def host_cases():
    """The §17 cases, completed as the generator completes them."""
    if not _CASES:
        for c in s17_host_types.cases({}):
            checks_host.complete(c)
            _CASES.append(c)
    return list(_CASES)


class SpecTables(unittest.TestCase):
    def test_the_tables_agree_as_they_are(self):
        hosttypes.check_spec_tables()

    def check_fails(self, edit, message):
        path = copy_with(hosttypes.SPEC, edit)
        try:
            with self.assertRaisesRegex(SystemExit, message):
                hosttypes.check_spec_tables(path)
        finally:
            os.unlink(path)

    def test_another_wire_type_fails(self):
        self.check_fails(
            lambda t: t.replace("| `Long` | `i64`, also when small", "| `Long` | `i32`"),
            r"kotlin Long: written as '`i32`.*', the generator says i64",
        )

    def test_another_decode_cell_fails(self):
        self.check_fails(
            lambda t: t.replace("| `Data` | `u8s` | `u8s` |", "| `Data` | `u8s` | `list` |"),
            r"swift Data: decoded from '`list`'",
        )

    def test_a_missing_row_fails(self):
        self.check_fails(
            lambda t: re.sub(r"\n\| `ShortArray` \|[^\n]*", "", t),
            r"kotlin table: types only in the spec \[\], only in the generator \['ShortArray'\]",
        )


class Schema(unittest.TestCase):
    def test_the_schema_agrees_as_it_is(self):
        hosttypes.check_schema()

    def check_fails(self, edit, message):
        path = copy_with(hosttypes.SCHEMA, edit)
        try:
            with self.assertRaisesRegex(SystemExit, message):
                hosttypes.check_schema(path)
        finally:
            os.unlink(path)

    def test_a_missing_type_name_fails(self):
        self.check_fails(lambda t: t.replace('"LongArray", ', "", 1), r"hostType .*\['LongArray'\]")

    def test_a_missing_vocabulary_fails(self):
        self.check_fails(lambda t: t.replace('"glib", ', "", 1), r"hostVocabulary")

    def test_the_schema_lists_every_type_once(self):
        with open(hosttypes.SCHEMA, encoding="utf-8") as f:
            listed = json.load(f)["$defs"]["hostType"]["enum"]
        self.assertEqual(len(listed), len(set(listed)))


class Coverage(unittest.TestCase):
    def test_every_type_has_its_vectors_as_they_are(self):
        hosttypes.check_coverage(host_cases())

    def test_a_type_without_an_encode_vector_fails(self):
        cases = [
            c
            for c in host_cases()
            if c["id"] not in ("s17.4-kotlin-enc-shortarray", "s17.4-kotlin-enc-empty-shortarray")
        ]
        with self.assertRaisesRegex(SystemExit, "kotlin ShortArray: no encode-from-host vector"):
            hosttypes.check_coverage(cases)

    def test_a_wire_type_no_decode_vector_decodes_fails(self):
        cases = [
            c for c in host_cases() if c["id"] not in ("s17.8-c-dec-f32s", "s17.8-c-dec-empty-f32s")
        ]
        with self.assertRaisesRegex(SystemExit, "c SMC_TYPE_F32S: no decode-to-host vector"):
            hosttypes.check_coverage(cases)

    def test_every_array_type_has_its_empty_vectors(self):
        hosttypes.check_empty_coverage(host_cases())

    def test_an_array_type_without_an_empty_encode_vector_fails(self):
        cases = [c for c in host_cases() if c["id"] != "s17.5-swift-enc-empty-int-array"]
        with self.assertRaisesRegex(SystemExit, r"swift \[Int\]: no encode vector of its empty"):
            hosttypes.check_empty_coverage(cases)

    def test_a_wire_type_without_an_empty_decode_vector_fails(self):
        cases = [c for c in host_cases() if c["id"] != "s17.6-cpp-dec-empty-i64s"]
        with self.assertRaisesRegex(SystemExit, "cpp: no decode vector of an empty i64s"):
            hosttypes.check_empty_coverage(cases)

    def test_alternatives_are_written_alike(self):
        hosttypes.check_alternatives()
        saved = hosttypes.ALTERNATIVES
        hosttypes.ALTERNATIVES = {"swift": {"Data": ("[Int32]",)}}
        try:
            with self.assertRaisesRegex(SystemExit, "written differently"):
                hosttypes.check_alternatives()
        finally:
            hosttypes.ALTERNATIVES = saved


class ProtocolSchema(unittest.TestCase):
    """spec §17.1: the types a runner may state absent (runners/protocol.schema.json)."""

    def test_the_protocol_schema_agrees_as_it_is(self):
        hosttypes.check_protocol_schema()
        self.assertIn("NSNull", hosttypes.stateable_absent("swift"))
        self.assertNotIn("nil", hosttypes.stateable_absent("swift"))
        self.assertNotIn("LinkedHashMap", hosttypes.stateable_absent("kotlin"))
        self.assertEqual(hosttypes.stateable_absent("glib"), [])

    def check_fails(self, edit, message):
        path = copy_with(hosttypes.PROTOCOL_SCHEMA, edit)
        try:
            with self.assertRaisesRegex(SystemExit, message):
                hosttypes.check_protocol_schema(path)
        finally:
            os.unlink(path)

    def test_a_core_type_made_stateable_fails(self):
        self.check_fails(
            lambda t: t.replace('"NSNull",', '"NSNull", "nil",', 1),
            r"hosts_without.swift allows \['NSNull', 'nil'",
        )

    def test_a_stateable_type_left_out_fails(self):
        self.check_fails(lambda t: t.replace('"HashMap",', "", 1), r"hosts_without.kotlin")


class Utf16Literal(unittest.TestCase):
    """spec §17.1: {"utf16": H} for the string types of UTF-16 code units, the one way a lone
    surrogate gets into a host value."""

    def enc(self, vocab, t, x):
        return hosttypes.to_value(vocab, {"type": t, "value": x})

    def test_a_valid_pair_is_one_scalar(self):
        self.assertEqual(
            self.enc("kotlin", "String", {"utf16": "0068d83dde000077"}), ["str", "h\U0001f600w"]
        )

    def test_a_lone_surrogate_is_refused(self):
        for h in ("0061d8000062", "0061dc000062", "dc00d800", "0061d83d", "de00d83d"):
            with self.assertRaises(hosttypes.Refused, msg=h):
                self.enc("dart", "String", {"utf16": h})

    def test_only_strings_of_code_units_take_it(self):
        self.enc("swift", "NSString", {"utf16": "0061"})
        for vocab, t in (("swift", "String"), ("glib", "FL_VALUE_TYPE_STRING"), ("any", "string")):
            with self.assertRaisesRegex(hosttypes.HostError, "no UTF-16 code units"):
                self.enc(vocab, t, {"utf16": "0061"})

    def test_a_lone_surrogate_escape_in_a_json_string_is_refused(self):
        with self.assertRaisesRegex(hosttypes.HostError, "JSON string literal holds Unicode"):
            self.enc("kotlin", "String", json.loads('"a\\ud800b"'))

    def test_malformed_hex_is_refused(self):
        for h in ("0061D800", "006", "0061 0062", 97):
            with self.assertRaises(hosttypes.HostError, msg=h):
                self.enc("kotlin", "String", {"utf16": h})
        with self.assertRaises(hosttypes.HostError):
            self.enc("kotlin", "String", {"utf16": "0061", "extra": 1})

    def test_what_the_codecs_of_d13_write(self):
        units = hosttypes.utf16_units({"utf16": "0061d8000062"})
        got = {p: hosttypes.utf16_written(units, p) for p in hosttypes.LONE_SURROGATE_POLICIES}
        self.assertEqual(got, {"fffd": "a\ufffdb", "question": "a?b", "truncate": "a"})
        units = hosttypes.utf16_units({"utf16": "dc00d800"})
        self.assertEqual(hosttypes.utf16_written(units, "question"), "??")

    def test_each_string_type_of_code_units_has_its_vectors(self):
        got = {}
        for c in host_cases():
            hv = c["host_value"]
            if hosttypes.is_utf16_literal(hv["value"]):
                tier = c["tier"] + (" refused" if "error" in c else "")
                got.setdefault((c["host"], hv["type"]), set()).add(tier)
                want = "R5.4-2" if "error" in c else "R5.4-1"
                self.assertIn(want, c["requirements"], c["id"])
        want = {
            (v, t): {"recommended refused", "required"}
            for v, ts in hosttypes.UTF16_STRINGS.items()
            for t in ts
        }
        self.assertEqual(got, want)


if __name__ == "__main__":
    unittest.main()
