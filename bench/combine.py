#!/usr/bin/env python3
"""Combine the benchmark outputs of the C reference, Swift and Kotlin codecs into one table.

Reads the JSON lines each bench printed (bench/README.md, "Output fields"), prints one table
(payload x op: C ns, ns/value, x memcpy, Swift ns (x C), Kotlin ns (x C), Flutter's reference
figure and how many times faster the C codec is), then checks every target of
bench/budget.json and reports it met or missed (and by how much). Writes out/bench.json and
out/bench.md.

Timing never makes this fail: the exit status is 1 only for errors (a codec reported an
error, a file is unreadable, or the C results are missing), else 0.

The value count of each payload comes from the C bench only (one definition, one place);
ns/value for every codec is computed here from it.
Python 3 standard library only.
"""

import argparse
import datetime
import json
import os
import platform
import sys

OP_ORDER = ["validate", "decode", "decode_alias", "decode_malloc", "encode", "encode_malloc", "roundtrip"]
CODECS = [("smc-c", "C"), ("smc-swift", "Swift"), ("smc-kotlin", "Kotlin")]
# Dart (issue 17): the pure-Dart codec on whatever Dart VM runs here (see DART_NOTE).
CODECS.append(("smc-dart", "Dart"))
DART_NOTE = ("Dart = the pure-Dart codec (runners/dart) on the Dart VM found by runners/dart/tool/dart-vm.sh; "
             "on this project's machine the 32-bit JIT VM of Dart 2.16.2, which boxes 64-bit ints: "
             "not a measure of Dart AOT on 64-bit devices.")


def read_jsonl(path, errors):
    """Records of one codec, keyed (payload, op). Lines with an "error" field are errors."""
    records = {}
    if path is None or not os.path.exists(path):
        return None
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
                errors.append("%s: %s: %s" % (path, rec.get("payload", "?"), rec["error"]))
                continue
            if "op" in rec and "payload" in rec:
                records[(rec["payload"], rec["op"])] = rec
    return records


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
    return {"cpu": model, "cpus": os.cpu_count(), "os": platform.platform(),
            "python": platform.python_version()}


def build_rows(results, manifest_order, flutter):
    """One row per (payload, op) that the C bench measured."""
    c = results["smc-c"]
    payloads = [p for p in manifest_order if any((p, op) in c for op in OP_ORDER)]
    payloads += sorted({p for p, _ in c} - set(payloads))
    rows = []
    for p in payloads:
        memcpy = c.get((p, "memcpy"))
        values = None
        for op in OP_ORDER:
            rec = c.get((p, op))
            if rec is None:
                continue
            values = rec["values"]
            ns = rec["median_ns"]
            row = {
                "payload": p, "op": op, "entry": rec.get("entry", "message"), "bytes": rec["bytes"],
                "values": values, "c_ns": ns, "c_p10_ns": rec["p10_ns"], "c_p90_ns": rec["p90_ns"],
                "ns_per_value": ns / values if values else None,
                "x_memcpy": ns / memcpy["median_ns"] if memcpy and memcpy["median_ns"] > 0 else None,
                "memcpy_ns": memcpy["median_ns"] if memcpy else None,
            }
            for codec, label in CODECS[1:]:
                other = results.get(codec) or {}
                o = other.get((p, op))
                row[label.lower() + "_ns"] = o["median_ns"] if o else None
                row[label.lower() + "_x_c"] = o["median_ns"] / ns if o and ns > 0 else None
            ref = flutter.get(p, {})
            ref_ns = ref.get(op + "_ns") if op in ("decode", "encode") else None
            row["flutter_ns"] = ref_ns
            row["flutter_by"] = ref.get(op + "_by") if ref_ns else None
            row["x_faster_than_flutter"] = ref_ns / ns if ref_ns and ns > 0 else None
            rows.append(row)
    return rows


def table_lines(rows, codecs_present):
    head = ["payload", "op", "C median", "ns/value", "x memcpy"]
    for _, label in CODECS[1:]:
        head.append(label + " (x C)")
    head += ["Flutter ref", "x faster than Flutter"]
    body = []
    last = None
    for r in rows:
        cells = [r["payload"] if r["payload"] != last else "", r["op"], fmt_ns(r["c_ns"]),
                 "%.2f" % r["ns_per_value"] if r["ns_per_value"] is not None else "-",
                 "%.2f" % r["x_memcpy"] if r["x_memcpy"] is not None else "-"]
        last = r["payload"]
        for _, label in CODECS[1:]:
            key = label.lower()
            if label not in codecs_present:
                cells.append("skipped")
            elif r[key + "_ns"] is None:
                cells.append("-")
            else:
                cells.append("%s (%.1fx)" % (fmt_ns(r[key + "_ns"]), r[key + "_x_c"]))
        if r["flutter_ns"]:
            cells.append("%s %s" % (fmt_ns(r["flutter_ns"]), r["flutter_by"]))
            cells.append("%.2fx" % r["x_faster_than_flutter"])
        else:
            cells += ["", ""]
        body.append(cells)
    return head, body


