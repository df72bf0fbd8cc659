#!/usr/bin/env python3
"""The C reference's instruction budget (issue #33): instructions per value of decode and
encode on a few payloads, counted by callgrind on a Release build, against the figures in
bench/instr_budget.json. Fails when any of them is more than `tolerance` (10 %) above its
budget, or when a budgeted payload and op was not counted at all (nothing may pass by being
absent). Instruction counts do not move with the machine's load, so unlike the time targets
of budget.json this one can fail a build.

  bench/instr_budget.py --smc build-bench/cli/smc        # run callgrind, then check (~5 s)
  bench/instr_budget.py --callgrind DIR --index FILE     # check dumps already written

The budget is the gcc -O3 (CMake Release) build of the commit that last set it; a compiler
or flag change moves the counts by itself, so update the file (with the measured figures the
check prints) in the same commit as such a change, and say why.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

from combine import read_callgrind  # the dump reader of the bench table, one for both

HERE = os.path.dirname(os.path.abspath(__file__))


def read_values(index_path):
    """{payload: values} from the JSON lines `smc bench --callgrind-runs` prints."""
    values = {}
    with open(index_path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                rec = json.loads(line)
                if "values" in rec and rec.get("values"):
                    values[rec["payload"]] = rec["values"]
    return values


def check(budget, counts, values):
    """(ok, lines): every budgeted (payload, op) present and within budget * (1 + tolerance)."""
    tol = budget["tolerance"]
    ok = True
    lines = []
    for entry in budget["budget"]:
        payload, op, limit = entry["payload"], entry["op"], entry["instructions_per_value"]
        total = counts.get((payload, op))
        if total is None or not values.get(payload):
            ok = False
            lines.append(
                "FAIL %s %s: not counted (no callgrind dump or value count)" % (payload, op)
            )
            continue
        per_value = total / values[payload]
        allowed = limit * (1 + tol)
        verdict = "ok  " if per_value <= allowed else "FAIL"
        ok = ok and per_value <= allowed
        lines.append(
            "%s %s %s: %.1f instructions per value, budget %.1f (+%d %% = %.1f), %+.1f %%"
            % (
                verdict,
                payload,
                op,
                per_value,
                limit,
                round(tol * 100),
                allowed,
                (per_value / limit - 1) * 100,
            )
        )
    return ok, lines


def run_callgrind(smc, budget, work):
    payloads = sorted({e["payload"] for e in budget["budget"]})
    ops = sorted({e["op"] for e in budget["budget"]})
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=callgrind.out",
        os.path.abspath(smc),
        "bench",
        "--callgrind-runs",
        str(budget["callgrind_runs"]),
        "--ops",
        ",".join(ops),
    ]
    for p in payloads:
        cmd += ["--payload", p]
    with (
        open(os.path.join(work, "index.jsonl"), "w") as out,
        open(os.path.join(work, "valgrind.log"), "w") as log,
    ):
        rc = subprocess.call(cmd, cwd=work, stdout=out, stderr=log)
    if rc != 0:
        sys.stderr.write(
            "instr_budget: %s failed under callgrind (exit %d); see %s\n"
            % (smc, rc, os.path.join(work, "valgrind.log"))
        )
        return False
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budget", default=os.path.join(HERE, "instr_budget.json"))
    ap.add_argument("--smc", help="a Release smc binary to count under callgrind")
    ap.add_argument("--callgrind", help="directory of dumps already written")
    ap.add_argument("--index", help="the JSON lines of that run (value counts)")
    ap.add_argument("--keep", help="with --smc: write the dumps here instead of a temp dir")
    args = ap.parse_args()
    with open(args.budget, encoding="utf-8") as f:
        budget = json.load(f)
    errors = []
    if args.smc:
        if shutil.which("valgrind") is None:
            sys.stderr.write("instr_budget: valgrind not found\n")
            return 2
        work = args.keep or tempfile.mkdtemp(prefix="smc-instr-")
        os.makedirs(work, exist_ok=True)
        if not run_callgrind(args.smc, budget, work):
            return 1  # the directory stays, for its valgrind.log
        counts = read_callgrind(work, errors)
        values = read_values(os.path.join(work, "index.jsonl"))
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    elif args.callgrind and args.index:
        counts = read_callgrind(args.callgrind, errors)
        values = read_values(args.index)
    else:
        ap.error("give --smc, or --callgrind and --index")
    ok, lines = check(budget, counts, values)
    ok = ok and not errors  # an unreadable dump of ours is a failure, not a figure left out
    print("\n".join(lines + errors))
    print("instr_budget: %s" % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
