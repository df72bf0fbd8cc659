#!/usr/bin/env python3
"""Combine the benchmark rounds of every codec into one table and check the targets.

Reads the JSON lines each bench printed (bench/README.md "Output fields"), one file per codec
and round, named CODEC.rN.jsonl (c.r1.jsonl, swift.r2.jsonl, kotlin.r1.jsonl, dart.r1.jsonl,
...; the codec id is "smc-" + CODEC). Every figure is a median of round medians, and every
ratio is taken inside one round (codec / C on the same payload and op, op / C's memcpy of the
same bytes) before its median and range over the rounds are reported: figures measured in
different rounds, or elsewhere, are never divided by each other. Instruction counts of the C
reference (callgrind dumps of `smc bench --callgrind-runs N`) are printed beside its times as
the figure that does not move with machine load. Targets come from bench/budget.json; the
Flutter figures there are printed as context, with their machine and date, and not scored.

Writes out/bench.json (everything) and out/bench.md. Timing never makes this fail: the exit
status is 1 only for errors (a codec reported an error, a codec that ran lacks a result the
C bench has, no C results), else 0. Python 3 standard library only.
"""

import argparse
import datetime
import glob
import json
import os
import platform
import re
import statistics
import sys

OP_ORDER = [
    "validate",
    "decode",
    "decode_alias",
    "decode_malloc",
    "encode",
    "encode_malloc",
    "roundtrip",
    "typed_decode",
    "typed_decode_reader",
    "typed_encode",
]
# The ops every other codec measures, and on which payloads.
GENERIC_OPS = ["decode", "encode", "roundtrip"]
TYPED_OPS = ["typed_decode", "typed_encode"]
KNOWN_CODECS = {
    "smc-c": "C",
    "smc-swift": "Swift",
    "smc-swift-flat": "Swift flat",
    "smc-kotlin": "Kotlin",
    "smc-kotlin-flat": "Kotlin flat",
    "smc-dart": "Dart",
}
# Notes printed when the codec is in the run.
CODEC_NOTES = {
    "smc-swift-flat": "Swift flat / Kotlin flat = the generic ops over the flat form (SMCNode / FlatCodec: the "
    "message's nodes in one array and one copy of its bytes, values built on access); Swift = "
    "the value model SMCValue, Kotlin = host values (ArrayList, boxed numbers), and both the typed records.",
    "smc-dart": "Dart = the pure-Dart codec (runners/dart) on the Dart VM found by runners/dart/tool/dart-vm.sh; "
    "on this project's machine the 32-bit JIT VM of Dart 2.16.2, which boxes 64-bit ints: "
    "not a measure of Dart AOT on 64-bit devices.",
}
# Same-round time ratios between two codecs other than C, given a column when both ran: the
# issue-33 question "is Swift at least as fast as Kotlin?" answered per payload and op, as the
# swift-le-kotlin target scores it (numerator / denominator, each round on its own).
CODEC_PAIRS = [("smc-swift", "smc-kotlin"), ("smc-swift-flat", "smc-kotlin-flat")]
# Diagnostic runs of a codec in a changed environment (bench/run.sh).
DIAGNOSTIC_LABELS = {"smc-swift-glibc-kept": "Swift, glibc heap kept"}


def label(codec):
    return KNOWN_CODECS.get(codec) or DIAGNOSTIC_LABELS.get(codec) or codec


def codec_order(codecs):
    known = [c for c in KNOWN_CODECS if c in codecs]
    return known + sorted(c for c in codecs if c not in KNOWN_CODECS)


def read_rounds(raw_dir, errors):
    """{codec: {round: {(payload, op): record}}} from CODEC.rN.jsonl files."""
    results = {}
    for path in sorted(glob.glob(os.path.join(raw_dir, "*.r*.jsonl"))):
        m = re.match(r"(.+)\.r(\d+)\.jsonl$", os.path.basename(path))
        if not m:
            continue
        codec, rnd = "smc-" + m.group(1), int(m.group(2))
        recs = results.setdefault(codec, {}).setdefault(rnd, {})
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line.startswith("{"):
                    continue
                try:
                    rec = json.loads(line)
                except ValueError as e:
                    errors.append("%s:%d: not JSON (%s)" % (path, n, e))
                    continue
                if "error" in rec:
                    errors.append(
                        "%s: %s: %s" % (label(codec), rec.get("payload", "?"), rec["error"])
                    )
                elif "op" in rec and "payload" in rec and "median_ns" in rec:
                    recs[(rec["payload"], rec["op"])] = rec
    return results


