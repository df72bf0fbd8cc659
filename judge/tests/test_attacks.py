#!/usr/bin/env python3
"""Attacks on the gate's verdict (issue 26): a run that tested nothing, excuses that excuse
everything, vectors that are not the released ones. Each case states the verdict the
judge must give; test_hostile.py's `judge()` runs it and checks no process survives.

usage: test_attacks.py --judge PATH [--full-vectors DIR] [--c-runner PATH] [--sanitized 0/1] CASE
"""

import argparse
import glob
import hashlib
import json
import os
import shutil
import tempfile
import xml.etree.ElementTree as ET

import test_hostile as th  # noqa: E402  (judge(), check(), oracle(), test_ids())

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
check = th.check


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def listed(path):
    """The vector ids an expected-failure list names (comments and blank lines apart)."""
    with open(path, encoding="utf-8") as f:
        return [l.split("#", 1)[0].strip() for l in f if l.split("#", 1)[0].strip()]


def junit_counts(r):
    suite = ET.parse(os.path.join(r.tmp, "report.xml")).getroot().find("testsuite")
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    return int(suite.get("failures")), int(suite.get("errors")), props


def every(switch, ids):
    return {"ORACLE_SABOTAGE": ",".join("%s:%s" % (switch, i) for i in ids)}


# ---- no pass without a test (spec §1.4, R1.4-16, R1.4-17) ---------------------------------


def case_everything_crashes_excused():
    """A runner that crashes on every request, with the list --write-xfail writes for it and
    then one naming every vector: neither excuses a crash (R1.4-8), the gate fails, the
    written list holds no entry, and JUnit counts the crashes as errors."""
    tmp = tempfile.mkdtemp(prefix="attack-")
    wrote = os.path.join(tmp, "written.txt")
    env = {"ORACLE_SABOTAGE": "crash_every_request"}
    r = th.judge(["--write-xfail", "o=" + wrote], ["o=" + th.oracle()], env=env)
    check(r.code == 1, "the crashing runner fails", r)
    check(listed(wrote) == [], "--write-xfail writes no line for a crash: %s" % listed(wrote)[:3])
    check(
        "# not listable: " in open(wrote, encoding="utf-8").read(), "and says why it left them out"
    )
    full = write(
        os.path.join(tmp, "all.txt"),
        "".join("%s  # TODO: triage (crash)\n" % i for i in th.test_ids()),
    )
    r = th.judge(["--xfail", "o=" + full], ["o=" + th.oracle()], env=env)
    last = r.out.rstrip("\n").split("\n")[-1]
    check(
        r.code == 1 and last.startswith("GATE FAILED"),
        "a list naming every crash fails: %s" % last,
        r,
    )
    check("not excused" in last, "the GATE line names the entries it refused", r)
    counts = r.runner("o")["counts"]
    check(
        counts["expected_failure"] == 0 and counts["pass"] == 0, "nothing excused: %s" % counts, r
    )
    failures, errors, props = junit_counts(r)
    check(
        errors + failures > 0 and props.get("expected_failures") == "0",
        "JUnit: %d errors, %d failures, %s expected failures"
        % (errors, failures, props.get("expected_failures")),
    )


def case_everything_skipped_excused():
    """Every vector answered `skipped`, every id listed: a required skip is never excused."""
    ids = th.test_ids()
    tmp = tempfile.mkdtemp(prefix="attack-")
    lst = write(os.path.join(tmp, "all.txt"), "".join("%s  # skip\n" % i for i in ids))
    r = th.judge(["--xfail", "o=" + lst], ["o=" + th.oracle()], env=every("skip", ids))
    check(r.code == 1, "exit 1", r)
    check("not excused" in r.out.splitlines()[-1], "the refused entries are named", r)


