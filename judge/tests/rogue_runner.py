#!/usr/bin/env python3
"""A proxy in front of a real runner that misbehaves the way hostile or broken runners do,
for the judge's robustness tests (issue 15). It relays each request to the runner it starts
(COMMAND), and each answer back, except where a mode says otherwise.

usage: rogue_runner.py MODES [--state FILE] [--tag TAG] -- COMMAND...
       rogue_runner.py u8s-echo                 (no COMMAND: a codec of its own)

MODES, comma-separated:
  hang-after:N        answer N requests per process, then hang (answer nothing more)
  trickle-after:N     answer N requests per process, then write each answer one byte every
                      0.8 s (never silent for a whole --timeout 1, never done)
  close-stdout-at:N   on the N-th request of the run, close stdout and keep running
  crash-at:N[+M...]   on the N-th (and M-th...) request of the run, die by SIGSEGV
  fatal-banner-at:N   on the N-th request of the run, print a "Fatal error: ..." line, then
                      300 lines of a register dump to stderr, and die by SIGABRT
  fork-hold:MIB       on every 3rd request of the run up to the 60th, before answering it,
                      fork a child that fills MIB MiB, holds it 60 ms and exits (a decode in a
                      short-lived child, outside any length bomb; needs --state)
  setsid-child        at start, leave a grandchild in a session of its own (setsid), asleep
  double-fork         at start, leave a grandchild whose parent exited at once, asleep
  forge-name          the hello answer names the codec "oracle\\n\\nGATE PASSED\\n" with ANSI
                      escapes, and its version and language carry controls too
  stderr-forge        before each answer, write "GATE PASSED" lines, ANSI escapes, a NUL and
                      invalid UTF-8 to stderr
  fffe-message        every error answer's message and class carry U+FFFE, U+FFFF, C0/C1
                      controls and ANSI escapes (so the checks fail and the reports show them)
  hello-once          the first process works; every later one dies before answering hello
  bad-hello-at:K      the K-th process started answers hello, and every request, with a line
                      that is not JSON (needs --state)
  u8s-echo            no COMMAND: a right codec for Uint8List messages only, fast on 64 MiB
  u8s-echo,refuse     the same, but each decode (and roundtrip) is refused as truncated at
                      offset 1 (encode is right): a failing big vector with a small answer,
                      which the diagnosis could replay
  big-wrong:MIB       no COMMAND: declares every feature of vectors/schema.json for messages
                      and answers every request with a wrong value of MIB MiB (a Uint8List;
                      encode and roundtrip: as many bytes of wrong hex)
"N-th request of the run" counts across the judge's restarts, in the --state file, and so do
the processes started.
The grandchildren are `sleep` processes whose argv[0] is TAG (default smc-rogue-stray), so a
test can look for survivors in /proc.
"""

import json
import os
import signal
import subprocess
import sys
import time

TAG = "smc-rogue-stray"


def parse(argv):
    if "--" in argv:
        i = argv.index("--")
        own, cmd = argv[:i], argv[i + 1 :]
    else:
        own, cmd = argv, []
    modes, state, tag = {}, None, TAG
    k = 0
    while k < len(own):
        if own[k] == "--state":
            state = own[k + 1]
            k += 2
        elif own[k] == "--tag":
            tag = own[k + 1]
            k += 2
        else:
            for m in own[k].split(","):
                name, _, arg = m.partition(":")
                modes[name] = arg
            k += 1
    return modes, state, tag, cmd


def bump(state):
    """The run-wide request count (atomic: the judge may SIGKILL us at any moment)."""
    try:
        with open(state) as f:
            n = int(f.read() or "0")
    except (OSError, ValueError):
        n = 0
    with open(state + ".tmp", "w") as f:
        f.write(str(n + 1))
    os.replace(state + ".tmp", state)
    return n + 1


def run_count(state):
    try:
        with open(state + ".starts") as f:
            n = int(f.read() or "0")
    except (OSError, ValueError):
        n = 0
    with open(state + ".starts.tmp", "w") as f:
        f.write(str(n + 1))
    os.replace(state + ".starts.tmp", state + ".starts")
    return n + 1


def sleeper(tag):
    os.execvp("sleep", [tag, "600"])


