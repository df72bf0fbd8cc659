#!/usr/bin/env python3
"""The installed suite works from its prefix alone (docs/versioning.md, issue 19).

    python3 scripts/tests/test_install.py --build BUILD_DIR

Installs BUILD_DIR into a prefix, moves that prefix elsewhere and deletes the original, copies
the C reference runner next to it, and then works from an empty temporary directory, with
PATH=/usr/bin:/bin and no SMC_VECTORS_DIR. Nothing of the checkout is on any path the judge
looks at. It checks:

* the installed tree: every vector file of MANIFEST.json byte for byte (SHA-256), schema.json,
  MANIFEST.json, the spec pages and notation cases, runners/PROTOCOL.md, the report schema, no
  generator;
* `smc --version` prints the versions that the defining files say (read here independently):
  SmcVersion.cmake, the spec's title, MANIFEST.json, PROTOCOL.md's title;
* `smc conformance --runner mine=<copied runner>` with no --vectors runs every vector of the
  installed set and passes (host-type vectors of the vocabularies it does not speak are n/a,
  and only those). The first report line and the JSON report name the installed
  directory and its vectors version. A decoy `vectors/` with a malformed file in the current
  directory is not used;
* the version it names is the loaded files' own: "0.1, 0.2, unknown" for a directory mixing
  releases and a file without one; a malformed vectors_version is refused (exit 2);
* the judge speaks the protocol PROTOCOL.md documents. Its hello, recorded through `tee`,
  lists that version, and the JSON report says it;
* without the installed vectors the judge falls back to ./vectors (here the decoy, which it
  refuses: exit 2). With neither it exits 2, naming the installed place it looked in.
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from checks import ROOT, check, foreign_host_vectors, verdict


def run(cmd, cwd, env):
    return subprocess.run(
        cmd,
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        universal_newlines=True,
    )


def first_line(path):
    with open(path, encoding="utf-8") as f:
        return f.readline().rstrip("\n")


def expected_versions():
    """The versions as the files that define them say, parsed here, not by CMake."""
    with open(os.path.join(ROOT, "ref-decoder/cmake/SmcVersion.cmake")) as f:
        library = re.search(r"^set\(SMC_VERSION ([0-9.]+)\)", f.read(), re.M).group(1)
    spec = re.search(
        r"specification v([0-9.]+)$",
        first_line(os.path.join(ROOT, "spec/standard-message-codec.md")),
    ).group(1)
    protocol = re.match(
        r"# Runner protocol, version ([0-9]+)$",
        first_line(os.path.join(ROOT, "runners/PROTOCOL.md")),
    ).group(1)
    with open(os.path.join(ROOT, "vectors/MANIFEST.json")) as f:
        manifest = json.load(f)
    return library, spec, protocol, manifest


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def check_tree(prefix, manifest):
    share = os.path.join(prefix, "share", "smc")
    vec = os.path.join(share, "vectors")
    for name, meta in sorted(manifest["files"].items()):
        path = os.path.join(vec, name)
        check(
            os.path.isfile(path) and sha256(path) == meta["sha256"],
            "installed vectors/%s matches MANIFEST.json's SHA-256" % name,
        )
    for name in ("MANIFEST.json", "schema.json", "retired.txt", "README.md"):
        check(os.path.isfile(os.path.join(vec, name)), "installed vectors/%s" % name)
    installed = {n for n in os.listdir(vec) if re.match(r"s[0-9][0-9]-.*\.json$", n)}
    check(
        installed == set(manifest["files"]),
        "no vector file beyond MANIFEST.json's",
        sorted(installed ^ set(manifest["files"])),
    )
    check(not os.path.exists(os.path.join(vec, "gen")), "the generator is not installed")
    spec_pages = sorted(
        n
        for n in os.listdir(os.path.join(ROOT, "spec"))
        if n.endswith(".md") or n == "notation-cases.json"
    )
    for name in spec_pages:
        check(os.path.isfile(os.path.join(share, "spec", name)), "installed spec/%s" % name)
    for rel in ("runners/PROTOCOL.md", "judge/report.schema.json", "docs/versioning.md"):
        src, dst = os.path.join(ROOT, rel), os.path.join(share, rel)
        check(os.path.isfile(dst) and sha256(dst) == sha256(src), "installed %s" % rel)
    example = os.path.join(ROOT, "runners", "c", "example")
    for name in sorted(os.listdir(example)):  # the C kit's example, to copy from the prefix
        dst = os.path.join(share, "examples", "c-runner", name)
        check(
            os.path.isfile(dst) and sha256(dst) == sha256(os.path.join(example, name)),
            "installed examples/c-runner/%s" % name,
        )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True, help="a configured and built tree")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    library, spec, protocol, manifest = expected_versions()
    total = manifest["total"]["vectors"]
    tmp = tempfile.mkdtemp(prefix="smc-install-test-")
    try:
        stage = os.path.join(tmp, "stage")
        r = subprocess.run(
            ["cmake", "--install", build, "--prefix", stage],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            universal_newlines=True,
        )
        if not check(r.returncode == 0, "cmake --install into a fresh prefix", r.stdout):
            return 1
        prefix = os.path.join(tmp, "elsewhere", "prefix")  # relocated: the install path is gone
        shutil.copytree(stage, prefix, symlinks=True)
        shutil.rmtree(stage)
        runner = os.path.join(tmp, "mine", "my-runner")
        os.makedirs(os.path.dirname(runner))
        shutil.copy2(os.path.join(build, "runners", "c", "smc-c-runner"), runner)
        work = os.path.join(tmp, "work")
        os.makedirs(work)
        env = {k: v for k, v in os.environ.items() if k != "SMC_VECTORS_DIR"}
        env["PATH"] = "/usr/bin:/bin"
        smc = os.path.join(prefix, "bin", "smc")
        installed_vectors = os.path.join(prefix, "share", "smc", "vectors")

        check_tree(prefix, manifest)

        # smc bench reads the installed payloads by default, not the build tree's (issue 27):
        # it runs, and with an installed payload removed it names the installed file.
        env.pop("SMC_BENCH_MANIFEST", None)
        bench = [
            smc,
            "bench",
            "--json",
            "--samples",
            "1",
            "--warmup-ms",
            "0",
            "--min-sample-us",
            "0",
            "--payload",
            "b_anr_1",
            "--ops",
            "decode",
        ]
        r = run(bench, work, env)
        check(
            r.returncode == 0 and '"payload":"b_anr_1.bin"' in r.stdout,
            "installed smc bench runs on the installed payloads",
            r.stdout[-1000:] + r.stderr,
        )
        installed_payload = os.path.join(prefix, "share", "smc", "bench", "payloads", "b_anr_1.bin")
        os.rename(installed_payload, installed_payload + ".away")
        r = run(bench, work, env)
        check(
            r.returncode != 0 and os.path.join(prefix, "share", "smc", "bench") in r.stderr,
            "without that installed payload it fails naming the installed place",
            r.stderr,
        )
        os.rename(installed_payload + ".away", installed_payload)

        r = run([smc, "--version"], work, env)
        want = "smc %s\nlibrary %s (libsmc)\nspec %s\nvectors %s (format %d)\nprotocol %s\n" % (
            library,
            library,
            spec,
            manifest["vectors_version"],
            manifest["format_version"],
            protocol,
        )
        check(
            r.returncode == 0 and r.stdout == want,
            "smc --version names the library, spec, vectors and protocol versions of their files",
            "want:\n%sgot:\n%s%s" % (want, r.stdout, r.stderr),
        )

        # A decoy ./vectors that the judge must not prefer to the installed set.
        os.makedirs(os.path.join(work, "vectors"))
        with open(os.path.join(work, "vectors", "s99-decoy.json"), "w") as f:
            f.write("{ not a vector file")
        r = run(
            [
                smc,
                "conformance",
                "--runner",
                "mine=" + runner,
                "--no-progress",
                "--json",
                "r.json",
                "--junit",
                "r.xml",
                "--html",
                "r.html",
            ],
            work,
            env,
        )
        head = r.stdout.split("\n", 1)[0]
        check(
            r.returncode == 0 and r.stdout.rstrip().endswith("GATE PASSED"),
            "installed smc conformance passes the copied C runner with no --vectors",
            r.stdout[-2000:] + r.stderr,
        )
        check(
            head.startswith(
                "smc conformance: vectors %s from %s (%d files): %d of %d selected;"
                % (
                    manifest["vectors_version"],
                    installed_vectors,
                    len(manifest["files"]),
                    total,
                    total,
                )
            ),
            "the first report line names the installed vectors, their version and count",
            head,
        )
        try:
            with open(os.path.join(work, "r.json")) as f:
                rep = json.load(f)
        except (OSError, ValueError) as e:
            check(False, "JSON report written", e)
            return 1
        check(
            rep["vectors"]["dir"] == installed_vectors
            and rep["vectors"]["version"] == manifest["vectors_version"]
            and rep["vectors"]["total"] == total,
            "the JSON report names the installed directory, version and total",
            rep["vectors"],
        )
        counts = rep["runners"][0]["counts"]
        # Host-type vectors (spec §17) of a vocabulary the runner does not speak are n/a;
        # every other vector passes.
        na = foreign_host_vectors(installed_vectors, rep["runners"][0]["hosts"])
        check(
            counts.get("pass") == total - na and counts.get("na") == na,
            "all %d vectors passed but the %d host-type vectors of vocabularies the runner does "
            "not speak (n/a)" % (total - na, na),
            counts,
        )
        check(
            str(rep["protocol"]) == protocol,
            "the JSON report's protocol is PROTOCOL.md's (%s)" % protocol,
            rep["protocol"],
        )
        for name in ("r.xml", "r.html"):
            check(os.path.getsize(os.path.join(work, name)) > 0, "%s written" % name)

        # The judge's hello lists PROTOCOL.md's version (one section is enough to see it).
        r = run(
            [
                smc,
                "conformance",
                "--runner",
                "mine=tee hello.log | " + runner,
                "--no-progress",
                "--section",
                "2",
            ],
            work,
            env,
        )
        try:
            with open(os.path.join(work, "hello.log")) as f:
                hello = json.loads(f.readline())
        except (OSError, ValueError) as e:
            hello = {"error": str(e)}
        spoken = hello.get("protocols", [hello.get("protocol")])
        check(
            r.returncode == 0 and int(protocol) in spoken,
            "the judge's hello offers protocol %s (PROTOCOL.md)" % protocol,
            hello,
        )

        # The version named is the loaded files' own: a set mixing releases says so, a file
        # without one is "unknown", a malformed one is refused.
        mixed = os.path.join(tmp, "mixed")
        os.makedirs(mixed)
        names = sorted(manifest["files"])[:3]
        for name, version in zip(names, ("0.1", manifest["vectors_version"], None), strict=True):
            with open(os.path.join(installed_vectors, name)) as f:
                doc = json.load(f)
            if version is None:
                del doc["vectors_version"]
            else:
                doc["vectors_version"] = version
            with open(os.path.join(mixed, name), "w") as f:
                json.dump(doc, f)
        r = run(
            [
                smc,
                "conformance",
                "--vectors",
                mixed,
                "--allow-modified-vectors",
                "--runner",
                "mine=" + runner,
                "--no-progress",
            ],
            work,
            env,
        )
        check(
            r.returncode == 0
            and r.stdout.startswith(
                "smc conformance: vectors 0.1, %s, unknown from %s "
                % (manifest["vectors_version"], mixed)
            ),
            "a set mixing releases is named as such",
            r.stdout.split("\n", 1)[0] + r.stderr,
        )
        doc["vectors_version"] = "0.2-beta"
        with open(os.path.join(mixed, names[2]), "w") as f:
            json.dump(doc, f)
        r = run(
            [
                smc,
                "conformance",
                "--vectors",
                mixed,
                "--allow-modified-vectors",
                "--runner",
                "mine=" + runner,
                "--no-progress",
            ],
            work,
            env,
        )
        check(
            r.returncode == 2 and "%s: `vectors_version`" % names[2] in r.stderr,
            "a malformed vectors_version is refused (exit 2)",
            r.stderr,
        )

        # Without the installed set: ./vectors next (the decoy, refused), then nothing at all.
        shutil.rmtree(installed_vectors)
        r = run([smc, "conformance", "--runner", "mine=" + runner, "--no-progress"], work, env)
        check(
            r.returncode == 2 and "s99-decoy.json" in r.stderr,
            "without installed vectors the judge falls back to ./vectors (malformed: exit 2)",
            r.stderr,
        )
        shutil.rmtree(os.path.join(work, "vectors"))
        r = run([smc, "conformance", "--runner", "mine=" + runner, "--no-progress"], work, env)
        check(
            r.returncode == 2
            and "no vectors directory" in r.stderr
            and installed_vectors in r.stderr,
            "with no vectors anywhere: exit 2, naming the installed place looked in",
            r.stderr,
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return verdict("test_install")


if __name__ == "__main__":
    sys.exit(main())
