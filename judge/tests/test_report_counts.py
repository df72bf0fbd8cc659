#!/usr/bin/env python3
"""The four reports of one run agree on every count (issue 32: one report model).

One run of the judge writes the text report, JSON, JUnit and HTML. From each the counts of
every runner are read the way a reader of that report would read them, and compared:

  * the JSON `counts` (the model's, report_model.h) are the reference;
  * the text summary line and the HTML summary line give pass, fail, skipped, n/a,
    expected failures, differs, placement, unclassified rejections, unexpected passes,
    outside the gate, stale list entries and unsupported, and must be the same text;
  * the text matrix and the HTML matrix, summed over their rows, give passed and failed;
  * JUnit's <testsuite> attributes must equal both the testcases it holds (counted by
    element) and what the JSON counts say they must be (a case per selected vector, per core
    feature lacked, per stale list line; harness failures as <error>);
  * the HTML's failure boxes per runner, and its "Failures and differences (N)" heading, are
    the listed statuses of the JSON counts;
  * crashes and unclassified rejections by kind (the model's, report_kinds.h): the JSON
    `kinds`, the text line, JUnit's property and the HTML note give the same kinds and counts;
  * n/a by reason: the text breakdown, JUnit's "n/a: reason" skip messages and the JSON
    results (the first check's detail of each n/a vector) give the same reasons and counts.
  * what the model holds beside the counts: each runner's requests and restarts (text runner
    line, HTML summary, JUnit property, JSON), its self-consistency figures (text note, JUnit
    properties, JSON), its diagnosed vectors (text and HTML likely-causes headings, JSON
    `diagnosis.failing`) and the HTML matrix's vectors per section (JSON results by section,
    summing to `vectors.selected`).

The run must show every status the counts hold somewhere, a crash and an unclassified
rejection by kind and an n/a vector (else a count that is always 0 would agree vacuously).
The comparison runs once more on reports where one count was altered, and must fail there:
proof that it can fail.

    python3 judge/tests/test_report_counts.py --judge build/judge/smc-judge
"""

import argparse
import html.parser
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.join(HERE, "vectors")
ORACLE = os.path.join(HERE, "oracle_runner.py")

# What a summary line holds, as report_model.c writes it: count name -> pattern.
SUMMARY_PATTERNS = {
    "pass": r"^(\d+) passed",
    "failed": r", (\d+) failed,",
    "skipped": r", (\d+) skipped,",
    "na": r", (\d+) n/a,",
    "expected_failure": r", (\d+) expected failures?",
    "differs": r", (\d+) differ \(",
    "placement_all": r", (\d+) placement failures? \(",
    "unclassified_all": r", (\d+) unclassified rejections? \(",
    "unexpected_pass": r", (\d+) unexpected pass(?:es)?",
    "fail_ungated": r" \((\d+) outside the gate\)",
    "stale": r", (\d+) stale expected-failure entr",
    "unsupported": r", (\d+) unsupported \(",
}

# The statuses the HTML lists in a box (SMCJ_STATUS_LIST rank > 0), as JSON counts.
LISTED = [
    "fail",
    "fail_ungated",
    "differs",
    "unexpected_pass",
    "placement",
    "placement_ungated",
    "unclassified",
    "unclassified_ungated",
]


def summary_counts(line):
    out = {}
    for name, pattern in SUMMARY_PATTERNS.items():
        m = re.search(pattern, line)
        out[name] = int(m.group(1)) if m else 0
    return out


def expected_summary(runner):
    c = runner["counts"]
    return {
        "pass": c["pass"],
        "failed": c["fail"] + c["fail_ungated"],
        "skipped": c["skipped"],
        "na": c["na"],
        "expected_failure": c["expected_failure"],
        "differs": c["differs"],
        "placement_all": c["placement"] + c["placement_ungated"],
        "unclassified_all": c["unclassified"] + c["unclassified_ungated"],
        "unexpected_pass": c["unexpected_pass"],
        "fail_ungated": c["fail_ungated"],
        "stale": len(runner["xfail"]["unmatched"]) if runner.get("xfail") else 0,
        "unsupported": c["unsupported"],
    }