def read_callgrind(cg_dir, errors):
    """{(payload, op): instructions per op} from callgrind dumps with "smc-bench P OP N" descs."""
    counts = {}
    if not cg_dir or not os.path.isdir(cg_dir):
        return counts
    for path in sorted(glob.glob(os.path.join(cg_dir, "callgrind.out*"))):
        desc, total = None, None
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("desc: Trigger: Client Request: smc-bench "):
                    desc = line.split("smc-bench ", 1)[1].split()
                elif line.startswith("totals:") or (total is None and line.startswith("summary:")):
                    total = int(line.split()[1])
        if desc is None:
            continue  # the dump callgrind writes at exit
        if len(desc) != 3 or total is None:
            errors.append("%s: unreadable callgrind dump" % path)
            continue
        payload, op, runs = desc[0], desc[1], int(desc[2])
        counts[(payload, op)] = total / runs
    return counts


def read_codec_instructions(paths, errors):
    """{(codec, payload, op): instructions per op} from JSON lines of bench/callgrind_swift.sh
    (the other codecs' counterpart of the C dumps above)."""
    counts = {}
    for path in paths:
        if not os.path.exists(path):
            errors.append("%s: no such instruction-count file" % path)
            continue
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                    counts[(rec["codec"], rec["payload"], rec["op"])] = float(rec["instructions"])
                except (ValueError, KeyError, TypeError) as e:
                    errors.append("%s:%d: not an instruction count (%s)" % (path, n, e))
    return counts


def instr_codecs(instructions):
    """The codecs with instruction counts, in table order."""
    return codec_order({codec for codec, _, _ in instructions})


def median(xs):
    return statistics.median(xs) if xs else None


def summary(xs):
    """Median and range of per-round figures (None when there are none)."""
    if not xs:
        return None
    return {"median": median(xs), "min": min(xs), "max": max(xs), "rounds": len(xs)}


def fmt_ns(ns):
    if ns is None:
        return "-"
    if ns >= 1e6:
        return "%.2f ms" % (ns / 1e6)
    if ns >= 1e4:
        return "%.1f us" % (ns / 1e3)
    if ns >= 1e3:
        return "%.2f us" % (ns / 1e3)
    return "%.0f ns" % ns


def fmt_spread(s):
    """'±N%' half the range of the round medians, relative to their median."""
    if s is None or s["rounds"] < 2 or not s["median"]:
        return ""
    return " ±%.0f%%" % (50.0 * (s["max"] - s["min"]) / s["median"])


def fmt_ratio(s):
    if s is None:
        return "-"
    text = "%.2fx" % s["median"]
    if s["rounds"] >= 2:
        text += " (%.2f-%.2f)" % (s["min"], s["max"])
    return text


def machine_info():
    model = "?"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": model,
        "cpus": os.cpu_count(),
        "os": platform.platform(),
        "python": platform.python_version(),
    }


class Run:
    """All rounds of all codecs, with same-round ratios."""

    def __init__(self, results):
        self.results = results
        self.rounds = sorted(results.get("smc-c", {}))

    def rec(self, codec, rnd, payload, op):
        return self.results.get(codec, {}).get(rnd, {}).get((payload, op))

    def ns(self, codec, rnd, payload, op):
        r = self.rec(codec, rnd, payload, op)
        return r["median_ns"] if r else None

    def times(self, codec, payload, op):
        return summary(
            [
                t
                for t in (self.ns(codec, r, payload, op) for r in self.rounds_of(codec))
                if t is not None
            ]
        )

    def rounds_of(self, codec):
        return sorted(self.results.get(codec, {}))

    def ratio(self, num, den, payload, op, den_op=None, den_payload=None):
        """Per-round num/den (same round), summarised; None if no round has both."""
        xs = []
        for r in self.rounds_of(num):
            a = self.ns(num, r, payload, op)
            b = self.ns(den, r, den_payload or payload, den_op or op)
            if a is not None and b:
                xs.append(a / b)
        return summary(xs)

    def c_payload_ops(self):
        seen = {}
        for rnd in self.rounds:
            for (p, op), rec in self.results["smc-c"][rnd].items():
                seen.setdefault(p, set()).add(op)
                seen[p + "#entry"] = rec.get("entry", "message")
        return seen


