"""Tests of the flutter-linux tools that need no engine: the §16.3 table reader, the expected
result check and the Dart version scan (python3 -m unittest discover -s runners/flutter-linux/tool)."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

import engine
import spec_rows

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(os.path.dirname(HERE), "expected.json")


def report(statuses, families=None):
    """A judge report holding one flutter-linux runner with these vector statuses (and these
    complexity family outcomes)."""
    return {
        "runners": [
            {
                "name": "flutter-linux",
                "state": "ran",
                "codec": {},
                "results": [{"id": k, "status": v} for k, v in statuses.items()],
                "complexity": {
                    "families": [{"id": k, "outcome": v} for k, v in (families or {}).items()]
                },
            }
        ]
    }


class SpecRows(unittest.TestCase):
    def test_every_row_is_a_divergence_of_16_2(self):
        with open(spec_rows.SPEC, encoding="utf-8") as f:
            spec = f.read()
        rows = spec_rows.rows()
        self.assertGreaterEqual(len(rows), 6)
        for row, ids, _, _ in rows:
            self.assertIn(f"\n| {row} |", spec[: spec.index("### 16.3 ")], row)
            self.assertTrue(ids, row)

    def test_exact_ids_and_prefixes(self):
        table = [("D1", ["s01-a", "s02-b*"], "", "")]
        self.assertEqual(spec_rows.row_of("s01-a", table), "D1")
        self.assertEqual(spec_rows.row_of("s02-bcd", table), "D1")
        self.assertIsNone(spec_rows.row_of("s01-ab", table))
        self.assertIsNone(spec_rows.row_of("s03-b", table))


class Expected(unittest.TestCase):
    def check(self, statuses, families=None):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(report(statuses, families), f)
        try:
            return subprocess.run(
                [sys.executable, os.path.join(HERE, "expected.py"), "check", f.name],
                capture_output=True,
                text=True,
            )
        finally:
            os.unlink(f.name)

    def committed(self):
        with open(EXPECTED, encoding="utf-8") as f:
            want = json.load(f)
        # the vectors that pass are the ones expected.json does not name: invent their ids
        statuses = dict(want["not_passing"])
        for i in range(want["vectors"] - len(statuses)):
            statuses[f"s99-pass-{i}"] = "pass"
        return statuses

    def test_the_committed_result_checks(self):
        # only the passing ids are invented, so only a count can differ: none does
        r = self.check(self.committed())
        self.assertEqual(r.returncode, 0, r.stdout)

    def test_a_changed_verdict_is_named(self):
        statuses = self.committed()
        vid = next(k for k, v in statuses.items() if v == "fail")
        statuses[vid] = "pass"
        r = self.check(statuses)
        self.assertEqual(r.returncode, 1)
        self.assertIn(f"{vid}: expected fail, got pass", r.stdout)

    def test_an_uncited_failure_is_named(self):
        statuses = self.committed()
        statuses["s99-pass-0"] = "fail"
        r = self.check(statuses)
        self.assertEqual(r.returncode, 1)
        self.assertIn("s99-pass-0: fail, and cited by no row of spec §16.3", r.stdout)

    def test_complexity_failures_are_cited_not_compared(self):
        # the two map families GLIB fails are §16.3's (D45); a timed outcome is never compared
        # with expected.json, so a family that passes or goes unmeasured is no difference
        cited = {"c15-map-distinct-keys": "fail", "c15-map-java-colliding-keys": "fail"}
        r = self.check(self.committed(), dict(cited, **{"c15-long-string": "unmeasured"}))
        self.assertEqual(r.returncode, 0, r.stdout)
        r = self.check(self.committed(), {"c15-map-distinct-keys": "pass"})
        self.assertEqual(r.returncode, 0, r.stdout)

    def test_an_uncited_complexity_failure_is_named(self):
        r = self.check(self.committed(), {"c15-long-string": "fail"})
        self.assertEqual(r.returncode, 1)
        self.assertIn(
            "c15-long-string: complexity fail, and cited by no row of spec §16.3", r.stdout
        )


class RowsLine(unittest.TestCase):
    def test_counts_by_row_and_verdict(self):
        import expected

        line = expected.rows_line(
            {
                "s05.2-nul-only": "fail",
                "s05.2-nul-end": "fail",
                "s09.2-empty-message": "differs",
                "s99-x": "fail",
                "s02.1-a": "pass",
            }
        )
        self.assertEqual(line, "fail: D12 ×2, not in §16.3 ×1; differs: D25 ×1")

    def test_complexity_failures_by_row(self):
        import expected

        line = expected.rows_line(
            {"s02.1-a": "pass"},
            {"c15-map-distinct-keys": "fail", "c15-long-string": "pass", "c15-x": "fail"},
        )
        self.assertEqual(line, "complexity fail: D45 ×1, not in §16.3 ×1")


class DartVersion(unittest.TestCase):
    def test_the_version_string_of_the_vm(self):
        with tempfile.NamedTemporaryFile("wb", delete=False) as f:
            f.write(
                b"\x7fELF\x00junk\x003.10.7 (stable) (Tue Dec 23 00:01:57 2025 -0800) on "
                b'"linux_x64"\x00more'
            )
        try:
            self.assertEqual(engine.dart_version(f.name), "3.10.7 (stable)")
        finally:
            os.unlink(f.name)

    def test_no_version(self):
        with tempfile.NamedTemporaryFile("wb", delete=False) as f:
            f.write(b"\x00nothing here\x00")
        try:
            self.assertEqual(engine.dart_version(f.name), "unknown")
        finally:
            os.unlink(f.name)


if __name__ == "__main__":
    unittest.main()
