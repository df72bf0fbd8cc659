"""The `catches` field: which catalogued bugs each vector catches (spec/vectors.md V.2).

The catalogue of bugs real codecs have shipped (spec/bugs-in-the-wild.md) exists once, as
code: mutants/ in the C tree, a codec in which each entry can be switched on, run as a
runner by runners/c/smc-c-mutant-runner. A vector catches an entry when the judge, running a
mutant runner with exactly that bug on over the vectors, does not pass it: it fails, or, at
an implementation-defined tier, differs. One judge run holds every entry's runner at once;
`--write-xfail` gives each one's failing vector ids, which is all this needs.

Wycheproof does the same by hand (a test vector's `flags` name the bug a failure suggests);
here the flags are computed, so they cannot claim a bug the vector does not catch, nor miss
one it does."""

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Entries that live in a host's side of the encoder (spec §17: what a host type is written
# as) and that the mutant runner, which speaks only the `c` vocabulary, cannot show, or shows
# only on `c` (largeint-written): a codec with each is the host model of
# judge/tests/host_runner.py with that bug, speaking the vocabularies of the port that
# shipped it (HOST_RUNNER_BUG, HOST_RUNNER_HOSTS).
HOST_ENTRY_RUNNERS = {
    "f32-four-bytes": ("swift-float4", "swift,any"),
    "uint64s-as-ints": ("dart-uint64-list", "dart"),
    # the mutant runner shows it on the `c` largeInt alone; JAVA's own is Kotlin's BigInteger
    "largeint-written": ("java-biginteger", "kotlin,c"),
}

ID_LINE = re.compile(r"^(s\d\d\.\d+-\S+)\s")
# A failure no list may excuse (a crash, spec R1.4-17) is written as a comment, and a vector
# whose mutant crashes on it still catches that bug (the replayed crash kinds, issue 28).
UNLISTABLE_LINE = re.compile(r"^# not listable: (s\d\d\.\d+-\S+) ")


class CatchesError(SystemExit):
    pass


def catalogue(mutants_tool):
    """The catalogue's entries (not the test-only controls), in catalogue order."""
    try:
        out = subprocess.run(
            [mutants_tool, "--json"], capture_output=True, text=True, timeout=60, check=True
        )
    except (OSError, subprocess.SubprocessError) as e:
        raise CatchesError("cannot list the bug catalogue with %s: %s" % (mutants_tool, e)) from e
    return [e["id"] for e in json.loads(out.stdout) if not e["control"]]


def entry_runner(bug, mutant_runner):
    """The runner command of a codec with exactly catalogue entry `bug` on."""
    if bug in HOST_ENTRY_RUNNERS:
        fault, hosts = HOST_ENTRY_RUNNERS[bug]
        return "HOST_RUNNER_BUG=%s HOST_RUNNER_HOSTS=%s %s %s" % (
            fault,
            hosts,
            shlex.quote(sys.executable),
            shlex.quote(os.path.join(ROOT, "judge", "tests", "host_runner.py")),
        )
    return "SMC_MUTANTS=%s %s" % (bug, shlex.quote(mutant_runner))


def compute(vectors_dir, smc, mutant_runner, mutants_tool):
    """{vector id: [bug ids, catalogue order]} for the vectors in vectors_dir."""
    ids = catalogue(mutants_tool)
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [
            smc,
            "conformance",
            "--vectors",
            vectors_dir,
            "--gate",
            "all",
            "--no-progress",
            "--max-details",
            "0",
        ]
        if (
            b"--no-diagnosis"
            in subprocess.run([smc, "conformance", "--help"], capture_output=True).stdout
        ):
            cmd.append("--no-diagnosis")  # the causes are known: they are the runners' names
        if (
            b"--no-complexity"
            in subprocess.run([smc, "conformance", "--help"], capture_output=True).stdout
        ):
            cmd.append("--no-complexity")  # `catches` is about values; timing is spec §15.4's
        for bug in ids:
            cmd += [
                "--runner",
                "%s=%s" % (bug, entry_runner(bug, mutant_runner)),
                "--write-xfail",
                "%s=%s" % (bug, os.path.join(tmp, bug + ".txt")),
            ]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        if p.returncode not in (0, 1):
            raise CatchesError(
                "the judge could not run the mutant runners (exit %d): %s"
                % (p.returncode, p.stderr[-2000:])
            )
        caught = {}
        for bug in ids:
            path = os.path.join(tmp, bug + ".txt")
            if not os.path.exists(path):
                raise CatchesError(
                    "the judge wrote no failure list for %s: %s" % (bug, p.stderr[-2000:])
                )
            with open(path, encoding="utf-8") as f:
                for line in f:
                    m = ID_LINE.match(line) or UNLISTABLE_LINE.match(line)
                    if m:
                        caught.setdefault(m.group(1), []).append(bug)
    missing = [b for b in ids if not any(b in v for v in caught.values())]
    if missing:
        raise CatchesError(
            "no vector catches %s: every catalogued bug needs a vector that fails a codec "
            "with it (spec/bugs-in-the-wild.md)" % ", ".join(missing)
        )
    return caught


def from_committed(vectors_dir):
    """The `catches` of the committed vectors (when the C tools are not there to compute them)."""
    out = {}
    for name in sorted(os.listdir(vectors_dir)):
        if re.match(r"^s\d\d-.*\.json$", name):
            with open(os.path.join(vectors_dir, name), encoding="utf-8") as f:
                for v in json.load(f)["vectors"]:
                    if v.get("catches"):
                        out[v["id"]] = list(v["catches"])
    return out
