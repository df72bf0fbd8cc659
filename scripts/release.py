#!/usr/bin/env python3
"""Builds the release archives of one commit, byte for byte the same on every run.

    python3 scripts/release.py [--out DIR] [--ref REF] [--repo DIR]

writes, into DIR (default out/release):

    smc-conformance-<library version>.tar.gz   the source tree of REF (default HEAD)
    smc-vectors-<vectors version>.tar.gz       the vector files alone, flat
    SHA256SUMS                                 `sha256sum -c` format

and prints the SHA-256 lines. Rules and reasons: docs/versioning.md. The archives are made
from the commit, never from the working tree (uncommitted changes are named and left out):

* source: `git archive --format=tar --prefix=smc-conformance-<v>/ <commit> | gzip -n -9`,
  which anyone can rerun to check a published archive (entries carry the commit's time);
* vectors: MANIFEST.json, schema.json, retired.txt and every sNN-*.json under
  smc-vectors-<v>/, in name order, owner 0:0, mode 0644, each with the time of the last commit
  that changed one of them, so the archive's bytes follow from the vectors alone and two
  library releases that share vectors ship the same vectors archive.

Before writing anything it checks the versions it names the archives by (exit 1 with every
problem listed): a semver library version; the spec's title version equal to the vectors'
spec_version; MANIFEST.json listing exactly the vector files, with their SHA-256 and headers;
a v[0-9]* tag on the commit equal to v<library version>; and no earlier such tag whose vectors
have the same vectors_version but other bytes. Exit 2: usage, not a git checkout, no gzip.
"""

import argparse
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VECTOR_FILE = re.compile(r"^s[0-9][0-9]-[^/]+\.json$")
VECTOR_EXTRAS = ("MANIFEST.json", "schema.json", "retired.txt", "c15-complexity.json")


class Setup(Exception):
    """A problem with the invocation or the machine (exit 2)."""


def git(repo, *args, binary=False):
    r = subprocess.run(
        ["git", "-C", repo] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    if r.returncode != 0:
        raise Setup("git %s: %s" % (" ".join(args), r.stderr.decode(errors="replace").strip()))
    return r.stdout if binary else r.stdout.decode()


def title_version(text, pattern, what, problems):
    first = text.split("\n", 1)[0]
    m = re.search(pattern, first)
    if not m:
        problems.append("%s: first line `%s` does not match `%s`" % (what, first, pattern))
        return None
    return m.group(1)


def read_versions(repo, commit, problems):
    """The four versions as the commit defines them (docs/versioning.md, "Where")."""

    def show(path):
        return git(repo, "show", "%s:%s" % (commit, path))

    cmake = show("ref-decoder/cmake/SmcVersion.cmake")
    m = re.search(r"^set\(SMC_VERSION ([^)\s]+)\)", cmake, re.M)
    library = m.group(1) if m else None
    if not library or not re.fullmatch(
        r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)", library
    ):
        problems.append(
            "ref-decoder/cmake/SmcVersion.cmake: SMC_VERSION `%s` is not MAJOR.MINOR.PATCH"
            % library
        )
    spec = title_version(
        show("spec/standard-message-codec.md"),
        r"specification v([0-9]+\.[0-9]+)$",
        "spec/standard-message-codec.md",
        problems,
    )
    protocol = title_version(
        show("runners/PROTOCOL.md"),
        r"^# Runner protocol, version ([0-9]+)$",
        "runners/PROTOCOL.md",
        problems,
    )
    manifest = json.loads(show("vectors/MANIFEST.json"))
    return {
        "library": library,
        "spec": spec,
        "protocol": protocol,
        "vectors": manifest.get("vectors_version"),
        "format": manifest.get("format_version"),
        "manifest": manifest,
    }


def vector_files(repo, commit):
    """{name: bytes} of the files the vectors archive holds."""
    names = git(repo, "ls-tree", "--name-only", commit, "vectors/").split("\n")
    names = [os.path.basename(n) for n in names if n]
    wanted = sorted(n for n in names if VECTOR_FILE.match(n) or n in VECTOR_EXTRAS)
    return {n: git(repo, "show", "%s:vectors/%s" % (commit, n), binary=True) for n in wanted}


def check_vectors(v, files, problems):
    manifest = v["manifest"]
    if v["spec"] and manifest.get("spec_version") != v["spec"]:
        problems.append(
            "vectors/MANIFEST.json: spec_version %r, but the spec is v%s (regenerate the "
            "vectors: vectors/gen/generate.py SPEC_VERSION)"
            % (manifest.get("spec_version"), v["spec"])
        )
    if not isinstance(v["vectors"], str) or not re.fullmatch(r"[0-9]+\.[0-9]+", v["vectors"]):
        problems.append(
            "vectors/MANIFEST.json: vectors_version %r is not MAJOR.MINOR" % v["vectors"]
        )
    listed = manifest.get("files", {})
    present = {n for n in files if VECTOR_FILE.match(n)}
    for name in sorted(present ^ set(listed)):
        problems.append(
            "vectors/%s: %s"
            % (
                name,
                "not in MANIFEST.json"
                if name in present
                else "listed in MANIFEST.json but missing",
            )
        )
    for name in sorted(present & set(listed)):
        if hashlib.sha256(files[name]).hexdigest() != listed[name].get("sha256"):
            problems.append("vectors/%s: SHA-256 differs from MANIFEST.json" % name)
        try:
            header = json.loads(files[name])
        except ValueError as e:
            problems.append("vectors/%s: not JSON (%s)" % (name, e))
            continue
        for key in ("format_version", "spec_version", "vectors_version"):
            if header.get(key) != manifest.get(key):
                problems.append(
                    "vectors/%s: %s %r, MANIFEST.json %r"
                    % (name, key, header.get(key), manifest.get(key))
                )


