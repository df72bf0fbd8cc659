#!/usr/bin/env python3
"""scripts/check_layers.py proved by breaking what it checks (issue 32).

A copy of the checkout's tracked files (a git repository of its own, in a temporary
directory) must pass the check as it is; then each break below, made in the copy and undone
after, must fail it with the line that names it: an include that goes up a room of the
judge, an import that goes up a Python package, a judge file missing from judge/README.md's
map, a room header that does not offer what another room includes, a report writer that
reads the run instead of the report model, and a folder of judge/ that no room names.

usage: test_check_layers.py   (exit 0: every break caught)
"""

import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def tracked_copy(dst):
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    for rel in (f.decode() for f in files if f):
        src = os.path.join(ROOT, rel)
        if not os.path.isfile(src):
            continue  # deleted in the working tree, not yet committed
        os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
        shutil.copy2(src, os.path.join(dst, rel))
    # untracked files the working tree adds (a new file not yet committed) count as well
    extra = subprocess.run(
        ["git", "ls-files", "-z", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for rel in (f.decode() for f in extra if f):
        os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, rel), os.path.join(dst, rel))
    subprocess.run(["git", "init", "-q"], cwd=dst, check=True)
    subprocess.run(["git", "add", "-A"], cwd=dst, check=True)


def check(copy):
    p = subprocess.run(
        [sys.executable, os.path.join(copy, "scripts", "check_layers.py")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    return p.returncode, p.stdout + p.stderr


def edit(copy, rel, old, new):
    path = os.path.join(copy, rel)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if old not in text:
        raise SystemExit("test_check_layers: %s no longer has %r: update the break" % (rel, old))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new, 1))
    subprocess.run(["git", "add", "-A"], cwd=copy, check=True)
    return text


# (name, file, text replaced, replacement, what the check must say)
BREAKS = [
    (
        "an include up a room",
        "judge/base/alloc.c",
        '#include "alloc.h"\n',
        '#include "alloc.h"\n#include "report_util.h"\n',
        ["judge/base/alloc.c:", "judge/base includes report_util.h from judge/report", "circle"],
    ),
    (
        "the session calling the verdict again",
        "judge/run/session.c",
        '#include "runner_io.h"\n',
        '#include "runner_io.h"\n#include "verdict.h"\n',
        ["judge/run includes verdict.h from judge/verdict", "circle between judge/run"],
    ),
    (
        "a Python import up a package",
        "vectors/gen/bite.py",
        "import caselib\n",
        "import caselib\nimport test_hostile\n",
        ["vectors/gen imports test_hostile from judge/tests", "Python: circle"],
    ),
    (
        "a judge file missing from the map",
        "judge/README.md",
        "| `host_verdict.c` |",
        "| host_verdict |",
        ["judge/verdict/host_verdict.c: not in judge/README.md's map"],
    ),
    (
        "a room header that does not offer what another room includes",
        "judge/verdict/verdict_room.h",
        '#include "xfail.h"\n',
        "",
        ["includes xfail.h, which judge/verdict/verdict_room.h does not offer"],
    ),
    (
        "a report writer reading the run again, not the report model",
        "judge/report/report_html.c",
        "    causes(b, model);\n",
        '    causes(b, model);\n    smct_buf_printf(b, "%zu", model->run->n_runners);\n',
        ["judge/report/report_html.c:", "a report writer reads the run, not the report model"],
    ),
]


def main():
    failed = 0
    with tempfile.TemporaryDirectory(prefix="check-layers-") as copy:
        tracked_copy(copy)
        code, out = check(copy)
        if code != 0:
            print("FAIL: the unbroken copy does not pass check_layers.py:\n" + out)
            return 1
        print("ok: the unbroken copy passes")
        for name, rel, old, new, want in BREAKS:
            text = edit(copy, rel, old, new)
            code, out = check(copy)
            missing = [w for w in want if w not in out]
            if code == 1 and not missing:
                print("ok: %s fails the check" % name)
            else:
                print("FAIL: %s: exit %d, missing %s\n%s" % (name, code, missing, out))
                failed += 1
            with open(os.path.join(copy, rel), "w", encoding="utf-8") as f:
                f.write(text)
        os.makedirs(os.path.join(copy, "judge", "newroom"))
        with open(os.path.join(copy, "judge", "newroom", "new.c"), "w", encoding="utf-8") as f:
            f.write("/* a room no one named */\n")
        code, out = check(copy)
        if code == 1 and "judge/newroom: a folder of the judge that JUDGE_ROOMS" in out:
            print("ok: an unnamed folder of judge/ fails the check")
        else:
            print("FAIL: an unnamed folder of judge/: exit %d\n%s" % (code, out))
            failed += 1
    print("test_check_layers: %s" % ("FAILED" if failed else "PASS"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
