#!/usr/bin/env python3
"""Tests of the judge's diagnosis: does the report name the bug?

Each case runs the judge over the golden vectors (vectors/) against runners whose bugs are
known: the mutant runner (runners/c/smc-c-mutant-runner, bugs from the catalogue of
spec/bugs-in-the-wild.md switched on with SMC_MUTANTS), the reference runner, and runners
with bugs no catalogue entry describes (the catalogue's `control-*` variants,
rewrite_runner.py, the oracle runner's false capabilities). It asserts what the JSON
report's `diagnosis` says, and what the text, HTML and JUnit reports show of it.

usage: test_diagnosis.py --judge PATH --c-runner PATH --mutant-runner PATH --mutants-tool PATH
                         --vectors DIR CASE
"""

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "vectors", "gen"))
sys.dont_write_bytecode = True
import catches  # noqa: E402  (entry_runner: which runner has exactly one entry on)

SCHEMA = os.path.join(os.path.dirname(HERE), "report.schema.json")
ANNEX = os.path.join(ROOT, "spec", "bugs-in-the-wild.md")
SPEC = os.path.join(ROOT, "spec", "standard-message-codec.md")
ARGS = None
CATALOGUE = None


class Run:
    def __init__(self, code, out, report, tmp):
        self.code, self.out, self.report, self.tmp = code, out, report, tmp
        self.runner = report["runners"][0]
        self.diag = self.runner.get("diagnosis")

    def causes(self):
        return [c["id"] for c in self.diag["causes"]]

    def statuses(self):
        return {r["id"]: (r["status"], r["reason"]) for r in self.runner["results"]}


def judge(runner_cmd, env=None, args=(), name="m", all_reports=True, vectors=None):
    """Run the judge; with all_reports, also write JUnit and HTML and check the JSON against
    the schema (the slow part: the cases that run the judge dozens of times skip it)."""
    tmp = tempfile.mkdtemp(prefix="diag-test-")
    rep = os.path.join(tmp, "report.json")
    cmd = shlex.split(ARGS.judge) + [
        "--vectors",
        vectors or ARGS.vectors,
        "--no-progress",
        "--no-complexity",
        "--allow-modified-vectors",
        "--runner",
        "%s=%s" % (name, runner_cmd),
        "--json",
        rep,
    ]
    if all_reports:
        cmd += [
            "--junit",
            os.path.join(tmp, "report.xml"),
            "--html",
            os.path.join(tmp, "report.html"),
        ]
    cmd += list(args)
    e = dict(os.environ)
    for k in list(e):
        if k.startswith(("SMC_MUTANT", "ORACLE_")):
            del e[k]
    e.update(env or {})
    p = subprocess.run(cmd, env=e, capture_output=True, text=True, timeout=300)
    if p.returncode == 2 or not os.path.exists(rep):
        raise AssertionError("judge failed to run (%d): %s" % (p.returncode, p.stderr[-2000:]))
    with open(rep, encoding="utf-8") as f:
        report = json.load(f)
    if all_reports:
        validate(report)
        ET.parse(os.path.join(tmp, "report.xml"))
    return Run(p.returncode, p.stdout, report, tmp)


def mutant(bugs, args=(), offsets=True, all_reports=False, vectors=None):
    env = {"SMC_MUTANTS": bugs}
    if not offsets:
        env["SMC_MUTANT_OFFSETS"] = "0"
    return judge(
        shlex.quote(ARGS.mutant_runner),
        env=env,
        args=args,
        all_reports=all_reports,
        vectors=vectors,
    )


def wire_vectors():
    """The vector files without the host-type vectors of spec §17, whose host values the
    diagnosis does not replay (diag_replay.c replays encodes from host, and a decode to host
    that the runner rejected): for the cases that expect every failure to have a cause."""
    out = tempfile.mkdtemp(prefix="diag-wire-")
    for name in os.listdir(ARGS.vectors):
        if name.endswith(".json") and not name.startswith("s17-"):
            shutil.copy(os.path.join(ARGS.vectors, name), out)
    return out


_VALIDATOR = []


def validate(report):
    if not _VALIDATOR:
        try:
            import jsonschema

            with open(SCHEMA, encoding="utf-8") as f:
                _VALIDATOR.append(jsonschema.Draft202012Validator(json.load(f)))
        except ImportError:
            print("note: python jsonschema not importable; the reports are not schema-checked here")
            _VALIDATOR.append(None)
    if _VALIDATOR[0] is not None:
        errs = list(_VALIDATOR[0].iter_errors(report))
        if errs:
            raise AssertionError(
                "JSON report violates report.schema.json: %s at %s"
                % (errs[0].message, list(errs[0].absolute_path))
            )


def check(cond, what, run=None):
    if not cond:
        if run is not None and run.diag is not None:
            sys.stderr.write(
                "---- diagnosis ----\n%s\n"
                % json.dumps({k: v for k, v in run.diag.items() if k != "causes"}, indent=1)[:4000]
            )
            sys.stderr.write(
                "causes: %s\n" % [(c["id"], c["explains"], c["where"]) for c in run.diag["causes"]]
            )
        raise AssertionError(what)
    print("ok: " + what)


def catalogue():
    out = subprocess.run(
        [ARGS.mutants_tool, "--json"], capture_output=True, text=True, check=True
    ).stdout
    return json.loads(out)


def entries():
    return [e for e in CATALOGUE if not e["control"]]


# ---------------------------------------------------------------------------------------

CAUSE_LINE = re.compile(
    r"^  .* \(([a-z0-9-]+), spec §[0-9.]+\) in the (decoder and the encoder|decoder|encoder): "
    r"explains (\d+) of (\d+)(.*)$"
)


def causes_in_text(text):
    """{runner: (failing, [(id, where, explains, rest of line)])} from the text report's
    likely-causes blocks (one judge run holds many runners; their JSON would be large)."""
    out, current = {}, None
    for line in text.splitlines():
        m = re.match(r"^(\S+): likely causes of (\d+) (?:failing|diagnosed) vectors? ", line)
        if m:
            name = m.group(1)
            current = out.setdefault(name, (int(m.group(2)), []))
            continue
        m = CAUSE_LINE.match(line)
        u = re.match(r"^  unexplained: (\d+) of (\d+) failing vectors", line)
        if m and current is not None:
            current[1].append((m.group(1), m.group(2), int(m.group(3)), m.group(5)))
        elif u and current is not None:
            unexplained[name] = int(u.group(1))
        elif not line.startswith("  "):
            current = None
    return out


unexplained = {}
summaries = {}  # runner: its summary line ("m: 4056 passed, 0 failed, ...")


def only_listed_differs(summary):
    """Whether a summary line counts no failure and differs only as listed implementations do:
    a codec whose one deviation is a permitted behaviour (spec R1.4-19)."""
    m = re.search(
        r"passed, (\d+) failed, .*?(\d+) differ \(implementation-defined; (\d+) as a listed",
        summary,
    )
    return bool(m) and m.group(1) == "0" and m.group(2) == m.group(3) and "placement" not in summary


