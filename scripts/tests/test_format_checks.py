#!/usr/bin/env python3
"""scripts/check_format.sh and check_swift_format.sh see every file a commit could add: the
tracked ones and the untracked ones git does not ignore (a new file used to pass until it was
committed, as both listed `git ls-files` only).

Each check runs in a repository of its own in a temporary directory (the script, the
layout configuration and a file laid out right, committed): it must pass as it is; then a
badly laid out new file, untracked, must fail it, named; the same file git-ignored must not;
a tracked file deleted in the working tree must not break it; and --fix lays the new file
out. The checkout itself is never touched. Swift is skipped, saying so, without swift-format
6.3 (check_swift_format.sh --have-tool).

usage: test_format_checks.py   (exit 0: every case as stated)
"""

import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAILED = []

GOOD_C = "int smc_good(int a)\n{\n    return a + 1;\n}\n"
BAD_C = "int   smc_bad( int a ){return a+1;}\n"
GOOD_SWIFT = "func good(_ a: Int) -> Int {\n    return a + 1\n}\n"
BAD_SWIFT = "func bad( _ a:Int )->Int{return a+1}\n"


def check(cond, what):
    print("%s: %s" % ("ok" if cond else "FAIL", what))
    if not cond:
        FAILED.append(what)


def git(repo, *args):
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def run(repo, script, *args):
    return subprocess.run(
        ["bash", os.path.join(repo, "scripts", script), *args],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=300,
    )


def repo_with(script, config, good_name, good):
    """A git repository holding `script`, `config` and `good_name` (committed)."""
    repo = tempfile.mkdtemp(prefix="fmtcheck-")
    os.makedirs(os.path.join(repo, "scripts"))
    shutil.copy(os.path.join(ROOT, "scripts", script), os.path.join(repo, "scripts", script))
    shutil.copy(os.path.join(ROOT, config), os.path.join(repo, config))
    write(os.path.join(repo, good_name), good)
    write(os.path.join(repo, "gone", good_name), good)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(
        repo,
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@example.invalid",
        "commit",
        "-q",
        "-m",
        "base",
    )
    return repo


def cases(tool, script, config, ext, good, bad):
    if run(ROOT, script, "--have-tool").returncode != 0:
        print("skip: %s: its pinned tool is not here (%s --have-tool)" % (tool, script))
        return
    repo = repo_with(script, config, "src/good." + ext, good)
    try:
        r = run(repo, script)
        check(r.returncode == 0, "%s: the committed file passes (exit %d)" % (tool, r.returncode))
        os.remove(os.path.join(repo, "gone", "src", "good." + ext))
        r = run(repo, script)
        check(
            r.returncode == 0,
            "%s: a tracked file deleted in the working tree is not checked (exit %d: %s)"
            % (tool, r.returncode, r.stderr.strip()[:200]),
        )
        git(repo, "checkout", "--", "gone")  # each case below on its own
        new = os.path.join(repo, "src", "new." + ext)
        write(new, bad)
        r = run(repo, script)
        check(
            r.returncode == 1 and "new." + ext in r.stdout + r.stderr,
            "%s: a badly laid out untracked file fails it, named (exit %d)" % (tool, r.returncode),
        )
        write(os.path.join(repo, ".gitignore"), "/src/new.%s\n" % ext)
        r = run(repo, script)
        check(
            r.returncode == 0 and "new." + ext not in r.stdout + r.stderr,
            "%s: the same file git-ignored is not checked (exit %d)" % (tool, r.returncode),
        )
        os.remove(os.path.join(repo, ".gitignore"))
        r = run(repo, script, "--fix")
        with open(new, encoding="utf-8") as f:
            fixed = f.read()
        check(r.returncode == 0 and fixed != bad, "%s: --fix lays the new file out" % tool)
        r = run(repo, script)
        check(r.returncode == 0, "%s: and it passes then (exit %d)" % (tool, r.returncode))
    finally:
        shutil.rmtree(repo, ignore_errors=True)


def main():
    cases("C", "check_format.sh", ".clang-format", "c", GOOD_C, BAD_C)
    cases("Swift", "check_swift_format.sh", ".swift-format", "swift", GOOD_SWIFT, BAD_SWIFT)
    if FAILED:
        print("test_format_checks: FAIL (%d)" % len(FAILED))
        return 1
    print("test_format_checks: PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