def codec_pairs(codecs):
    """The pairs of CODEC_PAIRS whose two codecs both ran."""
    return [(a, b) for a, b in CODEC_PAIRS if a in codecs and b in codecs]


def pair_key(pair):
    return "%s/%s" % pair


def build_rows(run, manifest_order, callgrind, codecs, instructions=None):
    instructions = instructions or {}
    seen = run.c_payload_ops()
    payloads = [p for p in manifest_order if p in seen]
    payloads += sorted(p for p in seen if "#" not in p and p not in payloads)
    rows = []
    for p in payloads:
        for op in OP_ORDER:
            if op not in seen[p]:
                continue
            c = run.times("smc-c", p, op)
            rec = next(run.rec("smc-c", r, p, op) for r in run.rounds if run.rec("smc-c", r, p, op))
            values = rec["values"]
            instr = callgrind.get((p, op))
            row = {
                "payload": p,
                "op": op,
                "entry": seen[p + "#entry"],
                "bytes": rec["bytes"],
                "values": values,
                "c_ns": c,
                "memcpy_ns": run.times("smc-c", p, "memcpy"),
                "c_x_memcpy": run.ratio("smc-c", "smc-c", p, op, den_op="memcpy"),
                "c_instructions": instr,
                "c_instructions_per_value": instr / values if instr and values else None,
                "codecs": {},
                "instructions": {},
                "pairs": {},
            }
            for pair in codec_pairs(codecs):
                row["pairs"][pair_key(pair)] = run.ratio(pair[0], pair[1], p, op)
            for codec in instr_codecs(instructions):
                n = instructions.get((codec, p, op))
                if n is not None:
                    row["instructions"][codec] = {
                        "instructions": n,
                        "per_value": n / values if values else None,
                        "x_c": n / instr if instr else None,
                    }
            for codec in codecs[1:]:
                row["codecs"][codec] = {
                    "ns": run.times(codec, p, op),
                    "x_c": run.ratio(codec, "smc-c", p, op),
                    "x_memcpy": run.ratio(codec, "smc-c", p, op, den_op="memcpy"),
                }
            rows.append(row)
    return rows


def table_lines(rows, codecs, skipped):
    icodecs = codec_order({c for r in rows for c in r["instructions"]})
    head = ["payload", "op", "C median", "C instr/value"]
    head += [label(c) + " instr/value (x C)" for c in icodecs]
    head += ["x memcpy"] + [label(c) + " (x C)" for c in codecs[1:]]
    pairs = codec_pairs(codecs)
    head += ["%s / %s" % (label(a), label(b)) for a, b in pairs]
    body, last = [], None
    for r in rows:
        c = r["c_ns"]
        cells = [
            r["payload"] if r["payload"] != last else "",
            r["op"],
            fmt_ns(c["median"] if c else None) + fmt_spread(c),
            "%.1f" % r["c_instructions_per_value"] if r["c_instructions_per_value"] else "-",
        ]
        for codec in icodecs:
            i = r.get("instructions", {}).get(codec)
            cells.append(
                "-"
                if i is None or i["per_value"] is None
                else "%.1f (%s)" % (i["per_value"], "%.2f" % i["x_c"] if i["x_c"] else "-")
            )
        cells.append("%.2f" % r["c_x_memcpy"]["median"] if r["c_x_memcpy"] else "-")
        last = r["payload"]
        for codec in codecs[1:]:
            o = r["codecs"][codec]
            if o["ns"] is None:
                cells.append("-")
            else:
                cells.append("%s (%s)" % (fmt_ns(o["ns"]["median"]), fmt_ratio(o["x_c"])))
        for pair in pairs:
            cells.append(fmt_ratio(r["pairs"].get(pair_key(pair))))
        body.append(cells)
    return head, body