def text_summaries(text, names):
    out = {}
    for line in text.splitlines():
        for name in names:
            if line.startswith(name + ": ") and re.match(r"\d+ passed", line[len(name) + 2 :]):
                out[name] = line[len(name) + 2 :].split("   [codec ")[0]
    return out


def text_matrix(text, names):
    """Passed and failed (F) per runner, summed over the text matrix's rows."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Matrix: "))
    sums = {n: {"pass": 0, "failed": 0} for n in names}
    for line in lines[start + 2 :]:
        if not line.startswith("§") or line.startswith("§15.4"):
            break
        cells = re.findall(r"(\d+/\d+|n/a|skipped|not run)((?: [A-Z]\d+)*)", line[9:])
        if len(cells) != len(names):
            raise AssertionError(f"text matrix row has {len(cells)} cells: {line!r}")
        for name, (head, marks) in zip(names, cells, strict=True):
            if "/" in head and head != "n/a":
                sums[name]["pass"] += int(head.split("/")[0])
            for mark in marks.split():
                if mark[0] == "F":
                    sums[name]["failed"] += int(mark[1:])
    return sums


class HtmlCounts(html.parser.HTMLParser):
    """The HTML summary lines, matrix cells (by runner column), failure boxes and heading."""

    def __init__(self, names):
        super().__init__()
        self.names = names
        self.summary = {}
        self.matrix = {n: {"pass": 0, "failed": 0} for n in names}
        self.boxes = {n: 0 for n in names}
        self.heading = None
        self._in_sum = False
        self._sum_text = ""
        self._sum_name = None
        self._in_b = False
        self._in_matrix = False
        self._col = -1
        self._in_h2 = False
        self._h2 = ""
        self._span_depth = 0
        self._sum_done = False
        self.kind_lines = {n: [] for n in names}
        self._in_li = False
        self._li = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "div" and a.get("class") == "sum":
            self._in_sum, self._sum_text, self._sum_name = True, "", None
            self._sum_done = False
        elif self._in_sum and tag == "b":
            self._in_b = True
        elif self._in_sum and tag == "span":
            self._span_depth += 1
            self._sum_done = True  # the line ends where the codec and the notes begin
        elif tag == "table" and a.get("id") == "matrix":
            self._in_matrix = True
        elif self._in_matrix and tag == "tr":
            self._col = -3  # the section and vectors columns come first
        elif self._in_matrix and tag == "td":
            self._col += 1
            title = a.get("title")
            if self._col >= 0 and title:
                name = self.names[self._col]
                m = re.match(r"pass (\d+), fail (\d+),", title)
                self.matrix[name]["pass"] += int(m.group(1))
                self.matrix[name]["failed"] += int(m.group(2))
        elif tag == "details" and "failure" in (a.get("class") or ""):
            ri = int(a["id"].split("-")[1])
            self.boxes[self.names[ri]] += 1
        elif tag == "h2":
            self._in_h2, self._h2 = True, ""
        elif self._in_sum and tag == "li":
            self._in_li, self._li = True, ""

    def handle_endtag(self, tag):
        if tag == "li" and self._in_li:
            self._in_li = False
            if KIND_LINE.match(self._li) and self._sum_name in self.kind_lines:
                self.kind_lines[self._sum_name].append(self._li)
        if tag == "table":
            self._in_matrix = False
        elif self._in_sum and tag == "b":
            self._in_b = False
        elif self._in_sum and tag == "span":
            self._span_depth -= 1
        elif self._in_sum and tag == "div":
            self._in_sum = False
            text = self._sum_text.strip()
            if re.match(r"\d+ passed", text):
                self.summary[self._sum_name] = text
        elif tag == "h2" and self._in_h2:
            self._in_h2 = False
            m = re.match(r"Failures and differences \((\d+)\)", self._h2)
            if m:
                self.heading = int(m.group(1))

    def handle_data(self, data):
        if self._in_li:
            self._li += data
        if self._in_sum and self._in_b:
            self._sum_name = data
        elif self._in_sum and self._span_depth == 0 and self._sum_name and not self._sum_done:
            self._sum_text += data
        if self._in_h2:
            self._h2 += data


def junit_counts(xml_text):
    """Per suite: its attributes, and its testcases counted by element."""
    out = {}
    root = ET.fromstring(xml_text)
    for suite in root.findall("testsuite"):
        attrs = {k: int(suite.get(k)) for k in ("tests", "failures", "errors", "skipped")}
        cases = suite.findall("testcase")
        counted = {
            "tests": len(cases),
            "failures": sum(1 for c in cases if c.find("failure") is not None),
            "errors": sum(1 for c in cases if c.find("error") is not None),
            "skipped": sum(1 for c in cases if c.find("skipped") is not None),
        }
        out[suite.get("name")] = (attrs, counted)
    totals = {k: int(root.get(k)) for k in ("tests", "failures", "errors", "skipped")}
    return out, totals


def expected_junit(runner):
    """The testcases the JSON counts call for (report_junit.c: a case per selected vector,
    per core feature lacked, per stale list line; the run has no complexity families)."""
    if runner["state"] != "ran":
        skipped = runner["state"] == "skipped"
        return {"tests": 1, "failures": 0, "errors": 0 if skipped else 1, "skipped": int(skipped)}
    c = runner["counts"]
    harness = sum(
        1
        for res in runner["results"]
        if res["status"] == "fail"
        and res["reason"] in ("crash", "timeout", "protocol_error", "resource")
    )
    features = runner["unsupported"]
    excused = sum(1 for f in features if f.get("xfail_reason"))
    stale = len(runner["xfail"]["unmatched"]) if runner.get("xfail") else 0
    return {
        "tests": sum(c[k] for k in STATUS_COUNTS) + len(features) + stale,
        "failures": c["fail"]
        - harness
        + c["placement"]
        + c["unclassified"]
        + c["unexpected_pass"]
        + len(features)
        - excused
        + stale,
        "errors": harness,
        "skipped": c["expected_failure"] + c["skipped"] + c["na"] + c["unsupported"] + excused,
    }


# Every status count of the JSON `counts`: each selected vector is in exactly one.
STATUS_COUNTS = [
    "pass",
    "fail",
    "fail_ungated",
    "differs",
    "placement",
    "placement_ungated",
    "unclassified",
    "unclassified_ungated",
    "expected_failure",
    "unexpected_pass",
    "skipped",
    "na",
    "unsupported",
]


# A "crashes by kind (3): A 2, B 1" line (report_kinds.h), as every report but JSON shows it.
KIND_LINE = re.compile(r"^(crashes|unclassified rejections \(R1\.4-15\)) by kind \((\d+)\): (.*)$")
KIND_GROUP = {"crashes": "crash", "unclassified rejections (R1.4-15)": "unclassified"}
# JUnit's message for an n/a vector without a detail; the text report counts it as this one.
JUNIT_NA_DEFAULT = "the runner lacks an entry point or mode this vector needs"


def kinds_of_lines(lines):
    """{group: (total, {kind: count})} from the by-kind lines of one runner."""
    out = {}
    for line in lines:
        m = KIND_LINE.match(line)
        if not m:
            raise AssertionError(f"not a by-kind line: {line!r}")
        kinds = {k: int(n) for k, n in re.findall(r"(.+?) (\d+)(?:, |$)", m.group(3))}
        out[KIND_GROUP[m.group(1)]] = (int(m.group(2)), kinds)
    return out


def kinds_of_json(runner):
    out = {}
    for group, ks in runner["kinds"].items():
        if ks:
            out[group] = (sum(k["count"] for k in ks), {k["kind"]: k["count"] for k in ks})
    return out


def text_kind_lines(text, name):
    prefix = name + ": "
    return [
        line[len(prefix) :]
        for line in text.splitlines()
        if line.startswith(prefix) and KIND_LINE.match(line[len(prefix) :])
    ]


def junit_kind_lines(xml_text, name):
    suite = ET.fromstring(xml_text).find(f"testsuite[@name='{name}']")
    props = suite.findall("properties/property") if suite is not None else []
    return [
        p.get("value")
        for p in props
        if p.get("name") in ("crashes-by-kind", "unclassified-rejections-by-kind")
    ]


def text_na(text, name):
    """{reason: count} of the runner's n/a breakdown in the text report, and its total."""
    lines = text.splitlines()
    head = re.compile(re.escape(name) + r": (\d+) vectors not applicable ")
    for i, line in enumerate(lines):
        m = head.match(line)
        if not m:
            continue
        out = {}
        for row in lines[i + 1 :]:
            c = re.match(r"^  +(\d+)  (.*)$", row)
            if c and not row.startswith("          "):
                out[c.group(2)] = int(c.group(1))
            elif not row.startswith("          "):
                break
        return int(m.group(1)), out
    return 0, {}


