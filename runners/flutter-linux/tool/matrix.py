#!/usr/bin/env python3
"""Writes docs/flutter-codecs.md: how Flutter's own Linux engine fares on the vectors, for
every pinned engine version (runners/flutter-linux/engines.json), side by side.

    python3 runners/flutter-linux/tool/matrix.py           fetch, judge, write the page
    python3 runners/flutter-linux/tool/matrix.py --check   the same, exit 1 if the page differs
    python3 runners/flutter-linux/tool/matrix.py --check-ci REPORT.json
                                      only the CI engine's lines, from a judge report of it
                                      (judge.sh --check, test-all step flutter-linux)

Each engine is fetched (pip, SHA-256 checked) and judged with this checkout's judge, runner
and vectors (build them first: bash scripts/test-all.sh c-build). The page holds nothing that
changes between two runs (no times, no paths), so it regenerates byte for byte.
A by-hand command: CI judges only the pinned CI engine (test-all step flutter-linux).
"""

import json
import os
import subprocess
import sys
import tempfile

import engine
import spec_rows

TOOL = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(TOOL)))
BUILD = os.environ.get("SMC_BUILD", os.path.join(ROOT, "build"))
PAGE = os.path.join(ROOT, "docs", "flutter-codecs.md")
LETTERS = [
    ("fail", "F"),
    ("placement", "A"),
    ("expected_failure", "X"),
    ("unexpected_pass", "P"),
    ("differs", "D"),
    ("skipped", "S"),
    ("unsupported", "U"),
]