def case_everything_wrong_excused():
    """Wrong answers are what a list may excuse; but a run that passed no vector of the
    mandatory core tested nothing (R1.4-17), however complete the list. The calls (s10) pass:
    they are not the core."""
    ids = [i for i in th.test_ids() if not i.startswith("s10.")]
    tmp = tempfile.mkdtemp(prefix="attack-")
    env = {
        "ORACLE_SABOTAGE": ",".join(
            "wrong_value:%s,wrong_class:%s,wrong_bytes:%s" % (i, i, i) for i in ids
        )
    }
    wrote = os.path.join(tmp, "written.txt")
    th.judge(["--write-xfail", "o=" + wrote, "--no-diagnosis"], ["o=" + th.oracle()], env=env)
    r = th.judge(["--xfail", "o=" + wrote, "--no-diagnosis"], ["o=" + th.oracle()], env=env)
    counts = r.runner("o")["counts"]
    core = [
        res
        for res in r.runner("o")["results"]
        if res["status"] == "pass" and res["tier"] == "required"
    ]
    check(r.code == 1, "exit 1 (%s; %d required passes)" % (counts, len(core)), r)
    check(
        counts["fail"] == 0 and counts["pass"] == 3, "only the core rule fails it: %s" % counts, r
    )
    check("of the mandatory core" in r.out.splitlines()[-1], "the GATE line says why", r)
    check(
        r.report["gate"]["excused"] == counts["expected_failure"] > 0,
        "the JSON gate counts what was excused: %s" % r.report["gate"].get("excused"),
        r,
    )


def case_envelope_only():
    """A codec that declares only the envelope entry point has no message codec (R1.4-16):
    judged on the envelope vectors alone (§11), it passes every one and still fails."""
    full = th.ARGS.full_vectors
    if not full:
        print("skip: envelope_only: no full vector set (--full-vectors)")
        return
    r = th.judge(
        ["--section", "11", "--no-diagnosis"],
        ["o=" + th.oracle(full)],
        vectors=full,
        env={"ORACLE_ENTRIES": "envelope"},
    )
    counts = r.runner("o")["counts"]
    check(
        r.code == 1 and counts["pass"] > 0 and counts["fail"] == 0,
        "exit 1 though every envelope vector passed: %s" % counts,
        r,
    )
    check("no `message` entry point" in r.out.splitlines()[-1], "the GATE line says why", r)
    r = th.judge([], ["o=" + th.oracle()], env={"ORACLE_ENTRIES": "message"})
    check(r.code == 0, "a message-only codec (Pigeon's) passes", r)


def case_project_lists():
    """Every list of judge/expected-failures/ still applies: loaded against the full vectors,
    each entry names a vector, and a runner failing those vectors with wrong values (what
    they excuse) passes with the list."""
    if not th.ARGS.full_vectors:
        print("skip: project_lists: no full vector set (--full-vectors)")
        return
    with open(os.path.join(th.ARGS.full_vectors, "s17-host-types.json"), encoding="utf-8") as f:
        host_ids = {v["id"] for v in json.load(f)["vectors"]}
    for path in sorted(glob.glob(os.path.join(ROOT, "judge", "expected-failures", "*.txt"))):
        ids = listed(path)
        check(ids, "%s lists something" % path)
        # host-type vectors (spec §17; swift.txt): the oracle speaks no host vocabulary, so it
        # cannot fail them; each must still name a vector
        hosts = [i for i in ids if i in host_ids]
        check(
            len(hosts) == len([i for i in ids if i.startswith("s17.")]),
            "%s: every host-type entry names a vector" % path,
        )
        ids = [i for i in ids if i not in hosts]
        if not ids:
            continue
        r = th.judge(
            ["--xfail", "o=" + path, "--no-diagnosis"]
            + sum((["--only", i] for i in ids), [])
            + ["--only", "s04.*"],
            ["o=" + th.oracle(th.ARGS.full_vectors)],
            vectors=th.ARGS.full_vectors,
            env=every("wrong_value", ids),
        )
        check(r.code == 0, "%s excuses its wrong values" % os.path.basename(path), r)
        st = r.results("o")
        check(
            all(st[i]["status"] == "expected-failure" for i in ids),
            "each listed vector is an expected failure",
            r,
        )