def render_text(head, body):
    widths = [max([len(h)] + [len(b[i]) for b in body]) for i, h in enumerate(head)]
    out = ["  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip()]
    out.append("  ".join("-" * w for w in widths))
    for b in body:
        out.append("  ".join(c.ljust(w) for c, w in zip(b, widths, strict=True)).rstrip())
    return out


def render_md(head, body):
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for b in body:
        out.append("| " + " | ".join(c.replace("|", "\\|") for c in b) + " |")
    return out


def payload_set(spec, budget, run, manifest):
    """A target's payload list: a list, the name of a list in the budget, "typed" (the
    manifest's record payloads) or "*" (every payload C measured)."""
    if spec == "typed":
        wanted = [m["file"] for m in manifest if m.get("typed")]
    elif spec == "*":
        wanted = [m["file"] for m in manifest]
    else:
        wanted = spec if isinstance(spec, list) else budget[spec]
    # A run on a subset of the payloads (--payload) checks the ones it measured.
    measured = run.c_payload_ops()
    return [p for p in wanted if p in measured]


def check(what, s, limit, unit_text):
    """One verdict from a per-round summary `s` against `limit` (met when the median is)."""
    if s is None:
        return {"what": what, "met": None, "detail": "not measured"}
    met = s["median"] <= limit
    detail = unit_text(s)
    if s["rounds"] >= 2 and s["min"] <= limit < s["max"]:
        detail += "; the rounds straddle the limit"
    if not met:
        detail += "; %.0f%% over the limit" % (100 * (s["median"] / limit - 1))
    return {
        "what": what,
        "value": s["median"],
        "min": s["min"],
        "max": s["max"],
        "limit": limit,
        "met": met,
        "detail": detail,
    }


def evaluate_targets(budget, run, manifest, extra):
    outcomes = []
    for t in budget["targets"]:
        checks, kind = [], t["kind"]
        if kind == "codec_ratio":
            if "pairs" in t:
                pairs = [tuple(p) for p in t["pairs"]]
            else:
                nums = t["numerator"] if isinstance(t["numerator"], list) else [t["numerator"]]
                pairs = [(num, t["denominator"]) for num in nums]
            for num, den in pairs:
                missing = [c for c in (num, den) if c not in run.results]
                if missing:
                    checks.append(
                        {
                            "what": label(num),
                            "met": None,
                            "detail": "%s did not run" % " and ".join(label(c) for c in missing),
                        }
                    )
                    continue
                for p in payload_set(t["payloads"], budget, run, manifest):
                    for op in t["ops"]:
                        s = run.ratio(num, den, p, op)
                        if s is None and t["payloads"] == "*":
                            continue  # an op that does not apply to this payload
                        what = (
                            "%s %s %s" % (label(num), p, op)
                            if "pairs" not in t
                            else "%s vs %s %s %s" % (label(num), label(den), p, op)
                        )
                        checks.append(
                            check(
                                what,
                                s,
                                t["max"],
                                lambda s, num=num, den=den: (
                                    "%s / %s = %s" % (label(num), label(den), fmt_ratio(s))
                                ),
                            )
                        )
        elif kind == "instr_ratio":
            # Instruction counts (callgrind; one figure per payload and op, no rounds).
            instructions = extra.get("instructions", {})
            cg = extra.get("callgrind", {})
            for num in t["numerator"]:
                if not any(c == num for c, _, _ in instructions) or not cg:
                    checks.append(
                        {
                            "what": label(num),
                            "met": None,
                            "detail": "no instruction counts of %s and C in this run" % label(num),
                        }
                    )
                    continue
                for p in payload_set(t["payloads"], budget, run, manifest):
                    for op in t["ops"]:
                        a, b = instructions.get((num, p, op)), cg.get((p, op))
                        s = (
                            {"median": a / b, "min": a / b, "max": a / b, "rounds": 1}
                            if a and b
                            else None
                        )
                        checks.append(
                            check(
                                "%s %s %s" % (label(num), p, op),
                                s,
                                t["max"],
                                lambda s, a=a, b=b: (
                                    "%.0f / %.0f instructions = %.2f" % (a, b, s["median"])
                                ),
                            )
                        )
        elif kind == "x_memcpy":
            for codec in t["codecs"]:
                if codec not in run.results:
                    checks.append(
                        {
                            "what": label(codec),
                            "met": None,
                            "detail": "%s did not run" % label(codec),
                        }
                    )
                    continue
                for p in payload_set(t["payloads"], budget, run, manifest):
                    for op in t["ops"]:
                        s = run.ratio(codec, "smc-c", p, op, den_op="memcpy")
                        checks.append(
                            check(
                                "%s %s %s" % (label(codec), p, op),
                                s,
                                t["max"],
                                lambda s: (
                                    "%.2f of memcpy bandwidth (x memcpy %s)"
                                    % (1 / s["median"], fmt_ratio(s))
                                ),
                            )
                        )
        elif kind == "payload_ratio":
            measured = run.c_payload_ops()
            for big, small in t["pairs"]:
                if big not in measured or small not in measured:
                    continue  # not in this run (--payload)
                s = run.ratio(t["codec"], t["codec"], big, t["op"], den_payload=small)
                checks.append(
                    check(
                        "%s: %s vs %s" % (t["op"], big, small), s, t["max"], lambda s: fmt_ratio(s)
                    )
                )
        elif kind == "op_ratio":
            for p in payload_set(t["payloads"], budget, run, manifest):
                s = run.ratio(t["codec"], t["codec"], p, t["numerator"], den_op=t["denominator"])
                if s is None and t["payloads"] == "*":
                    continue
                checks.append(
                    check(
                        "%s %s/%s" % (p, t["numerator"], t["denominator"]),
                        s,
                        t["max"],
                        lambda s: fmt_ratio(s),
                    )
                )
        elif kind == "max_wall_seconds":
            m = extra.get(t["measurement"])
            if m is None:
                checks.append(
                    {
                        "what": t["measurement"],
                        "met": None,
                        "detail": "not measured in this run (bench/run.sh --conformance)",
                    }
                )
            elif m.get("status", 0) != 0:
                checks.append(
                    {
                        "what": t["measurement"],
                        "met": None,
                        "value": m["seconds"],
                        "detail": "%.1f s, but the run exited with status %s"
                        % (m["seconds"], m["status"]),
                    }
                )
            else:
                checks.append(
                    {
                        "what": t["measurement"],
                        "value": m["seconds"],
                        "limit": t["max"],
                        "met": m["seconds"] <= t["max"],
                        "detail": "%.1f s wall (limit %.0f s)" % (m["seconds"], t["max"]),
                    }
                )
        else:
            checks.append({"what": kind, "met": None, "detail": "unknown target kind"})
        verdicts = [c["met"] for c in checks]
        if verdicts and all(v is True for v in verdicts):
            status = "met"
        elif any(v is False for v in verdicts):
            status = "missed"
        else:
            status = "not measured"
        outcomes.append({"id": t["id"], "text": t["text"], "status": status, "checks": checks})
    return outcomes


def target_lines(outcomes, verbose):
    out = []
    for o in outcomes:
        missed = sum(1 for c in o["checks"] if c["met"] is False)
        out.append(
            "[%s] %s: %s (%d checks, %d missed)"
            % (o["status"].upper(), o["id"], o["text"], len(o["checks"]), missed)
        )
        for c in o["checks"]:
            if verbose or c["met"] is not True:
                mark = {True: "met   ", False: "MISSED", None: "n/a   "}[c["met"]]
                out.append("    %s %s: %s" % (mark, c["what"], c["detail"]))
    return out


def context_lines(budget, run):
    ref = budget.get("context", {}).get("flutter_reference")
    if not ref:
        return []
    out = [
        "Context, not scored: Flutter's codecs measured elsewhere (%s; %s):"
        % (ref["machine"], ref["date"])
    ]
    for p, fig in ref["payloads"].items():
        if run.times("smc-c", p, "decode") is None:
            continue
        c_dec, c_enc, c_mc = (run.times("smc-c", p, op) for op in ("decode", "encode", "memcpy"))
        out.append(
            "    %s: decode %s (%s), encode %s (%s), their memcpy %s; here C decode %s, encode %s, memcpy %s"
            % (
                p,
                fmt_ns(fig["decode_ns"]),
                fig["decode_by"],
                fmt_ns(fig["encode_ns"]),
                fig["encode_by"],
                fmt_ns(fig.get("memcpy_ns")),
                fmt_ns(c_dec and c_dec["median"]),
                fmt_ns(c_enc and c_enc["median"]),
                fmt_ns(c_mc and c_mc["median"]),
            )
        )
    return out


def completeness_errors(run, manifest, codecs, generic_only):
    """A codec that ran must have measured every generic op C has, and the typed ops on every
    record payload (unless declared generic-only: it has no typed bench, and the report says
    so); a hole is an error (a skipped toolchain is reported, never a hole)."""
    errors = []
    typed = {m["file"] for m in manifest if m.get("typed")}
    seen = run.c_payload_ops()
    for codec in codecs[1:]:
        for rnd in run.rounds_of(codec):
            for p in (p for p in seen if "#" not in p):
                ops = [op for op in GENERIC_OPS if op in seen[p]]
                if p in typed and codec not in generic_only:
                    ops += [op for op in TYPED_OPS if op in seen[p]]
                for op in ops:
                    if run.rec(codec, rnd, p, op) is None:
                        errors.append(
                            "%s round %d has no %s result for %s" % (label(codec), rnd, op, p)
                        )
    for p in typed:
        if p in seen and not all(op in seen[p] for op in TYPED_OPS):
            errors.append("C has no typed result for record payload %s" % p)
    return errors


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--raw", required=True, help="directory of CODEC.rN.jsonl files")
    ap.add_argument(
        "--callgrind", help="directory of callgrind dumps of smc bench --callgrind-runs"
    )
    ap.add_argument(
        "--instructions",
        action="append",
        default=[],
        metavar="FILE",
        help="JSON lines of another codec's instructions per op (bench/callgrind_swift.sh)",
    )
    ap.add_argument(
        "--skipped",
        action="append",
        default=[],
        metavar="CODEC=REASON",
        help="a codec that was not run, and why",
    )
    ap.add_argument(
        "--generic-only",
        action="append",
        default=[],
        metavar="CODEC",
        help="a codec (e.g. dart) that has no typed-record bench",
    )
    ap.add_argument("--manifest", default=os.path.join(os.path.dirname(__file__), "payloads.json"))
    ap.add_argument("--budget", default=os.path.join(os.path.dirname(__file__), "budget.json"))
    ap.add_argument("--load", help="text file with `uptime` lines taken during the run")
    ap.add_argument(
        "--conformance-time", help='JSON {"seconds": S, "status": N} of scripts/conformance.sh'
    )
    ap.add_argument("--out", default="out", help="directory for bench.json and bench.md")
    ap.add_argument("--label", default="", help="free text for the report header (e.g. smoke)")
    ap.add_argument("--verbose", action="store_true", help="list met checks too")
    args = ap.parse_args()

    errors = []
    results = read_rounds(args.raw, errors)
    if not results.get("smc-c"):
        errors.append("no C results in %s" % args.raw)
        results["smc-c"] = {1: {}}
    run = Run(results)
    callgrind = read_callgrind(args.callgrind, errors)
    instructions = read_codec_instructions(args.instructions, errors)
    codecs = ["smc-c"] + [c for c in codec_order(results) if c != "smc-c"]
    skipped = dict(s.split("=", 1) for s in args.skipped)
    with open(args.manifest, encoding="utf-8") as f:
        manifest = json.load(f)["payloads"]
    with open(args.budget, encoding="utf-8") as f:
        budget = json.load(f)
    extra = {"instructions": instructions, "callgrind": callgrind}
    if args.conformance_time and os.path.exists(args.conformance_time):
        with open(args.conformance_time, encoding="utf-8") as f:
            extra["conformance"] = json.load(f)
    load = []
    if args.load and os.path.exists(args.load):
        with open(args.load, encoding="utf-8") as f:
            load = [l.rstrip("\n") for l in f if l.strip()]
    generic_only = {"smc-" + c for c in args.generic_only}
    errors += completeness_errors(run, manifest, codecs, generic_only)

    rows = build_rows(run, [m["file"] for m in manifest], callgrind, codecs, instructions)
    head, body = table_lines(rows, codecs, skipped)
    outcomes = evaluate_targets(budget, run, manifest, extra)
    info = machine_info()
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")

    header = [
        "Benchmark %s%s: %s, %s CPUs; %s"
        % (
            when,
            " (" + args.label + ")" if args.label else "",
            info["cpu"],
            info["cpus"],
            info["os"],
        )
    ]
    header.append(
        "rounds: %d, interleaved (the codecs run one after another in each round, in a "
        "rotating order); codecs: %s" % (len(run.rounds), ", ".join(label(c) for c in codecs))
    )
    header += ["load: " + l for l in load]
    for codec, reason in sorted(skipped.items()):
        header.append("%s: skipped (%s)" % (codec, reason))
    if not callgrind:
        header.append(
            "C instructions: not counted in this run (valgrind missing or --no-callgrind)"
        )
    for codec in sorted(generic_only & set(codecs)):
        header.append("%s: generic ops only (it has no typed-record bench)" % label(codec))
    notes = [
        "C median: median over the rounds of each round's median, ±: half the range of the round medians.",
        "C instr/value: callgrind instructions per operation / values (the figure that does not move with load).",
        "Swift instr/value (x C): the same for the Swift bench (bench/callgrind_swift.sh: --profile-iterations 11 minus 1,",
        "/ 10), and in parentheses Swift's instructions / C's on the same payload and op (same ops: decode, encode, typed).",
        "x memcpy: C time / C's memcpy of the same bytes, per round. Codec (x C): that codec's median, and the",
        "median (and range) over the rounds of its time / C's time on the same payload and op in the same round.",
    ]
    notes += [
        "%s / %s: the median (and range) over the rounds of %s's time / %s's on the same payload and op "
        "in the same round (below 1: %s is faster)."
        % (label(a), label(b), label(a), label(b), label(a))
        for a, b in codec_pairs(codecs)
    ] + [CODEC_NOTES[c] for c in codecs if c in CODEC_NOTES]
    text = header + [""] + render_text(head, body) + [""] + notes
    text += ["", "Targets (reporting only; bench/budget.json):"] + target_lines(
        outcomes, args.verbose
    )
    text += [""] + context_lines(budget, run)
    if errors:
        text += ["", "ERRORS:"] + ["  " + e for e in errors]
    print("\n".join(text))

    os.makedirs(args.out, exist_ok=True)
    md = ["# Benchmark results", ""] + ["* " + h for h in header] + [""] + render_md(head, body)
    md += (
        [""]
        + notes
        + ["", "## Targets (reporting only)", "", "```"]
        + target_lines(outcomes, True)
        + ["```"]
    )
    md += ["", "## Context (not scored)", ""] + ["    " + l for l in context_lines(budget, run)]
    if errors:
        md += ["", "## Errors", ""] + ["* " + e for e in errors]
    with open(os.path.join(args.out, "bench.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(md) + "\n")
    doc = {
        "when": when,
        "label": args.label,
        "machine": info,
        "load": load,
        "rounds": run.rounds,
        "codecs": codecs,
        "skipped": skipped,
        "errors": errors,
        "rows": rows,
        "targets": outcomes,
        "callgrind_instructions": {"%s %s" % k: v for k, v in callgrind.items()},
        "codec_instructions": {"%s %s %s" % k: v for k, v in instructions.items()},
        "raw": {
            codec: {str(r): list(recs.values()) for r, recs in rounds.items()}
            for codec, rounds in results.items()
        },
        "conformance": extra.get("conformance"),
    }
    with open(os.path.join(args.out, "bench.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
