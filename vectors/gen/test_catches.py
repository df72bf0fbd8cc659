"""Tests of catches.py (the `catches` field). They need the C build (the smc CLI, the mutant
runner, smc-mutants under build/); without it they are skipped, with the reason."""

import glob
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True

import catches  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))


def build_tools():
    for build in sorted(glob.glob(os.path.join(REPO, "build*"))):
        tools = (
            os.path.join(build, "cli", "smc"),
            os.path.join(build, "runners", "c", "smc-c-mutant-runner"),
            os.path.join(build, "mutants", "smc-mutants"),
        )
        if all(os.path.exists(t) for t in tools):
            return tools
    return None


TOOLS = build_tools()


@unittest.skipIf(
    TOOLS is None, "no build*/ with cli/smc, runners/c/smc-c-mutant-runner and mutants/smc-mutants"
)
class CatchesTest(unittest.TestCase):
    def test_a_bug_no_vector_catches_fails_generation(self):
        # the judge's own small test set catches only a few bugs: the rest must be named
        small = os.path.join(REPO, "judge", "tests", "vectors")
        with self.assertRaises(catches.CatchesError) as cm:
            catches.compute(small, *TOOLS)
        self.assertIn("no vector catches", str(cm.exception))
        self.assertIn("typed-list-byte-count", str(cm.exception))  # it has no typed list

    def test_a_vector_catches_the_bugs_that_fail_it(self):
        # one vector, f64 1.0 at offset 0: padding by address, by the bytes remaining and
        # uninitialised padding change it; the padding bugs that agree at offset 0 do not
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "s04-one.json"), "w", encoding="utf-8") as f:
                f.write(
                    '{"suite":"smc-conformance","format_version":1,"spec_version":"0.1",'
                    '"vectors_version":"0.2","section":"4","title":"t","vectors":[{"id":"s04.3-f64-one",'
                    '"description":"1.0","section":"4.3","tier":"required","requirements":["R4.3-1"],'
                    '"kind":"message","since":"0.1","features":["float64"],'
                    '"value":["f64","3ff0000000000000"],"canonical":"0600000000000000000000000000f03f"}]}'
                )
            try:
                found = catches.compute(tmp, *TOOLS)
            except catches.CatchesError as e:
                found = None
                msg = str(e)
            self.assertIsNone(found)  # most bugs are not caught by this one vector...
            self.assertNotIn("pad-from-remaining", msg.split("no vector catches")[1].split(":")[0])
            self.assertIn("pad-from-value", msg)  # ...and those that agree at offset 0 are named

    def test_committed_catches_are_read_back(self):
        got = catches.from_committed(os.path.join(REPO, "vectors"))
        self.assertIn("pad-from-remaining", got.get("s04.3-f64-one", []))
        self.assertNotIn("s04.1-true", got)


if __name__ == "__main__":
    unittest.main()