# CPU seconds of the judge for the 210,900-line list (case_xfail_duplicates_and_size): the
# linear lookup takes 1.5 s (3.7 s under ASan), a scan of the list per vector 18 s.
XFAIL_LOOKUP_CPU_LIMIT = 10


def case_xfail_duplicates_and_size():
    """An id listed twice is named (exit 2); a list of 210,900 lines is looked up in time
    that grows with its length, not with vectors x entries."""
    tmp = tempfile.mkdtemp(prefix="attack-")
    dup = write(os.path.join(tmp, "dup.txt"), "s05.1-str-ab  # a\n\ns05.1-str-ab  # b\n")
    r = th.judge(["--xfail", "o=" + dup], ["o=" + th.oracle()], reports=False)
    check(
        r.code == 2 and "lines 1 and 3 both list `s05.1-str-ab`" in r.err,
        "a doubled id is named",
        r,
    )
    if not need_full():
        return
    big = write(
        os.path.join(tmp, "big.txt"),
        "".join("s04.9-no-such-%06d  # x\n" % i for i in range(210900)),
    )
    r = th.judge(
        ["--xfail", "c=" + big, "--no-diagnosis"],
        ["c=" + th.ARGS.c_runner],
        vectors=th.ARGS.full_vectors,
        reports=False,
    )
    check(r.code == 1 and "210900 entries of" in r.out, "every stale entry is counted", r)
    # The judge's own CPU time (th.judge reads it from /proc), not wall time: a loaded machine
    # stretches the wall clock, not this. A linear lookup takes a few CPU seconds (under ASan
    # too); a scan of the list per vector (vectors x entries) takes several times more.
    check(
        r.cpu < XFAIL_LOOKUP_CPU_LIMIT,
        "210,900 entries against 4,218 vectors in %.1f s of judge CPU (under %d; wall %.1f s)"
        % (r.cpu, XFAIL_LOOKUP_CPU_LIMIT, r.seconds),
        r,
    )


def case_invisible_characters():
    """U+061C (a bidi mark), U+200D and a tag character in an expected failure's reason, which
    JUnit shows: each is escaped visibly (the generated table of escape.c), never raw."""
    tmp = tempfile.mkdtemp(prefix="attack-")
    marks = "\u061c\u200d\U000e0041"
    lst = write(os.path.join(tmp, "l.txt"), "s05.1-str-ab  # bug%s42\n" % marks)
    r = th.judge(
        ["--xfail", "o=" + lst],
        ["o=" + th.oracle()],
        env={"ORACLE_SABOTAGE": "wrong_value:s05.1-str-ab"},
    )
    xml = open(os.path.join(r.tmp, "report.xml"), encoding="utf-8").read()
    check(not any(m in xml for m in marks), "JUnit: no raw invisible character", r)
    check("bug\\u061c\\u200d\\ue004142" in xml, "each escaped visibly (\\u061c ...)", r)


def case_invisible_table_current():
    """judge/base/invisible_table.c is what tools/gen_invisible.py writes (same Unicode version)."""
    import subprocess
    import sys
    import unicodedata

    committed = open(
        os.path.join(ROOT, "judge", "base", "invisible_table.c"), encoding="utf-8"
    ).read()
    if "(Unicode %s)" % unicodedata.unidata_version not in committed:
        print(
            "skip: invisible_table_current: this Python has Unicode %s, the table another"
            % unicodedata.unidata_version
        )
        return
    fresh = os.path.join(tempfile.mkdtemp(prefix="attack-"), "t.c")
    subprocess.run(
        [sys.executable, os.path.join(ROOT, "judge", "tools", "gen_invisible.py"), fresh],
        check=True,
    )
    check(
        open(fresh, encoding="utf-8").read() == committed, "the committed table is the generator's"
    )


# ---- duplicate keys (json_keys.h) ---------------------------------------------------------


