#!/usr/bin/env python3
"""The numbers and recipes of the READMEs, checked against the data (issue 27).

COUNTS is the one table of every count the docs state: a file, a pattern whose group 1 is
the number as written, and the count it must equal, computed here from vectors/,
vectors/gen/released.json and the spec. Each pattern must match at least once, so a count
reworded out of reach of its check fails too instead of going unchecked. RECIPES run the
code the READMEs tell users to run, as written.

usage: test_docs.py [--smc PATH]   (--smc: also run the README's CLI session)
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VECTORS = os.path.join(ROOT, "vectors")
HOST_KINDS = ("host_encode", "host_decode")


def load_vectors():
    out = []
    for path in sorted(glob.glob(os.path.join(VECTORS, "s[0-9][0-9]-*.json"))):
        with open(path, encoding="utf-8") as f:
            out += json.load(f)["vectors"]
    return out


def facts():
    """Every number a doc may state, by name."""
    vs = load_vectors()
    since = Counter(v["since"] for v in vs)
    with open(os.path.join(VECTORS, "MANIFEST.json"), encoding="utf-8") as f:
        version = json.load(f)["vectors_version"]
    with open(os.path.join(VECTORS, "gen", "released.json"), encoding="utf-8") as f:
        released = json.load(f)
    with open(os.path.join(ROOT, "spec", "standard-message-codec.md"), encoding="utf-8") as f:
        spec = f.read()
    return {
        "vectors": len(vs),
        "host vectors": sum(v["kind"] in HOST_KINDS for v in vs),
        # the feature verdict of a runner that speaks no host vocabulary and has every entry
        "float32list vectors (no host)": sum(
            "float32list" in v["features"] and v["kind"] not in HOST_KINDS for v in vs
        ),
        "vectors 0.2": len(released["0.2"]["ids"]),
        "since 0.2": since["0.2"],
        "since current": since[version],
        "current version": version,
        "requirements": len(set(re.findall(r"\*\*\[(R\d+(?:\.\d+)?-\d+)\]", spec))),
        "divergences": len(set(re.findall(r"^\|\s*(D\d+)\s*\|", spec, re.M))),
        # the failures the main job's GATE line says dart-pigeon's list excused: every entry
        "dart-pigeon list": len(xfail_entries("dart-pigeon")),
    }


def xfail_entries(name):
    """The vector ids of judge/expected-failures/NAME.txt (comments and blank lines aside)."""
    with open(
        os.path.join(ROOT, "judge", "expected-failures", name + ".txt"), encoding="utf-8"
    ) as f:
        return [e for e in (ln.split("#", 1)[0].strip() for ln in f) if e]


N = r"(\d[\d,]*)"
COUNTS = [
    ("README.md", N + r" golden vectors", "vectors"),
    ("README.md", N + r" of them host-type vectors", "host vectors"),
    ("README.md", N + r" numbered requirements", "requirements"),
    ("README.md", N + r" named divergences", "divergences"),
    ("README.md", r"dart-pigeon: " + N + r" expected failures listed in", "dart-pigeon list"),
    ("judge/README.md", r"The full set \(" + N + r" vectors", "vectors"),
    (
        "judge/README.md",
        r"measured with the " + N + r" vectors before the host types",
        "vectors 0.2",
    ),
    (
        "judge/README.md",
        r"float32list \(decode, encode; R6\.5-1, MUST\) — " + N + r" vectors",
        "float32list vectors (no host)",
    ),
    (
        "runners/PROTOCOL.md",
        r"float32list \(decode; R6\.5-1, MUST\) — " + N + r"\s+vectors",
        "float32list vectors (no host)",
    ),
    ("vectors/README.md", r"`0\.2` for the " + N + r" added in 0\.2", "since 0.2"),
    ("vectors/README.md", r"for the " + N + r" added in this one", "since current"),
    ("vectors/README.md", r"`vectors_version` \(now `(\d+\.\d+)`\)", "current version"),
    ("spec/CHANGES.md", r"`s17-host-types\.json`, " + N + r" vectors", "host vectors"),
]


def number(text):
    return text if "." in text else int(text.replace(",", ""))


def count_problems():
    f, out = facts(), []
    for doc, pattern, name in COUNTS:
        with open(os.path.join(ROOT, doc), encoding="utf-8") as fh:
            text = fh.read()
        found = [number(m.group(1)) for m in re.finditer(pattern, text)]
        if not found:
            out.append(
                "%s: no text matches /%s/ (the count of %s): reworded? update COUNTS"
                % (doc, pattern, name)
            )
        for n in found:
            if n != f[name]:
                out.append("%s: says %s for %s; the data says %s" % (doc, n, name, f[name]))
    return out


def fenced_after(doc, heading, lang):
    """The first ```lang block after the line `heading` in doc."""
    with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
        text = f.read()
    at = text.index(heading)
    m = re.compile(r"^```%s\n(.*?)^```" % lang, re.S | re.M).search(text, at)
    return m.group(1)


# A codec for the recipe: the Python model the vectors are generated with (vectors/gen/smcpy).
MYCODEC = """
import sys
sys.path.insert(0, %r)
import smcpy
CodecError = smcpy.SmcError
def decode(entry, data):
    return smcpy.decode(entry, data)
def encode(entry, value):
    return smcpy.encode(entry, value).data
"""


def recipe_vectors_readme():
    """vectors/README.md, "Using the vectors without our judge": the Python loop, run from the
    repository root over every vector file with the Python model as `mycodec`."""
    code = fenced_after("vectors/README.md", "## Using the vectors without our judge", "python")
    tmp = tempfile.mkdtemp(prefix="smc-recipe-")
    with open(os.path.join(tmp, "mycodec.py"), "w") as f:
        f.write(MYCODEC % os.path.join(VECTORS, "gen"))
    with open(os.path.join(tmp, "recipe.py"), "w") as f:
        f.write(
            code
            + "\nprint('recipe: ran over', len(glob.glob('vectors/s[0-9][0-9]-*.json')), 'files')\n"
        )
    env = dict(os.environ, PYTHONPATH=tmp, PYTHONDONTWRITEBYTECODE="1")
    p = subprocess.run(
        [sys.executable, os.path.join(tmp, "recipe.py")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return p.returncode == 0, p.stdout + p.stderr


def recipe_catches():
    """vectors/README.md: the `catches` snippet, with every vector as `failed_vectors`."""
    code = fenced_after("vectors/README.md", "To turn your failures into suspects", "python")
    scope = {"failed_vectors": load_vectors()}
    exec(compile(code, "vectors/README.md (catches)", "exec"), scope)
    return bool(scope["suspects"]), "suspects: %s" % scope["suspects"].most_common(3)


def recipe_cli(smc):
    """README.md, "The CLI": every `$ command` line, run with `smc` being the given binary,
    must print exactly the lines below it."""
    block = fenced_after("README.md", "## The CLI", "")
    steps, problems = [], []
    for line in block.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line)
    for cmd, want in steps:
        cmd = re.sub(r"\bsmc\b", smc, cmd.split("  #")[0].rstrip(), count=1)
        p = subprocess.run(["/bin/sh", "-c", cmd], capture_output=True, text=True, timeout=60)
        got = (p.stdout + p.stderr).rstrip("\n").splitlines()
        if got != want:
            problems.append("%s\n  README: %s\n  got:    %s" % (cmd, want, got))
    return not problems and bool(steps), "\n".join(problems) or "%d commands" % len(steps)


def recipe_mutant_runner(smc):
    """judge/README.md, "Seeing a failing run": the command, from the repository root, must
    fail the gate for the switched-on bug (exit 1), with the build's paths as written."""
    with open(os.path.join(ROOT, "judge", "README.md"), encoding="utf-8") as f:
        text = f.read()
    at = text.index("## Seeing a failing run")
    cmd = re.search(r"^    (build/cli/smc conformance .*)$", text[at:], re.M).group(1)
    build = os.path.dirname(os.path.dirname(os.path.abspath(smc)))
    cmd = cmd.replace("build/", build + "/") + " --no-progress --max-details 0 --no-diagnosis"
    p = subprocess.run(
        ["/bin/sh", "-c", cmd], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    last = p.stdout.rstrip().splitlines()[-1] if p.stdout.strip() else p.stderr
    return p.returncode == 1 and last.startswith("GATE FAILED: m: "), "exit %d: %s" % (
        p.returncode,
        last,
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--smc", help="the smc binary, for the README's CLI session")
    a = ap.parse_args()
    failed = 0
    for p in count_problems():
        print("FAIL count: " + p)
        failed += 1
    if not failed:
        print("ok: %d counts in the docs agree with the data" % len(COUNTS))
    recipes = [
        ("vectors/README.md python loop", recipe_vectors_readme),
        ("vectors/README.md catches", recipe_catches),
    ]
    if a.smc:
        recipes.append(("README.md CLI session", lambda: recipe_cli(a.smc)))
        recipes.append(("judge/README.md mutant runner", lambda: recipe_mutant_runner(a.smc)))
    else:
        print("skip: README.md CLI session and judge/README.md mutant runner (no --smc given)")
    for name, fn in recipes:
        ok, out = fn()
        print(("ok: " if ok else "FAIL recipe: ") + name + ("" if ok else "\n" + out))
        failed += not ok
    print("test_docs: %s" % ("FAILED" if failed else "PASS"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
