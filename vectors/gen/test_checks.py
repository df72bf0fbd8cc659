"""Unit tests of the generator's self-checks (run: python3 -m unittest vectors/gen/test_checks.py).

Each test builds a case the way a case module does and asserts that checks.py refuses it
(or completes it as stated): derived tiers (spec §1.1), one fault under every permitted
order (errors.md §14.2), implementation-defined rules named exactly when they matter, and
computed alternative outcomes. A check that stopped working would let a wrong vector out."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True

import caselib  # noqa: E402
import checks  # noqa: E402
import requirements  # noqa: E402
from caselib import alt, notes, reject, valid  # noqa: E402

UTF8 = notes("reject", ("keeps the raw bytes", ["GLIB"]), ("replaces them", ["JAVA"]))


def complete(c):
    checks.complete_with_smcpy(c)
    return c


class Tiers(unittest.TestCase):
    def test_tier_follows_the_keywords(self):
        self.assertEqual(
            complete(valid("s07.1-t1", "x", ["list", []], requirements=("R7.1-1",)))["tier"],
            "required",
        )
        self.assertEqual(
            complete(valid("s15.1-t2", "x", ["list", []], requirements=("R15.1-2",)))["tier"],
            "recommended",
        )
        c = complete(
            reject(
                "s05.3-t3",
                "x",
                "0701ff",
                "bad_utf8",
                2,
                requirements=("R5.3-2", "R14-1"),
                notes=UTF8,
            )
        )
        self.assertEqual(c["tier"], "implementation-defined")
        self.assertEqual(c["requirements"], ["R5.3-2", "R14-1"])

    def test_hand_written_tier_that_disagrees_fails(self):
        with self.assertRaisesRegex(checks.VectorError, "tier written as required"):
            complete(
                reject(
                    "s05.3-t4",
                    "x",
                    "0701ff",
                    "bad_utf8",
                    2,
                    tier="required",
                    requirements=("R5.3-2",),
                    notes=UTF8,
                )
            )

    def test_unknown_requirement_and_bare_may_fail(self):
        with self.assertRaisesRegex(checks.VectorError, "not a requirement"):
            complete(valid("s07.1-t5", "x", ["list", []], requirements=("R7.1-99",)))
        with self.assertRaisesRegex(checks.VectorError, "cannot back a vector"):
            complete(valid("s07.4-t6", "x", ["map", []], requirements=("R7.4-1",)))

    def test_by_mode_gives_each_mode_its_tier(self):
        c = complete(
            reject(
                "s04.4-t7",
                "x",
                "05023166",
                "unknown_tag",
                0,
                modes=("strict",),
                value=["largeint", "1f"],
                notes=notes("keep", ("reads a string", ["DART"])),
                by_mode={"strict": ("R4.4-5",), "flutter": ("R4.4-2", "R4.4-4")},
            )
        )
        self.assertEqual(c["tier"], "implementation-defined")
        self.assertEqual(c["by_mode"]["strict"]["tier"], "required")
        self.assertEqual(c["by_mode"]["flutter"]["tier"], "implementation-defined")

    def test_spec_list_is_read_from_the_spec(self):
        R = requirements.get()
        self.assertIn("R5.3-2", R.impldef)
        self.assertNotIn("R8.5-1", R.impldef)
        self.assertEqual(R.family["R10.1-3"], "MUST")  # keyword from the list's lead-in


class OneFault(unittest.TestCase):
    def test_an_order_dependent_outcome_must_be_listed(self):
        with self.assertRaisesRegex(checks.VectorError, "error.alternatives must list"):
            complete(
                reject(
                    "s14.2-t8",
                    "x",
                    "0f00",
                    "bad_envelope",
                    0,
                    kind="method_call",
                    requirements=("R10.1-3",),
                )
            )
        c = complete(
            reject(
                "s14.2-t9",
                "x",
                "0f00",
                "bad_envelope",
                0,
                kind="method_call",
                requirements=("R10.1-3",),
                alternatives=[alt("unknown_tag", 0, "value-first")],
            )
        )
        self.assertEqual(
            c["error"]["alternatives"],
            [{"class": "unknown_tag", "offset": 0, "order": "value-first"}],
        )

    def test_a_wrong_listed_alternative_fails(self):
        with self.assertRaisesRegex(checks.VectorError, "error.alternatives must list"):
            complete(
                reject(
                    "s14.2-t10",
                    "x",
                    "0f00",
                    "bad_envelope",
                    0,
                    kind="method_call",
                    requirements=("R10.1-3",),
                    alternatives=[alt("unknown_tag", 0, "elements-first")],
                )
            )

    def test_a_two_fault_input_is_caught(self):
        # the name is an int32 cut short: `truncated` for a decoder that reads it first
        with self.assertRaisesRegex(checks.VectorError, "truncated"):
            complete(
                reject(
                    "s10.1-t11",
                    "x",
                    "030000",
                    "bad_envelope",
                    0,
                    kind="method_call",
                    requirements=("R10.1-3",),
                )
            )

    def test_reject_features_cover_every_order(self):
        # an elements-first decoder reads the custom tag 0x83 before the count fails
        c = complete(reject("s14.1-t12", "x", "0c0383", "truncated", 3, requirements=("R14-1",)))
        self.assertIn("custom-types", c["features"])


class Features(unittest.TestCase):
    """spec/vectors.md V.3, computed once (caselib) for the generator and for
    fuzz/differential.py's candidates."""

    def test_words_follow_the_table(self):
        f = caselib.entry_value_features
        self.assertEqual(f("message", ["i32s", []]), {"typed-lists"})  # no int32 is read
        self.assertEqual(f("message", ["i32s", [1]]), {"typed-lists", "int32"})
        self.assertEqual(f("message", ["largeint", "1\u0000"]), {"largeint"})  # not a string
        self.assertEqual(f("message", ["str", "a\u0000"]), {"embedded-nul"})
        self.assertEqual(f("message", ["i64", "5"]), {"int64", "int64-distinct"})
        self.assertEqual(
            f("envelope", ["error", "e", None, ["null"], "st"]),
            {"method-codec", "error-stacktrace"},
        )
        self.assertEqual(
            f("call", ["call", "m\u0000", ["map", [[["null"], ["null"]]] * 2]]),
            {"method-codec", "embedded-nul", "map-order", "duplicate-map-keys"},
        )


