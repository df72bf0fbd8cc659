#!/usr/bin/env python3
"""Record the vector bytes of a release in vectors/gen/released.json (docs/versioning.md).

A vectors version names one set of bytes (spec/vectors.md V.4). This writes, for VERSION, the
commit it was taken from, the SHA-256 of every vector file and every vector id, all read from
git at that commit, never from the working tree. test_released.py compares the vectors with
every record: same version, same bytes; `since` the first recorded version that has the id.

    python3 vectors/gen/release_record.py --version 0.3 --commit v0.3.0
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RECORD = os.path.join(ROOT, "vectors", "gen", "released.json")


def git_show(commit, path):
    return subprocess.run(
        ["git", "-C", ROOT, "show", "%s:%s" % (commit, path)], check=True, capture_output=True
    ).stdout


def record_of(commit):
    full = subprocess.run(
        ["git", "-C", ROOT, "rev-parse", commit + "^{commit}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    manifest = json.loads(git_show(full, "vectors/MANIFEST.json"))
    files, ids = {}, []
    for name in sorted(manifest["files"]):
        data = git_show(full, "vectors/" + name)
        files[name] = hashlib.sha256(data).hexdigest()
        ids += [v["id"] for v in json.loads(data)["vectors"]]
    return manifest["vectors_version"], {"commit": full, "files": files, "ids": sorted(ids)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--version", required=True, help="the vectors_version being recorded")
    ap.add_argument("--commit", required=True, help="the commit (or tag) that is the release")
    ap.add_argument("--note", default="", help="one line: which release this commit is")
    a = ap.parse_args()
    version, rec = record_of(a.commit)
    if version != a.version:
        sys.exit(
            "release_record: %s has vectors_version %s, not %s" % (a.commit, version, a.version)
        )
    records = {}
    if os.path.exists(RECORD):
        with open(RECORD, encoding="utf-8") as f:
            records = json.load(f)
    if a.version in records and records[a.version]["files"] != rec["files"]:
        sys.exit(
            "release_record: %s is recorded already with other bytes (a version names one "
            "set of bytes; bump VERSION instead)" % a.version
        )
    if a.note:
        rec["note"] = a.note
    records[a.version] = rec
    with open(RECORD, "w", encoding="utf-8") as f:
        json.dump(records, f, indent=1, sort_keys=True)
        f.write("\n")
    print(
        "recorded vectors %s: %d files, %d vectors, commit %s"
        % (a.version, len(rec["files"]), len(rec["ids"]), rec["commit"])
    )


if __name__ == "__main__":
    main()