def render_text(head, body):
    widths = [max(len(h), *(len(b[i]) for b in body)) if body else len(h) for i, h in enumerate(head)]
    out = ["  ".join(h.ljust(w) for h, w in zip(head, widths))]
    out.append("  ".join("-" * w for w in widths))
    for b in body:
        out.append("  ".join(c.ljust(w) for c, w in zip(b, widths)))
    return out


def render_md(head, body):
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for b in body:
        out.append("| " + " | ".join(c.replace("|", "\\|") for c in b) + " |")
    return out


def evaluate_targets(budget, results, extra):
    """Each target -> list of checks {what, value, limit, met, detail}."""
    flutter = budget["flutter_reference"]["payloads"]
    outcomes = []
    for t in budget["targets"]:
        recs = results.get(t.get("codec", "smc-c")) or {}
        checks = []
        kind = t["kind"]

        def median(p, op):
            r = recs.get((p, op))
            return r["median_ns"] if r else None

        if kind == "faster_than_flutter":
            for p in t["payloads"]:
                for op in t["ops"]:
                    ns, ref = median(p, op), flutter.get(p, {}).get(op + "_ns")
                    if ns is None or ref is None:
                        checks.append({"what": "%s %s" % (p, op), "met": None, "detail": "not measured"})
                        continue
                    speed = ref / ns
                    values = recs[(p, op)]["values"]
                    met = speed >= t["factor"]
                    detail = "%.2fx faster than Flutter (%s vs %s; %.2f ns/value)" % (
                        speed, fmt_ns(ns), fmt_ns(ref), ns / values)
                    if not met:
                        detail += "; needs %s, i.e. %.0f%% less time" % (
                            fmt_ns(ref / t["factor"]), 100 * (1 - (ref / t["factor"]) / ns))
                    checks.append({"what": "%s %s" % (p, op), "value": speed, "limit": t["factor"],
                                   "met": met, "detail": detail})
        elif kind == "max_x_memcpy":
            for p in t["payloads"]:
                for op in t["ops"]:
                    ns, mc = median(p, op), median(p, "memcpy")
                    if ns is None or mc is None:
                        checks.append({"what": "%s %s" % (p, op), "met": None, "detail": "not measured"})
                        continue
                    x = ns / mc
                    met = x <= t["max"]
                    checks.append({"what": "%s %s" % (p, op), "value": x, "limit": t["max"], "met": met,
                                   "detail": "%.2f of memcpy bandwidth (%s vs memcpy %s)%s" % (
                                       mc / ns, fmt_ns(ns), fmt_ns(mc),
                                       "" if met else "; %.0f%% over the limit" % (100 * (x / t["max"] - 1)))})
        elif kind == "max_ratio_between_payloads":
            for big, small in t["pairs"]:
                a, b = median(big, t["op"]), median(small, t["op"])
                if a is None or b is None:
                    checks.append({"what": "%s vs %s" % (big, small), "met": None, "detail": "not measured"})
                    continue
                x = a / b
                met = x <= t["max"]
                checks.append({"what": "%s: %s vs %s" % (t["op"], big, small), "value": x, "limit": t["max"],
                               "met": met, "detail": "%s vs %s (%.2fx)" % (fmt_ns(a), fmt_ns(b), x)})
        elif kind == "max_op_ratio":
            payloads = t["payloads"]
            if payloads == "*":
                payloads = sorted({p for p, _ in recs})
            for p in payloads:
                a, b = median(p, t["numerator"]), median(p, t["denominator"])
                if a is None or b is None:
                    if t["payloads"] != "*":
                        checks.append({"what": p, "met": None, "detail": "not measured"})
                    continue
                x = a / b
                met = x <= t["max"]
                checks.append({"what": "%s %s/%s" % (p, t["numerator"], t["denominator"]), "value": x,
                               "limit": t["max"], "met": met,
                               "detail": "%.2fx (%s vs %s)%s" % (x, fmt_ns(a), fmt_ns(b),
                                                                "" if met else "; %.0f%% over" % (100 * (x / t["max"] - 1)))})
        elif kind == "max_wall_seconds":
            m = extra.get(t["measurement"])
            if m is None:
                checks.append({"what": t["measurement"], "met": None,
                               "detail": "not measured in this run (bench/run.sh --conformance)"})
            elif m.get("status", 0) != 0:
                checks.append({"what": t["measurement"], "met": None, "value": m["seconds"],
                               "detail": "%.1f s, but the run exited with status %s" % (m["seconds"], m["status"])})
            else:
                met = m["seconds"] <= t["max"]
                checks.append({"what": t["measurement"], "value": m["seconds"], "limit": t["max"], "met": met,
                               "detail": "%.1f s wall (limit %.0f s)" % (m["seconds"], t["max"])})
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


