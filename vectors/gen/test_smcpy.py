"""Unit tests of smcpy against facts stated in the spec (run: python3 -m unittest
vectors/gen/test_smcpy.py). The generator checks every vector too; these pin the model's
rules one by one so a regression names the rule it broke."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import smcpy  # noqa: E402


def err(entry, hx, strict=False):
    try:
        smcpy.decode(entry, bytes.fromhex(hx), strict)
    except smcpy.SmcError as e:
        return e.cls, e.offset
    return None


class Sizes(unittest.TestCase):  # spec §2.2
    def test_size_forms(self):
        self.assertEqual(smcpy.encode_message(["u8s", "00" * 253]).hex[:4], "08fd")
        self.assertEqual(smcpy.encode_message(["u8s", "00" * 254]).hex[:8], "08fefe00")
        self.assertEqual(smcpy.encode_message(["u8s", "00" * 65535]).hex[:8], "08feffff")
        self.assertEqual(smcpy.encode_message(["u8s", "00" * 65536]).hex[:12], "08ff00000100")

    def test_nonminimal_accepted_flutter_rejected_strict(self):
        self.assertEqual(smcpy.decode_message(bytes.fromhex("07fe02006162")), ["str", "ab"])
        self.assertEqual(err("message", "07fe02006162", True), ("not_canonical", 1))
        self.assertEqual(err("message", "07ff020000006162", True), ("not_canonical", 1))
        self.assertEqual(err("message", "08fefd00" + "00" * 253, True), ("not_canonical", 1))
        self.assertIsNone(err("message", "08fefe00" + "00" * 254, True))


class Alignment(unittest.TestCase):  # spec §3
    def test_f64_padding_from_message_start(self):
        self.assertEqual(
            smcpy.encode_message(["f64", "3ff0000000000000"]).hex,
            "06" + "00" * 7 + "000000000000f03f",
        )
        self.assertEqual(
            smcpy.encode_call(["call", "m", ["f64", "3ff8000000000000"]]).hex,
            "07016d0600000000000000000000f83f",
        )

    def test_empty_typed_list_keeps_padding(self):
        self.assertEqual(smcpy.encode_message(["i32s", []]).hex, "09000000")
        self.assertEqual(smcpy.encode_message(["f64s", []]).hex, "0b00000000000000")
        self.assertEqual(err("message", "0e00"), ("truncated", 2))

    def test_nonzero_padding(self):
        hx = "06ff000000000000000000000000f03f"
        self.assertEqual(smcpy.decode_message(bytes.fromhex(hx)), ["f64", "3ff0000000000000"])
        self.assertEqual(err("message", hx, True), ("not_canonical", 1))


class Scalars(unittest.TestCase):  # spec §4
    def test_int_widths_are_values(self):
        self.assertEqual(smcpy.encode_message(["i64", "5"]).hex, "040500000000000000")
        self.assertEqual(smcpy.encode_message(["i32", 5]).hex, "0305000000")

    def test_nan_bits_kept(self):
        v = ["f64", "7ff0000000000001"]
        self.assertEqual(smcpy.decode_message(smcpy.encode_message(v).data), v)

    def test_largeint(self):
        self.assertEqual(smcpy.decode_message(bytes.fromhex("05023166")), ["largeint", "1f"])
        self.assertEqual(err("message", "05023166", True), ("unknown_tag", 0))
        with self.assertRaises(smcpy.SmcError) as cm:
            smcpy.encode_message(["largeint", "1f"])
        self.assertEqual(cm.exception.cls, "not_encodable")


class Utf8(unittest.TestCase):  # spec §5.3
    def test_ill_formed(self):
        for payload, idx in (
            ("80", 0),
            ("c080", 0),
            ("e08080", 0),
            ("eda080", 0),
            ("f4908080", 0),
            ("ff", 0),
            ("61e282", 1),
            ("6162ff", 2),
        ):
            self.assertEqual(smcpy.utf8_error_offset(bytes.fromhex(payload)), idx, payload)

    def test_well_formed_matches_python(self):
        for cp in (0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x10FFFF):
            self.assertIsNone(smcpy.utf8_error_offset(chr(cp).encode("utf-8")), hex(cp))


class Errors(unittest.TestCase):  # errors.md §14
    def test_truncated_offset_is_input_length(self):
        self.assertEqual(err("message", ""), ("truncated", 0))
        self.assertEqual(err("message", "0c0700"), ("truncated", 3))
        self.assertEqual(err("message", "09050000"), ("truncated", 4))

    def test_length_bomb_before_allocation(self):
        self.assertEqual(err("message", "0cffffffffff"), ("truncated", 6))
        self.assertEqual(err("message", "0dff01000080" + "0000"), ("truncated", 8))

    def test_trailing_and_unknown(self):
        self.assertEqual(err("message", "0000"), ("trailing_bytes", 1))
        self.assertEqual(err("message", "0f"), ("unknown_tag", 0))
        self.assertEqual(err("message", "0c020f"), ("truncated", 3))

    def test_depth(self):
        self.assertIsNone(err("message", "0c01" * 127 + "0c00"))
        self.assertEqual(err("message", "0c01" * 128 + "0c00"), ("depth_limit", 256))

    def test_entry_points(self):
        self.assertEqual(err("call", "0f00"), ("bad_envelope", 0))
        self.assertEqual(err("call", "070568656c6c6f"), ("truncated", 7))
        self.assertEqual(err("envelope", "02"), ("bad_envelope", 0))
        self.assertEqual(err("envelope", "0103000000"), ("bad_envelope", 1))
        self.assertEqual(err("envelope", "0107016503000000000000"), ("bad_envelope", 4))
        self.assertEqual(
            smcpy.decode_envelope(bytes.fromhex("0107056572726f72000000")),
            ["error", "error", None, ["null"], None],
        )


class Notation(unittest.TestCase):
    def test_rejects_bad_notation(self):
        for bad in (
            ["i32", 1.0],
            ["i32", 2**31],
            ["i64", "-0"],
            ["i64", "01"],
            ["f64", "3FF0000000000000"],
            ["custom", 127, ["null"]],
            ["str", "\ud800"],
            ["null", 1],
            ["bool", 1],
            ["nope"],
        ):
            with self.assertRaises(smcpy.NotationError, msg=repr(bad)):
                smcpy.check_value(bad)


class Orders(unittest.TestCase):  # errors.md §14.2.1
    def out(self, entry, hx, strict=False, **kw):
        try:
            return smcpy.decode(entry, bytes.fromhex(hx), strict, profile=smcpy.Profile(**kw))
        except smcpy.SmcError as e:
            return e.cls, e.offset

    def test_value_first_reads_the_name_as_a_value(self):
        self.assertEqual(self.out("call", "0f00"), ("bad_envelope", 0))
        self.assertEqual(self.out("call", "0f00", fixed="value-first"), ("unknown_tag", 0))
        # a truncated name is a second fault: the suite never uses such an input
        self.assertEqual(self.out("call", "030000"), ("bad_envelope", 0))
        self.assertEqual(self.out("call", "030000", fixed="value-first"), ("truncated", 3))
        self.assertEqual(self.out("call", "030000000000", fixed="value-first"), ("bad_envelope", 0))

    def test_all_values_first_reads_every_element_before_checking(self):
        # the message is an int32 and the details are missing: GLIB's order finds the type,
        # DART's and JAVA's the missing details
        hx = "0107016503" + "00000000"
        self.assertEqual(self.out("envelope", hx, fixed="value-first"), ("bad_envelope", 4))
        self.assertEqual(self.out("envelope", hx, fixed="all-values-first"), ("truncated", 9))

    def test_elements_first_reads_before_checking_the_count(self):
        self.assertEqual(self.out("message", "0c020f"), ("truncated", 3))
        self.assertEqual(self.out("message", "0c020f", counts="elements-first"), ("unknown_tag", 2))
        # a pure length bomb is truncated at the input length in both orders
        self.assertEqual(
            self.out("message", "0cffffffffff", counts="elements-first"), ("truncated", 6)
        )

    def test_three_element_reading(self):
        self.assertEqual(self.out("envelope", "010701650000ff00"), ("bad_envelope", 6))
        self.assertEqual(
            self.out("envelope", "010701650000ff00", envelope="three"), ("trailing_bytes", 6)
        )
        self.assertEqual(
            self.out("envelope", "010701650000ff00", envelope="ignore"),
            ["error", "e", None, ["null"]],
        )


class Behaviours(unittest.TestCase):  # spec §1.1 implementation-defined rules
    def out(self, entry, hx, **kw):
        try:
            return smcpy.decode(entry, bytes.fromhex(hx), profile=smcpy.Profile(**kw))
        except smcpy.SmcError as e:
            return e.cls, e.offset

    def test_utf8_choices(self):
        self.assertEqual(self.out("message", "0702c328"), ("bad_utf8", 2))
        self.assertEqual(self.out("message", "0702c328", utf8="keep"), ["strbytes", "c328"])
        self.assertEqual(self.out("message", "0702c328", utf8="replace"), ["str", "\ufffd("])
        self.assertEqual(self.out("message", "0702c328", utf8="null"), ["null"])
        self.assertEqual(
            self.out("call", "0702c32800", utf8="keep"), ["call", ["strbytes", "c328"], ["null"]]
        )

    def test_jdk_replacement_counts(self):
        # observed on OpenJDK 17 (new String(bytes, UTF_8)): one U+FFFD per encoded surrogate,
        # per maximal subpart elsewhere, one for an incomplete sequence at the end
        for hx, want in (
            ("eda080", "\ufffd"),
            ("eda080edb080", "\ufffd\ufffd"),
            ("61eda06162", "a\ufffdab"),
            ("e080", "\ufffd\ufffd"),
            ("c0af", "\ufffd\ufffd"),
            ("f08f8080", "\ufffd" * 4),
            ("f09f98", "\ufffd"),
            ("f09f9882", "\U0001f602"),
        ):
            self.assertEqual(smcpy.jdk_replace(bytes.fromhex(hx)), want, hx)
        self.assertEqual(self.out("message", "0703eda080", utf8="replace"), ["str", "\ufffd"])

    def test_deviations(self):  # spec §16.2 D28, D17: what profiles.DEVIATIONS name
        self.assertEqual(self.out("envelope", "020701650000"), ("bad_envelope", 0))
        self.assertEqual(
            self.out("envelope", "ff0701650000", flags="nonzero-error"),
            ["error", "e", None, ["null"]],
        )
        one_and_one_point_o = "0d020301000000070161060000000000000000000000f03f070162"
        self.assertEqual(len(self.out("message", one_and_one_point_o, dupkeys="last")[1]), 2)
        self.assertEqual(
            self.out("message", one_and_one_point_o, dupkeys="last", keyeq="dart"),
            ["map", [[["i32", 1], ["str", "b"]]]],
        )
        self.assertEqual(
            len(self.out("message", one_and_one_point_o, dupkeys="last", keyeq="glib")[1]), 2
        )

    def test_largeint_choices(self):
        self.assertEqual(self.out("message", "050430304646"), ["largeint", "00FF"])
        self.assertEqual(self.out("message", "050430304646", largeint="string"), ["str", "00FF"])
        self.assertEqual(self.out("message", "050430304646", largeint="bigint"), ["largeint", "ff"])
        self.assertEqual(self.out("message", "05027a7a", largeint="bigint"), (None, None))
        self.assertEqual(self.out("message", "050430304646", largeint="reject"), ("unknown_tag", 0))

    def test_bom_dupkeys_empty(self):
        self.assertEqual(self.out("message", "0704efbbbf61", bom="drop"), ["str", "a"])
        self.assertEqual(self.out("message", "070461efbbbf", bom="drop"), ["str", "a\ufeff"])
        dup = "0d0207016103010000000701610302000000"
        self.assertEqual(
            self.out("message", dup, dupkeys="first"), ["map", [[["str", "a"], ["i32", 1]]]]
        )
        self.assertEqual(
            self.out("message", dup, dupkeys="last"), ["map", [[["str", "a"], ["i32", 2]]]]
        )
        self.assertEqual(self.out("message", "", empty_message="null"), ["null"])
        self.assertEqual(
            self.out("envelope", "", empty_envelope="success-null"), ["success", ["null"]]
        )

    def test_strbytes_notation(self):
        smcpy.check_value(["strbytes", "ff"])
        for bad in (["strbytes", "61"], ["strbytes", ""], ["strbytes", "FF"], ["strbytes", "f"]):
            with self.assertRaises(smcpy.NotationError, msg=repr(bad)):
                smcpy.check_value(bad)
        with self.assertRaises(smcpy.SmcError) as cm:
            smcpy.encode_message(["strbytes", "ff"])
        self.assertEqual(cm.exception.cls, "not_encodable")
        with self.assertRaises(smcpy.SmcError):
            smcpy.encode_call(["call", ["strbytes", "ff"], ["null"]])


if __name__ == "__main__":
    unittest.main()