class ImplementationDefinedRules(unittest.TestCase):
    def test_an_unnamed_rule_that_changes_the_outcome_fails(self):
        with self.assertRaisesRegex(checks.VectorError, "which the vector does not name"):
            complete(reject("s05.3-t13", "x", "0701ff", "bad_utf8", 2, requirements=("R14-1",)))
        with self.assertRaisesRegex(checks.VectorError, "R5.1-3"):
            complete(valid("s05.1-t14", "x", ["str", "\ufeffa"], requirements=("R5.1-2",)))

    def test_a_named_rule_that_changes_nothing_fails(self):
        with self.assertRaisesRegex(checks.VectorError, "no behaviour R5.3-2 permits"):
            complete(
                valid("s05.1-t15", "x", ["str", "a"], requirements=("R5.1-1", "R5.3-2"), notes=UTF8)
            )

    def test_outcomes_are_computed_from_the_implementations(self):
        c = complete(
            reject(
                "s05.3-t16", "x", "0702c328", "bad_utf8", 2, requirements=("R5.3-2",), notes=UTF8
            )
        )
        outs = {tuple(a["who"]): a.get("outcome") for a in c["notes"]["alternatives"]}
        self.assertEqual(outs[("GLIB",)], {"value": ["strbytes", "c328"]})
        self.assertEqual(outs[("JAVA",)], {"value": ["str", "\ufffd("]})

    def test_an_implementation_defined_vector_needs_notes(self):
        with self.assertRaisesRegex(checks.VectorError, "need notes"):
            complete(reject("s05.3-t17", "x", "0701ff", "bad_utf8", 2, requirements=("R5.3-2",)))

    def test_a_value_never_holds_strbytes(self):
        with self.assertRaisesRegex(checks.VectorError, "strbytes"):
            complete(valid("s05.1-t18", "x", ["strbytes", "ff"], requirements=("R5.1-1",)))


if __name__ == "__main__":
    unittest.main()
