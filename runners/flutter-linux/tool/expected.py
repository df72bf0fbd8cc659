#!/usr/bin/env python3
"""Compares the flutter-linux verdicts of a judge report with the committed expected result.

    expected.py check REPORT.json     exit 1, naming each vector, if a verdict differs
    expected.py update REPORT.json    rewrite expected.json from the report
    expected.py rows REPORT.json      one line: the spec §16.3 rows of the vectors that fail
                                      or differ, with their counts (the main job's row)

expected.json holds the verdict counts and the status of every vector that does not pass;
every vector it does not name must pass. Every vector that fails or differs must also be
cited by a row of spec §16.3 (spec_rows.py). A change in the judge, the vectors or the runner
that changes what Flutter's engine is credited with is therefore seen (test-all step
flutter-linux), whichever way it goes.

The complexity families (spec §15.4) are timed, not read from bytes: a family may be
unmeasured on a machine too loaded to time it, so their outcomes are not compared with
expected.json. Every family the engine fails must be cited by a row of §16.3 all the same.
"""

import json
import os
import sys

import spec_rows

EXPECTED = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "expected.json"
)
RUNNER = "flutter-linux"


def result_of(report_path):
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    runs = [r for r in report["runners"] if r["name"] == RUNNER]
    if len(runs) != 1 or runs[0]["state"] == "skipped" or not runs[0].get("results"):
        sys.exit(f"expected.py: {report_path} has no judged {RUNNER} runner")
    statuses = {v["id"]: v["status"] for v in runs[0]["results"]}
    counts = {}
    for s in statuses.values():
        counts[s] = counts.get(s, 0) + 1
    families = {
        f["id"]: f["outcome"] for f in (runs[0].get("complexity") or {}).get("families", [])
    }
    return (
        {
            "codec": runs[0]["codec"],
            "vectors": len(statuses),
            "counts": dict(sorted(counts.items())),
            "not_passing": {k: v for k, v in sorted(statuses.items()) if v != "pass"},
        },
        statuses,
        families,
    )


def rows_line(statuses, families=None):
    """'fail: D12 x6, D17 x2; differs: D11 x41; complexity fail: D45 x2' for the vectors that
    fail or differ and the complexity families that fail."""
    table = spec_rows.rows()
    parts = []
    for st, label, of in (
        ("fail", "fail", statuses),
        ("differs", "differs", statuses),
        ("fail", "complexity fail", families or {}),
    ):
        counts = {}
        for vid, s in of.items():
            if s == st:
                row = spec_rows.row_of(vid, table) or "not in §16.3"
                counts[row] = counts.get(row, 0) + 1
        if counts:
            parts.append(
                f"{label}: "
                + ", ".join(
                    f"{r} ×{n}"
                    for r, n in sorted(
                        counts.items(),
                        key=lambda kv: (
                            not kv[0][1:].isdigit(),
                            int(kv[0][1:]) if kv[0][1:].isdigit() else 0,
                        ),
                    )
                )
            )
    return "; ".join(parts) or "none"


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("check", "update", "rows"):
        sys.exit(__doc__)
    got, statuses, families = result_of(sys.argv[2])
    if sys.argv[1] == "rows":
        print(f"{RUNNER}: divergences (spec §16.3): {rows_line(statuses, families)}")
        return 0
    if sys.argv[1] == "update":
        with open(EXPECTED, "w", encoding="utf-8") as f:
            json.dump(got, f, indent=1, ensure_ascii=False)
            f.write("\n")
        print(f"expected.py: wrote {EXPECTED}: {got['counts']}")
        return 0
    with open(EXPECTED, encoding="utf-8") as f:
        want = json.load(f)
    diffs = []
    for vid in sorted(set(statuses) | set(want["not_passing"])):
        w = want["not_passing"].get(vid, "pass" if vid in statuses else None)
        g = statuses.get(vid)
        if w != g:
            diffs.append(f"  {vid}: expected {w or 'absent'}, got {g or 'absent'}")
    # every vector the engine fails or decodes another way is a row of spec §16.3
    table = spec_rows.rows()
    for vid, st in sorted(statuses.items()):
        if st in ("fail", "differs") and not spec_rows.row_of(vid, table):
            diffs.append(f"  {vid}: {st}, and cited by no row of spec §16.3")
    for fid, outcome in sorted(families.items()):
        if outcome == "fail" and not spec_rows.row_of(fid, table):
            diffs.append(f"  {fid}: complexity fail, and cited by no row of spec §16.3")
    if want["vectors"] != got["vectors"]:
        diffs.append(f"  vectors: expected {want['vectors']}, got {got['vectors']}")
    if diffs:
        print(
            f"expected.py: {RUNNER} verdicts differ from {EXPECTED} "
            f"({len(diffs)}; if the change is right, run: expected.py update REPORT):"
        )
        print("\n".join(diffs))
        return 1
    print(f"expected.py: {RUNNER} verdicts as expected: {got['counts']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
