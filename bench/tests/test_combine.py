#!/usr/bin/env python3
"""Checks bench/combine.py on synthetic rounds: medians over rounds, ratios taken inside a
round (never across rounds), instruction counts from callgrind dumps, met / missed verdicts
with their margins, the completeness check (a codec that ran must have every op C has), the
Flutter figures as context only, and that errors (and only errors) fail it."""

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rec(codec, payload, op, median, values=100, nbytes=1000, entry="message"):
    r = {
        "codec": codec,
        "payload": payload,
        "op": op,
        "bytes": nbytes,
        "values": values,
        "samples": 200,
        "median_ns": median,
        "p10_ns": median * 0.9,
        "p90_ns": median * 1.1,
    }
    if codec == "smc-c":
        r["entry"] = entry
    return r


def write(path, records):
    with open(path, "w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")


MANIFEST = {
    "payloads": [
        {"file": "b_anr_1.bin", "entry": "message", "typed": "AnrRecord"},
        {"file": "a_list1000_i32.bin", "entry": "message"},
        {"file": "d_u8s_1MiB.bin", "entry": "message"},
    ]
}


def run(tmp, rounds, extra=(), callgrind=None, instructions=None):
    """rounds: {round: {codec_prefix: [records]}}; returns (process, bench.json)."""
    raw = os.path.join(tmp, "raw")
    os.makedirs(raw, exist_ok=True)
    for name in os.listdir(raw):
        os.remove(os.path.join(raw, name))
    for rnd, codecs in rounds.items():
        for prefix, records in codecs.items():
            write(os.path.join(raw, "%s.r%d.jsonl" % (prefix, rnd)), records)
    manifest = os.path.join(tmp, "payloads.json")
    with open(manifest, "w", encoding="utf-8") as f:
        json.dump(MANIFEST, f)
    args = [
        sys.executable,
        os.path.join(HERE, "combine.py"),
        "--raw",
        raw,
        "--manifest",
        manifest,
        "--out",
        os.path.join(tmp, "out"),
    ]
    if callgrind is not None:
        cg = os.path.join(tmp, "cg")
        os.makedirs(cg, exist_ok=True)
        for i, (desc, total) in enumerate(callgrind):
            with open(os.path.join(cg, "callgrind.out.%d" % (i + 1)), "w", encoding="utf-8") as f:
                f.write(
                    "desc: Trigger: Client Request: smc-bench %s\nsummary: %d\ntotals: %d\n"
                    % (desc, total, total)
                )
        args += ["--callgrind", cg]
    if instructions is not None:
        path = os.path.join(tmp, "instructions.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            f.write(
                "".join(
                    line if isinstance(line, str) else json.dumps(line) + "\n"
                    for line in instructions
                )
            )
        args += ["--instructions", path]
    args += list(extra)
    p = subprocess.run(args, capture_output=True, text=True)
    doc = None
    path = os.path.join(tmp, "out", "bench.json")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        os.remove(path)
    return p, doc


def target(doc, tid):
    return next(t for t in doc["targets"] if t["id"] == tid)


def check_of(doc, tid, what):
    return next(c for c in target(doc, tid)["checks"] if c["what"] == what)


def c_round(scale):
    """C records of one round; `scale` slows the whole machine down (load)."""
    s = scale
    return [
        rec("smc-c", "b_anr_1.bin", "memcpy", 10 * s, values=66),
        rec("smc-c", "b_anr_1.bin", "validate", 200 * s, values=66),
        rec("smc-c", "b_anr_1.bin", "decode", 300 * s, values=66),
        rec("smc-c", "b_anr_1.bin", "decode_malloc", 480 * s, values=66),
        rec("smc-c", "b_anr_1.bin", "encode", 500 * s, values=66),
        rec("smc-c", "b_anr_1.bin", "roundtrip", 800 * s, values=66),
        rec("smc-c", "b_anr_1.bin", "typed_decode", 400 * s, values=66),
        rec("smc-c", "b_anr_1.bin", "typed_encode", 500 * s, values=66),
        rec("smc-c", "a_list1000_i32.bin", "memcpy", 40 * s),
        rec("smc-c", "a_list1000_i32.bin", "decode", 1000 * s),
        rec("smc-c", "a_list1000_i32.bin", "encode", 1000 * s),
        rec("smc-c", "a_list1000_i32.bin", "roundtrip", 2000 * s),
        rec("smc-c", "d_u8s_1MiB.bin", "memcpy", 20000 * s),
        rec("smc-c", "d_u8s_1MiB.bin", "decode", 21000 * s),
        rec("smc-c", "d_u8s_1MiB.bin", "encode", 20000 * s),
        rec("smc-c", "d_u8s_1MiB.bin", "roundtrip", 41000 * s),
    ]