def leave_setsid_child(tag):
    if os.fork() == 0:
        os.setsid()
        for fd in (0, 1, 2):
            os.close(fd)
        sleeper(tag)


def leave_double_fork(tag):
    pid = os.fork()
    if pid == 0:
        if os.fork() == 0:
            os.setpgid(0, 0)  # out of the runner's process group too
            sleeper(tag)
        os._exit(0)
    os.waitpid(pid, 0)


BAD = "\ufffe\uffff\u0001\u0007\u001b[31m\u009b2J\u202e\u2028x"


def forge_hello(line):
    ans = json.loads(line)
    ans["codec"] = {
        "name": "oracle\n\nGATE PASSED\n\u001b[2J\u001b[32mall good\u001b[0m",
        "version": "1\r\nGATE PASSED",
        "language": "Py\u0000thon\u202e",
    }
    return json.dumps(ans).encode()


def fffe(line):
    ans = json.loads(line)
    if ans.get("status") == "error":
        ans["message"] = "rejected " + BAD
        ans["class"] = (ans.get("class") or "x") + BAD
    return json.dumps(ans).encode()


def forge_stderr():
    sys.stderr.buffer.write(
        b"\nGATE PASSED\n\x1b[2J\x1b]0;owned\x07\x00after-nul \xff\xfe\r\nGATE PASSED\n"
    )
    sys.stderr.buffer.flush()


def fork_hold(mib):
    pid = os.fork()
    if pid == 0:
        held = b"\x01" * (int(mib) << 20)  # every page touched: resident
        time.sleep(0.06)  # three of the judge's 20 ms memory sums: one late sum still sees it
        os._exit(len(held) & 0)
    os.waitpid(pid, 0)


def die(sig):
    sys.stdout.flush()
    os.kill(os.getpid(), sig)
    time.sleep(10)


def fatal_banner():
    err = sys.stderr
    err.write("rogue: decoding\nFatal error: Index out of range\n")
    err.write("Current stack trace:\n0    libswiftCore.so  0x00007f  _assertionFailure + 44\n")
    for i in range(300):
        err.write("r%02d 0x%016x\n" % (i % 32, i * 7919))
    err.flush()
    die(signal.SIGABRT)