def judge(lib, tmp, version):
    out = os.path.join(tmp, f"{version}.json")
    env = dict(os.environ, SMC_FLUTTER_ENGINE=lib)
    runner = os.path.join(BUILD, "runners", "flutter-linux", "smc-flutter-linux-runner")
    subprocess.run(
        [
            os.path.join(BUILD, "cli", "smc"),
            "conformance",
            "--vectors",
            os.path.join(ROOT, "vectors"),
            "--runner",
            f"flutter-linux={runner}",
            "--json",
            out,
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        check=False,
    )
    with open(out, encoding="utf-8") as f:
        report = json.load(f)
    return report, report["runners"][0]


def section_cell(results, section):
    rs = [v for v in results if v["section"].split(".")[0] == section]
    applicable = [v for v in rs if v["status"] != "n/a"]
    if not applicable:
        return "n/a"
    cell = f"{sum(v['status'] == 'pass' for v in rs)}/{len(applicable)}"
    for status, letter in LETTERS:
        n = sum(v["status"] == status for v in rs)
        if n:
            cell += f" {letter}{n}"
    return cell


def summary_row(version, dart, run, pins):
    mark = " (CI)" if version == pins["ci"] else ""
    return f"| {version}{mark} | {dart} | {run['summary']} |"


def causes_line(version, run):
    causes = (
        ", ".join(
            f"`{c['id']}` ({c['shipped']}; explains {c['explains']} of "
            f"{run['diagnosis']['failing']})"
            for c in run.get("diagnosis", {}).get("causes", [])
        )
        or "none"
    )
    return f"* {version}: {causes}"


def check_ci(report_path):
    """The page's lines of the CI engine against a judge report of it (judge.sh's
    out/flutter-linux.json): a judge change that changes them makes the page stale, which
    only the whole regeneration (all engines, by hand) would otherwise show."""
    pins = engine.pins()
    with open(report_path, encoding="utf-8") as f:
        run = json.load(f)["runners"][0]
    lib = engine.install(pins, pins["ci"])
    want = [
        summary_row(pins["ci"], engine.dart_version(lib), run, pins),
        causes_line(pins["ci"], run),
    ]
    with open(PAGE, encoding="utf-8") as f:
        page = f.read().splitlines()
    stale = [w for w in want if w not in page]
    for w in stale:
        print(f"matrix.py: {PAGE} lacks the CI engine's line\n  {w}")
    if stale:
        print(
            "matrix.py: the page is stale: regenerate it (python3 runners/flutter-linux/tool/matrix.py)"
        )
        return 1
    print(f"matrix.py: the CI engine's lines of {PAGE} are this judge's")
    return 0


def build_type(build):
    """CMAKE_BUILD_TYPE of the build directory, "" when unknown."""
    try:
        with open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8") as f:
            for line in f:
                if line.startswith("CMAKE_BUILD_TYPE:"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return ""


def optimised_build_problem(build):
    """Why the build cannot judge the page's engines, or None. The runner's Pigeon-shaped
    subclass (fl_codecs.c) has a frame in every level of the engine's recursion; unoptimised,
    that frame is larger and the engine's stack runs out at 50,000 levels where CI's build
    (scripts/lib.sh: RelWithDebInfo) decodes them, so a Debug build would publish two crashes
    that are the build's, not the engine's."""
    kind = build_type(build)
    if kind in ("Release", "RelWithDebInfo", "MinSizeRel"):
        return None
    return (
        f"matrix.py: {build} is a {kind or 'unknown-type'} build; the page is judged with an"
        " optimised one as CI's (SMC_BUILD=DIR, e.g. bash scripts/test-all.sh c-build)"
    )


def main():
    if sys.argv[1:2] == ["--check-ci"] and len(sys.argv) == 3:
        return check_ci(sys.argv[2])
    check = "--check" in sys.argv[1:]
    problem = optimised_build_problem(BUILD)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    pins = engine.pins()
    table = spec_rows.rows()
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for w in pins["wheels"]:
            lib = engine.install(pins, w["version"])
            report, run = judge(lib, tmp, w["version"])
            runs.append((w["version"], engine.dart_version(lib), report, run))
    vectors = runs[0][2]["vectors"]
    lines = [
        "# Flutter's own codecs, judged",
        "",
        "<!-- generated by runners/flutter-linux/tool/matrix.py from the engines pinned in",
        "     runners/flutter-linux/engines.json; never edit by hand -->",
        "",
        "How the Linux embedder of Flutter release builds (`libflutter_linux_gtk.so`, its",
        "`FlStandardMessageCodec` and `FlStandardMethodCodec`) fares on this suite's vectors, one",
        "column per engine. Each engine is the one a `flet-desktop-light` wheel for manylinux",
        "x86_64 carries; the library records the Dart it embeds, not the Flutter release, so the",
        "columns are named by wheel and Dart version. The runner, its declaration (runners/PROTOCOL.md",
        "P.7, GLIB) and what each verdict means: [`runners/flutter-linux/`](../runners/flutter-linux/).",
        f"Vectors {vectors.get('version', '?')} ({vectors.get('selected', '?')} vectors);",
        f"the main job judges the CI engine ({pins['ci']}) in every run.",
        "",
        "## Engines",
        "",
        "| Wheel | Dart | Summary line |",
        "|---|---|---|",
    ]
    for version, dart, _, run in runs:
        lines.append(summary_row(version, dart, run, pins))
    lines += [
        "",
        "## Matrix per spec section",
        "",
        "passed/applicable; F failures, D implementation-defined vectors decoded another way",
        "than the spec decides (informational), S skipped, U unsupported.",
        "",
    ]
    sections = sorted({v["section"].split(".")[0] for v in runs[0][3]["results"]}, key=int)
    lines.append(
        "| Section | " + " | ".join(f"{v} (Dart {d.split()[0]})" for v, d, _, _ in runs) + " |"
    )
    lines.append("|---" * (len(runs) + 1) + "|")
    for s in sections:
        lines.append(
            f"| §{s} | " + " | ".join(section_cell(r["results"], s) for _, _, _, r in runs) + " |"
        )
    lines += [
        "",
        "## Divergences shown",
        "",
        "Each vector an engine fails or decodes another way, by the row of spec §16 that",
        "names it (§16.3 cites the vector ids), with the verdict and the engines that show it.",
        "",
        "| Row | Verdict | Vectors | Engines |",
        "|---|---|---|---|",
    ]
    seen = {}
    for version, _, _, run in runs:
        for v in run["results"]:
            if v["status"] in ("fail", "differs", "skipped"):
                key = (spec_rows.row_of(v["id"], table) or "not in §16.3", v["status"])
                seen.setdefault(key, {}).setdefault(v["id"], set()).add(version)
    for (row, status), ids in sorted(
        seen.items(),
        key=lambda kv: (kv[0][1], int(kv[0][0][1:]) if kv[0][0][1:].isdigit() else 999),
    ):
        shown = sorted(ids)
        names = ", ".join(f"`{i}`" for i in shown[:6]) + (
            f" and {len(shown) - 6} more" if len(shown) > 6 else ""
        )
        engines = {frozenset(s) for s in ids.values()}
        where = (
            "all"
            if engines == {frozenset(v for v, _, _, _ in runs)}
            else "not all: see the changes below"
        )
        lines.append(f"| {row} | {status} | {names} | {where} |")
    lines += [
        "",
        "Likely causes the judge's diagnosis names (the catalogue of spec/bugs-in-the-wild.md),",
        "per engine:",
        "",
    ]
    for version, _, _, run in runs:
        lines.append(causes_line(version, run))
    lines += ["", "## What changed between consecutive engines", ""]
    for (v0, d0, _, r0), (v1, d1, _, r1) in zip(runs, runs[1:], strict=False):
        a = {v["id"]: v["status"] for v in r0["results"]}
        b = {v["id"]: v["status"] for v in r1["results"]}
        changed = [
            f"`{i}` {a.get(i, 'absent')} → {b.get(i, 'absent')}"
            for i in sorted(set(a) | set(b))
            if a.get(i) != b.get(i)
        ]
        head = f"* {v0} (Dart {d0.split()[0]}) → {v1} (Dart {d1.split()[0]}): "
        lines.append(head + ("no verdict changed" if not changed else "; ".join(changed)))
    text = "\n".join(lines) + "\n"
    if check:
        with open(PAGE, encoding="utf-8") as f:
            if f.read() != text:
                print(f"matrix.py: {PAGE} is not what the pinned engines give; run matrix.py")
                return 1
        print(f"matrix.py: {PAGE} regenerates byte for byte")
        return 0
    with open(PAGE, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"matrix.py: wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
