"""The shared notation cases (spec/notation-cases.json) read by smcpy's notation reader (run:
python3 -m unittest vectors/gen/test_notation_cases.py): every text reads and writes back
(notation_text) as its `canonical` text, or is rejected. Python's reader reports no offsets,
so only the rejection is checked; the C suite checks the offsets of the same cases."""

import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True

import smcpy  # noqa: E402

CASES = os.path.join(os.path.dirname(os.path.dirname(HERE)), "spec", "notation-cases.json")


class SharedNotationCases(unittest.TestCase):
    def test_every_case(self):
        with open(CASES, encoding="utf-8") as f:
            cases = json.load(f)["cases"]
        valid = 0
        for c in cases:
            with self.subTest(c["id"], text=c["text"][:80]):
                if "canonical" in c:
                    value = smcpy.read_notation(c["text"], c["entry"])
                    self.assertEqual(smcpy.notation_text(value), c["canonical"])
                    valid += 1
                else:
                    with self.assertRaises(smcpy.NotationError):
                        smcpy.read_notation(c["text"], c["entry"])
        print(
            "\n%d notation cases (%d valid, %d rejected), none skipped"
            % (len(cases), valid, len(cases) - valid),
            file=sys.stderr,
        )
        self.assertGreater(len(cases), 100)


if __name__ == "__main__":
    unittest.main()
