#!/usr/bin/env python3
"""cpu_bounded.run, the bound kit_cases.py puts on a conversation: a command that ends is
never cut short however long it waits for a core; one that spins is ended by its tree's CPU
time, one that hangs by its idle time, and the whole tree goes with it."""

import subprocess
import sys

import cpu_bounded
from checks import check, verdict

PY = sys.executable


def ended(cmd, **limits):
    """The bound's message when run() ended `cmd`, else None (and its output)."""
    try:
        r = cpu_bounded.run(cmd, "", None, **limits)
        return None, r
    except subprocess.TimeoutExpired as e:
        return e.stderr.splitlines()[-1], None


def main():
    r = cpu_bounded.run([PY, "-c", "import sys; print(sys.stdin.read().upper())"], "ab\n", None)
    check(r.returncode == 0 and r.stdout == "AB\n\n", "input in, output out: %r" % r.stdout)
    # waits longer than the idle bound in wall time, but keeps computing: never a hang
    why, r = ended(
        [PY, "-c", "import time\nt = time.monotonic()\nwhile time.monotonic() - t < 4: pass"],
        idle_limit=2,
    )
    check(why is None and r.returncode == 0, "4 s of work under a 2 s idle bound ends: %s" % why)
    why, _ = ended([PY, "-c", "while True: pass"], cpu_limit=2)
    check(why is not None and "(a spin)" in why, "a spin is ended by CPU time: %s" % why)
    # the spin in a grandchild: the tree's CPU time, not the direct child's (counting the
    # child alone would see an idle shell and call it a hang)
    why, _ = ended(["sh", "-c", "%s -c 'while True: pass'; :" % PY], cpu_limit=2, idle_limit=20)
    check(why is not None and "(a spin)" in why, "a spinning grandchild too: %s" % why)
    why, _ = ended(["sleep", "600"], idle_limit=3)
    check(why is not None and "(a hang)" in why, "a hang is ended by idle time: %s" % why)
    return verdict("test_cpu_bounded")


if __name__ == "__main__":
    sys.exit(main())