def junit_na(xml_text, name):
    out = {}
    suite = ET.fromstring(xml_text).find(f"testsuite[@name='{name}']")
    for sk in suite.findall("testcase/skipped") if suite is not None else []:
        msg = sk.get("message") or ""
        if msg.startswith("n/a: "):
            why = msg[5:]
            why = "not applicable" if why == JUNIT_NA_DEFAULT else why
            out[why] = out.get(why, 0) + 1
    return out


def json_na(runner):
    out = {}
    for res in runner["results"]:
        if res["status"] == "n/a":
            checks = res.get("checks") or []
            why = (checks[0].get("detail") if checks else None) or "not applicable"
            out[why] = out.get(why, 0) + 1
    return out


def compare_facts(reports, rep, hp):
    """The moved facts (kinds, n/a by reason) every writer shows, compared with JSON's."""
    problems = []
    for r in rep["runners"]:
        name = r["name"]
        want = kinds_of_json(r)
        for label, lines in (
            ("text", text_kind_lines(reports["text"], name)),
            ("JUnit", junit_kind_lines(reports["junit"], name)),
            ("HTML", hp.kind_lines.get(name, [])),
        ):
            try:
                got = kinds_of_lines(lines)
            except AssertionError as e:
                problems.append(f"{name}: {label} {e}")
                continue
            if got != want:
                problems.append(f"{name}: {label} kinds {got}, JSON kinds {want}")
        if r["state"] != "ran":
            continue
        want_na = json_na(r)
        total, by_reason = text_na(reports["text"], name)
        if total != r["counts"]["na"] or total != sum(by_reason.values()):
            problems.append(
                f"{name}: text n/a total {total} over reasons {sum(by_reason.values())}, JSON counts {r['counts']['na']}"
            )
        if by_reason != want_na:
            problems.append(f"{name}: text n/a by reason {by_reason}, JSON results {want_na}")
        got_j = junit_na(reports["junit"], name)
        if got_j != want_na:
            problems.append(f"{name}: JUnit n/a by reason {got_j}, JSON results {want_na}")
    return problems


