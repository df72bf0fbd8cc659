#!/usr/bin/env python3
"""Checks bench/instr_budget.py on synthetic callgrind dumps: a count at the budget and at
exactly +10 % passes, one just above fails, a budgeted payload or op with no dump fails, a
payload without a value count fails, and the exit status follows the verdict."""

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(HERE, "instr_budget.py")

BUDGET = {
    "tolerance": 0.1,
    "callgrind_runs": 2,
    "budget": [
        {"payload": "p1.bin", "op": "decode", "instructions_per_value": 50.0},
        {"payload": "p1.bin", "op": "encode", "instructions_per_value": 40.0},
    ],
}


def dump(d, n, payload, op, runs, total):
    with open(os.path.join(d, "callgrind.out.%d" % n), "w") as f:
        f.write("desc: Trigger: Client Request: smc-bench %s %s %d\n" % (payload, op, runs))
        f.write("summary: %d\n" % total)


def run(dumps, values):
    """Exit status and output of the checker on these dumps ((payload, op, runs, total))."""
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "budget.json"), "w") as f:
            json.dump(BUDGET, f)
        with open(os.path.join(d, "index.jsonl"), "w") as f:
            for payload, v in values.items():
                f.write(json.dumps({"payload": payload, "op": "decode", "values": v}) + "\n")
        # the dump callgrind writes at exit has no client-request desc: ignored
        with open(os.path.join(d, "callgrind.out"), "w") as f:
            f.write("desc: Trigger: Program termination\nsummary: 999999999\n")
        for i, (payload, op, runs, total) in enumerate(dumps, 1):
            dump(d, i, payload, op, runs, total)
        p = subprocess.run(
            [
                sys.executable,
                SCRIPT,
                "--budget",
                os.path.join(d, "budget.json"),
                "--callgrind",
                d,
                "--index",
                os.path.join(d, "index.jsonl"),
            ],
            capture_output=True,
            text=True,
        )
        return p.returncode, p.stdout


failures = []


def expect(name, got, want_rc, want_text):
    rc, out = got
    if rc != want_rc or want_text not in out:
        failures.append("%s: exit %d (want %d), output:\n%s" % (name, rc, want_rc, out))


# 100 values, 2 runs: total = per_value * 100 * 2
at_budget = [("p1.bin", "decode", 2, 50 * 200), ("p1.bin", "encode", 2, 40 * 200)]
expect("at budget", run(at_budget, {"p1.bin": 100}), 0, "instr_budget: PASS")
at_limit = [("p1.bin", "decode", 2, 55 * 200), ("p1.bin", "encode", 2, 44 * 200)]
expect("at +10 %", run(at_limit, {"p1.bin": 100}), 0, "ok   p1.bin encode: 44.0")
above = [("p1.bin", "decode", 2, 55 * 200 + 2), ("p1.bin", "encode", 2, 40 * 200)]
expect("just above", run(above, {"p1.bin": 100}), 1, "FAIL p1.bin decode: 55.0")
expect("above: verdict", run(above, {"p1.bin": 100}), 1, "instr_budget: FAIL")
missing_op = [("p1.bin", "decode", 2, 50 * 200)]
expect("op not counted", run(missing_op, {"p1.bin": 100}), 1, "FAIL p1.bin encode: not counted")
expect("no value count", run(at_budget, {}), 1, "FAIL p1.bin decode: not counted")
other_payload = [("p2.bin", "decode", 2, 1), ("p2.bin", "encode", 2, 1)]
expect("another payload only", run(other_payload, {"p2.bin": 100}), 1, "not counted")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("test_instr_budget: PASS")
