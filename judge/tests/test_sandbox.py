#!/usr/bin/env python3
"""The runner sandbox (--sandbox, judge/sandbox.h; issue 26): what a runner reaches without
it and cannot reach inside it, with the verdict unchanged; and the runner's process tree still
measured and killed from outside the sandbox's PID namespace (the memory cases of
test_hostile.py, run sandboxed).

Where bwrap cannot run (not installed, no user namespaces), each case prints that it skipped
and why.

usage: test_sandbox.py --judge PATH --hostile-codec PATH [--full-vectors DIR] [--sanitized 0/1]
                       CASE
"""

import argparse
import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import test_hostile as th  # noqa: E402  (judge(), check(), the memory cases)

PROBE = os.path.join(HERE, "sandbox_probe_runner.py")
ATTACKS = [
    "write_report",
    "write_xfail",
    "write_vectors_dir",
    "read_vector_file",
    "signal_judge",
    "judge_fds",
    "network",
]
check = th.check
REASON = None  # why bwrap cannot run here, once asked


def bwrap_missing():
    """None if `bwrap --ro-bind / / true` runs here, else why not (printed as the skip)."""
    global REASON
    if REASON is None:
        path = shutil.which("bwrap")
        if not path:
            REASON = "bwrap is not installed (Debian: apt-get install bubblewrap)"
        else:
            p = subprocess.run(
                [path, "--ro-bind", "/", "/", "true"], capture_output=True, text=True, timeout=30
            )
            REASON = "" if p.returncode == 0 else "bwrap cannot run here: %s" % p.stderr.strip()
    return REASON or None


def skipped(case):
    why = bwrap_missing()
    if why:
        print("skip: %s: %s" % (case, why))
    return bool(why)


def private_dir(prefix):
    """A folder outside /tmp (the sandbox's /tmp is private, so a path there would be hidden
    anyway and prove nothing): beside the test's working folder."""
    base = os.path.join(os.getcwd(), "sandbox-tests")
    os.makedirs(base, exist_ok=True)
    return tempfile.mkdtemp(prefix=prefix, dir=base)