def junit_property(xml_text, name, prop):
    suite = ET.fromstring(xml_text).find(f"testsuite[@name='{name}']")
    el = suite.find(f"properties/property[@name='{prop}']") if suite is not None else None
    return el.get("value") if el is not None else None


def compare_model(reports, rep):
    """What the model now holds beside the counts (issue 32): each runner's requests and
    restarts, its self-consistency figures, its diagnosis's failing vectors, and the HTML
    matrix's vectors per section, each as every writer that shows it prints it."""
    problems = []
    text, page = reports["text"], reports["html"]
    for r in rep["runners"]:
        if r["state"] != "ran":
            continue
        name = r["name"]
        want = (r["requests"], r["restarts"])
        m = re.search(
            r"^"
            + re.escape(name)
            + r": \d+ passed.*\[codec .*?; (\d+) requests?, (\d+) restarts?,",
            text,
            re.M,
        )
        got_t = (int(m.group(1)), int(m.group(2))) if m else None
        m = re.search(
            r'<div class="sum"><b>'
            + re.escape(name)
            + r"</b>[^\n]*?, (\d+) requests, (\d+) restarts,",
            page,
        )
        got_h = (int(m.group(1)), int(m.group(2))) if m else None
        got_j = junit_property(reports["junit"], name, "restarts")
        if got_t != want or got_h != want or got_j != str(r["restarts"]):
            problems.append(
                f"{name}: requests, restarts: text {got_t}, HTML {got_h}, JUnit restarts {got_j}, JSON {want}"
            )
        sc = r["self_consistency"]
        m = re.search(
            r"^" + re.escape(name) + r": self-consistency \(spec R1\.4-18\): (\d+) value vectors? "
            r"read back .*?\((\d+) decoded again.*?; (\d+) it cannot read back",
            text,
            re.M,
        )
        got_t = tuple(int(g) for g in m.groups()) if m else None
        got_j = (
            junit_property(reports["junit"], name, "self_consistency_checked"),
            junit_property(reports["junit"], name, "self_consistency_failed"),
        )
        if (sc["checked"] and got_t != (sc["checked"], sc["sent"], sc["failed"])) or got_j != (
            str(sc["checked"]),
            str(sc["failed"]),
        ):
            problems.append(f"{name}: self-consistency: text {got_t}, JUnit {got_j}, JSON {sc}")
        d = r.get("diagnosis") or {}
        if d.get("failing"):
            m = re.search(r"^" + re.escape(name) + r": likely causes of (\d+) ", text, re.M)
            got_t = int(m.group(1)) if m else None
            m = re.search(
                r"<h3>" + re.escape(name) + r": likely causes of (\d+) failing vectors?</h3>", page
            )
            got_h = int(m.group(1)) if m else None
            if got_t != d["failing"] or got_h != d["failing"]:
                problems.append(
                    f"{name}: diagnosed vectors: text {got_t}, HTML {got_h}, JSON {d['failing']}"
                )
    rows = re.findall(r'<tr><td class="sec">§([\d.]+)</td><td class="sub">(\d+)</td>', page)
    ran = [r for r in rep["runners"] if r["state"] == "ran"]
    if ran:
        want = {}
        for res in ran[0]["results"]:
            want[res["section"]] = want.get(res["section"], 0) + 1
        got = {sec: int(n) for sec, n in rows}
        if got != want or sum(got.values()) != rep["vectors"]["selected"]:
            problems.append(
                f"HTML matrix vectors per section {got}, JSON results {want}, selected {rep['vectors']['selected']}"
            )
    return problems


