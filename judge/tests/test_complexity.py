#!/usr/bin/env python3
"""The complexity check (spec §15.4, R15.4-1, issue 30) against model codecs whose host maps
are faithful to the cost of real ones (complexity_runner.py), on small families written by
the generator's own code (vectors/gen/complexity.py) so the judge's expansion is checked too.

usage: test_complexity.py --judge PATH [--c-runner PATH] CASE
  linear_search   a map insert that searches the entries fails with the quadratic line
  java_chain      Java's String.hashCode into chains without tree bins: the colliding family
                  fails, the distinct-key family passes
  java_tree       the same table with Java's tree bins: both families pass
  under_load      a linear codec passes while two busy loops load the machine, three runs
  outlier_once    a linear codec with exactly one slow answer (a repetition of the large
                  member) passes: one outlier near the line is not a failure
  outlier_always  the same codec slow on every answer for the large member fails
  manifest        a c15-complexity.json edited after release makes the set MODIFIED
  reports         the verdicts in the text, JSON, JUnit and HTML reports and the matrix; the
                  gate; --no-complexity; a family file the judge expands otherwise is refused
"""

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "vectors", "gen"))
sys.dont_write_bytecode = True

import complexity  # noqa: E402
import test_judge as tj  # noqa: E402  (report validation)

RUNNER = os.path.join(HERE, "complexity_runner.py")
VECTORS = os.path.join(HERE, "vectors")
ARGS = None

# Python's decoder costs about 12 µs per entry: these sizes reach the 6 ms the judge needs
# for a ratio, and a quadratic map 8x further stays within a second.
DISTINCT = ("c15-map-distinct-keys", "map of distinct keys", "map-distinct-keys", "message", 64, 9)
COLLIDING = (
    "c15-map-java-colliding-keys",
    "map of keys colliding under Java's String.hashCode",
    "map-java-colliding-keys",
    "message",
    64,
    9,
)
STRINGS = (
    "c15-list-small-strings",
    "list of small strings",
    "list-small-strings",
    "message",
    64,
    10,
)
BYTES = ("c15-long-bytes", "long byte array", "long-bytes", "message", 4096, 10)
DETAILS = (
    "c15-error-envelope-details",
    "error envelope with large details",
    "error-envelope-details",
    "envelope",
    64,
    9,
)
QUADRATIC_LINE = re.compile(
    r"map of distinct keys: \d+× input → \d+× decode time "
    r"\((quadratic|worse than quadratic)\)"
)


def family_file(table, tmp):
    path = os.path.join(tmp, "families.json")
    with open(path, "wb") as f:
        f.write(complexity.file_text(list(table)))
    return path


def judge(table, runners, extra=(), env=None):
    tmp = tempfile.mkdtemp(prefix="cx-test-")
    cmd = shlex.split(ARGS.judge) + [
        "--vectors",
        VECTORS,
        "--no-progress",
        "--allow-modified-vectors",
        "--complexity",
        family_file(table, tmp),
        "--json",
        os.path.join(tmp, "r.json"),
        "--junit",
        os.path.join(tmp, "r.xml"),
        "--html",
        os.path.join(tmp, "r.html"),
    ]
    for name, model in runners:
        cmd += ["--runner", "%s=CX_MAP=%s %s %s" % (name, model, sys.executable, RUNNER)]
    cmd += list(extra)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
    report = None
    if os.path.exists(os.path.join(tmp, "r.json")):
        with open(os.path.join(tmp, "r.json"), encoding="utf-8") as f:
            report = json.load(f)
        tj.validate_report(report)
    return p, report, tmp


def families(report, runner):
    r = [x for x in report["runners"] if x["name"] == runner][0]
    return {f["id"]: f for f in r["complexity"]["families"]}


def check(cond, what, p=None):
    if not cond and p is not None:
        sys.stderr.write(
            "---- stdout ----\n%s\n---- stderr ----\n%s\n" % (p.stdout, p.stderr[-4000:])
        )
    tj.check(cond, what)


def case_linear_search():
    p, rep, _ = judge([DISTINCT], [("linear", "linear")])
    f = families(rep, "linear")["c15-map-distinct-keys"]
    check(f["outcome"] == "fail", "a linear-search map insert fails the distinct-key family", p)
    check(QUADRATIC_LINE.search(f["line"]) is not None, "its line says it: %r" % f["line"], p)
    check(QUADRATIC_LINE.search(p.stdout) is not None, "and the text report prints the line", p)
    check(
        f["time_ratio"] > complexity_allowed(f["input_ratio"]) and f["large"]["runs"] >= 2,
        "the ratio is past n log n's allowance on best runs, repeated",
        p,
    )
    check(
        p.returncode == 1 and any("complexity" in n for n in rep["gate"]["notes"]),
        "and the default gate fails with a note naming it",
        p,
    )