def listener():
    """A TCP port on 127.0.0.1 that accepts (the machine's network, which a runner inside the
    sandbox's network namespace must not reach)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(8)

    def serve():
        while True:
            try:
                c, _ = s.accept()
                c.close()
            except OSError:
                return

    threading.Thread(target=serve, daemon=True).start()
    return s


def probe_run(sandbox):
    """The oracle behind the probe, with reports, an expected-failure list and the vectors in
    folders the runner could write without a sandbox; returns (run, attempts by name)."""
    work = private_dir("probe-")
    vectors = os.path.join(work, "vectors")
    shutil.copytree(th.VECTORS, vectors)  # the judge's copy: hidden in the sandbox
    oracle_vectors = os.path.join(work, "oracle-vectors")  # the oracle reads its own
    shutil.copytree(th.VECTORS, oracle_vectors)
    scratch = os.path.join(work, "scratch")
    os.mkdir(scratch)
    reports = os.path.join(work, "reports")
    os.mkdir(reports)
    xfail = os.path.join(work, "xfail.txt")
    with open(xfail, "w", encoding="utf-8") as f:
        f.write("# nothing is expected to fail\n")
    sock = listener()
    spec = {
        "log": os.path.join(scratch, "attempts.jsonl"),
        "report": os.path.join(reports, "report.json"),
        "xfail": xfail,
        "vectors": vectors,
        "port": sock.getsockname()[1],
        "judge": os.path.basename(shlex.split(th.ARGS.judge)[0]),
        "tmp_name": "smc-probe-%d-%s" % (os.getpid(), sandbox),
    }
    with open(os.path.join(scratch, "spec.json"), "w", encoding="utf-8") as f:
        json.dump(spec, f)
    runner = "%s %s %s -- %s" % (
        th.PY,
        PROBE,
        os.path.join(scratch, "spec.json"),
        th.oracle(oracle_vectors),
    )
    args = ["--sandbox", sandbox, "--xfail", "p=" + xfail, "--json", spec["report"]]
    args += ["--sandbox-write", scratch] if sandbox != "none" else []
    try:
        r = th.judge(args, ["p=" + runner], vectors=vectors, reports=False)
    finally:
        sock.close()
    with open(spec["report"], encoding="utf-8") as f:
        r.report = json.load(f)
    with open(spec["log"], encoding="utf-8") as f:
        lines = [json.loads(l) for l in f]
    tmp_file = os.path.join("/tmp", spec["tmp_name"])
    r.tmp_leaked = os.path.exists(tmp_file)
    if r.tmp_leaked:
        os.unlink(tmp_file)
    return r, lines, spec


def case_attacks():
    """Without the sandbox the runner writes the report file, the expected-failure list and a
    file in the vectors folder, may signal the judge, lists /proc/JUDGE/fd and reaches the
    machine's network (shown); inside it each fails, its /tmp is its own, and the verdict is
    the same."""
    if skipped("attacks"):
        return
    bare, bare_tries, _ = probe_run("none")
    boxed, boxed_tries, spec = probe_run("bwrap")
    for tries, label in ((bare_tries, "without"), (boxed_tries, "inside")):
        check(
            {t["attack"] for t in tries} >= set(ATTACKS),
            "%s the sandbox every attack was tried: %s" % (label, tries),
        )
    for attack in ATTACKS:
        done_bare = [t for t in bare_tries if t["attack"] == attack]
        done_boxed = [t for t in boxed_tries if t["attack"] == attack]
        check(
            all(t["done"] for t in done_bare),
            "without the sandbox the runner can %s: %s" % (attack, done_bare[0]["detail"]),
        )
        check(
            not any(t["done"] for t in done_boxed),
            "inside the sandbox it cannot %s: %s" % (attack, done_boxed[0]["detail"]),
        )
        print(
            "%-18s without: %s\n%-18s inside:  %s"
            % (attack, done_bare[0]["detail"], "", done_boxed[0]["detail"])
        )
    check(bare.tmp_leaked, "without the sandbox its /tmp file lands in the machine's /tmp")
    check(
        not boxed.tmp_leaked and all(t["done"] for t in boxed_tries if t["attack"] == "write_tmp"),
        "inside, /tmp is writable and private: nothing lands in the machine's /tmp",
    )
    with open(spec["xfail"], encoding="utf-8") as f:
        check("probe-was-here" not in f.read(), "the list the sandboxed run used is untouched")
    check(
        not os.path.exists(os.path.join(spec["vectors"], "s99-probe.json")),
        "no file was added to the sandboxed run's vectors",
    )
    last = [r.out.rstrip("\n").split("\n")[-1].split(":")[0] for r in (bare, boxed)]
    check(last[0] == last[1] and bare.code == boxed.code == 0, "the same verdict: %s" % last, boxed)
    counts = [r.report["runners"][0]["counts"] for r in (bare, boxed)]
    check(counts[0] == counts[1], "the same counts: %s" % counts)
    check(
        boxed.report["sandbox"]["used"] and not bare.report["sandbox"]["used"],
        "the JSON report says which run was sandboxed: %s / %s"
        % (boxed.report["sandbox"], bare.report["sandbox"]),
    )
    check(
        "sandbox: runners sandboxed: bwrap" in boxed.out
        and "sandbox: runners NOT sandboxed: none (--sandbox none)" in bare.out,
        "so does the text report's head",
        boxed,
    )


def case_reports():
    """Every report states the sandbox: text (its head), JSON, JUnit property, HTML; and
    `--sandbox auto` without a bwrap says first, on stderr, that none was used and why."""
    if skipped("reports"):
        return
    oracle_vectors = private_dir("oracle-")
    shutil.rmtree(oracle_vectors)
    shutil.copytree(th.VECTORS, oracle_vectors)
    r = th.judge(["--sandbox", "bwrap"], ["o=" + th.oracle(oracle_vectors)])
    check(r.code == 0, "the oracle passes sandboxed", r)
    head = r.out.split("\n")[:4]
    check(
        any(l.startswith("sandbox: runners sandboxed: bwrap: read-only") for l in head),
        "the text report's head: %s" % head,
        r,
    )
    props = th.ET.parse(os.path.join(r.tmp, "report.xml")).getroot().iter("property")
    junit = [p.get("value") for p in props if p.get("name") == "sandbox"]
    check(junit and junit[0].startswith("sandboxed: bwrap"), "the JUnit property: %s" % junit)
    with open(os.path.join(r.tmp, "report.html"), encoding="utf-8") as f:
        check("runners sandboxed: bwrap" in f.read(), "the HTML report's head")
    # no bwrap on PATH: auto runs without, and says so first; bwrap is a setup error
    bin_dir = private_dir("nobwrap-")
    os.symlink(sys.executable, os.path.join(bin_dir, "python3"))
    env = {"PATH": bin_dir}
    r = th.judge(["--sandbox", "auto"], ["o=" + th.oracle(oracle_vectors)], env=env)
    check(r.code == 0, "auto without bwrap runs", r)
    check(
        r.err.startswith(
            "smc conformance: no sandbox for the runners: none (--sandbox auto): "
            "bwrap is not on PATH"
        ),
        "and says first that no sandbox was used, and why: %s" % r.err[:200],
        r,
    )
    check(
        not r.report["sandbox"]["used"] and "not on PATH" in r.report["sandbox"]["note"],
        "the JSON report too: %s" % r.report["sandbox"],
    )
    r = th.judge(["--sandbox", "bwrap"], ["o=" + th.oracle(oracle_vectors)], env=env, reports=False)
    check(
        r.code == 2 and "--sandbox bwrap: bwrap is not on PATH" in r.err,
        "--sandbox bwrap without bwrap: a setup error",
        r,
    )
    # a folder the runner may write must not hold what the judge writes
    wdir = private_dir("write-")
    r = th.judge(
        ["--sandbox", "bwrap", "--sandbox-write", wdir, "--json", os.path.join(wdir, "r.json")],
        ["o=" + th.oracle(oracle_vectors)],
        reports=False,
    )
    check(
        r.code == 2 and "which the runner must not reach" in r.err,
        "--sandbox-write over a report's folder: a setup error",
        r,
    )


def sandboxed(case):
    """Run test_hostile.py's `case` with every judge run sandboxed: its verdicts must hold."""
    if skipped(case):
        return
    plain = th.judge

    def judge(args, runners, **kw):
        return plain(args + ["--sandbox", "bwrap"], runners, **kw)

    th.judge = judge
    try:
        th.CASES[case]()
    finally:
        th.judge = plain


