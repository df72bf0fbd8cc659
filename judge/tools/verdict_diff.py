#!/usr/bin/env python3
"""Compare the verdicts of two JSON reports of `smc conformance` (judge/report.schema.json):
every (runner, vector) status and reason, every check's outcome and reason, each runner's
counts and the gate. A change to how the judge is built (statuses as data, one report model)
must leave all of them as they were; this says which differ.

usage: verdict_diff.py BEFORE.json AFTER.json   (exit 0: identical verdicts, 1: differences)
"""

import json
import sys


def verdicts(path):
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    out = {"gate": report.get("gate")}
    for run in report.get("runners", []):
        name = run.get("name")
        out[(name, "counts")] = (
            run.get("state"),
            run.get("counts"),
            run.get("summary"),
            run.get("unsupported"),
            run.get("xfail"),
        )
        for res in run.get("results", []):
            key = (name, res.get("id"))
            out[key] = (
                res.get("status"),
                res.get("reason"),
                tuple(
                    (
                        c.get("direction"),
                        c.get("mode"),
                        c.get("placed"),
                        c.get("outcome"),
                        c.get("reason"),
                    )
                    for c in res.get("checks", [])
                ),
            )
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    before, after = verdicts(sys.argv[1]), verdicts(sys.argv[2])
    diffs = [k for k in sorted(set(before) | set(after), key=str) if before.get(k) != after.get(k)]
    for k in diffs[:40]:
        print("differs: %s\n  before: %s\n  after:  %s" % (k, before.get(k), after.get(k)))
    n = sum(1 for k in before if isinstance(k, tuple) and k[1] != "counts")
    print(
        "%d of %d (runner, vector) verdicts differ; gate %s"
        % (len(diffs), n, "same" if before["gate"] == after["gate"] else "DIFFERS")
    )
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