def complexity_allowed(k):
    import math

    return k * 3 ** (math.log2(k) / 3)


def case_java_chain():
    p, rep, _ = judge([DISTINCT, COLLIDING], [("chain", "java-chain")])
    fs = families(rep, "chain")
    check(
        fs["c15-map-java-colliding-keys"]["outcome"] == "fail",
        "Java's String.hashCode without tree bins fails the colliding family: %s"
        % fs["c15-map-java-colliding-keys"]["line"],
        p,
    )
    check(
        fs["c15-map-distinct-keys"]["outcome"] == "pass",
        "and passes the distinct-key family: %s" % fs["c15-map-distinct-keys"]["line"],
        p,
    )


def case_java_tree():
    p, rep, _ = judge([DISTINCT, COLLIDING], [("tree", "java-tree")])
    fs = families(rep, "tree")
    for fid in ("c15-map-java-colliding-keys", "c15-map-distinct-keys"):
        check(
            fs[fid]["outcome"] == "pass",
            "Java's HashMap with tree bins passes %s: %s" % (fid, fs[fid]["line"]),
            p,
        )


def busy_loop():
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


def case_under_load():
    loads = [busy_loop(), busy_loop()]
    try:
        for k in range(3):
            p, rep, _ = judge([DISTINCT, STRINGS, BYTES, DETAILS], [("dict", "dict")])
            fs = families(rep, "dict")
            for fid, f in sorted(fs.items()):
                check(
                    f["outcome"] == "pass",
                    "run %d under two busy loops: a linear codec passes %s: %s"
                    % (k + 1, fid, f["line"]),
                    p,
                )
            for load in loads:
                check(load.poll() is None, "the load was running throughout")
    finally:
        for load in loads:
            load.kill()
            load.wait()


TRACE = re.compile(r"^complexity: (\S+) (\d+) bytes( \(baseline\))?: ok, ([0-9.]+) ms CPU", re.M)


def slow_runner(mode):
    """The dict codec with CX_SLOW=mode, traced: its family, each member's CPU timings
    (bytes -> [ms, ...]) as the judge measured them, and the baseline-free ratio of each
    round (small member, its baseline, large member, its baseline) as complexity_fit.c
    computes it."""
    env = dict(os.environ, SMCJ_CX_TRACE="1")
    p, rep, _ = judge([DISTINCT], [("slow", "dict CX_SLOW=%s" % mode)], env=env)
    trace = [
        (int(size), bool(base), float(ms))
        for fid, size, base, ms in TRACE.findall(p.stderr)
        if fid == "c15-map-distinct-keys"
    ]
    times = {}
    for size, base, ms in trace:
        if not base:
            times.setdefault(size, []).append(ms)
    first = next((i for i, t in enumerate(trace) if t[1]), len(trace)) - 1
    rounds = []
    for i in range(first, len(trace) - 3, 4):
        (_, _, lo), (_, _, lo_b), (_, _, hi), (_, _, hi_b) = trace[i : i + 4]
        net = lambda t, b: max(t - b, 0.25 * t)  # noqa: E731  (complexity_fit.c net())
        rounds.append(net(hi, hi_b) / net(lo, lo_b) if lo > 0 else 0)
    return p, families(rep, "slow")["c15-map-distinct-keys"], times, rounds


def case_outlier_once():
    p, f, times, rounds = slow_runner("once")
    large = times.get(f["large"]["bytes"], [])
    allowed = complexity_allowed(f["input_ratio"])
    check(
        len(large) >= 3 and max(large) > 2.5 * min(large),
        "the large member was timed at least three times, one of them the injected outlier: "
        "%s ms" % large,
        p,
    )
    check(
        len([r for r in rounds if r > allowed]) == 1,
        "exactly one round was over the line (%.0fx) on its own: %s"
        % (allowed, ["%.1f" % r for r in rounds]),
        p,
    )
    check(
        f["outcome"] == "pass",
        "one slow answer does not fail a linear codec: %s (rounds %s)"
        % (f["line"], ["%.1f" % r for r in rounds]),
        p,
    )


