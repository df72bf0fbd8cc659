#!/usr/bin/env python3
"""A kit's unclassified rejections judged end to end (issue 25, spec §1.4 R1.4-15).

    python3 scripts/tests/judged_rejections.py --kit dart --smc SMC -- COMMAND...

COMMAND starts the kit's scripted plug-in (as for kit_cases.py). Per behaviour of BEHAVIOURS,
the plug-in decodes with the kit's own codec except that an input that codec finds truncated
fails with the platform exception named there. The judge, on the truncated inputs of
GLib's tests (TRUNCATED), must then see what spec §1.4 decides for that platform: a rejection
without a class, which passes --gate required and fails --gate recommended, counted apart
from failures and grouped by the exception's kind. The kit cases check the kit's answer; this
checks the verdict a codec author gets from it.
"""

import argparse
import fnmatch
import json
import os
import subprocess
import sys
import tempfile

from checks import ROOT, check, verdict

# the truncated inputs, and values that must decode: a run that passes no vector of the
# mandatory core claims nothing (R1.4-17), so --gate required needs some passes
TRUNCATED = "s14.1-glib-truncated-*"
VALID = "s04.1-*"
# behaviour: the kind the kit must report (spec §1.4's row for the platform: Dart's message
# handler catches anything thrown, StackOverflowError included)
BEHAVIOURS = {
    "dart": {
        "short-input-range-error": "RangeError",
        "short-input-stack-overflow": "StackOverflowError",
    },
}


def judge(smc, cmd, behaviour, gate, tmp):
    report = os.path.join(tmp, "%s-%s.json" % (behaviour, gate))
    env = dict(
        os.environ, SMC_PLUGIN_BEHAVIOUR=behaviour, SMC_PLUGIN_OPTIONS="", SMC_PLUGIN_HOSTS=""
    )
    r = subprocess.run(
        [
            smc,
            "conformance",
            "--vectors",
            os.path.join(ROOT, "vectors"),
            "--only",
            TRUNCATED,
            "--only",
            VALID,
        ]
        # a VM that compiles the plug-in from source on a loaded machine starts slowly
        + ["--no-complexity", "--start-timeout", "600", "--gate", gate, "--json", report]
        + ["--runner", "plugin=" + " ".join(cmd)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        universal_newlines=True,
        timeout=900,
    )
    with open(report, encoding="utf-8") as f:
        return r, json.load(f)["runners"][0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kit", required=True, choices=sorted(BEHAVIOURS))
    ap.add_argument("--smc", required=True)
    ap.add_argument("command", nargs="+")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for behaviour, kind in BEHAVIOURS[a.kit].items():
            r, run = judge(a.smc, a.command, behaviour, "required", tmp)
            c = run["counts"]
            n = sum(fnmatch.fnmatch(v["id"], TRUNCATED) for v in run["results"])
            passed = sum(v["status"] == "pass" for v in run["results"])
            kinds = [(k["kind"], k["count"]) for k in run["kinds"]["unclassified"]]
            check(
                r.returncode == 0
                and n > 0
                and c.get("unclassified_ungated") == n
                and c.get("fail") == 0
                and passed == len(run["results"]) - n > 0
                and kinds == [(kind, n)],
                "%s kit, %s: all %d truncated inputs are unclassified rejections of kind %s, "
                "counted apart, and pass --gate required" % (a.kit, behaviour, n, kind),
                "exit %d, counts %s, kinds %s\n%s" % (r.returncode, c, kinds, r.stdout[-2000:]),
            )
            r, run = judge(a.smc, a.command, behaviour, "recommended", tmp)
            check(
                r.returncode == 1 and run["counts"].get("unclassified") == n,
                "%s kit, %s: ... and fail --gate recommended (R1.4-15, a SHOULD)"
                % (a.kit, behaviour),
                "exit %d, counts %s\n%s" % (r.returncode, run["counts"], r.stdout[-2000:]),
            )
    return verdict("judged_rejections " + a.kit)


if __name__ == "__main__":
    sys.exit(main())
