"""Run a command to its end, ended early only when it spins or hangs, never because the
machine is slow: the bound is the CPU time of its process tree (a conversation that keeps
computing past CPU_LIMIT seconds is a spin on any machine), and a hang is a tree that used no
CPU at all for IDLE_LIMIT seconds of wall time while it still ran (its input is all written
up front, so a correct process is never idle that long: even at a load of 22 on two cores a
runnable one gets a core several times a second). Where /proc is missing, a wall bound of
WALL_LIMIT seconds stands in, generous for the same reason.
"""

import os
import signal
import subprocess
import time

CPU_LIMIT = 600.0
IDLE_LIMIT = 120.0
WALL_LIMIT = 3600.0
POLL = 1.0
TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid):
    """(ppid, CPU seconds of the process and its waited-for children), or None."""
    try:
        with open("/proc/%d/stat" % pid, encoding="ascii", errors="replace") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # after the name: state ppid ... utime(12) stime(13) cutime(14) cstime(15), from field 3
    return int(fields[1]), sum(int(x) for x in fields[11:15]) / TICK


def tree_cpu(root):
    """CPU seconds of `root` and every descendant alive now (None without /proc)."""
    if not os.path.isdir("/proc/self"):
        return None
    stats = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            s = _stat(int(name))
            if s:
                stats[int(name)] = s
    if root not in stats:
        return 0.0
    children = {}
    for pid, (ppid, _cpu) in stats.items():
        children.setdefault(ppid, []).append(pid)
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += stats[pid][1]
        todo += children.get(pid, [])
    return total


def run(cmd, input_text, env, cpu_limit=CPU_LIMIT, idle_limit=IDLE_LIMIT):
    """subprocess.run(cmd, input=input_text, text, stdout and stderr captured) bounded as the
    module says; raises subprocess.TimeoutExpired (saying which bound) when it ends it."""
    p = subprocess.Popen(
        cmd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        universal_newlines=True,
        start_new_session=True,  # its whole tree is ended with it
    )
    start = last_change = time.monotonic()
    last_cpu, pending = -1.0, input_text
    while True:
        try:
            out, err = p.communicate(pending, timeout=POLL)
            return subprocess.CompletedProcess(cmd, p.returncode, out, err)
        except subprocess.TimeoutExpired:
            pending = None  # written once: communicate() goes on where it stopped
        now, cpu = time.monotonic(), tree_cpu(p.pid)
        why = None
        if cpu is None:
            why = now - start > WALL_LIMIT and "%.0f s of wall time (no /proc)" % WALL_LIMIT
        else:
            if cpu != last_cpu:
                last_cpu, last_change = cpu, now
            if cpu > cpu_limit:
                why = "%.0f s of CPU time (a spin)" % cpu
            elif now - last_change > idle_limit:
                why = "idle for %.0f s (a hang)" % (now - last_change)
        if why:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                p.kill()
            out, err = p.communicate()
            raise subprocess.TimeoutExpired(cmd, now - start, output=out, stderr=err + "\n" + why)