def case_outlier_always():
    p, f, times, rounds = slow_runner("always")
    large = times.get(f["large"]["bytes"], [])
    small = times.get(f["small"]["bytes"], [])
    check(
        len(large) >= 3 and small and min(large) > 2 * f["input_ratio"] * min(small),
        "every timing of the large member was slow, over twice linear (%s ms; the small one "
        "%s ms)" % (large, small),
        p,
    )
    check(
        f["outcome"] == "fail" and f["time_ratio"] > complexity_allowed(f["input_ratio"]),
        "a codec slow on every repetition of the large member fails: %s (rounds %s)"
        % (f["line"], ["%.1f" % r for r in rounds]),
        p,
    )


def case_reports():
    p, rep, tmp = judge([DISTINCT], [("linear", "linear"), ("dict", "dict")])
    check(
        "Complexity and memory (spec §15.3, §15.4)" in p.stdout
        and "linear: FAIL map of distinct keys" in p.stdout
        and "dict: pass map of distinct keys" in p.stdout,
        "the text report has both verdicts",
        p,
    )
    check(
        re.search(r"§15.4\s+0/1 F1\s+1/1", p.stdout) is not None,
        "the matrix row shows 0/1 F1 and 1/1",
        p,
    )
    check(
        "largest growth on a length-bomb input" in p.stdout,
        "the memory growth on length bombs is in the same section",
        p,
    )
    check(
        rep["complexity"]["checked"] and rep["complexity"]["requirement"] == "R15.4-1",
        "the JSON report says the families were timed, under R15.4-1",
        p,
    )
    junit = ET.parse(os.path.join(tmp, "r.xml")).getroot()
    fails = [
        tc
        for tc in junit.iter("testcase")
        if tc.get("classname") == "linear.complexity" and tc.find("failure") is not None
    ]
    check(
        len(fails) == 1 and QUADRATIC_LINE.search(fails[0].find("failure").get("message")),
        "JUnit has a failing testcase with the line",
        p,
    )
    with open(os.path.join(tmp, "r.html"), encoding="utf-8") as f:
        html = f.read()
    check(
        'id="complexity"' in html and QUADRATIC_LINE.search(html) is not None,
        "the HTML report has the section and the line",
        p,
    )
    p, rep, _ = judge([DISTINCT], [("linear", "linear")], ["--no-complexity"])
    check(
        rep["complexity"]["skipped"] == "not checked (--no-complexity)"
        and "time growth not checked (--no-complexity)" in p.stdout
        and rep["runners"][0]["complexity"] is None,
        "--no-complexity times nothing, and the reports say so",
        p,
    )
    # a family file whose recorded hash is not the judge's expansion is refused, not timed
    tmp2 = tempfile.mkdtemp(prefix="cx-test-")
    doc = json.loads(complexity.file_text([DISTINCT]))
    doc["families"][0]["members"][0]["sha256"] = "0" * 64
    bad = os.path.join(tmp2, "bad.json")
    with open(bad, "w") as f:
        json.dump(doc, f)
    cmd = shlex.split(ARGS.judge) + [
        "--vectors",
        VECTORS,
        "--no-progress",
        "--allow-modified-vectors",
        "--complexity",
        bad,
        "--runner",
        "d=CX_MAP=dict %s %s" % (sys.executable, RUNNER),
    ]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    check(
        "not measured: the judge's expansion of n=64" in p.stdout,
        "a member whose hash differs from the judge's expansion is not timed",
        p,
    )


def case_manifest():
    import shutil

    released = os.path.join(HERE, "..", "..", "vectors")
    tmp = tempfile.mkdtemp(prefix="cx-test-")
    vectors = os.path.join(tmp, "vectors")
    shutil.copytree(released, vectors, ignore=shutil.ignore_patterns("gen"))
    base = shlex.split(ARGS.judge) + [
        "--vectors",
        vectors,
        "--no-progress",
        "--no-complexity",
        "--section",
        "2",
        "--runner",
        "d=CX_MAP=dict %s %s" % (sys.executable, RUNNER),
    ]
    p = subprocess.run(base, capture_output=True, text=True, timeout=300)
    check(
        "MODIFIED" not in p.stdout.split("\n")[0],
        "the released set, copied, is the released one",
        p,
    )
    with open(os.path.join(vectors, complexity.FILE_NAME), "ab") as f:
        f.write(b" ")
    p = subprocess.run(base, capture_output=True, text=True, timeout=300)
    check(
        "MODIFIED" in p.stdout and "c15-complexity.json: SHA-256" in p.stdout and p.returncode == 1,
        "an edited family file makes the set MODIFIED and fails the gate",
        p,
    )


CASES = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--judge", required=True)
    ap.add_argument("case", choices=sorted(CASES) + ["all"])
    ARGS = ap.parse_args()
    tj.ARGS = ARGS
    tj.run_cases(CASES, ARGS.case)


if __name__ == "__main__":
    main()
