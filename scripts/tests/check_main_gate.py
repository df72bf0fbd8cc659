#!/usr/bin/env python3
"""The main job's verdict line as README.md promises it (issue 27 Done-when).

    bash scripts/conformance.sh | tee LOG; python3 scripts/tests/check_main_gate.py LOG

The first GATE line of LOG is the project's (runners/flutter-linux/judge.sh prints the
judge's verdict on Flutter's engine after it). It must read `GATE PASSED`, and name each
expected-failure list of judge/expected-failures/ whose runner ran, with its path and a
count no larger than the list's entries: `(NAME: N expected failure(s) listed in
judge/expected-failures/NAME.txt)`. Which runners ran is out/conformance.json's (a runner
whose toolchain is missing is skipped, and its list is not applied).
"""

import glob
import json
import os
import re
import sys

from checks import ROOT, check, verdict


def entries(path):
    with open(path, encoding="utf-8") as f:
        return [ln for ln in (x.split("#", 1)[0].strip() for x in f) if ln]


def main():
    with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
        gates = [ln for ln in f.read().splitlines() if ln.startswith("GATE ")]
    line = gates[0] if gates else ""
    check(
        line.startswith("GATE PASSED"),
        "the main job's verdict is GATE PASSED",
        line or "no GATE line",
    )
    with open(os.path.join(ROOT, "out", "conformance.json"), encoding="utf-8") as f:
        ran = {r["name"] for r in json.load(f)["runners"] if r["state"] != "skipped"}
    lists = sorted(glob.glob(os.path.join(ROOT, "judge", "expected-failures", "*.txt")))
    for path in lists:
        name = os.path.basename(path)[: -len(".txt")]
        rel = "judge/expected-failures/%s.txt" % name
        if name not in ran:
            check(rel not in line, "%s: not run, so its list is not applied" % name, line)
            continue
        m = re.search(
            r"%s: (\d+) expected failures? listed in %s" % (re.escape(name), re.escape(rel)), line
        )
        check(
            m is not None and 1 <= int(m.group(1)) <= len(entries(path)),
            "the GATE line names %s's list, %s, and how many it excused (of %d entries)"
            % (name, rel, len(entries(path))),
            line,
        )
    return verdict("check_main_gate")


if __name__ == "__main__":
    sys.exit(main())