def check_tags(repo, commit, v, files, problems):
    """A tag names the library version; a vectors version names one set of bytes."""
    for tag in git(repo, "tag", "--points-at", commit, "--list", "v[0-9]*").split():
        if tag != "v%s" % v["library"]:
            problems.append(
                "tag %s on %s, but the library version is %s" % (tag, commit[:12], v["library"])
            )
    for tag in git(repo, "tag", "--list", "v[0-9]*").split():
        tagged = git(repo, "rev-parse", "%s^{commit}" % tag).strip()
        if tagged == commit:
            continue
        try:
            old = json.loads(git(repo, "show", "%s:vectors/MANIFEST.json" % tagged))
        except (Setup, ValueError):
            continue  # a tag from before the vectors had a manifest
        if old.get("vectors_version") == v["vectors"] and vector_files(repo, tagged) != files:
            problems.append(
                "the vectors differ from those of %s but vectors_version is still %s "
                "(bump vectors/gen/caselib.py VERSION, docs/versioning.md)" % (tag, v["vectors"])
            )


def gzip_n(data):
    """`gzip -n -9`: no name, no time stamp, so the bytes follow from the input alone."""
    try:
        r = subprocess.run(
            ["gzip", "-n", "-9", "-c"], input=data, stdout=subprocess.PIPE, check=True
        )
    except (OSError, subprocess.CalledProcessError) as e:
        raise Setup("gzip: %s" % e) from e
    return r.stdout


def vectors_tar(repo, commit, prefix, files):
    paths = ["vectors/" + n for n in files]
    mtime = int(git(repo, "log", "-1", "--format=%ct", commit, "--", *paths).strip())
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as tar:

        def add(name, data=None):
            info = tarfile.TarInfo(name)
            info.mtime, info.uid, info.gid, info.uname, info.gname = mtime, 0, 0, "", ""
            if data is None:
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                tar.addfile(info)
            else:
                info.size, info.mode = len(data), 0o644
                tar.addfile(info, io.BytesIO(data))

        add(prefix)
        for name in sorted(files):
            add(prefix + name, files[name])
    return out.getvalue()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "release"))
    ap.add_argument("--ref", default="HEAD")
    ap.add_argument("--repo", default=ROOT, help="the git checkout to release (default: this one)")
    a = ap.parse_args()
    repo = os.path.abspath(a.repo)
    try:
        commit = git(repo, "rev-parse", "--verify", "%s^{commit}" % a.ref).strip()
        problems = []
        v = read_versions(repo, commit, problems)
        files = vector_files(repo, commit)
        check_vectors(v, files, problems)
        check_tags(repo, commit, v, files, problems)
        if problems:
            print("release: refused (docs/versioning.md):", file=sys.stderr)
            for p in problems:
                print("  " + p, file=sys.stderr)
            return 1
        if a.ref == "HEAD" and git(repo, "status", "--porcelain", "--untracked-files=no").strip():
            print(
                "release: note: uncommitted changes are not in the archives (made from %s)"
                % commit[:12],
                file=sys.stderr,
            )
        src_name = "smc-conformance-%s" % v["library"]
        vec_name = "smc-vectors-%s" % v["vectors"]
        archives = [
            (
                src_name + ".tar.gz",
                gzip_n(
                    git(
                        repo,
                        "archive",
                        "--format=tar",
                        "--prefix=%s/" % src_name,
                        commit,
                        binary=True,
                    )
                ),
            ),
            (vec_name + ".tar.gz", gzip_n(vectors_tar(repo, commit, vec_name + "/", files))),
        ]
    except Setup as e:
        print("release: %s" % e, file=sys.stderr)
        return 2
    os.makedirs(a.out, exist_ok=True)
    sums = ""
    for name, data in archives:
        with open(os.path.join(a.out, name), "wb") as f:
            f.write(data)
        sums += "%s  %s\n" % (hashlib.sha256(data).hexdigest(), name)
    with open(os.path.join(a.out, "SHA256SUMS"), "w") as f:
        f.write(sums)
    print(
        "release %s of %s: library %s, spec %s, vectors %s (format %s), protocol %s"
        % (a.ref, commit[:12], v["library"], v["spec"], v["vectors"], v["format"], v["protocol"]),
        file=sys.stderr,
    )
    sys.stdout.write(sums)
    return 0


if __name__ == "__main__":
    sys.exit(main())