def doubled(first_id_text):
    """The test vectors with s05-judge-strings.json's second vector holding `id` twice: first
    a new id (which this judge would read), then the first vector's (which Python's json
    reads: a duplicate id for it)."""
    d = tempfile.mkdtemp(prefix="attack-dupkey-")
    for name in os.listdir(th.VECTORS):
        shutil.copy(os.path.join(th.VECTORS, name), d)
    p = os.path.join(d, "s05-judge-strings.json")
    with open(p, encoding="utf-8") as f:
        doc = json.load(f)
    vs = doc["vectors"]
    vs[1]["id"] = vs[0]["id"]
    texts = [json.dumps(v) for v in vs]
    texts[1] = '{"id": %s, %s' % (json.dumps(first_id_text), texts[1][1:])
    head = json.dumps({k: v for k, v in doc.items() if k != "vectors"})
    write(p, head[:-1] + ', "vectors": [' + ", ".join(texts) + "]}")
    return d, vs[0]["id"]


def case_duplicate_keys():
    """A vector file with a key twice in one object is refused, naming the key and the vector
    (V.1): this judge's reader keeps the first, Python's the last, so a doubled `id` passed
    the duplicate-id check while Python readers saw two vectors with one id. A doubled key
    of the file's header is refused too."""
    d, dup_of = doubled("s05.1-judge-unique")
    with open(os.path.join(d, "s05-judge-strings.json"), encoding="utf-8") as f:
        seen_by_python = [v["id"] for v in json.load(f)["vectors"]]
    check(seen_by_python.count(dup_of) == 2, "the attack: Python reads the id twice")
    r = th.judge([], ["o=" + th.oracle(d)], vectors=d, reports=False)
    check(r.code == 2, "refused: exit 2 (%d)" % r.code, r)
    check(
        "s05-judge-strings.json" in r.err
        and "vector 2 (id `s05.1-judge-unique`): the key `id` appears twice in one object" in r.err,
        "the message names the file, the vector and the key",
        r,
    )
    p = os.path.join(d, "s05-judge-strings.json")
    with open(os.path.join(th.VECTORS, "s05-judge-strings.json"), encoding="utf-8") as f:
        text = f.read()
    write(p, text.replace('"vectors_version"', '"vectors_version": "9.9", "vectors_version"', 1))
    r = th.judge([], ["o=" + th.oracle(d)], vectors=d, reports=False)
    check(
        r.code == 2 and "the key `vectors_version` appears twice in one object" in r.err,
        "a doubled header key is refused too",
        r,
    )


# ---- vectors that prove who they are (manifest.c) -----------------------------------------


def copy_vectors(full):
    tmp = tempfile.mkdtemp(prefix="attack-vectors-")
    d = os.path.join(tmp, "vectors")
    shutil.copytree(full, d, ignore=shutil.ignore_patterns("gen", "*.md", "retired.txt"))
    return d


def refused_as_modified(d, what, words):
    """The C runner on set `d`: GATE FAILED naming it on the first line and in every report;
    with --allow-modified-vectors the run passes and still says so."""
    c = "c=" + th.ARGS.c_runner
    r = th.judge(["--no-diagnosis"], [c], vectors=d, released=True)
    first, last = r.out.split("\n", 1)[0], r.out.rstrip("\n").split("\n")[-1]
    check(
        r.code == 1 and last.startswith("GATE FAILED: vectors: MODIFIED"),
        "%s: the gate refuses it" % what,
        r,
    )
    check(
        first.endswith(")") and "vectors MODIFIED" in first,
        "%s: the first line says so: %s" % (what, first),
        r,
    )
    check(any(w in r.out.split("\n")[1] for w in words), "%s: the problem is named" % what, r)
    check(
        r.report["vectors"]["released"] is False and r.report["vectors"]["integrity"],
        "JSON says so",
        r,
    )
    _, _, props = junit_counts(r)
    check(props.get("vectors", "").startswith("MODIFIED"), "JUnit says so", r)
    html = open(os.path.join(r.tmp, "report.html"), encoding="utf-8").read()
    check("MODIFIED: not the released set" in html, "HTML says so", r)
    r = th.judge(["--no-diagnosis", "--allow-modified-vectors"], [c], vectors=d, released=True)
    last = r.out.rstrip("\n").split("\n")[-1]
    check(
        r.code == 0 and "allowed by --allow-modified-vectors" in last,
        "%s: --allow-modified-vectors runs it, stated on the verdict line: %s" % (what, last[:200]),
        r,
    )