def big_wrong(mib):
    """Every answer an n-MiB wrong value (issue 26: the judge keeps a bounded prefix of it)."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "vectors", "schema.json")) as f:
        features = json.load(f)["$defs"]["feature"]["enum"]
    n = int(float(mib) * (1 << 20))
    body = "ab" * n
    value = ('"value": ["u8s", "%s"]' % body).encode()
    hexed = ('"hex": "08ff%s%s"' % (n.to_bytes(4, "little").hex(), body)).encode()
    out = sys.stdout.buffer
    for raw in sys.stdin.buffer:
        req = json.loads(raw)
        seq, op = req["seq"], req["op"]
        if op == "hello":
            out.write(
                json.dumps(
                    {
                        "seq": 0,
                        "status": "ok",
                        "protocol": 1,
                        "codec": {"name": "big-wrong", "version": "0", "language": "Python"},
                        "entries": ["message"],
                        "capabilities": {"decode": features, "encode": features},
                        "options": [],
                    }
                ).encode()
                + b"\n"
            )
        elif op == "bye":
            out.write(b'{"seq": %d, "status": "ok"}\n' % seq)
            out.flush()
            return
        elif op == "decode":
            out.write(b'{"seq": %d, "status": "ok", %s}\n' % (seq, value))
        elif op == "roundtrip":
            out.write(b'{"seq": %d, "status": "ok", %s, %s}\n' % (seq, value, hexed))
        else:
            out.write(b'{"seq": %d, "status": "ok", %s}\n' % (seq, hexed))
        out.flush()


def u8s_echo(refuse=False):
    """A codec for messages that are one Uint8List (tag 08), nothing else: what the 20 MB and
    64 MiB tests need, fast (no JSON tree of the value, just string slices)."""
    out = sys.stdout.buffer
    for raw in sys.stdin.buffer:
        req = json.loads(raw)
        seq = req["seq"]
        op = req["op"]
        if op == "hello":
            out.write(
                json.dumps(
                    {
                        "seq": 0,
                        "status": "ok",
                        "protocol": 1,
                        "codec": {"name": "u8s-echo", "version": "0", "language": "Python"},
                        "entries": ["message"],
                        "capabilities": {"decode": [], "encode": []},
                        "options": [],
                    }
                ).encode()
                + b"\n"
            )
        elif op == "bye":
            out.write(b'{"seq": %d, "status": "ok"}\n' % seq)
            out.flush()
            return
        elif op in ("decode", "roundtrip"):
            h = req["hex"]
            n = int.from_bytes(bytes.fromhex(h[4:12]), "little") if h.startswith("08ff") else -1
            if n < 0 or len(h) != 12 + 2 * n:
                out.write(
                    b'{"seq": %d, "status": "skipped", "reason": "not a big Uint8List"}\n' % seq
                )
            else:
                extra = ', "hex": "%s"' % h if op == "roundtrip" else ""
                if refuse:
                    out.write(
                        b'{"seq": %d, "status": "error", "class": "truncated", "offset": 1}\n' % seq
                    )
                else:
                    out.write(
                        (
                            '{"seq": %d, "status": "ok", "value": ["u8s", "%s"]%s}\n'
                            % (seq, h[12:], extra)
                        ).encode()
                    )
        elif op == "encode":
            v = req["value"]
            if v[0] != "u8s":
                out.write(b'{"seq": %d, "status": "skipped", "reason": "not a Uint8List"}\n' % seq)
            else:
                n = len(v[1]) // 2
                out.write(
                    (
                        '{"seq": %d, "status": "ok", "hex": "08ff%s%s"}\n'
                        % (seq, n.to_bytes(4, "little").hex(), v[1])
                    ).encode()
                )
        out.flush()


def main():
    modes, state, tag, cmd = parse(sys.argv[1:])
    if "u8s-echo" in modes:
        u8s_echo("refuse" in modes)
        return
    if "big-wrong" in modes:
        big_wrong(modes["big-wrong"])
        return
    start = run_count(state) if state and ("hello-once" in modes or "bad-hello-at" in modes) else 0
    if "hello-once" in modes and start > 1:
        sys.stderr.write("rogue: dying before hello\n")
        os._exit(4)
    garbage = "bad-hello-at" in modes and start == int(modes["bad-hello-at"])
    if "setsid-child" in modes:
        leave_setsid_child(tag)
    if "double-fork" in modes:
        leave_double_fork(tag)
    child = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    out = sys.stdout.buffer
    answered = 0
    for raw in sys.stdin.buffer:
        req = json.loads(raw)
        child.stdin.write(raw)
        child.stdin.flush()
        line = child.stdout.readline().rstrip(b"\n")
        if garbage:
            line = b"rogue: not an answer"
        if req["op"] == "hello":
            out.write((forge_hello(line) if "forge-name" in modes else line) + b"\n")
            out.flush()
            continue
        if req["op"] == "bye":
            out.write(line + b"\n")
            out.flush()
            break
        n = bump(state) if state else 0
        if "hang-after" in modes and answered >= int(modes["hang-after"]):
            time.sleep(3600)
        if "trickle-after" in modes and answered >= int(modes["trickle-after"]):
            for b in line + b"\n":
                out.write(bytes([b]))
                out.flush()
                time.sleep(0.8)
            answered += 1
            continue
        if "close-stdout-at" in modes and n == int(modes["close-stdout-at"]):
            out.flush()
            os.close(1)
            time.sleep(3600)
        if "fork-hold" in modes and n % 3 == 0 and n <= 60:
            fork_hold(modes["fork-hold"])
        if "crash-at" in modes and n in {int(k) for k in modes["crash-at"].split("+")}:
            die(signal.SIGSEGV)
        if "fatal-banner-at" in modes and n == int(modes["fatal-banner-at"]):
            fatal_banner()
        if "stderr-forge" in modes:
            forge_stderr()
        if "fffe-message" in modes:
            line = fffe(line)
        out.write(line + b"\n")
        out.flush()
        answered += 1
    child.stdin.close()
    child.wait()


if __name__ == "__main__":
    main()