def case_allocation_bomb():
    """In the sandbox, a codec that fills what a length bomb declares is still killed at
    --memory-limit (its memory is read from outside the PID namespace)."""
    sandboxed("allocation_bomb")


def case_fork_bomb():
    """In the sandbox, a decode in a forked child that fills 400 MiB still counts."""
    sandboxed("fork_bomb")


def case_escaped_memory():
    """A setsid() grandchild holding 300 MiB under --memory-limit 100M: in the sandbox it is
    reparented to the namespace's init (bwrap), inside the runner's tree, so it counts without
    being an escape; it is killed with the tree, and the request fails as `resource`."""
    if skipped("escaped_memory"):
        return
    if not th.ARGS.full_vectors:
        print(
            "skip: escaped_memory: no --full-vectors directory (the run must outlast a tree read)"
        )
        return
    if not th.measured("escaped_memory sandboxed (a grandchild's 300 MiB)"):
        return
    r = th.judge(
        ["--memory-limit", "100M", "--max-restarts", "3", "--sandbox", "bwrap"],
        ["h=" + th.ARGS.hostile_codec],
        vectors=th.ARGS.full_vectors,
        env=th.hostile("setsid-hold=300"),
    )
    check(r.code == 1, "exit 1", r)
    dets = [
        c["detail"]
        for x in r.results("h").values()
        for c in x["checks"]
        if c["outcome"] == "fail" and c.get("reason") == "resource"
    ]
    named = [d for d in dets if "over --memory-limit 100.0 MiB" in d]
    check(named, "resource failures naming the limit: %s" % dets[:2], r)
    check(
        r.runner("h")["memory"]["peak_resident"] > 100 << 20,
        "the peak counts the holder: %s" % r.runner("h")["memory"],
        r,
    )


CASES = {n[5:]: f for n, f in globals().items() if n.startswith("case_")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--judge", required=True)
    ap.add_argument("--hostile-codec", required=True)
    ap.add_argument("--hostile-codec-asan", default="")
    ap.add_argument("--c-runner", default="")
    ap.add_argument("--full-vectors", default="")
    ap.add_argument("--sanitized", type=int, default=0)
    ap.add_argument("case", choices=sorted(CASES) + ["all"])
    args = ap.parse_args()
    args.full_vectors = args.full_vectors if os.path.isdir(args.full_vectors or "") else None
    th.ARGS = th.tj.ARGS = args
    th.tj.run_cases(CASES, args.case)


if __name__ == "__main__":
    main()