def need_full():
    if not th.ARGS.full_vectors or not th.ARGS.c_runner:
        print("skip: no full vector set or C runner (--full-vectors, --c-runner)")
        return False
    return True


def case_released_vectors():
    """The released set, unmodified, is named as such: no MODIFIED anywhere."""
    if not need_full():
        return
    r = th.judge(
        ["--no-diagnosis"],
        ["c=" + th.ARGS.c_runner],
        vectors=copy_vectors(th.ARGS.full_vectors),
        released=True,
    )
    check(
        r.code == 0 and "MODIFIED" not in r.out and r.report["vectors"]["released"] is True,
        "a byte-identical copy is the released set",
        r,
    )


def case_trimmed_vectors():
    """The vectors a NUL-truncating codec fails removed from a copy, vectors_version
    unchanged: a file's hash differs from MANIFEST.json's."""
    if not need_full():
        return
    d = copy_vectors(th.ARGS.full_vectors)
    p = os.path.join(d, "s05-strings.json")
    with open(p, encoding="utf-8") as f:
        doc = json.load(f)
    doc["vectors"] = [v for v in doc["vectors"] if "embedded-nul" not in v.get("features", [])]
    with open(p, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
    refused_as_modified(d, "a trimmed file", ["s05-strings.json: SHA-256"])


def case_removed_file():
    """A whole file removed: MANIFEST.json lists it."""
    if not need_full():
        return
    d = copy_vectors(th.ARGS.full_vectors)
    os.unlink(os.path.join(d, "s05-strings.json"))
    refused_as_modified(d, "a missing file", ["s05-strings.json: listed in MANIFEST.json, missing"])


def case_forged_manifest():
    """A file trimmed and MANIFEST.json rewritten with its new hash: the manifest is not the
    released one (its own hash is compiled into the judge)."""
    if not need_full():
        return
    d = copy_vectors(th.ARGS.full_vectors)
    p = os.path.join(d, "s05-strings.json")
    with open(p, encoding="utf-8") as f:
        doc = json.load(f)
    doc["vectors"] = doc["vectors"][1:]
    with open(p, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
    mp = os.path.join(d, "MANIFEST.json")
    with open(mp, encoding="utf-8") as f:
        man = json.load(f)
    with open(p, "rb") as f:
        man["files"]["s05-strings.json"]["sha256"] = hashlib.sha256(f.read()).hexdigest()
    with open(mp, "w", encoding="utf-8") as f:
        json.dump(man, f, indent=1)
    refused_as_modified(d, "a forged manifest", ["MANIFEST.json (SHA-256"])


def case_extra_file():
    """A file MANIFEST.json does not list (one vector of s05 under a new id), added to a copy."""
    if not need_full():
        return
    d = copy_vectors(th.ARGS.full_vectors)
    with open(os.path.join(d, "s05-strings.json"), encoding="utf-8") as f:
        doc = json.load(f)
    doc["vectors"] = [dict(doc["vectors"][0], id=doc["vectors"][0]["id"] + "-extra")]
    write(os.path.join(d, "s05-zz-extra.json"), json.dumps(doc))
    refused_as_modified(d, "an extra file", ["s05-zz-extra.json: not in MANIFEST.json"])


CASES = {n[5:]: f for n, f in globals().items() if n.startswith("case_")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--judge", required=True)
    ap.add_argument("--full-vectors", default="")
    ap.add_argument("--c-runner", default="")
    ap.add_argument("--sanitized", type=int, default=0)
    ap.add_argument("case", choices=sorted(CASES) + ["all"])
    args = ap.parse_args()
    args.full_vectors = args.full_vectors if os.path.isdir(args.full_vectors or "") else None
    th.ARGS = args
    th.tj.ARGS = args
    th.tj.run_cases(CASES, args.case)


if __name__ == "__main__":
    main()
