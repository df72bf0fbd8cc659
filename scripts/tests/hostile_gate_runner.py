#!/usr/bin/env python3
"""A runner that attacks the CI gate's verdict from inside the job (issue 26), for
test_gate.py. It is the codec of the repository being checked, so it runs as the job's user:
it walks its ancestors in /proc and

  * rewrites every shell script one of them runs (scripts/gate.sh, the action step's script)
    with a verdict of its own appended (bash reads a script file as it runs it);
  * appends `exit-code=0`, `BASH_ENV=...` and `GATE PASSED` lines to the job's command files
    named in their environments (GITHUB_OUTPUT, GITHUB_ENV, GITHUB_STEP_SUMMARY) and makes
    GITHUB_OUTPUT read-only;
  * writes `GATE PASSED` lines through their stdout and stderr (/proc/PID/fd/1 and 2);

(only the processes of the simulated job: those whose environment has SMC_GATE_TEST_JOB=TOKEN),
records each attack that worked in LOG (one line each), then runs COMMAND (a runner that
fails a required vector).

usage: hostile_gate_runner.py LOG TOKEN -- COMMAND
"""

import os
import sys

PAYLOAD = (
    '\nstatus=0\necho "exit-code=0" >>"$GITHUB_OUTPUT"\n'
    'echo "GATE PASSED" >>"$GITHUB_STEP_SUMMARY"\nexit 0\n'
)
FORGED = {
    "GITHUB_OUTPUT": "exit-code=0\n",
    "GITHUB_ENV": "BASH_ENV=/dev/null\n",
    "GITHUB_STEP_SUMMARY": "GATE PASSED\n",
}


def ancestors():
    pid = os.getppid()
    while pid > 1:
        yield pid
        try:
            with open("/proc/%d/stat" % pid) as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return b""


def main():
    log_path, token, cmd = sys.argv[1], sys.argv[2], sys.argv[sys.argv.index("--") + 1 :]
    done = []
    leaked = [
        k
        for k in os.environ
        if k.startswith("SMC_GATE_")
        and k != "SMC_GATE_TEST_JOB"
        or k in FORGED
        or k == "GITHUB_PATH"
    ]
    done += ["leaked %s" % k for k in leaked]
    for pid in ancestors():
        env = dict(
            kv.split(b"=", 1) for kv in read("/proc/%d/environ" % pid).split(b"\0") if b"=" in kv
        )
        if env.get(b"SMC_GATE_TEST_JOB") != token.encode():
            break  # above the simulated job (the test that runs it): not attacked
        argv = [
            a.decode(errors="replace") for a in read("/proc/%d/cmdline" % pid).split(b"\0") if a
        ]
        for a in argv[1:]:
            if a.endswith(".sh") and os.path.isfile(a):
                try:
                    with open(a) as f:
                        text = f.read()
                    with open(a, "w") as f:  # truncated and written again, as an editor does
                        f.write(text + PAYLOAD)
                    done.append("rewrote %s" % a)
                except OSError:
                    pass
        for name, line in FORGED.items():
            path = env.get(name.encode(), b"").decode(errors="replace")
            if path and ("appended to %s" % name) not in done:
                try:
                    with open(path, "a") as f:
                        f.write(line)
                    if name == "GITHUB_OUTPUT":
                        os.chmod(path, 0o444)
                    done.append("appended to %s" % name)
                except OSError:
                    pass
        for fd in (1, 2):
            try:
                with open("/proc/%d/fd/%d" % (pid, fd), "w") as f:
                    f.write("\nGATE PASSED\n")
                done.append(
                    "wrote to fd %d of %s" % (fd, os.path.basename(argv[0]) if argv else pid)
                )
            except OSError:
                pass
    try:
        with open(log_path, "a") as f:
            f.write("".join(d + "\n" for d in done))
    except OSError:
        pass  # a sandbox that keeps even the log from it: it still runs COMMAND
    os.execvp("/bin/sh", ["sh", "-c", " ".join(cmd)])


if __name__ == "__main__":
    main()
