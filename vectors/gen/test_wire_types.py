"""smcpy's tag constants and typed-list table against spec/wire-types.json, the one list of
the wire types every codec here checks its own against (run: python3 -m unittest
vectors/gen/test_wire_types.py)."""

import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import smcpy  # noqa: E402

with open(os.path.join(HERE, "..", "..", "spec", "wire-types.json"), encoding="utf-8") as f:
    TYPES = {t["word"]: t for t in json.load(f)["types"]}

# smcpy's name for the first (and, for bool, the last) tag of each type word.
FIRST_TAG = {
    "null": "TAG_NULL",
    "bool": "TAG_TRUE",
    "i32": "TAG_I32",
    "i64": "TAG_I64",
    "largeint": "TAG_LARGEINT",
    "f64": "TAG_F64",
    "str": "TAG_STR",
    "u8s": "TAG_U8S",
    "i32s": "TAG_I32S",
    "i64s": "TAG_I64S",
    "f64s": "TAG_F64S",
    "list": "TAG_LIST",
    "map": "TAG_MAP",
    "f32s": "TAG_F32S",
    "custom": "TAG_CUSTOM_MIN",
}
# One value of each encoded type: three elements for the typed lists.
SAMPLES = {
    "null": ["null"],
    "bool": ["bool", True],
    "i32": ["i32", 7],
    "i64": ["i64", "7"],
    "f64": ["f64", "3ff0000000000000"],
    "str": ["str", "ab"],
    "u8s": ["u8s", "0102"],
    "i32s": ["i32s", [1, 2, 3]],
    "i64s": ["i64s", ["1", "2", "3"]],
    "f64s": ["f64s", ["3ff0000000000000"] * 3],
    "f32s": ["f32s", ["3f800000"] * 3],
    "list": ["list", [["null"]]],
    "map": ["map", [[["null"], ["null"]]]],
    "custom": ["custom", 130, ["null"]],
}


def padded(offset, alignment):
    return (offset + alignment - 1) // alignment * alignment


class WireTypes(unittest.TestCase):
    def test_every_type_has_its_tag_constant(self):
        self.assertEqual(set(FIRST_TAG), set(TYPES))
        for word, t in TYPES.items():
            with self.subTest(word):
                self.assertEqual(getattr(smcpy, FIRST_TAG[word]), t["tag"])
        self.assertEqual(smcpy.TAG_FALSE, TYPES["bool"]["tag_last"])

    def test_typed_list_table(self):
        typed = {w: t for w, t in TYPES.items() if t["payload"] == "typed_list"}
        self.assertEqual(set(smcpy.TYPED_LISTS), set(typed))
        for word, t in typed.items():
            with self.subTest(word):
                tag, width, _ = smcpy.TYPED_LISTS[word]
                self.assertEqual((tag, width), (t["tag"], t["element_width"]))
                self.assertEqual(smcpy.TYPED_BY_TAG[tag][:2], (word, width))

    def test_encoder_writes_each_tag_width_and_alignment(self):
        encoded = {w for w, t in TYPES.items() if t["encoded"]}
        self.assertEqual(set(SAMPLES), encoded)
        for word, value in SAMPLES.items():
            t = TYPES[word]
            with self.subTest(word):
                data = bytes.fromhex(smcpy.encode_message(value).hex)
                self.assertTrue(t["tag"] <= data[0] <= t["tag_last"])
                if t["payload"] == "scalar":
                    self.assertEqual(len(data), padded(1, t["alignment"]) + t["scalar_width"])
                elif t["payload"] == "typed_list":  # tag, count 3, padding, elements
                    self.assertEqual(len(data), padded(2, t["alignment"]) + 3 * t["element_width"])

    def test_decoder_knows_exactly_the_listed_tags(self):
        listed = set()
        for t in TYPES.values():
            listed |= set(range(t["tag"], t["tag_last"] + 1))
        for tag in range(256):
            with self.subTest(tag="0x%02x" % tag):
                try:
                    smcpy.decode_message(bytes([tag]) + bytes(16))
                    known = True
                except smcpy.SmcError as e:
                    known = e.cls != "unknown_tag"
                self.assertEqual(known, tag in listed)


if __name__ == "__main__":
    unittest.main()