def compare(reports):
    """Every disagreement between the four reports, as lines (none: they agree)."""
    problems = []
    rep = json.loads(reports["json"])
    runners = rep["runners"]
    names = [r["name"] for r in runners]
    ran = [r for r in runners if r["state"] == "ran"]
    texts = text_summaries(reports["text"], names)
    tmatrix = text_matrix(reports["text"], names)
    hp = HtmlCounts(names)
    hp.feed(reports["html"])
    suites, totals = junit_counts(reports["junit"])
    want_totals = {k: 0 for k in ("tests", "failures", "errors", "skipped")}
    for r in runners:
        name = r["name"]
        want_j = expected_junit(r)
        attrs, counted = suites.get(name, (None, None))
        if attrs != want_j:
            problems.append(f"{name}: JUnit suite counts {attrs}, the JSON counts say {want_j}")
        if counted != attrs:
            problems.append(f"{name}: JUnit suite attributes {attrs}, its testcases {counted}")
        for k in want_totals:
            want_totals[k] += want_j[k]
        if r not in ran:
            continue
        want = expected_summary(r)
        if r["counts"]["differs_listed"] > r["counts"]["differs"]:
            problems.append(f"{name}: JSON differs_listed over differs")
        for label, line in (
            ("JSON summary", r["summary"]),
            ("text", texts.get(name)),
            ("HTML", hp.summary.get(name)),
        ):
            if line is None:
                problems.append(f"{name}: no summary line in the {label} report")
                continue
            got = summary_counts(line)
            if got != want:
                diff = {k: (got[k], want[k]) for k in want if got[k] != want[k]}
                problems.append(f"{name}: {label} summary {diff} (got, JSON counts)")
        if texts.get(name) != r["summary"] or hp.summary.get(name) != r["summary"]:
            problems.append(
                f"{name}: summary lines differ: text {texts.get(name)!r}, HTML {hp.summary.get(name)!r}, JSON {r['summary']!r}"
            )
        want_m = {
            "pass": r["counts"]["pass"],
            "failed": r["counts"]["fail"] + r["counts"]["fail_ungated"],
        }
        if tmatrix[name] != want_m:
            problems.append(f"{name}: text matrix sums {tmatrix[name]}, JSON counts {want_m}")
        if hp.matrix[name] != want_m:
            problems.append(f"{name}: HTML matrix sums {hp.matrix[name]}, JSON counts {want_m}")
        listed = sum(r["counts"][k] for k in LISTED)
        if hp.boxes[name] != listed:
            problems.append(
                f"{name}: {hp.boxes[name]} HTML failure boxes, {listed} listed in the JSON counts"
            )
        results = {}
        for res in r["results"]:
            results[res["status"]] = results.get(res["status"], 0) + 1
        for k, status in (
            ("pass", "pass"),
            ("fail", "fail"),
            ("differs", "differs"),
            ("skipped", "skipped"),
            ("na", "n/a"),
            ("expected_failure", "expected-failure"),
            ("unexpected_pass", "unexpected-pass"),
            ("placement", "placement"),
            ("unclassified", "unclassified"),
            ("unsupported", "unsupported"),
        ):
            if results.get(status, 0) != r["counts"][k]:
                problems.append(
                    f"{name}: JSON results hold {results.get(status, 0)} {status}, counts say {r['counts'][k]}"
                )
    if totals != want_totals:
        problems.append(f"JUnit <testsuites> {totals}, the suites sum to {want_totals}")
    want_heading = sum(r["counts"][k] for r in ran for k in LISTED)
    if hp.heading != want_heading:
        problems.append(f"HTML failures heading {hp.heading}, JSON counts {want_heading}")
    problems += compare_facts(reports, rep, hp)
    problems += compare_model(reports, rep)
    return problems, rep


