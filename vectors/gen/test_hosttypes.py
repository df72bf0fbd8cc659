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
        self.check_fails(lambda t: t.replace("| `Long` | `i64`, also when small", "| `Long` | `i32`"),
                         r"kotlin Long: written as '`i32`.*', the generator says i64")

    def test_another_decode_cell_fails(self):
        self.check_fails(lambda t: t.replace("| `Data` | `u8s` | `u8s` |", "| `Data` | `u8s` | `list` |"),
                         r"swift Data: decoded from '`list`'")

    def test_a_missing_row_fails(self):
        self.check_fails(lambda t: re.sub(r"\n\| `ShortArray` \|[^\n]*", "", t),
                         r"kotlin table: types only in the spec \[\], only in the generator \['ShortArray'\]")


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
        cases = [c for c in host_cases() if c["id"] != "s17.4-kotlin-enc-shortarray"]
        with self.assertRaisesRegex(SystemExit, "kotlin ShortArray: no encode-from-host vector"):
            hosttypes.check_coverage(cases)

    def test_a_wire_type_no_decode_vector_decodes_fails(self):
        cases = [c for c in host_cases() if c["id"] != "s17.8-c-dec-f32s"]
        with self.assertRaisesRegex(SystemExit, "c SMC_TYPE_F32S: no decode-to-host vector"):
            hosttypes.check_coverage(cases)


if __name__ == "__main__":
    unittest.main()