def many(specs, args=()):
    """One judge run with many runners: specs is [(name, command)]; returns
    {name: (failing vectors, causes [(id, where, explains, rest)], unexplained vectors)} from
    the text report."""
    # a generous timeout: under a sanitizer, beside other tests, a request can take seconds
    cmd = (
        shlex.split(ARGS.judge)
        + [
            "--vectors",
            ARGS.vectors,
            "--no-progress",
            "--no-complexity",
            "--max-details",
            "0",
            "--timeout",
            "60",
        ]
        + list(args)
    )
    for name, runner in specs:
        cmd += ["--runner", "%s=%s" % (name, runner)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    check(
        p.returncode in (0, 1),
        "the judge ran %d runners (exit %d) %s" % (len(specs), p.returncode, p.stderr[-500:]),
    )
    unexplained.clear()
    summaries.clear()
    for name, _ in specs:
        summaries[name] = next(
            (
                ln
                for ln in p.stdout.splitlines()
                if re.match(r"^%s: \d+ passed" % re.escape(name), ln)
            ),
            "",
        )
    blocks = causes_in_text(p.stdout)
    for name, _ in specs:
        if name not in blocks:  # say what the judge said of it (a summary line), for the failure
            print(
                "note: %s: %s"
                % (
                    name,
                    [line for line in p.stdout.splitlines() if line.startswith(name + ":")][:2],
                )
            )
    return {
        n: (blocks.get(n, (0, []))[0], blocks.get(n, (0, []))[1], unexplained.get(n, 0))
        for n, _ in specs
    }


def host_cmd(fault, hosts):
    """The command of host_runner.py (spec §17's host model) with HOST_RUNNER_BUG=fault."""
    return "HOST_RUNNER_BUG=%s HOST_RUNNER_HOSTS=%s %s %s" % (
        fault,
        hosts,
        shlex.quote(sys.executable),
        shlex.quote(os.path.join(HERE, "host_runner.py")),
    )


def mutant_cmd(bugs, offsets=True):
    return "SMC_MUTANTS=%s %s%s" % (
        bugs,
        "" if offsets else "SMC_MUTANT_OFFSETS=0 ",
        shlex.quote(ARGS.mutant_runner),
    )


def case_each_entry():
    """Every catalogue entry alone: the report names it first, explaining >= 90%, in a part it
    can live in, and a codec with it fails no check the runner passed. One judge run holds a
    mutant runner per entry."""
    got = many([(e["id"], catches.entry_runner(e["id"], ARGS.mutant_runner)) for e in entries()])
    for e in entries():
        failing, causes, _ = got[e["id"]]
        if only_listed_differs(summaries[e["id"]]):
            # a permitted behaviour (duplicate keys, first or last kept): the differs block
            # names whose it is; it is no failure and has no cause (spec R1.4-19)
            check(
                not causes,
                "%s: a permitted behaviour, named as no cause (%s)" % (e["id"], summaries[e["id"]]),
            )
            continue
        check(failing > 0, "%s: the vectors catch it (%d failing vectors)" % (e["id"], failing))
        first = causes[0] if causes else None
        check(
            first is not None and first[0] == e["id"],
            "%s: diagnosed first as itself (got %s)" % (e["id"], [c[0] for c in causes]),
        )
        check(
            first[2] * 10 >= failing * 9,
            "%s: explains >= 90%% of its failing vectors (%d of %d)" % (e["id"], first[2], failing),
        )
        if e["id"] in catches.HOST_ENTRY_RUNNERS:
            check(
                first[2] * 20 >= failing * 19,
                "%s (host encode): explains >= 95%% (%d of %d)" % (e["id"], first[2], failing),
            )
        can = {
            "decoder": e["decoder"] and not e["encoder"],
            "encoder": e["encoder"] and not e["decoder"],
            "decoder and the encoder": e["decoder"] and e["encoder"],
        }
        check(
            first[1] in ("decoder", "encoder", "decoder and the encoder")
            and (can[first[1]] or (e["decoder"] and e["encoder"])),
            "%s: found where it can live (%s)" % (e["id"], first[1]),
        )
        check(
            "contradicted by" not in first[3],
            "%s: a codec with it fails no check the runner passed (the replay judges as the judge does)%s"
            % (e["id"], first[3]),
        )


def case_offsets_not_declared():
    """A runner without error offsets (neither declared nor sent): classes only, and still the
    right cause."""
    bugs = (
        "pad-from-remaining",
        "truncated-as-zero",
        "success-trailing-as-error",
        "no-trailing-check",
        "size-escape-off-by-one",
        "unknown-tag-as-null",
    )
    got = many([("r%d" % i, mutant_cmd(b, offsets=False)) for i, b in enumerate(bugs)])
    for i, bug in enumerate(bugs):
        failing, causes, _ = got["r%d" % i]
        check(
            causes[:1] and causes[0][0] == bug and causes[0][2] * 10 >= failing * 9,
            "%s without error offsets: still first, >= 90%% (%s of %d)"
            % (bug, causes[:2], failing),
        )


COMBINATIONS = [
    # the Swift port of issue 16: two decoder padding bugs and one encoder tag bug
    (
        "pad-from-remaining,pad-extra-block@decoder,i64s-under-i32s-tag",
        {"pad-from-remaining", "pad-extra-block", "i64s-under-i32s-tag"},
    ),
    # CPP's reader
    (
        "truncated-as-zero,no-trailing-check,unknown-tag-as-null",
        {"truncated-as-zero", "no-trailing-check", "unknown-tag-as-null"},
    ),
    # the C embedder of issue 16
    ("pad-from-address,pad-not-zeroed", {"pad-from-address", "pad-not-zeroed"}),
    ("pad-from-value,typed-list-byte-count", {"pad-from-value", "typed-list-byte-count"}),
    # keeping the first of duplicate keys is CPP's permitted behaviour (R7.3-2): it differs,
    # listed, and is never a cause (spec R1.4-19)
    ("map-sorted,map-dedup-first", {"map-sorted"}),
    ("i64-narrowed,nul-truncated-strings", {"i64-narrowed", "nul-truncated-strings"}),
    # (envelope-flag-inverted with stacktrace-rejected would not do: the inverted flag makes
    # every error envelope a success one, so the second bug never shows)
    ("envelope-flag-inverted,no-trailing-check", {"envelope-flag-inverted", "no-trailing-check"}),
    # rejecting four-element error envelopes is JAVA's, GLIB's, OBJC's and WEBUI's listed
    # behaviour (D29): on the s11.3 decode vectors it differs, listed, and is no cause (spec
    # R1.4-19); but this codec's encoder writes the four elements its decoder then rejects, a
    # self-consistency failure (R1.4-18) of which it is the cause
    ("nonzero-flag-is-error,stacktrace-rejected", {"nonzero-flag-is-error", "stacktrace-rejected"}),
    ("utf8-replaced,size-signed-32", {"utf8-replaced", "size-signed-32"}),
]


def case_two_bugs():
    """Two (or three) bugs on: every one is named, nothing else, and together they explain >= 90%."""
    got = many([("r%d" % i, mutant_cmd(bugs)) for i, (bugs, _) in enumerate(COMBINATIONS)])
    for i, (bugs, want) in enumerate(COMBINATIONS):
        failing, causes, left = got["r%d" % i]
        names = {c[0] for c in causes}
        check(names == want, "%s: names exactly %s (got %s)" % (bugs, sorted(want), sorted(names)))
        # together the named bugs fail nothing the runner passed: no cause line says otherwise
        # (a single alone may: pad-from-remaining fails checks pad-extra-block puts right)
        check(
            not any("contradicted by" in c[3] for c in causes),
            "%s: no cause is said to contradict passing checks (%s)"
            % (bugs, [c[3] for c in causes]),
        )
        check(
            (failing - left) * 10 >= failing * 9,
            "%s: explains >= 90%% of the failing vectors (%d of %d)"
            % (bugs, failing - left, failing),
        )


def case_reference():
    """The correct reference: nothing to diagnose, no cause, no replay (it costs nothing)."""
    for cmd, env in (
        (shlex.quote(ARGS.c_runner), {}),
        (shlex.quote(ARGS.mutant_runner), {"SMC_MUTANTS": "none"}),
    ):
        r = judge(cmd, env=env, all_reports=False)
        check(
            r.code == 0
            and r.diag["failing"] == 0
            and r.diag["causes"] == []
            and r.diag["unexplained"] == [],
            "%s: passes, nothing diagnosed" % cmd,
            r,
        )
        check(r.diag["replays"] == 0, "…and no replay made (%d)" % r.diag["replays"], r)
        check("likely causes" not in r.out, "…and the text report has no causes block", r)


OUTSIDE = [
    ("control-bools-swapped", None),
    ("control-i32-plus-one", None),
    ("control-maps-rejected", None),
    (None, "errors-truncated"),
    (None, "f64-byte-order"),
    (None, "lists-reversed"),
    (None, "offsets-plus-one"),
]


def case_outside_catalogue():
    """Bugs no entry describes: every failure unexplained, no cause named at all."""
    caps = ",".join(
        [
            "int32",
            "int64",
            "int64-distinct",
            "float64",
            "float32list",
            "typed-lists",
            "nan-payload",
            "embedded-nul",
            "custom-types",
            "largeint",
            "duplicate-map-keys",
            "map-order",
            "method-codec",
            "error-stacktrace",
            "strict-mode",
            "depth-limit",
        ]
    )
    specs = []
    for control, rewrite in OUTSIDE:
        if control:
            specs.append((control, mutant_cmd(control)))
        else:
            specs.append(
                (
                    "rewrite-" + rewrite,
                    "%s %s %s %s"
                    % (
                        shlex.quote(sys.executable),
                        shlex.quote(os.path.join(HERE, "rewrite_runner.py")),
                        shlex.quote(ARGS.c_runner),
                        rewrite,
                    ),
                )
            )
    for feature in ("float64", "typed-lists", "method-codec"):
        specs.append(
            (
                "oracle-false-" + feature,
                "ORACLE_SABOTAGE=false_caps:%s ORACLE_DECODE_CAPS=%s %s %s %s"
                % (
                    feature,
                    caps,
                    shlex.quote(sys.executable),
                    shlex.quote(os.path.join(HERE, "oracle_runner.py")),
                    shlex.quote(ARGS.vectors),
                ),
            )
        )
    # Issue 14's model ports whose declaration does not match their codec: one that declares
    # no capability (so one integer type) yet writes integers by type, one that decodes
    # Float32List to null. A catalogued bug in such a port is still named (nul-truncate).
    # Padding one byte off where pad-from-remaining or the spec counts it: close to several
    # padding entries, each of which reproduces hundreds of its failures by coincidence (and
    # would fail checks it passed): none may be named.
    model = os.path.join(HERE, "model_runner.py")
    for fault in (
        "nothing",
        "f32-null",
        "nul-truncate",
        "pad-remaining-plus-one",
        "pad-offset-plus-one",
    ):
        specs.append(
            (
                "model-" + fault,
                "MODEL_FAULT=%s %s %s" % (fault, shlex.quote(sys.executable), shlex.quote(model)),
            )
        )
    got = many(specs)
    for name, _ in specs:
        failing, causes, left = got[name]
        if name == "model-nul-truncate":
            check(
                [c[0] for c in causes] == ["nul-truncated-strings"] and left == 0,
                "%s: %d failing vectors, nul-truncated-strings named (got %s)"
                % (name, failing, causes),
            )
            continue
        check(
            failing > 0 and causes == [] and left == failing,
            "%s: %d failing vectors, all unexplained, no cause named (got %s)"
            % (name, failing, causes),
        )


def case_independent():
    """Catalogued bugs written apart from the catalogue's codec (model_runner.py: the generator's
    Python codec with a fault): the same causes, >= 90%, nothing else. The mutant runner shares
    its code with the replay; these do not, so the match is not one by construction."""
    model = os.path.join(HERE, "model_runner.py")
    faults = (
        ("pad-remaining", ["pad-from-remaining"], "decoder"),
        ("pad-extra", ["pad-extra-block"], "decoder"),
        ("pad-remaining,pad-extra", ["pad-from-remaining", "pad-extra-block"], "decoder"),
        ("nul-truncate", ["nul-truncated-strings"], "decoder and the encoder"),
        ("null-no-bytes", ["null-encodes-empty"], "encoder"),
    )
    got = many(
        [
            (
                "model%d" % i,
                "MODEL_FAULT=%s %s %s" % (f, shlex.quote(sys.executable), shlex.quote(model)),
            )
            for i, (f, _, _) in enumerate(faults)
        ]
    )
    for i, (fault, want, where) in enumerate(faults):
        failing, causes, left = got["model%d" % i]
        check(
            failing > 0
            and [c[0] for c in causes] == want
            and all(c[1] == where for c in causes)
            and (failing - left) * 10 >= failing * 9,
            "model %s: named %s in the %s, explaining >= 90%% (%d of %d; got %s)"
            % (fault, want, where, failing - left, failing, [(c[0], c[1], c[2]) for c in causes]),
        )


def case_crashes():
    """Runners whose only failures are crashes or unclassified rejections (issue 28): each
    crash kind gets its cause named, the replay comparing the kind the runner names (P.3) with
    the catalogue entry's. The mutant runner's crashes are named by the catalogue's kinds;
    model_runner.py's are written apart from the catalogue and named as their hosts name them
    (java.lang.OutOfMemoryError, StackOverflowError, RangeError, a Rust panic, a process
    killed by SIGSEGV)."""
    model = os.path.join(HERE, "model_runner.py")
    java = "alloc-before-size-check,read-past-end,no-depth-limit,size-signed-32"
    cases = (  # (name, command, causes named, {cause: a crash kind its line names})
        (
            "alloc",
            mutant_cmd("alloc-before-size-check"),
            ["alloc-before-size-check"],
            {"alloc-before-size-check": "allocation"},
        ),
        (
            "overread",
            mutant_cmd("read-past-end"),
            ["read-past-end"],
            {"read-past-end": "read-past-end"},
        ),
        (
            "wrong-type",
            mutant_cmd("element-type-uncaught"),
            ["element-type-uncaught"],
            {"element-type-uncaught": "wrong-type"},
        ),
        (
            "java",
            mutant_cmd(java, False),
            bug_ids(java),
            {
                "alloc-before-size-check": "allocation",
                "read-past-end": "read-past-end",
                "no-depth-limit": "recursion-depth",
                "size-signed-32": "negative-size",
            },
        ),
    )
    for fault, causes, kinds in (
        (
            "alloc-first,java-stack",
            ["alloc-before-size-check", "no-depth-limit"],
            {
                "alloc-before-size-check": "java.lang.OutOfMemoryError",
                "no-depth-limit": "java.lang.StackOverflowError",
            },
        ),
        ("panic", ["read-past-end"], {"read-past-end": "panic"}),
        ("range-error", ["read-past-end"], {"read-past-end": "RangeError"}),
        ("depth-segv", ["no-depth-limit"], {"no-depth-limit": "(the runner process ended)"}),
    ):
        cmd = "MODEL_FAULT=%s %s %s" % (fault, shlex.quote(sys.executable), shlex.quote(model))
        cases += (("model-" + fault.replace(",", "."), cmd, causes, kinds),)
    got = many([(name, cmd) for name, cmd, _, _ in cases])
    for name, _, want, kinds in cases:
        failing, causes, left = got[name]
        summary = summaries[name]
        check(
            re.search(r" 0 skipped", summary) is not None and failing > 0,
            "%s: %d failing vectors (%s)" % (name, failing, summary[:160]),
        )
        check(
            sorted(c[0] for c in causes) == sorted(want) and left * 20 <= failing,
            "%s: named %s, explaining >= 95%% (%d of %d unexplained; got %s)"
            % (name, want, left, failing, [(c[0], c[2]) for c in causes]),
        )
        for cause, kind in kinds.items():
            line = next((c[3] for c in causes if c[0] == cause), "")
            check(
                re.search(
                    r"(crashes|unclassified rejections) by kind: [^—]*%s \d+" % re.escape(kind),
                    line,
                )
                is not None,
                "%s: %s is named with the crashes of kind %s (%s)"
                % (name, cause, kind, line[:200]),
            )


def case_host_checks():
    """Decode-to-host checks (spec §17) are replayed through the catalogue as the decode of
    their canonical bytes where the runner rejected them (issue 28): with pad-from-remaining
    alone, the host's trailing_bytes on s17.8-c-dec-f64, -i64s, -f64s and -map is that entry's,
    and no vector of §17 stays unexplained for a user to go looking for a second bug."""
    r = mutant("pad-from-remaining", args=("--section", "17"))
    named = {c["id"]: c["vectors"] for c in r.diag["causes"]}
    want = ["s17.8-c-dec-f64", "s17.8-c-dec-i64s", "s17.8-c-dec-f64s", "s17.8-c-dec-map"]
    check(
        list(named) == ["pad-from-remaining"]
        and all(v in named["pad-from-remaining"] for v in want),
        "pad-from-remaining explains %s (got %s)" % (want, named),
        r,
    )
    check(
        r.diag["failing"] > 0 and r.diag["explained"] == r.diag["failing"],
        "no host vector unexplained (%d of %d explained)"
        % (r.diag["explained"], r.diag["failing"]),
        r,
    )


def case_host_encodes():
    """Encode-from-host checks (spec §17) are replayed through the catalogue (issue 28): the
    host-encode entries, each alone in host_runner.py's host model, are named first and alone
    with >= 95% of the failing vectors explained and no passed check contradicting them; the
    honest model and one with a host bug outside them never get either."""
    host_ids = sorted(catches.HOST_ENTRY_RUNNERS)
    for bug in host_ids:
        r = judge(catches.entry_runner(bug, ARGS.mutant_runner), args=("--section", "17"))
        causes = r.diag["causes"] if r.diag else []
        check(
            [c["id"] for c in causes] == [bug],
            "%s: named, alone (got %s)" % (bug, [c["id"] for c in causes]),
            r,
        )
        check(
            r.diag["failing"] > 0 and causes[0]["explains"] * 20 >= r.diag["failing"] * 19,
            "%s: explains >= 95%% (%d of %d)" % (bug, causes[0]["explains"], r.diag["failing"]),
            r,
        )
        check(
            not causes[0].get("contradicted_by"),
            "%s: contradicted by no passed check (%s)" % (bug, causes[0].get("contradicted_by")),
            r,
        )
    honest = judge(host_cmd("", "dart,kotlin,swift,any"), args=("--section", "17"))
    check(
        honest.code == 0 and not (honest.diag or {}).get("causes"),
        "the honest host model fails nothing and gets no cause (%s)"
        % [c["id"] for c in (honest.diag or {}).get("causes", [])],
        honest,
    )
    other = judge(host_cmd("java-by-type", "dart"), args=("--section", "17"))
    named = [c["id"] for c in (other.diag or {}).get("causes", [])]
    check(
        other.diag is not None and other.diag["failing"] > 0 and not set(named) & set(host_ids),
        "a host model with another host bug (java-by-type) gets neither %s (got %s)"
        % (host_ids, named),
        other,
    )


def case_element_types():
    """D31 as CPP ships it (issue 28): unknown tags read as null, a code or message of another
    type crashing with bad_variant_access, a call with a name of another type decoded as no
    call, without error offsets. All three are named and nothing else, explaining >= 95%."""
    bugs = "unknown-tag-as-null,element-type-uncaught,call-name-not-string-null"
    r = mutant(bugs, offsets=False)
    named = r.causes()
    check(
        sorted(named) == sorted(bugs.split(",")),
        "D31 as CPP: %s named, nothing else (got %s)" % (bugs, named),
        r,
    )
    check(
        r.diag["failing"] > 0 and r.diag["explained"] * 20 >= r.diag["failing"] * 19,
        "D31 as CPP: >= 95%% explained (%d of %d)" % (r.diag["explained"], r.diag["failing"]),
        r,
    )


def case_mixed():
    """A catalogued bug beside one outside the catalogue: the first named, the second unexplained."""
    pairs = (
        ("control-maps-rejected,pad-from-remaining", "pad-from-remaining"),
        ("control-i32-plus-one,nul-truncated-strings", "nul-truncated-strings"),
        ("control-bools-swapped,map-sorted", "map-sorted"),
    )
    specs = [("mixed%d" % i, mutant_cmd(b)) for i, (b, _) in enumerate(pairs)]
    specs += [("alone%d" % i, mutant_cmd(w)) for i, (_, w) in enumerate(pairs)]
    got = many(specs)
    for i, (bugs, want) in enumerate(pairs):
        failing, causes, left = got["mixed%d" % i]
        alone = got["alone%d" % i][1]
        check(
            [c[0] for c in causes] == [want], "%s: only %s is named (got %s)" % (bugs, want, causes)
        )
        check(left > 0, "%s: the control's failures stay unexplained (%d)" % (bugs, left))
        check(
            causes[0][2] <= alone[0][2],
            "%s: %s explains no more than it does alone (%d <= %d)"
            % (bugs, want, causes[0][2], alone[0][2]),
        )


def case_direction():
    """A bug in one part of the codec only is diagnosed in that part."""
    for bugs, want in (
        ("pad-extra-block@decoder", ["decoder"]),
        ("pad-extra-block@encoder", ["encoder"]),
        ("pad-extra-block", ["decoder", "encoder"]),
        ("map-sorted@encoder", ["encoder"]),
    ):
        r = mutant(bugs)
        cause = r.diag["causes"][0] if r.diag["causes"] else {}
        check(
            cause.get("id") == bugs.split("@")[0] and cause.get("where") == want,
            "%s: diagnosed %s (got %s %s)" % (bugs, want, cause.get("id"), cause.get("where")),
            r,
        )


def case_verdicts_unchanged():
    """Diagnosis explains failures and changes no verdict: the same statuses, counts and exit
    status with --no-diagnosis (which leaves the diagnosis out of the report)."""
    for bugs in (
        "pad-from-remaining,pad-extra-block@decoder,i64s-under-i32s-tag",
        "control-maps-rejected",
        "utf8-replaced",
    ):
        on, off = mutant(bugs), mutant(bugs, args=["--no-diagnosis"])
        check(off.diag is None, "%s: --no-diagnosis leaves it out of the report" % bugs)
        check(
            on.statuses() == off.statuses()
            and on.runner["counts"] == off.runner["counts"]
            and on.code == off.code
            and on.report["gate"] == off.report["gate"],
            "%s: the same verdicts with and without diagnosis" % bugs,
            on,
        )


def case_reports():
    """The cause in every report: text block and details by cause, JSON, HTML table, JUnit."""
    r = mutant(
        "pad-from-remaining,i64s-under-i32s-tag",
        args=["--max-details", "1"],
        all_reports=True,
        vectors=wire_vectors(),
    )
    text = r.out
    check(
        re.search(r"m: likely causes of \d+ (failing|diagnosed) vectors", text) is not None,
        "text: a likely-causes block",
    )
    line = [
        ln
        for ln in text.splitlines()
        if "(pad-from-remaining, spec §3.1) in the decoder: explains" in ln
    ]
    check(
        len(line) == 1 and re.search(r"explains (\d+) of (\d+) — example s", line[0]),
        "text: the cause line names the bug, its section, where, the count and an example (%s)"
        % line[:1],
    )
    check(
        re.search(r"^\s+replay: .*--only 's", text, re.M) is not None,
        "text: a replay command for the example",
    )
    groups = re.findall(
        r"^=== m × likely cause: (.*?): (\d+) vectors? \(details of 1\)$", text, re.M
    )
    check(
        len(groups) == 2
        and "pad-from-remaining" in groups[0][0]
        and "i64s-under-i32s-tag" in groups[1][0],
        "text: failure details grouped by cause, largest first (%s)" % [g[0][:40] for g in groups],
    )
    details = re.findall(r"^--- m × (\S+) ", text, re.M)
    check(len(details) == 2, "text: --max-details 1 gives one detail per cause (%d)" % len(details))
    by_id = {x["id"]: x for x in r.runner["results"]}
    check(
        by_id[details[0]]["causes"][0] == "pad-from-remaining"
        and by_id[details[1]]["causes"] == ["i64s-under-i32s-tag"],
        "JSON: each failed vector carries its causes (%s, %s)"
        % (by_id[details[0]]["causes"], by_id[details[1]]["causes"]),
    )
    enc = [c for c in by_id[details[1]]["checks"] if c.get("reason") == "wrong_bytes"]
    check(
        enc and "tag byte" in enc[0].get("what_differs", ""),
        "JSON: a wrong_bytes check says what differs (%s)"
        % (enc[0].get("what_differs") if enc else None),
    )
    with open(os.path.join(r.tmp, "report.html"), encoding="utf-8") as f:
        page = f.read()
    check(
        '<section id="causes">' in page and "pad-from-remaining" in page, "HTML: a causes section"
    )
    anchors = re.findall(r'href="#(f-0-\d+)"', page)
    check(
        anchors and all(('id="%s"' % a) in page for a in anchors),
        "HTML: every example links to its failure's details (%d links)" % len(anchors),
    )
    tree = ET.parse(os.path.join(r.tmp, "report.xml"))
    msgs = [f.get("message") for f in tree.iter("failure")]
    check(
        msgs and all(m.startswith("likely cause: ") for m in msgs),
        "JUnit: every failure message starts with its likely cause (%d)" % len(msgs),
    )
    # a codec that passes yet has causes named (implementation-defined differences, expected
    # failures): the block says those vectors do not count against the gate
    d = mutant("map-dedup-last", args=["--xfail", "m=" + xfail_file("s07.3-dup-str")])
    st = [res["status"] for res in d.runner["results"]]
    # (its 4 vectors that differ as listed implementations do are a permitted behaviour, not
    # diagnosed: spec R1.4-19; the expected failure is)
    m = re.search(
        r"^  \(of them, not counted against the gate: (\d+) expected failures\)$", d.out, re.M
    )
    check(
        d.code == 0
        and d.causes()[:1] == ["map-dedup-last"]
        and m is not None
        and (st.count("differs"), int(m.group(1)), st.count("expected-failure")) == (4, 1, 1),
        "text: a passing codec's causes block counts its differs and expected failures as outside the gate "
        "(%s)" % (m.group(0) if m else [ln for ln in d.out.splitlines() if "likely causes" in ln]),
        d,
    )
    u = mutant("control-maps-rejected", all_reports=True)
    check(
        "no catalogued bug reproduces these failures" in u.out and "unexplained:" in u.out,
        "text: an unexplained runner says so, with the groups",
    )
    msgs = [f.get("message") for f in ET.parse(os.path.join(u.tmp, "report.xml")).iter("failure")]
    check(
        msgs and all(m.startswith("no catalogued bug explains: ") for m in msgs),
        "JUnit: an unexplained failure says so in its message",
    )


def xfail_file(*ids):
    fd, path = tempfile.mkstemp(prefix="diag-xfail-", suffix=".txt")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write("".join(i + "\n" for i in ids))
    return path


def annex_entries():
    with open(ANNEX, encoding="utf-8") as f:
        text = f.read()
    parts = re.split(r"^### `([a-z0-9-]+)` — .*$", text, flags=re.M)
    out = {}
    for i in range(1, len(parts), 2):
        body = parts[i + 1]
        spec = re.search(r"\*\*Spec\*\*: §([0-9.]+), (R[0-9.]+-\d+)", body)
        caught = re.search(r"\*\*Caught by\*\*:(.*?)(?:\n\* \*\*|\Z)", body, re.S)
        out[parts[i]] = {
            "section": spec.group(1) if spec else None,
            "requirement": spec.group(2) if spec else None,
            "vectors": re.findall(r"`(s\d\d\.\d+-[^`]+)`", caught.group(1)) if caught else [],
            "shipped": "**Shipped by**" in body,
            "example": "**Example**" in body,
        }
    return out


# The words a coverage line without an entry gives as its reason (spec/bugs-in-the-wild.md,
# "Coverage of spec §16").
NO_ENTRY_REASONS = (
    "host-level",
    "host-mapping",
    "capability",
    "permitted",
    "too-large",
    "not-observable",
    "schema",
    "timing",
)


def spec_rows(path=SPEC):
    """The divergence rows of spec §16.2's table: ["D1", ...] in table order."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^### 16\.2 .*?$(.*?)^#{2,3} ", text, re.M | re.S)
    return re.findall(r"^\| (D\d+) \|", m.group(1), re.M) if m else []


def coverage_lines(path=ANNEX):
    """The annex's coverage table: [(row, [cause ids], [permitted ids], reason)] in order."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^## Coverage of spec §16$(.*?)^## ", text, re.M | re.S)
    out = []
    for line in (m.group(1) if m else "").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and re.match(r"^D\d+$", cells[0]):
            ids = [re.findall(r"`([a-z0-9-]+)`", c) for c in cells[1:3]]
            out.append((cells[0], ids[0], ids[1], cells[3]))
    return out


def coverage_problems(rows, lines, ids):
    """What is wrong with coverage `lines` against §16 `rows` and catalogue `ids`."""
    bad = []
    listed = [line[0] for line in lines]
    for row in rows:
        if listed.count(row) != 1:
            bad.append("%s: %d coverage lines (want 1)" % (row, listed.count(row)))
    bad += ["%s: a line for no §16 row" % r for r in sorted(set(listed) - set(rows))]
    for row, causes, permitted, why in lines:
        for i in causes + permitted:
            if i not in ids:
                bad.append("%s: `%s` is no entry of smc-mutants" % (row, i))
        both = set(causes) & set(permitted)
        if both:
            bad.append("%s: %s both a cause and permitted" % (row, sorted(both)))
        if not causes and not permitted and why.split(":")[0] not in NO_ENTRY_REASONS:
            bad.append("%s: no entry and no reason from %s (%r)" % (row, NO_ENTRY_REASONS, why))
    return bad


def check_coverage():
    """The annex's coverage of spec §16 (issue 28): one line per §16.2 row, every id an entry
    of smc-mutants, a reason where none, and no entry listed as permitted ever a cause (each
    alone, in one judge run). The parser and the checks are proved on broken copies first."""
    rows, lines = spec_rows(), coverage_lines()
    ids = [e["id"] for e in entries()]
    check(
        len(rows) >= 45 and len(lines) >= 45,
        "§16 rows %d, coverage lines %d" % (len(rows), len(lines)),
    )
    problems = coverage_problems(rows, lines, ids)
    check(not problems, "annex coverage of §16: %s" % problems)
    # each check fails when its rule is broken: a new row, a missing id, no reason
    broken = [
        (rows + ["D99"], lines, "D99: 0 coverage lines"),
        (
            rows,
            [(r, c + ["no-such-entry"] if r == "D2" else c, p, w) for r, c, p, w in lines],
            "`no-such-entry` is no entry",
        ),
        (
            rows,
            [(r, c, p, "" if r == "D5" else w) for r, c, p, w in lines],
            "D5: no entry and no reason",
        ),
    ]
    for b_rows, b_lines, want in broken:
        got = coverage_problems(b_rows, b_lines, ids)
        check(any(want in g for g in got), "a broken coverage is caught (%s; got %s)" % (want, got))
    permitted = sorted({i for _, _, p, _ in lines for i in p})
    check(permitted, "some entry is listed as permitted (%s)" % permitted)
    # beside them, an entry that is a cause (D20's): the check below would catch it
    cause = "no-trailing-check"
    got = many(
        [(i, catches.entry_runner(i, ARGS.mutant_runner)) for i in permitted]
        + [("probe", catches.entry_runner(cause, ARGS.mutant_runner))]
    )
    check(
        got["probe"][1] and got["probe"][1][0][0] == cause,
        "a cause listed as permitted would be caught: %s alone is named (%s)"
        % (cause, [c[0] for c in got["probe"][1]]),
    )
    for i in permitted:
        failing, causes, _ = got[i]
        check(
            not causes,
            "%s, listed as permitted, is the cause of nothing alone (%d failing; causes %s; %s)"
            % (i, failing, [c[0] for c in causes], summaries.get(i)),
        )


def case_annex():
    """spec/bugs-in-the-wild.md has one entry per catalogue id, with its section and
    requirement, and the vectors it names do catch the bug; its coverage of spec §16 holds
    (check_coverage)."""
    annex = annex_entries()
    check_coverage()
    ids = [e["id"] for e in entries()]
    check(
        sorted(annex) == sorted(ids),
        "annex: one entry per catalogue id (missing %s, extra %s)"
        % (sorted(set(ids) - set(annex)), sorted(set(annex) - set(ids))),
    )
    for e in entries():
        a = annex[e["id"]]
        check(
            a["section"] == e["section"] and a["requirement"] == e["requirement"],
            "annex %s: §%s %s as in the catalogue (annex: §%s %s)"
            % (e["id"], e["section"], e["requirement"], a["section"], a["requirement"]),
        )
        check(
            a["vectors"] and a["shipped"] and a["example"],
            "annex %s: example, caught-by vectors, shipped by" % e["id"],
        )
    # one judge run: every entry's mutant runner over every vector the annex names
    named = sorted({v for e in entries() for v in annex[e["id"]]["vectors"]})
    tmp = tempfile.mkdtemp(prefix="diag-annex-")
    rep = os.path.join(tmp, "report.json")
    cmd = shlex.split(ARGS.judge) + [
        "--vectors",
        ARGS.vectors,
        "--no-progress",
        "--no-complexity",
        "--max-details",
        "0",
        "--gate",
        "all",
        "--no-diagnosis",
        "--json",
        rep,
    ]
    for v in named:
        cmd += ["--only", v]
    for e in entries():
        cmd += [
            "--runner",
            "%s=%s" % (e["id"], catches.entry_runner(e["id"], ARGS.mutant_runner)),
        ]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    check(
        p.returncode in (0, 1) and os.path.exists(rep),
        "the judge ran (%d) %s" % (p.returncode, p.stderr[-500:]),
    )
    with open(rep, encoding="utf-8") as f:
        runners = {r["name"]: r for r in json.load(f)["runners"]}
    for e in entries():
        status = {res["id"]: res["status"] for res in runners[e["id"]]["results"]}
        want = annex[e["id"]]["vectors"]
        bad = [v for v in want if status.get(v, "missing") in ("pass", "n/a", "missing")]
        check(
            not bad,
            "annex %s: the vectors it names catch it (%s; not: %s)"
            % (e["id"], ", ".join(want), bad),
        )


# Three bugs at once, chosen to overlap (the same sections, the same bytes): padding with
# envelopes and trailing bytes, sizes with strings, maps with integers... Each entry is
# (bugs, offsets declared). The first is issue 28's C port, with and without error offsets.
# CI runs SWEEP_SAMPLE; SMC_DIAG_FULL_SWEEP=1 (or --full-sweep) runs them all.
SWEEP = [
    ("pad-from-address@decoder,no-trailing-check@decoder,envelope-flag-inverted@decoder", False),
    ("pad-from-address@decoder,no-trailing-check@decoder,envelope-flag-inverted@decoder", True),
    ("pad-from-remaining,pad-extra-block@decoder,i64s-under-i32s-tag", True),
    ("truncated-as-zero,no-trailing-check,unknown-tag-as-null", True),
    ("pad-from-address,pad-not-zeroed,no-trailing-check", True),
    ("pad-from-value,typed-list-byte-count,size-escape-off-by-one", True),
    ("map-sorted,nul-truncated-strings,i64-narrowed", True),
    ("envelope-flag-inverted,no-trailing-check,stacktrace-rejected", True),
    ("nonzero-flag-is-error,stacktrace-rejected,no-trailing-check", True),
    ("utf8-replaced,size-signed-32,str-utf16-size", True),
    ("pad-fixed,empty-typed-list-unpadded,typed-list-byte-count", True),
    ("pad-from-envelope-body,envelope-extra-ignored,error-message-empty-as-null", True),
    ("pad-from-call-args,no-trailing-check,truncated-as-zero", True),
    ("size-signed-16,size-escape-off-by-one,str-utf16-size", True),
    ("i64-under-i32-tag,nan-canonicalised,u8s-written-twice", True),
    ("empty-as-null,no-trailing-check,truncated-as-zero", True),
    ("no-depth-limit,unknown-tag-as-null,no-trailing-check", True),
    ("null-encodes-empty,i64-under-i32-tag,pad-not-zeroed", True),
    ("success-trailing-as-error,envelope-extra-ignored,error-message-empty-as-null", True),
    ("pad-from-remaining,no-trailing-check,utf8-replaced", False),
    ("pad-from-address,size-signed-32,nul-truncated-strings", True),
    ("pad-extra-block,empty-typed-list-unpadded,i64s-under-i32s-tag", True),
    ("pad-from-value,pad-not-zeroed,map-sorted", True),
    ("typed-list-byte-count,no-float32list,size-signed-16", True),
    ("str-utf16-size,nul-truncated-strings,utf8-replaced", True),
    ("envelope-flag-inverted,error-message-empty-as-null,pad-from-envelope-body", True),
    ("map-sorted,map-dedup-last,unknown-tag-as-null", True),
    ("truncated-as-zero,empty-as-null,size-signed-32", False),
    ("i64-narrowed,nan-canonicalised,u8s-written-twice", True),
    ("pad-from-call-args,stacktrace-rejected,i64-under-i32-tag", True),
    ("pad-from-remaining@decoder,no-trailing-check@decoder,unknown-tag-as-null", False),
    ("pad-from-address@decoder,truncated-as-zero,envelope-flag-inverted@decoder", False),
]
SWEEP_SAMPLE = (0, 1, 2, 3, 6, 9, 11, 19)


def bug_ids(spec):
    return [b.split("@")[0] for b in spec.split(",")]


def check_small_beside_large():
    """A small bug beside a large one whose relatives fill the extenders (issue 28): with
    pad-from-remaining and i32-widened on, null-encodes-empty's 4 "no bytes" vectors are
    still its own (diag_search.c add_uniques), and >= 95% of the failing vectors explained."""
    r = mutant("pad-from-remaining,i32-widened,null-encodes-empty")
    named = {c["id"]: c["vectors"] for c in r.diag["causes"]}
    check(
        "null-encodes-empty" in named and "s04.1-null" in named["null-encodes-empty"],
        "null-encodes-empty named beside pad-from-remaining and i32-widened (got %s)"
        % sorted(named),
        r,
    )
    check(
        r.diag["explained"] * 20 >= r.diag["failing"] * 19,
        "explains >= 95%% (%d of %d)" % (r.diag["explained"], r.diag["failing"]),
        r,
    )


def case_combinations():
    """Three overlapping bugs at once (SWEEP): nothing but them is named, the largest of them
    (the one that alone fails most vectors) first, and together the named explain >= 95% of the
    failing vectors. One judge run holds every combination and every bug alone."""
    full = ARGS.full_sweep or os.environ.get("SMC_DIAG_FULL_SWEEP") == "1"
    chosen = range(len(SWEEP)) if full else SWEEP_SAMPLE
    print(
        "note: %d of %d combinations (%s)"
        % (
            len(chosen),
            len(SWEEP),
            "the full sweep" if full else "a sample; SMC_DIAG_FULL_SWEEP=1 runs them all",
        )
    )
    solos = sorted({(b, o) for i in chosen for b in SWEEP[i][0].split(",") for o in (SWEEP[i][1],)})
    specs = [("combo%d" % i, mutant_cmd(SWEEP[i][0], SWEEP[i][1])) for i in chosen]
    specs += [("solo%d" % j, mutant_cmd(b, o)) for j, (b, o) in enumerate(solos)]
    got = many(specs)
    alone = {solos[j]: got["solo%d" % j][0] for j in range(len(solos))}
    for i in chosen:
        bugs, offsets = SWEEP[i]
        failing, causes, left = got["combo%d" % i]
        names = [c[0] for c in causes]
        planted = bug_ids(bugs)
        size = {b.split("@")[0]: alone[(b, offsets)] for b in bugs.split(",")}
        largest = max(size.values())
        label = "%s%s" % (bugs, "" if offsets else " (no error offsets)")
        check(
            failing > 0 and set(names) <= set(planted),
            "%s: names only planted bugs (got %s)" % (label, names),
        )
        check(
            names and size.get(names[0]) == largest,
            "%s: the largest (alone %s) named first (got %s)" % (label, size, names),
        )
        check(
            (failing - left) * 100 >= failing * 95,
            "%s: explains >= 95%% of %d failing vectors (%d unexplained)" % (label, failing, left),
        )
    check_small_beside_large()


def case_selection():
    """A cause named on a selection is named on any superset, and the same causes on any
    section that still fails: each section of issue 28's three-bug port names exactly the
    full run's causes that explain one of its vectors (none that explains none of them: a
    cause whose passes another bug masks is not refused where that bug explains nothing)."""
    bugs = SWEEP[0][0]
    whole = mutant(bugs, offsets=False)
    check(
        sorted(whole.causes())
        == sorted(["pad-from-address", "no-trailing-check", "envelope-flag-inverted"])
        and whole.causes()[0] == "pad-from-address",
        "full run: the three bugs, pad-from-address first (got %s)" % whole.causes(),
    )
    by_section = {}
    for c in whole.diag["causes"]:
        for vid in c["vectors"]:
            by_section.setdefault(vid[1:3].lstrip("0"), set()).add(c["id"])
    for sec in sorted(by_section, key=int):
        got = set(mutant(bugs, offsets=False, args=("--section", sec)).causes())
        check(
            got == by_section[sec],
            "--section %s: names %s, the full run's causes of its vectors %s"
            % (sec, sorted(got), sorted(by_section[sec])),
        )


def case_permitted():
    """No permitted behaviour is ever listed as a cause of a failure (spec R1.4-19): a vector
    that differs as a listed implementation does is credited to no cause, alone or beside real
    bugs, and a codec whose one deviation is permitted has no cause at all."""
    runs = [
        ("map-dedup-first", True),
        ("map-dedup-last", True),
        ("map-sorted,map-dedup-first", False),
        ("map-sorted,map-dedup-last,unknown-tag-as-null", False),
        ("truncated-as-zero,no-trailing-check,map-dedup-first", False),
    ]
    for bugs, alone in runs:
        r = mutant(bugs)
        listed = {
            res["id"]
            for res in r.runner["results"]
            if res["status"] == "differs" and (res.get("alternative") or {}).get("listed")
        }
        check(
            listed,
            "%s: some vector differs as a listed implementation does (%d)" % (bugs, len(listed)),
        )
        causes = r.diag["causes"] if r.diag else []
        credited = {(c["id"], v) for c in causes for v in c["vectors"] if v in listed}
        check(
            not credited,
            "%s: no cause is credited with a permitted behaviour (%s)"
            % (bugs, sorted(credited)[:5]),
            r,
        )
        if alone:
            check(
                not causes,
                "%s alone: no cause named (got %s)" % (bugs, [c["id"] for c in causes]),
                r,
            )
        else:
            check(
                causes and bugs.split(",")[0] in [c["id"] for c in causes],
                "%s: the real bugs still named (got %s)" % (bugs, [c["id"] for c in causes]),
                r,
            )


def case_counts():
    """The likely-causes heading counts what the summary line counts: its failing vectors are
    the summary's failed and placement failures, named apart from those that differ."""
    r = mutant(SWEEP[0][0], offsets=False)
    summary = re.search(
        r"^m: \d+ passed, (\d+) failed, .* (\d+) differ .* (\d+) placement failures", r.out, re.M
    )
    head = re.search(
        r"^m: likely causes of (\d+) diagnosed vectors \((\d+) failing, (\d+) not counted against "
        r"the gate\)",
        r.out,
        re.M,
    )
    check(
        summary is not None and head is not None,
        "summary line and heading found (%s)"
        % ([ln for ln in r.out.splitlines() if "likely causes" in ln][:1]),
    )
    failed, differ, placement = (int(x) for x in summary.groups())
    total, failing, ungated = (int(x) for x in head.groups())
    check(
        failing == failed + placement
        and ungated == differ
        and total == failing + ungated == r.diag["failing"],
        "heading %d = %d failing + %d differ; summary %d failed + %d placement, %d differ"
        % (total, failing, ungated, failed, placement, differ),
    )


def model(fault, **env):
    """The command of model_runner.py with MODEL_FAULT=fault (and more of its variables)."""
    pre = " ".join("%s=%s" % kv for kv in sorted(env.items()))
    return "%s MODEL_FAULT=%s %s %s" % (
        pre,
        fault,
        shlex.quote(sys.executable),
        shlex.quote(os.path.join(HERE, "model_runner.py")),
    )


ACCIDENTAL = re.compile(r"^s14\.1-unknown-tag-[0-9a-f]{2}-map-(key|value)$")


def case_accidental():
    """Accidental passes (issue 28): a port reading unknown tags as null whose maps are keyed
    by strings (model_runner.py unknown-null,string-keys, written apart from the catalogue)
    passes the s14.1-unknown-tag-*-map-key/-value vectors by rejecting the null key as not a
    string. Those passes do not refuse unknown-tag-as-null: it is named, every unknown-tag
    failure explained, and its line says what contradicts it and that those are accidental
    passes, in the text, JSON and HTML. With the class sent as information or not
    (MODEL_CLASS_INFO=0), the same. A bug close to the entry (only a message's first byte read
    as null, unknown tags elsewhere rejected) in the same string-keyed port must not get the
    entry named: its contradictions (an unknown tag in a list, a call, an envelope, rejected)
    are no accidental pass, as the port decodes what the entry predicts there."""
    runners = [
        ("rust", model("unknown-null,string-keys")),
        ("rust-noclass", model("unknown-null,string-keys", MODEL_CLASS_INFO="0")),
        ("close", model("unknown-null-top,string-keys")),
        ("close-noclass", model("unknown-null-top,string-keys", MODEL_CLASS_INFO="0")),
    ]
    got = many(runners)
    for name in ("rust", "rust-noclass"):
        failing, causes, left = got[name]
        check(
            [c[0] for c in causes] == ["unknown-tag-as-null"] and causes[0][1] == "decoder",
            "%s: unknown-tag-as-null named in the decoder, and nothing else (got %s)"
            % (name, [(c[0], c[1], c[2]) for c in causes]),
        )
        line = causes[0][3]
        m = re.search(r"contradicted by (\d+) passed checks? of (\d+) vectors? \(([^)]*)\)", line)
        check(
            m is not None
            and int(m.group(2)) == 12
            and all(ACCIDENTAL.match(i) for i in re.findall(r"s[0-9][0-9a-z.-]+", m.group(3)))
            and re.search(r", %s of those checks accidental passes" % m.group(1), line),
            "%s: explains %d, contradicted by the 12 map-key/-value vectors, all of them "
            "accidental passes (%s)" % (name, causes[0][2], line[:400]),
        )
    for name in ("close", "close-noclass"):
        failing, causes, left = got[name]
        check(
            failing > 0 and causes == [] and left == failing,
            "%s: a bug close to unknown-tag-as-null gets no cause named, accidental passes "
            "or not (got %s)" % (name, [(c[0], c[2]) for c in causes]),
        )
    r = judge(model("unknown-null,string-keys"), vectors=wire_vectors())
    cause = r.diag["causes"][0] if r.diag["causes"] else {}
    unknown = [
        i for i, (st, why) in r.statuses().items() if st == "fail" and why == "unexpected_success"
    ]
    check(
        cause.get("id") == "unknown-tag-as-null"
        and len(set(cause["contradicted_by"])) == 12
        and all(ACCIDENTAL.match(i) for i in cause["contradicted_by"])
        and cause["accidental_passes"] == cause["contradicted_by"]
        and unknown
        and all(i in cause["vectors"] for i in unknown),
        "JSON: every unknown-tag failure (%d) explained; contradicted_by and accidental_passes "
        "the same 12 vectors" % len(unknown),
        r,
    )
    with open(os.path.join(r.tmp, "report.html"), encoding="utf-8") as f:
        html = f.read()
    check(
        "accidental passes" in html and "s14.1-unknown-tag-0f-map-key" in html,
        "HTML: the cause's row says it is contradicted by accidental passes",
    )


def case_accidental_selection():
    """The refused features do not depend on the selection (issue 28): with --section 14 alone
    no valid map is selected, so the judge sends the valid vectors outside it that hold a
    container element as diagnosis probes after the verdicts (judge/diag_probes.h). The
    Rust-style port (unknown-null,string-keys) then gets, on every section its cause's vectors
    are in, exactly the full run's cause; the probes are stated in the report, are not in
    its results, and no verdict changes (the same statuses, counts and exit status as with
    --no-diagnosis, which sends none). The full run selects every valid vector: no probe."""
    rust = model("unknown-null,string-keys")
    whole = judge(rust, all_reports=False)
    check(
        whole.causes() == ["unknown-tag-as-null"] and whole.diag.get("probes") == 0,
        "full run: unknown-tag-as-null named, no probe (got %s, %s probes)"
        % (whole.causes(), whole.diag.get("probes")),
        whole,
    )
    sections = sorted({v[1:3].lstrip("0") for v in whole.diag["causes"][0]["vectors"]}, key=int)
    check("14" in sections, "the cause explains section 14 vectors (%s)" % sections)
    for sec in ["14"] + [x for x in sections if x != "14"]:  # issue 28's selection first
        on = judge(rust, args=("--section", sec), all_reports=(sec == "14"))
        off = judge(rust, args=("--section", sec, "--no-diagnosis"), all_reports=False)
        check(
            on.causes() == whole.causes(),
            "--section %s: the full run's causes %s (got %s)" % (sec, whole.causes(), on.causes()),
            on,
        )
        probes = on.diag.get("probes", 0)
        check(
            probes > 0
            and re.search(r"\(%d diagnosis probes sent after the verdicts" % probes, on.out),
            "--section %s: %d probes, stated in the text report" % (sec, probes),
            on,
        )
        listed = {
            res["id"][1:3].lstrip("0") for res in on.runner["results"] if res["status"] != "none"
        }
        check(
            listed == {sec},
            "--section %s: the results hold only its vectors, no probe (sections %s)"
            % (sec, sorted(listed)),
        )
        check(
            on.statuses() == off.statuses()
            and on.runner["counts"] == off.runner["counts"]
            and on.code == off.code,
            "--section %s: the same verdicts with probes and without" % sec,
            on,
        )
        if sec == "14":
            probes_in_every_report(on, "%d diagnosis probes sent after the verdicts" % probes)
    # --no-probes: none sent, and every report says the diagnosis ran without them
    bare = judge(rust, args=("--section", "14", "--no-probes"))
    with_probes = judge(rust, args=("--section", "14"), all_reports=False)
    check(
        bare.diag["probes"] == 0 and bare.diag["probes_off"] and not with_probes.diag["probes_off"],
        "--no-probes: no probe sent, probes_off (%s probes, probes_off %s)"
        % (bare.diag["probes"], bare.diag["probes_off"]),
        bare,
    )
    probes_in_every_report(bare, "the diagnosis ran without diagnosis probes (--no-probes)")
    check(
        bare.statuses() == with_probes.statuses() and bare.code == with_probes.code,
        "--no-probes: the same verdicts as with probes",
        bare,
    )
    # probes the runner refuses (a crash answer) are counted as refused, not as sent
    crashing = model("unknown-null,string-keys", MODEL_CRASH_ON=",".join(CRASHING_PROBES))
    hurt = judge(crashing, args=("--section", "14"))
    sent, refused = hurt.diag["probes"], hurt.diag["probes_refused"]
    check(
        refused == len(CRASHING_PROBES) and sent == with_probes.diag["probes"] - refused,
        "probes the runner crashed on: %d refused, %d sent (of %d probes)"
        % (refused, sent, with_probes.diag["probes"]),
        hurt,
    )
    probes_in_every_report(
        hurt,
        "%d diagnosis probes sent after the verdicts" % sent,
        "%d refused (a crash, a limit or a skip" % refused,
    )
    check(
        hurt.statuses() == with_probes.statuses() and hurt.code == with_probes.code,
        "probes refused: the same verdicts",
        hurt,
    )


# two valid vectors outside section 14 that are diagnosis probes of the Rust-style port:
# s07.4-key-null and s07.3-dup-null (their canonical bytes)
CRASHING_PROBES = ("0d0200070176070561667465720301000000", "0d02000301000000000302000000")


def probes_in_every_report(run, *texts):
    """The diagnosis probes are stated in the text, JSON (the caller's), HTML and JUnit."""
    with open(os.path.join(run.tmp, "report.html"), encoding="utf-8") as f:
        html = f.read()
    junit = ET.parse(os.path.join(run.tmp, "report.xml"))
    prop = [
        p.get("value", "") for p in junit.iter("property") if p.get("name") == "diagnosis-probes"
    ]
    for text in texts:
        check(text in run.out, "text report states %r" % text, run)
        check(text in html, "HTML report states %r" % text, run)
        check(
            len(prop) == 1 and text in prop[0],
            "JUnit report states %r as the diagnosis-probes property (%s)" % (text, prop),
            run,
        )


# the valid vectors in which a null map key is the only key of a type the Rust-style port
# refuses (found by hand: the others with a null key also hold i32, i64, bool or f64 keys)
NULL_KEY_ALONE = {
    "s03.2-dart-unaligned-composite",
    "s07.4-key-null",
    "s07.3-dup-null",
    "s15.1-depth64-map",
    "s15.1-depth64-mixed",
    "s15.1-depth128-mixed",
}


def case_accidental_cooccurrence():
    """A feature counts as refused only where a rejected valid vector holds it without another
    refused feature (issue 28): without the vectors where a null map key stands alone, every
    valid map with a null key the Rust-style port rejects also has an integer key, and its
    rejection says nothing of the null key. The s14.1-unknown-tag-*-map-key passes then are
    evidence against unknown-tag-as-null (no other fault shown explains them) and the entry is
    not named; with those vectors it is (case accidental)."""
    out = wire_vectors()
    for name in os.listdir(out):
        path = os.path.join(out, name)
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        if isinstance(doc, dict) and "vectors" in doc:
            doc["vectors"] = [v for v in doc["vectors"] if v.get("id") not in NULL_KEY_ALONE]
            with open(path, "w", encoding="utf-8") as f:
                json.dump(doc, f)
    r = judge(model("unknown-null,string-keys"), vectors=out, all_reports=False)
    ids = {res["id"] for res in r.runner["results"]}
    check(not ids & NULL_KEY_ALONE, "the null-key-alone vectors are left out")
    check(
        "unknown-tag-as-null" not in r.causes(),
        "null keys only beside integer keys: unknown-tag-as-null not named (got %s)" % r.causes(),
        r,
    )


def case_crash_kinds():
    """A crash's kind (P.3) is compared with the replay's (issue 28): model_runner.py's
    alloc-first (allocation before the size check, a JVM's OutOfMemoryError) gets
    alloc-before-size-check named; the same crashes named java.lang.StackOverflowError (a
    known kind: recursion depth) get no cause at all, as the entry's replay fails by
    allocation, not by depth; named by a kind no table knows (java.lang.InternalError), the
    entry matches loosely (any failure) and is named, as its crashes are all the failures."""
    runners = [
        ("oom", model("alloc-first")),
        ("depth", model("alloc-first", MODEL_ALLOC_KIND="java.lang.StackOverflowError")),
        ("unknown", model("alloc-first", MODEL_ALLOC_KIND="java.lang.InternalError")),
    ]
    got = many(runners)
    for name, want, kind in (
        ("oom", ["alloc-before-size-check"], "java.lang.OutOfMemoryError"),
        ("depth", [], None),
        ("unknown", ["alloc-before-size-check"], "java.lang.InternalError"),
    ):
        failing, causes, left = got[name]
        check(
            failing > 0
            and [c[0] for c in causes] == want
            and left == (failing if not want else 0)
            and (
                kind is None
                or re.search(r"crashes by kind: [^—]*%s \d+" % re.escape(kind), causes[0][3])
            ),
            "%s: %d crashing vectors, named %s%s (got %s, %d unexplained)"
            % (
                name,
                failing,
                want or "no cause",
                " with crashes of kind %s" % kind if kind else "",
                [(c[0], c[2]) for c in causes],
                left,
            ),
        )


def case_loose_kind():
    """A loose match never outranks an exact one (issue 28): on the list bombs of 2^31
    elements and more (s15.2-bomb-list-80000000, -ffffffff, -ffffffff-with-values), a host
    that allocates first and whose plumbing catches the OutOfMemoryError (model_runner.py
    alloc-first, MODEL_ALLOC_ANSWER=rejected: unclassified rejections of that kind) is
    explained by alloc-before-size-check exactly (its replay fails by allocation) and by
    size-signed-32 loosely (a negative list size: an exception of some class), the same
    failures each (the glob also selects -fd, -fe and -ffff, which the port rejects cleanly). The exact one is named. Where the kind says nothing (a kind no table knows),
    both match loosely, nothing tells them apart, and catalogue order names size-signed-32:
    the two really are rivals on these vectors."""
    only = ("--only", "s15.2-bomb-list-[8f]*")
    runners = (
        ("exact", model("alloc-first", MODEL_ALLOC_ANSWER="rejected"), "alloc-before-size-check"),
        (
            "loose",
            model(
                "alloc-first",
                MODEL_ALLOC_ANSWER="rejected",
                MODEL_ALLOC_KIND="java.lang.InternalError",
            ),
            "size-signed-32",
        ),
    )
    for name, cmd, want in runners:
        r = judge(cmd, args=only, all_reports=False)
        rejected = [res for res in r.runner["results"] if res["status"] == "unclassified"]
        check(
            r.diag
            and r.causes() == [want]
            and r.diag["explained"] == r.diag["failing"] == len(rejected) == 3,
            "%s kind: %s named, explaining the 3 list bombs (got %s, %s of %s)"
            % (
                name,
                want,
                r.causes() if r.diag else None,
                r.diag and r.diag["explained"],
                r.diag and r.diag["failing"],
            ),
            r,
        )


def case_masked():
    """A bug another bug hides completely is not named (issue 28): str-utf16-size reads a
    string's UTF-8 sequence by sequence to count its UTF-16 units and rejects an ill-formed
    one (bad_utf8) before utf8-replaced could replace it, so a codec with both answers every
    check as one with str-utf16-size alone. utf8-replaced alone does change answers (it is a
    bug); beside str-utf16-size no diagnosis could tell it is there, and naming it would be a
    guess. The same runner without it gets the same causes."""
    for masker in ("size-signed-32,str-utf16-size", "str-utf16-size,nul-truncated-strings"):
        both, without = mutant("utf8-replaced," + masker), mutant(masker)
        check(
            both.runner["results"] == without.runner["results"],
            "utf8-replaced beside %s: every check answered as without it (%d vectors)"
            % (masker, len(both.runner["results"])),
        )
        check(
            "utf8-replaced" not in both.causes() and both.causes() == without.causes(),
            "utf8-replaced beside %s: not named, the same causes as without it (%s, %s)"
            % (masker, both.causes(), without.causes()),
            both,
        )
    alone = mutant("utf8-replaced")
    check(
        alone.causes() == ["utf8-replaced"]
        and any(r["status"] in ("fail", "differs") for r in alone.runner["results"]),
        "utf8-replaced alone changes answers and is named (%s)" % alone.causes(),
        alone,
    )


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


def main():
    global ARGS, CATALOGUE
    ap = argparse.ArgumentParser()
    ap.add_argument("--judge", required=True)
    ap.add_argument("--c-runner", required=True)
    ap.add_argument("--mutant-runner", required=True)
    ap.add_argument("--mutants-tool", required=True)
    ap.add_argument("--vectors", required=True)
    ap.add_argument(
        "--full-sweep", action="store_true", help="case combinations: every SWEEP entry"
    )
    ap.add_argument("case", choices=sorted(CASES) + ["all"])
    ARGS = ap.parse_args()
    CATALOGUE = catalogue()
    for name in sorted(CASES) if ARGS.case == "all" else [ARGS.case]:
        print("== " + name)
        CASES[name]()
    print("PASS")


if __name__ == "__main__":
    main()