def run_judge(judge, tmp):
    xfail = os.path.join(tmp, "o.xfail")
    with open(xfail, "w") as f:
        f.write("s05.1-str-ab  # wrong value, listed\n")  # an expected failure
        f.write("s04.1-null  # passes in strict: its placement fails\n")
        f.write("s04.4-largeint-1f  # passes: an unexpected pass\n")
        f.write("s99.9-nothing  # matches no vector: stale\n")
    sabotage = ",".join(
        [
            "wrong_bytes:s04.2-i32-one",
            "wrong_value:s05.1-str-ab",
            "wrong_class:s14.1-trailing",
            "crash:s04.3-f64-one",
            "skip:s07.2-map-two",
            "misplace_value:s07.3-dup-keys",
            "alt_notes:s05.3-bad-utf8",
        ]
    )
    o_cmd = f"env ORACLE_SABOTAGE={sabotage} {sys.executable} {ORACLE} {VECTORS}"
    p2_cmd = (
        "env ORACLE_PROTOCOL=2 ORACLE_SABOTAGE=rejected:s14.1-truncated-i32,hang:s05.2-str-nul "
        f"ORACLE_DECODE_CAPS=int32,int64,float64 {sys.executable} {ORACLE} {VECTORS}"
    )
    # only the message entry point: the method-call vectors are n/a for it
    na_cmd = f"env ORACLE_ENTRIES=message {sys.executable} {ORACLE} {VECTORS}"
    out = {k: os.path.join(tmp, "report." + k) for k in ("text", "json", "junit", "html")}
    args = [
        judge,
        "--vectors",
        VECTORS,
        "--allow-modified-vectors",
        "--no-progress",
        "--no-complexity",
        "--timeout",
        "2",
        "--gate",
        "required",
        "--runner",
        "o=" + o_cmd,
        "--xfail",
        "o=" + xfail,
        "--runner",
        "p2=" + p2_cmd,
        "--runner",
        "n=" + na_cmd,
        "--skip-runner",
        "gone=not built here",
        "--text",
        out["text"],
        "--json",
        out["json"],
        "--junit",
        out["junit"],
        "--html",
        out["html"],
    ]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=300)
    if proc.returncode not in (0, 1, 2) or not os.path.exists(out["json"]):
        raise SystemExit(f"FAIL: judge exited {proc.returncode}: {proc.stderr[-2000:]}")
    reports = {}
    for k, path in out.items():
        with open(path, encoding="utf-8") as f:
            reports[k] = f.read()
    return reports