def other_round(prefix, scale, anr_decode):
    codec, s = "smc-" + prefix, scale
    return [
        rec(codec, "b_anr_1.bin", "decode", anr_decode * s, values=66),
        rec(codec, "b_anr_1.bin", "encode", 600 * s, values=66),
        rec(codec, "b_anr_1.bin", "roundtrip", 1500 * s, values=66),
        rec(codec, "b_anr_1.bin", "typed_decode", 500 * s, values=66),
        rec(codec, "b_anr_1.bin", "typed_encode", 800 * s, values=66),
        rec(codec, "a_list1000_i32.bin", "decode", 1500 * s),
        rec(codec, "a_list1000_i32.bin", "encode", 1900 * s),
        rec(codec, "a_list1000_i32.bin", "roundtrip", 3400 * s),
        rec(codec, "d_u8s_1MiB.bin", "decode", 21000 * s),
        rec(codec, "d_u8s_1MiB.bin", "encode", 30000 * s),
        rec(codec, "d_u8s_1MiB.bin", "roundtrip", 51000 * s),
    ]


def main():
    failures = []

    def expect(cond, what):
        if not cond:
            failures.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        # Three rounds; round 2 runs on a machine twice as slow (load). Swift decodes b_anr_1
        # at 3x C in rounds 1 and 2 and 5x in round 3; Kotlin at 2.5x C.
        rounds = {
            1: {
                "c": c_round(1),
                "swift": other_round("swift", 1, 900),
                "kotlin": other_round("kotlin", 1, 750),
            },
            2: {
                "c": c_round(2),
                "swift": other_round("swift", 2, 900),
                "kotlin": other_round("kotlin", 2, 750),
            },
            3: {
                "c": c_round(1),
                "swift": other_round("swift", 1, 1500),
                "kotlin": other_round("kotlin", 1, 750),
            },
        }
        conf = os.path.join(tmp, "conf.json")
        with open(conf, "w") as f:
            json.dump({"seconds": 12.5, "status": 0}, f)
        p, doc = run(
            tmp,
            rounds,
            ["--conformance-time", conf],
            callgrind=[("b_anr_1.bin decode 10", 40000), ("b_anr_1.bin encode 5", 19800)],
        )
        expect(
            p.returncode == 0,
            "timing misses must not fail the run (rc %d: %s)" % (p.returncode, p.stderr),
        )
        expect(doc is not None, "bench.json written")
        if doc:
            expect(doc["rounds"] == [1, 2, 3], "three rounds read: %s" % doc["rounds"])
            row = next(
                r for r in doc["rows"] if r["payload"] == "b_anr_1.bin" and r["op"] == "decode"
            )
            # Same-round ratios 3, 3, 5 -> median 3 (a cross-round ratio would not be).
            sw = row["codecs"]["smc-swift"]["x_c"]
            expect(
                abs(sw["median"] - 3.0) < 1e-9 and abs(sw["max"] - 5.0) < 1e-9,
                "Swift x C median 3, max 5: %s" % sw,
            )
            # Swift / Kotlin, each round on its own: 900/750, 1800/1500, 1500/750 -> median
            # 1.2, range 1.2-2.0. Medians divided (1500/750) would give 2.0; rounds paired
            # wrongly (900/1500, 1800/750, ...) a range from 0.6 or to 2.4.
            sk = row["pairs"].get("smc-swift/smc-kotlin")
            expect(
                sk is not None
                and abs(sk["median"] - 1.2) < 1e-9
                and abs(sk["min"] - 1.2) < 1e-9
                and abs(sk["max"] - 2.0) < 1e-9
                and sk["rounds"] == 3,
                "Swift / Kotlin same-round median 1.2, range 1.2-2.0: %s" % sk,
            )
            with open(os.path.join(tmp, "out", "bench.md"), encoding="utf-8") as f:
                md = f.read()
            expect(
                "| Swift / Kotlin |" in md and "| 1.20x (1.20-2.00) |" in md,
                "bench.md has the Swift / Kotlin column with the same-round ratio",
            )
            expect(
                abs(row["c_ns"]["median"] - 300) < 1e-9 and row["c_ns"]["max"] == 600,
                "C median of rounds 300, 600, 300",
            )
            expect(abs(row["c_x_memcpy"]["median"] - 30.0) < 1e-9, "x memcpy from the same round")
            expect(
                abs(row["c_instructions"] - 4000) < 1e-9, "instructions per op = dump total / runs"
            )
            expect(
                abs(row["c_instructions_per_value"] - 4000 / 66) < 1e-9, "instructions per value"
            )
            enc = next(
                r for r in doc["rows"] if r["payload"] == "b_anr_1.bin" and r["op"] == "encode"
            )
            expect(abs(enc["c_instructions"] - 3960) < 1e-9, "encode instructions: 19800 / 5")
            # swift-le-kotlin: b_anr_1 decode 900 vs 750 -> 1.2x: missed, with the margin.
            c = check_of(doc, "swift-le-kotlin", "Swift vs Kotlin b_anr_1.bin decode")
            expect(
                c["met"] is False and "20% over the limit" in c["detail"],
                "Swift > Kotlin: %s" % c["detail"],
            )
            c = check_of(doc, "swift-le-kotlin", "Swift vs Kotlin b_anr_1.bin typed_decode")
            expect(c["met"] is True, "equal times meet <= 1.0")
            # generic-2x-c: Kotlin b_anr_1 decode 2.5x: missed; a_list1000 1.5x: met.
            expect(
                check_of(doc, "generic-2x-c", "Kotlin b_anr_1.bin decode")["met"] is False,
                "Kotlin 2.5x C missed",
            )
            expect(
                check_of(doc, "generic-2x-c", "Kotlin a_list1000_i32.bin decode")["met"] is True,
                "1.5x C met",
            )
            # typed-1.5x-c: typed_decode 500/400 = 1.25 met, typed_encode 800/500 = 1.6 missed.
            expect(
                check_of(doc, "typed-1.5x-c", "Swift b_anr_1.bin typed_decode")["met"] is True,
                "1.25x typed met",
            )
            expect(
                check_of(doc, "typed-1.5x-c", "Swift b_anr_1.bin typed_encode")["met"] is False,
                "1.6x typed missed",
            )
            # kotlin-typed-2x-c: Kotlin typed_encode 800/500 = 1.6: met at 2x (missed at 1.5x).
            c = check_of(doc, "kotlin-typed-2x-c", "Kotlin b_anr_1.bin typed_encode")
            expect(c["met"] is True and c["limit"] == 2.0, "Kotlin typed 1.6x C within 2x: %s" % c)
            # bulk-memcpy: decode 21000/20000 = 1.05 met (0.95 of bandwidth); encode 1.5 missed.
            d = check_of(doc, "bulk-memcpy", "Swift d_u8s_1MiB.bin decode")
            expect(
                d["met"] is True and "0.95 of memcpy bandwidth" in d["detail"],
                "bandwidth: %s" % d["detail"],
            )
            expect(
                check_of(doc, "bulk-memcpy", "Kotlin d_u8s_1MiB.bin encode")["met"] is False,
                "1.5x memcpy missed",
            )
            # arena-cold-1.5x: decode_malloc / decode = 1.6: missed.
            expect(
                check_of(doc, "arena-cold-1.5x", "b_anr_1.bin decode_malloc/decode")["met"]
                is False,
                "cold arena 1.6x",
            )
            expect(
                target(doc, "conformance-wall-time")["status"] == "missed",
                "conformance 12.5 s missed",
            )
            expect(not doc["errors"], "no errors: %s" % doc["errors"])
            expect(
                "Context, not scored" in p.stdout and "710 ns (Java)" in p.stdout,
                "Flutter figures as context",
            )
            expect("x faster than Flutter" not in p.stdout, "no score against Flutter")

        # A round whose Swift ratios straddle the limit is flagged.
        rounds3 = {
            1: {"c": c_round(1), "swift": other_round("swift", 1, 550)},
            2: {"c": c_round(1), "swift": other_round("swift", 1, 650)},
            3: {"c": c_round(1), "swift": other_round("swift", 1, 580)},
        }
        p, doc = run(tmp, rounds3)
        if doc:
            c = check_of(doc, "generic-2x-c", "Swift b_anr_1.bin decode")
            expect(
                c["met"] is True and "straddle" in c["detail"],
                "straddling rounds flagged: %s" % c["detail"],
            )
            expect(
                any(
                    t["id"] == "swift-le-kotlin" and t["checks"][0]["met"] is None
                    for t in doc["targets"]
                ),
                "Kotlin did not run: n/a, not met",
            )

        # A codec error line fails the run; so does a hole in a codec's results.
        bad = {
            1: {
                "c": c_round(1),
                "swift": other_round("swift", 1, 900)[:-1]
                + [{"codec": "smc-swift", "payload": "d_u8s_1MiB.bin", "error": "truncated @3"}],
            }
        }
        p, doc = run(tmp, bad)
        expect(p.returncode == 1, "an error line fails the run")
        expect(doc and any("truncated @3" in e for e in doc["errors"]), "error reported")
        expect(
            doc and any("no roundtrip result for d_u8s_1MiB.bin" in e for e in doc["errors"]),
            "hole reported: %s" % (doc and doc["errors"]),
        )
        no_typed = {
            1: {
                "c": c_round(1),
                "kotlin": [r for r in other_round("kotlin", 1, 750) if r["op"] != "typed_encode"],
            }
        }
        p, doc = run(tmp, no_typed)
        expect(
            p.returncode == 1
            and doc
            and any("no typed_encode result for b_anr_1.bin" in e for e in doc["errors"]),
            "a missing typed result is an error",
        )

        # Swift instruction counts (bench/callgrind_swift.sh lines): a column of instructions per
        # value and x C's instructions, and the instruction target: typed_decode 6000 / 4000 =
        # 1.5 met (the limit itself), typed_encode 6600 / 4000 = 1.65 missed.
        cg = [
            ("b_anr_1.bin decode 10", 40000),
            ("b_anr_1.bin typed_decode 5", 20000),
            ("b_anr_1.bin typed_encode 5", 20000),
        ]
        counts = [
            {
                "codec": "smc-swift",
                "payload": "b_anr_1.bin",
                "op": "typed_decode",
                "instructions": 6000,
            },
            {
                "codec": "smc-swift",
                "payload": "b_anr_1.bin",
                "op": "typed_encode",
                "instructions": 6600,
            },
            {"codec": "smc-swift", "payload": "b_anr_1.bin", "op": "decode", "instructions": 13200},
        ]
        p, doc = run(tmp, rounds, callgrind=cg, instructions=counts)
        expect(
            p.returncode == 0,
            "instruction counts run cleanly (rc %d: %s)" % (p.returncode, p.stderr),
        )
        if doc:
            row = next(
                r for r in doc["rows"] if r["payload"] == "b_anr_1.bin" and r["op"] == "decode"
            )
            i = row["instructions"].get("smc-swift")
            expect(
                i and abs(i["per_value"] - 200) < 1e-9 and abs(i["x_c"] - 3.3) < 1e-9,
                "Swift instr/value 13200/66 = 200, x C 13200/4000 = 3.3: %s" % i,
            )
            expect(
                "Swift instr/value (x C)" in p.stdout and "200.0 (3.30)" in p.stdout,
                "instruction column printed",
            )
            expect(
                check_of(doc, "typed-1.5x-c-instructions", "Swift b_anr_1.bin typed_decode")["met"]
                is True,
                "1.5x instructions met at the limit",
            )
            c = check_of(doc, "typed-1.5x-c-instructions", "Swift b_anr_1.bin typed_encode")
            expect(
                c["met"] is False and "6600 / 4000 instructions = 1.65" in c["detail"],
                "1.65x missed: %s" % c["detail"],
            )
        p, doc = run(tmp, rounds, callgrind=cg)
        expect(
            doc and target(doc, "typed-1.5x-c-instructions")["status"] == "not measured",
            "no Swift counts: the instruction target is not measured, never met",
        )
        p, doc = run(tmp, rounds, callgrind=cg, instructions=counts + ["not json\n"])
        expect(
            p.returncode == 1
            and doc
            and any("not an instruction count" in e for e in doc["errors"]),
            "a malformed instruction line is an error",
        )

        # No C results at all is an error.
        p, doc = run(tmp, {1: {"swift": other_round("swift", 1, 900)}})
        expect(p.returncode == 1, "empty C results fail")

    for f in failures:
        print("FAIL: " + f)
    print(
        "test_combine: %d checks failed" % len(failures)
        if failures
        else "test_combine: all checks passed"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
