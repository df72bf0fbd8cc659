#!/usr/bin/env python3
"""A runner that first tries to reach what the judge keeps from it (test_sandbox.py), writes
what it managed as one JSON line per attempt to the log SPEC names, and then becomes the
runner INNER (the verdict is INNER's).

Each attempt counts as done only when its effect is seen: a write is read back (the sandbox
hides a file behind /dev/null, where a write vanishes), a signal is delivered (signal 0: the
right to signal, with no effect), a folder is listed, a connection is made, a vector file parsed.

usage: sandbox_probe_runner.py SPEC -- INNER...
SPEC (JSON): log, report, xfail, vectors, port, judge (the judge's executable name), tmp_name
"""

import json
import os
import socket
import sys

spec_path = sys.argv[1]
inner = sys.argv[sys.argv.index("--") + 1 :]
with open(spec_path, encoding="utf-8") as f:
    SPEC = json.load(f)
MARK = "probe-was-here"
results = []


def attempt(name, fn):
    try:
        detail = fn()
        results.append({"attack": name, "done": True, "detail": detail})
    except Exception as e:  # noqa: BLE001  (every failure is the answer)
        results.append({"attack": name, "done": False, "detail": "%s: %s" % (type(e).__name__, e)})


def write_read_back(path):
    with open(path, "a", encoding="utf-8") as f:
        f.write("# %s\n" % MARK)
    with open(path, encoding="utf-8") as f:
        if MARK not in f.read():
            raise OSError("written, but not there when read back")
    return "appended to %s" % path


def find_judge():
    for d in os.listdir("/proc"):
        if not d.isdigit() or int(d) == os.getpid():
            continue
        try:
            with open("/proc/%s/cmdline" % d, "rb") as f:
                argv0 = f.read().split(b"\0")[0].decode(errors="replace")
        except OSError:
            continue
        if os.path.basename(argv0) == SPEC["judge"]:
            return int(d)
    raise LookupError("no process named %s in this /proc" % SPEC["judge"])


def signal_judge():
    pid = find_judge()
    os.kill(pid, 0)
    return "may signal the judge, process %d" % pid


def judge_fds():
    pid = find_judge()
    fds = os.listdir("/proc/%d/fd" % pid)
    return "the judge's fds: %s, fd 1 is %s" % (
        sorted(fds, key=int)[:8],
        os.readlink("/proc/%d/fd/1" % pid),
    )


def network():
    with socket.create_connection(("127.0.0.1", SPEC["port"]), timeout=2):
        return "connected to 127.0.0.1:%d" % SPEC["port"]


def read_vector_file():
    names = sorted(n for n in os.listdir(SPEC["vectors"]) if n.endswith(".json"))
    with open(os.path.join(SPEC["vectors"], names[0]), encoding="utf-8") as f:
        doc = json.load(f)  # behind /dev/null: empty, not JSON
    return "read %d vectors of %s" % (len(doc["vectors"]), names[0])


def write_tmp():
    return write_read_back(os.path.join("/tmp", SPEC["tmp_name"]))


attempt("write_report", lambda: write_read_back(SPEC["report"]))
attempt("write_xfail", lambda: write_read_back(SPEC["xfail"]))
attempt(
    "write_vectors_dir", lambda: write_read_back(os.path.join(SPEC["vectors"], "s99-probe.json"))
)
attempt("read_vector_file", read_vector_file)
attempt("signal_judge", signal_judge)
attempt("judge_fds", judge_fds)
attempt("network", network)
attempt("write_tmp", write_tmp)
with open(SPEC["log"], "a", encoding="utf-8") as f:
    for r in results:
        f.write(json.dumps(r) + "\n")
os.execvp(inner[0], inner)