def variety(rep):
    """The counts this run must make nonzero somewhere for the comparison to mean anything."""
    seen = {k: 0 for k in STATUS_COUNTS}
    stale = 0
    states = set()
    for r in rep["runners"]:
        states.add(r["state"])
        if r["state"] != "ran":
            continue
        for k in STATUS_COUNTS:
            seen[k] += r["counts"][k]
        stale += len(r["xfail"]["unmatched"]) if r.get("xfail") else 0
    seen["unclassified"] += seen["unclassified_ungated"]
    missing = [
        k
        for k in (
            "pass",
            "fail",
            "differs",
            "placement",
            "unclassified",
            "expected_failure",
            "unexpected_pass",
            "skipped",
        )
        if seen[k] == 0
    ]
    if stale == 0:
        missing.append("stale list entry")
    if not any(r["state"] == "ran" and r["counts"]["na"] for r in rep["runners"]):
        missing.append("n/a")
    for group in ("crash", "unclassified"):
        if not any(r["kinds"][group] for r in rep["runners"]):
            missing.append(group + " by kind")
    for state in ("ran", "skipped"):
        if state not in states:
            missing.append("runner " + state)
    return missing


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--judge", required=True)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        reports = run_judge(a.judge, tmp)
    problems, rep = compare(reports)
    missing = variety(rep)
    if missing:
        problems.append("the run shows none of: " + ", ".join(missing))
    for p in problems:
        print("FAIL:", p)
    if problems:
        return 1
    # Proof that the comparison can fail: one count altered in one report at a time.
    altered = {
        "junit": re.sub(
            r'(<testsuite name="o" tests=")(\d+)',
            lambda m: m.group(1) + str(int(m.group(2)) + 1),
            reports["junit"],
            count=1,
        ),
        "text": re.sub(
            r"^(o: \d+ passed, )(\d+)",
            lambda m: m.group(1) + str(int(m.group(2)) + 1),
            reports["text"],
            count=1,
            flags=re.M,
        ),
        "html": re.sub(
            r'(<div class="sum"><b>o</b> )(\d+)',
            lambda m: m.group(1) + str(int(m.group(2)) + 1),
            reports["html"],
            count=1,
        ),
        "json": reports["json"].replace('"counts":{"pass":', '"counts":{"pass":1', 1),
    }
    bump = lambda m: m.group(1) + str(int(m.group(2)) + 1)  # noqa: E731
    # the moved facts: one kind count, one n/a reason's count, one n/a message, in one writer
    facts = [
        (
            "text",
            re.sub(
                r"(crashes by kind \(1\): .*? )(\d+)$", bump, reports["text"], count=1, flags=re.M
            ),
        ),
        (
            "junit",
            re.sub(
                r'(value="unclassified rejections \(R1\.4-15\) by kind \(1\): \w+ )(\d+)',
                bump,
                reports["junit"],
                count=1,
            ),
        ),
        ("html", re.sub(r"(<li>crashes by kind \()(\d+)", bump, reports["html"], count=1)),
        (
            "json",
            reports["json"].replace('"unclassified":[{"kind":"', '"unclassified":[{"kind":"X', 1),
        ),
        (
            "text",
            re.sub(
                r"^(n: \d+ vectors not applicable .*\n +)(\d+)",
                bump,
                reports["text"],
                count=1,
                flags=re.M,
            ),
        ),
        ("junit", reports["junit"].replace('message="n/a: ', 'message="n/a: (changed) ', 1)),
        # what the model holds beside the counts: requests, restarts, self-consistency, the
        # diagnosis, the HTML matrix's vectors per section
        (
            "text",
            re.sub(
                r"^(o: \d+ passed.*; )(\d+)(?= requests)",
                bump,
                reports["text"],
                count=1,
                flags=re.M,
            ),
        ),
        ("html", re.sub(r"(, )(\d+)(?= restarts, )", bump, reports["html"], count=1)),
        (
            "junit",
            re.sub(
                r'(name="self_consistency_checked" value=")(\d+)', bump, reports["junit"], count=1
            ),
        ),
        (
            "text",
            re.sub(r"^(o: likely causes of )(\d+)", bump, reports["text"], count=1, flags=re.M),
        ),
        ("html", re.sub(r'(<td class="sub">)(\d+)(?=</td>)', bump, reports["html"], count=1)),
    ]
    for k, text in list(altered.items()) + facts:
        if text == reports[k]:
            print(f"FAIL: could not alter the {k} report for the self-check")
            return 1
        broken, _ = compare(dict(reports, **{k: text}))
        if not broken:
            print(f"FAIL: a count altered in the {k} report was not noticed")
            return 1
    names = ", ".join(f"{r['name']} ({r['state']})" for r in rep["runners"])
    print(
        f"ok: text, JSON, JUnit and HTML agree on every count, kind, n/a reason, request and restart count, self-consistency figure, diagnosed count and matrix vector count of {names}; an altered count in each is found"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