def target_lines(outcomes):
    out = []
    for o in outcomes:
        out.append("[%s] %s: %s" % (o["status"].upper(), o["id"], o["text"]))
        for c in o["checks"]:
            mark = {True: "met   ", False: "MISSED", None: "n/a   "}[c["met"]]
            out.append("    %s %s: %s" % (mark, c["what"], c["detail"]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--c", required=True, help="JSON lines of `smc bench --json`")
    ap.add_argument("--swift", help="JSON lines of smc-swift-bench")
    ap.add_argument("--kotlin", help="JSON lines of smc-kotlin-bench")
    ap.add_argument("--dart", help="JSON lines of runners/dart bin/bench.dart")
    ap.add_argument("--skipped", action="append", default=[], metavar="CODEC=REASON",
                    help="a codec that was not run, and why")
    ap.add_argument("--manifest", default=os.path.join(os.path.dirname(__file__), "payloads.json"))
    ap.add_argument("--budget", default=os.path.join(os.path.dirname(__file__), "budget.json"))
    ap.add_argument("--load", help="text file with `uptime` lines taken during the run")
    ap.add_argument("--conformance-time", help='JSON {"seconds": S, "status": N} of scripts/conformance.sh')
    ap.add_argument("--out", default="out", help="directory for bench.json and bench.md")
    ap.add_argument("--label", default="", help="free text for the report header (e.g. smoke)")
    args = ap.parse_args()

    errors = []
    results = {"smc-c": read_jsonl(args.c, errors),
               "smc-swift": read_jsonl(args.swift, errors),
               "smc-kotlin": read_jsonl(args.kotlin, errors),
               "smc-dart": read_jsonl(args.dart, errors)}
    if not results["smc-c"]:
        errors.append("no C results in %s" % args.c)
        results["smc-c"] = {}
    skipped = dict(s.split("=", 1) for s in args.skipped)
    codecs_present = {label for codec, label in CODECS if results.get(codec) is not None}
    with open(args.manifest, encoding="utf-8") as f:
        manifest = json.load(f)["payloads"]
    with open(args.budget, encoding="utf-8") as f:
        budget = json.load(f)
    extra = {}
    if args.conformance_time and os.path.exists(args.conformance_time):
        with open(args.conformance_time, encoding="utf-8") as f:
            extra["conformance"] = json.load(f)
    load = []
    if args.load and os.path.exists(args.load):
        with open(args.load, encoding="utf-8") as f:
            load = [l.rstrip("\n") for l in f if l.strip()]

    # Every codec must have measured what the C bench measured for the shared ops; a hole is
    # an error only if that codec ran at all (a skipped toolchain is reported, not failed).
    for codec, label in CODECS[1:]:
        recs = results.get(codec)
        if recs is None:
            continue
        for (p, op) in results["smc-c"]:
            if op in ("decode", "encode", "roundtrip") and (p, op) not in recs:
                errors.append("%s has no %s result for %s" % (label, op, p))

    rows = build_rows(results, [m["file"] for m in manifest], budget["flutter_reference"]["payloads"])
    head, body = table_lines(rows, codecs_present)
    outcomes = evaluate_targets(budget, results, extra)
    info = machine_info()
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")

    header = ["Benchmark %s%s: %s, %s CPUs; %s" % (
        when, " (" + args.label + ")" if args.label else "", info["cpu"], info["cpus"], info["os"])]
    header += ["load: " + l for l in load]
    for codec, label in CODECS[1:]:
        if results.get(codec) is None:
            header.append("%s: skipped (%s)" % (label, skipped.get(label.lower(), "no results")))
    notes = ["Times are medians per operation; x C = codec time / C time; x memcpy = C time / memcpy "
             "of the same bytes in the same run; Flutter ref = fastest Flutter codec (bench/budget.json)."]
    if results.get("smc-dart") is not None:
        notes.append(DART_NOTE)

    text = header + [""] + render_text(head, body) + [""] + notes + ["", "Targets (reporting only):"] + target_lines(outcomes)
    if errors:
        text += ["", "ERRORS:"] + ["  " + e for e in errors]
    print("\n".join(text))

    os.makedirs(args.out, exist_ok=True)
    md = ["# Benchmark results", ""] + ["* " + h for h in header] + [""] + render_md(head, body) + [""] + notes
    md += ["", "## Targets (reporting only)", "", "```"] + target_lines(outcomes) + ["```"]
    if errors:
        md += ["", "## Errors", ""] + ["* " + e for e in errors]
    with open(os.path.join(args.out, "bench.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(md) + "\n")
    doc = {
        "when": when, "label": args.label, "machine": info, "load": load,
        "skipped": skipped, "errors": errors, "rows": rows, "targets": outcomes,
        "raw": {codec: [r for r in (recs or {}).values()] for codec, recs in results.items()},
        "conformance": extra.get("conformance"),
    }
    with open(os.path.join(args.out, "bench.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
