#!/usr/bin/env python3
"""scripts/conformance.sh --help: the script's own options, and nothing installed or built.

Run with SMC_BUILD pointing at a folder that does not exist and a PATH without cmake or
apt-get: help must still print the script's options, exit 0 within a second of CPU time, and
leave the build folder uncreated (issue 27: it used to install and build everything, then
print the judge's help). CPU time (the children's user + system), not wall time: on a loaded
machine printing help can wait seconds for a core, while an install or a build costs CPU
seconds wherever it runs."""

import os
import resource
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CPU_LIMIT = 1.0  # seconds: help costs a few ms; the build it used to start costs minutes


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main():
    tmp = tempfile.mkdtemp(prefix="smc-conformance-help-")
    build = os.path.join(tmp, "build")
    env = dict(os.environ, SMC_BUILD=build, PATH="/usr/bin:/bin")
    failed = 0
    for flag in ("--help", "-h"):
        cpu0 = children_cpu()
        # the wall-clock timeout only ends a hang (a failure either way), never a slow machine
        p = subprocess.run(
            ["bash", os.path.join(ROOT, "scripts", "conformance.sh"), flag],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        cpu = children_cpu() - cpu0
        checks = [
            (p.returncode == 0, "exit 0 (got %d)" % p.returncode),
            (p.stdout.startswith("usage: bash scripts/conformance.sh"), "the script's usage line"),
            ("--strict-expectations" in p.stdout, "names --strict-expectations"),
            ("smc conformance --help" in p.stdout, "says where the judge's options are"),
            (not os.path.exists(build), "nothing built (SMC_BUILD not created)"),
            (p.stderr == "", "nothing on stderr (no install or build output): %r" % p.stderr[:200]),
            (cpu < CPU_LIMIT, "prompt (%.3f s of CPU, under %.1f)" % (cpu, CPU_LIMIT)),
        ]
        for ok, what in checks:
            print("%s: %s %s" % ("ok" if ok else "FAIL", flag, what))
            failed += not ok
    print("test_conformance_script: %s" % ("FAILED" if failed else "PASS"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
