#!/usr/bin/env python3
"""Checks the C typed-record benchmark (bench/bench_typed.c) through `smc bench`: a record
payload decodes into the structs both ways (tree and reader) and encodes back to its bytes;
a field of the wrong wire type, a record with fewer fields than the struct, and a payload
that is not a record are each reported (exit 1, a message), never timed as if they worked.
Usage: test_bench_typed.py SMC_BINARY"""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PAYLOADS = os.path.join(os.path.dirname(HERE), "payloads")
OPS = "typed_decode,typed_decode_reader,typed_encode"


def bench(smc, data, tmp, name):
    path = os.path.join(tmp, name)
    with open(path, "wb") as f:
        f.write(data)
    p = subprocess.run(
        [
            smc,
            "bench",
            "--json",
            "--samples",
            "1",
            "--warmup-ms",
            "0",
            "--min-sample-us",
            "0",
            "--ops",
            OPS,
            path,
        ],
        capture_output=True,
        text=True,
    )
    return p.returncode, p.stdout, p.stderr


def main():
    smc = sys.argv[1]
    failures = []

    def expect(cond, what):
        if not cond:
            failures.append(what)

    with open(os.path.join(PAYLOADS, "b_anr_1.bin"), "rb") as f:
        record = f.read()
    with open(os.path.join(PAYLOADS, "c_latlng_1000.bin"), "rb") as f:
        points = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in (("record.bin", record), ("points.bin", points)):
            rc, out, err = bench(smc, data, tmp, name)
            expect(rc == 0, "%s: exit %d (%s)" % (name, rc, err.strip()))
            for op in OPS.split(","):
                expect('"op":"%s"' % op in out, "%s: %s was timed" % (name, op))
        # Field 2 (an int32, 03 2a000000) replaced by a string of the same length (07 03 "abc"):
        # valid bytes at the same offsets, the wrong type for the struct.
        assert record[5:10] == bytes.fromhex("032a000000")
        wrong = record[:5] + bytes.fromhex("0703616263") + record[10:]
        rc, out, err = bench(smc, wrong, tmp, "wrong.bin")
        expect(
            rc == 1 and "typed decode failed" in err, "wrong type: exit %d, %s" % (rc, err.strip())
        )
        expect('"op":"typed_decode"' not in out, "a failed typed decode is not timed")
        # 30 fields instead of 31 (the last, a list of lists, dropped): decodes, the last field
        # stays null, and the re-encoding (31 fields) differs from the input.
        tail = bytes.fromhex("0c020c02030100000003020000000c010303000000")
        assert record.endswith(tail)
        short = record[:2] + bytes([30]) + record[3 : -len(tail)]
        rc, out, err = bench(smc, short, tmp, "short.bin")
        expect(
            rc == 1 and "differs from the input" in err,
            "30 fields: exit %d, %s" % (rc, err.strip()),
        )
        # A list of int32 is not a record payload: the typed ops do not apply (not an error).
        rc, out, err = bench(smc, bytes([0x0C, 1, 0x03, 7, 0, 0, 0]), tmp, "ints.bin")
        expect(
            rc == 0 and '"op":"typed' not in out, "non-record payload: no typed rows (exit %d)" % rc
        )

    for f in failures:
        print("FAIL: " + f)
    print(
        "test_bench_typed: %d checks failed" % len(failures)
        if failures
        else "test_bench_typed: all checks passed"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
