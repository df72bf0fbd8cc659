#!/usr/bin/env python3
"""The release command: reproducible archives, printed sums, and refusals (docs/versioning.md).

    python3 scripts/tests/test_release.py

* scripts/release.py run twice on HEAD writes byte-identical archives and SHA256SUMS. It prints
  the same SHA-256 lines both times, and they are the files' sums (`sha256sum -c` agrees);
* the source archive is exactly the documented recipe (`git archive ... | gzip -n -9`) and
  holds every tracked file under its versioned prefix;
* the vectors archive holds exactly MANIFEST.json, schema.json, retired.txt and the vector
  files of HEAD, flat, 0:0, mode 0644, one time stamp;
* in a scratch clone, each check refuses with exit 1, names the problem and writes no archive:
  a v* tag other than v<library>; vectors changed under an already-tagged vectors_version; the
  manifest's spec_version off the spec's; a vector file off its manifest SHA-256. A library-only
  release there ships the same vectors archive, byte for byte. Outside a git checkout: exit 2.
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

from checks import ROOT, check, verdict

RELEASE = os.path.join(ROOT, "scripts", "release.py")


def release(out, repo=ROOT, ref="HEAD"):
    return subprocess.run(
        [sys.executable, RELEASE, "--out", out, "--repo", repo, "--ref", ref],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        universal_newlines=True,
    )


def git(repo, *args):
    r = subprocess.run(
        [
            "git",
            "-C",
            repo,
            "-c",
            "user.name=release test",
            "-c",
            "user.email=release-test@invalid",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "tag.gpgsign=false",
        ]
        + list(args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    if r.returncode != 0:
        raise RuntimeError("git %s: %s" % (" ".join(args), r.stderr.decode()))
    return r.stdout


def read(path):
    with open(path, "rb") as f:
        return f.read()


def versions():
    with open(os.path.join(ROOT, "ref-decoder/cmake/SmcVersion.cmake")) as f:
        library = re.search(r"^set\(SMC_VERSION ([0-9.]+)\)", f.read(), re.M).group(1)
    vectors = json.loads(git(ROOT, "show", "HEAD:vectors/MANIFEST.json"))["vectors_version"]
    return library, vectors


def check_twice(tmp, src_name, vec_name):
    a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
    ra, rb = release(a), release(b)
    if not check(
        ra.returncode == 0 and rb.returncode == 0, "release.py runs twice", ra.stderr + rb.stderr
    ):
        return None
    names = [src_name, vec_name, "SHA256SUMS"]
    check(sorted(os.listdir(a)) == sorted(names), "it writes %s" % ", ".join(names), os.listdir(a))
    for n in names:
        check(read(os.path.join(a, n)) == read(os.path.join(b, n)), "%s: the same bytes twice" % n)
    want = "".join(
        "%s  %s\n" % (hashlib.sha256(read(os.path.join(a, n))).hexdigest(), n)
        for n in (src_name, vec_name)
    )
    check(
        ra.stdout == want and rb.stdout == want,
        "it prints the archives' SHA-256 lines, the same both times",
        "printed:\n%s%s\nwant:\n%s" % (ra.stdout, rb.stdout, want),
    )
    check(
        read(os.path.join(a, "SHA256SUMS")).decode() == want, "SHA256SUMS holds the printed lines"
    )
    r = subprocess.run(
        ["sha256sum", "-c", "SHA256SUMS"],
        cwd=a,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        universal_newlines=True,
    )
    check(r.returncode == 0, "sha256sum -c SHA256SUMS agrees", r.stdout)
    print("  " + want.rstrip().replace("\n", "\n  "))
    return a


def check_contents(a, src_name, vec_name):
    prefix = src_name[: -len(".tar.gz")] + "/"
    recipe = subprocess.run(
        "git -C '%s' archive --format=tar --prefix=%s HEAD | gzip -n -9" % (ROOT, prefix),
        shell=True,
        stdout=subprocess.PIPE,
    )
    check(
        recipe.returncode == 0 and recipe.stdout == read(os.path.join(a, src_name)),
        "the source archive is `git archive --prefix=%s HEAD | gzip -n -9`" % prefix,
    )
    with tarfile.open(os.path.join(a, src_name)) as t:
        files = {m.name[len(prefix) :] for m in t.getmembers() if m.isfile()}
    tracked = set(git(ROOT, "ls-tree", "-r", "--name-only", "HEAD").decode().split("\n")) - {""}
    check(
        files == tracked,
        "the source archive holds every tracked file of HEAD and nothing else",
        sorted(files ^ tracked)[:20],
    )

    vprefix = vec_name[: -len(".tar.gz")] + "/"
    with tarfile.open(os.path.join(a, vec_name)) as t:
        members = t.getmembers()
        data = {m.name[len(vprefix) :]: t.extractfile(m).read() for m in members if m.isfile()}
    listing = git(ROOT, "ls-tree", "--name-only", "HEAD", "vectors/").decode().split()
    want = sorted(
        os.path.basename(p)
        for p in listing
        if re.match(r"vectors/s[0-9][0-9]-[^/]+\.json$", p)
        or os.path.basename(p)
        in ("MANIFEST.json", "schema.json", "retired.txt", "c15-complexity.json")
    )
    check(
        sorted(data) == want,
        "the vectors archive holds exactly the vector files, flat",
        sorted(data),
    )
    check(
        all(data[n] == git(ROOT, "show", "HEAD:vectors/" + n) for n in data),
        "each is byte for byte HEAD's",
    )
    check(
        [m.name for m in members] == [vprefix.rstrip("/")] + [vprefix + n for n in want],
        "entries in name order after their directory",
        [m.name for m in members][:5],
    )
    check(
        all(m.uid == 0 and m.gid == 0 and m.uname == "" and m.gname == "" for m in members),
        "owner 0:0, no user names",
    )
    check(
        all(m.mode == (0o755 if m.isdir() else 0o644) for m in members),
        "modes 0644 (0755 the directory)",
    )
    check(len({m.mtime for m in members}) == 1, "one time stamp for every entry")
    return read(os.path.join(a, vec_name))


def refuses(clone, tmp, what, needle, ref="HEAD"):
    out = os.path.join(tmp, "refused")
    shutil.rmtree(out, ignore_errors=True)
    r = release(out, clone, ref)
    check(
        r.returncode == 1 and needle in r.stderr and not os.path.exists(out),
        "refused (exit 1, nothing written): %s" % what,
        "exit %d\n%s" % (r.returncode, r.stderr),
    )


def commit_all(clone, message):
    git(clone, "commit", "-q", "-a", "-m", message)


def check_refusals(tmp, library, vectors, vec_archive, vec_name):
    clone = os.path.join(tmp, "clone")
    subprocess.run(["git", "clone", "-q", ROOT, clone], check=True)
    head = git(clone, "rev-parse", "HEAD").decode().strip()

    git(clone, "tag", "v9.9.9")
    refuses(clone, tmp, "a v* tag that is not v%s" % library, "tag v9.9.9")
    git(clone, "tag", "-d", "v9.9.9")

    # The tagged release, then vectors that change under the same vectors_version.
    git(clone, "tag", "v" + library)
    with open(os.path.join(clone, "vectors", "retired.txt"), "a") as f:
        f.write("# a changed line\n")
    commit_all(clone, "vectors change, version does not")
    refuses(
        clone,
        tmp,
        "vectors changed since v%s under vectors %s" % (library, vectors),
        "differ from those of v%s" % library,
    )
    git(clone, "reset", "-q", "--hard", head)

    manifest_path = os.path.join(clone, "vectors", "MANIFEST.json")
    manifest = json.loads(read(manifest_path))
    manifest["spec_version"] = "9.9"
    with open(manifest_path, "w") as f:
        json.dump(manifest, f)
    commit_all(clone, "manifest off the spec")
    refuses(clone, tmp, "MANIFEST.json's spec_version is not the spec's", "spec_version")
    git(clone, "reset", "-q", "--hard", head)

    first = sorted(json.loads(read(manifest_path))["files"])[0]
    with open(os.path.join(clone, "vectors", first), "ab") as f:
        f.write(b"\n")
    commit_all(clone, "a vector file off its manifest")
    refuses(clone, tmp, "a vector file whose SHA-256 is not the manifest's", "SHA-256 differs")
    git(clone, "reset", "-q", "--hard", head)

    # A library-only release (tagged v<library> above; the new commit is v<library>+patch).
    cmake_path = os.path.join(clone, "ref-decoder", "cmake", "SmcVersion.cmake")
    major, minor, patch = library.split(".")
    bumped = "%s.%s.%d" % (major, minor, int(patch) + 1)
    text = (
        read(cmake_path)
        .decode()
        .replace("set(SMC_VERSION %s)" % library, "set(SMC_VERSION %s)" % bumped)
    )
    with open(cmake_path, "w") as f:
        f.write(text)
    commit_all(clone, "library %s" % bumped)
    out = os.path.join(tmp, "bumped")
    r = release(out, clone)
    check(
        r.returncode == 0
        and os.path.exists(os.path.join(out, "smc-conformance-%s.tar.gz" % bumped)),
        "a library-only release %s is accepted" % bumped,
        r.stderr,
    )
    check(
        r.returncode == 0 and read(os.path.join(out, vec_name)) == vec_archive,
        "and ships the same vectors archive, byte for byte",
    )

    plain = os.path.join(tmp, "not-a-checkout")
    os.makedirs(plain)
    r = release(os.path.join(tmp, "x"), plain)
    check(r.returncode == 2 and "release:" in r.stderr, "outside a git checkout: exit 2", r.stderr)


def main():
    library, vectors = versions()
    src_name, vec_name = "smc-conformance-%s.tar.gz" % library, "smc-vectors-%s.tar.gz" % vectors
    tmp = tempfile.mkdtemp(prefix="smc-release-test-")
    try:
        a = check_twice(tmp, src_name, vec_name)
        if a:
            vec_archive = check_contents(a, src_name, vec_name)
            check_refusals(tmp, library, vectors, vec_archive, vec_name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return verdict("test_release")


if __name__ == "__main__":
    sys.exit(main())
