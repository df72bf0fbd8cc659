#!/usr/bin/env python3
"""scripts/conformance.sh --help: the script's own options, and nothing installed or built.

Run with SMC_BUILD pointing at a folder that does not exist and a PATH without cmake or
apt-get: help must still print the script's options, exit 0 within seconds, and leave the
build folder uncreated (issue 27: it used to install and build everything, then print the
judge's help)."""

import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    tmp = tempfile.mkdtemp(prefix="smc-conformance-help-")
    build = os.path.join(tmp, "build")
    env = dict(os.environ, SMC_BUILD=build, PATH="/usr/bin:/bin")
    failed = 0
    for flag in ("--help", "-h"):
        t0 = time.monotonic()
        p = subprocess.run(
            ["bash", os.path.join(ROOT, "scripts", "conformance.sh"), flag],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        secs = time.monotonic() - t0
        checks = [
            (p.returncode == 0, "exit 0 (got %d)" % p.returncode),
            (p.stdout.startswith("usage: bash scripts/conformance.sh"), "the script's usage line"),
            ("--strict-expectations" in p.stdout, "names --strict-expectations"),
            ("smc conformance --help" in p.stdout, "says where the judge's options are"),
            (not os.path.exists(build), "nothing built (SMC_BUILD not created)"),
            (p.stderr == "", "nothing on stderr (no install or build output): %r" % p.stderr[:200]),
            (secs < 10, "prompt (%.1f s)" % secs),
        ]
        for ok, what in checks:
            print("%s: %s %s" % ("ok" if ok else "FAIL", flag, what))
            failed += not ok
    print("test_conformance_script: %s" % ("FAILED" if failed else "PASS"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
