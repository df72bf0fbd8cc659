#!/usr/bin/env python3
"""The HTML report in a real browser: headless Chromium, driven over the DevTools protocol on
a pipe (stdlib only). A judge run with failures of two kinds (a decoder wrong only at shifted
addresses, an encoder writing wrong bytes) makes a report; the page must load without a script
error, show every listed failure in one box per (runner, vector), filter them, follow a matrix
cell's link to that cell's failures and a grid cell's link to its box, mark the differing bytes
of a byte diff, and render a screenshot.

usage: test_html_browser.py --judge SMC-JUDGE --mutant-runner RUNNER --vectors DIR [--keep DIR]
Without chromium it prints that it skipped and why, and exits 0.
"""

import argparse
import base64
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

FAILED = []


def check(ok, what):
    print("%s: %s" % ("ok" if ok else "FAIL", what))
    if not ok:
        FAILED.append(what)
    return ok


class Browser:
    """Chromium with --remote-debugging-pipe: requests on fd 3, answers and events on fd 4,
    each a JSON text ended by NUL."""

    def __init__(self, chrome, profile):
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        # the child's fds 3 and 4 (dup2'd by the preexec hook: pass_fds keeps numbers only)
        def fds():
            r, w = os.dup(to_chrome_r), os.dup(from_chrome_w)  # neither is 3 or 4 now
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.proc = subprocess.Popen(
            [
                chrome,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--remote-debugging-pipe",
                "--user-data-dir=" + profile,
                "--window-size=1400,1000",
                "--no-first-run",
                "--no-default-browser-check",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=fds,
            close_fds=False,
        )
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buf = b""
        self.seq = 0
        self.events = []

    def _read(self, deadline):
        while b"\0" not in self.buf:
            if time.time() > deadline:
                raise TimeoutError("no answer from chromium")
            chunk = os.read(self.from_chrome, 1 << 16)
            if not chunk:
                raise EOFError("chromium closed its pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None, timeout=60):
        self.seq += 1
        msg = {"id": self.seq, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            m = self._read(deadline)
            if m.get("id") == self.seq:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def close(self):
        try:
            self.call("Browser.close", timeout=10)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Page:
    def __init__(self, browser, url):
        self.b = browser
        target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.s = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        browser.call("Runtime.enable", session=self.s)
        browser.call("Page.enable", session=self.s)
        browser.call("Page.navigate", {"url": url}, session=self.s)
        deadline = time.time() + 90
        while not self.js("document.body && document.body.dataset.ready === '1'"):
            if time.time() > deadline:
                raise TimeoutError("the page never said it was ready")
            time.sleep(0.2)

    def js(self, expr):
        r = self.b.call(
            "Runtime.evaluate", {"expression": expr, "returnByValue": True}, session=self.s
        )
        if "exceptionDetails" in r:
            raise RuntimeError("script error: %s" % r["exceptionDetails"].get("text"))
        return r["result"].get("value")

    def errors(self):
        return [e for e in self.b.events if e.get("method") == "Runtime.exceptionThrown"]

    def screenshot(self):
        r = self.b.call("Page.captureScreenshot", {"format": "png"}, session=self.s)
        return base64.b64decode(r["data"])


def make_report(args, tmp):
    """A run with listed failures: pad-from-address (right only at aligned addresses: placement
    failures) and pad-not-zeroed (the encoder writes non-zero padding: wrong bytes)."""
    runner = shlex.quote(args.mutant_runner)
    cmd = [
        args.judge,
        "--vectors",
        args.vectors,
        "--runner",
        "pad=env SMC_MUTANTS=pad-from-address " + runner,
        "--runner",
        "enc=env SMC_MUTANTS=pad-not-zeroed " + runner,
        "--html",
        os.path.join(tmp, "report.html"),
        "--json",
        os.path.join(tmp, "report.json"),
    ]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    check(p.returncode == 1, "the run fails, as its runners are broken (exit %d)" % p.returncode)
    with open(os.path.join(tmp, "report.json"), encoding="utf-8") as f:
        return json.load(f)


LISTED = (
    "fail",
    "placement",
    "unclassified",
    "unexpected-pass",
    "fail-ungated",
    "placement-ungated",
    "unclassified-ungated",
    "differs",
)

VISIBLE = "document.querySelectorAll('#failures details.failure:not([hidden])').length"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--judge", required=True, help="smc-judge (smc conformance's options)")
    ap.add_argument("--mutant-runner", required=True)
    ap.add_argument("--vectors", required=True)
    ap.add_argument("--keep", help="copy the report and the screenshot here")
    args = ap.parse_args()
    chrome = (
        shutil.which("chromium")
        or shutil.which("chromium-browser")
        or shutil.which("google-chrome")
    )
    if not chrome:
        print(
            "skip: chromium not installed (scripts/install-deps.sh installs it); the HTML "
            "report was not checked in a browser"
        )
        return 0
    tmp = tempfile.mkdtemp(prefix="smc-html-")
    report = make_report(args, tmp)
    listed = {
        run["name"]: [r for r in run["results"] if r["status"] in LISTED]
        for run in report["runners"]
    }
    total = sum(len(v) for v in listed.values())
    check(
        total > 100 and all(listed.values()),
        "both runners have listed failures (%s)" % {k: len(v) for k, v in listed.items()},
    )
    size = os.path.getsize(os.path.join(tmp, "report.html"))
    print("report: %d failures, %d bytes" % (total, size))
    browser = Browser(chrome, os.path.join(tmp, "profile"))
    try:
        page = Page(browser, "file://" + os.path.join(tmp, "report.html"))
        check(not page.errors(), "the page loads without a script error %s" % page.errors()[:1])
        boxes = page.js("document.querySelectorAll('#failures details.failure').length")
        check(boxes == total, "one box per listed (runner, vector): %s of %d" % (boxes, total))
        check(page.js(VISIBLE) == total, "no filter: every box shown")
        ids = page.js(
            "Array.prototype.map.call(document.querySelectorAll('#failures details.failure'),"
            "function(d){return d.id;})"
        )
        check(len(set(ids)) == len(ids), "box ids are unique")
        # a filter: runner `enc` only
        page.js(
            "var s=document.querySelector('#filters select[name=ri]');s.value='1';"
            "s.dispatchEvent(new Event('change'))"
        )
        check(
            page.js(VISIBLE) == len(listed["enc"]),
            "filter by runner: the enc runner's %d failures" % len(listed["enc"]),
        )
        # and a status: the enc runner's commonest, so the count is not zero by accident
        statuses = [r["status"] for r in listed["enc"]]
        common = max(set(statuses), key=statuses.count)
        page.js(
            "var s=document.querySelector('#filters select[name=status]');"
            "s.value=Array.prototype.filter.call(s.options,function(o){return o.text===%s;})[0].value;"
            "s.dispatchEvent(new Event('change'))" % json.dumps(common)
        )
        check(
            page.js(VISIBLE) == statuses.count(common) < len(listed["enc"]) + len(listed["pad"]),
            "filter by runner and status: enc's %d %s" % (statuses.count(common), common),
        )
        page.js("clearAll()")
        check(page.js(VISIBLE) == total, "clear: every box shown again")
        # a cause: every shown box's group names that cause
        page.js(
            "var s=document.querySelector('#filters select[name=cause]');s.value=s.options[1].value;"
            "s.dispatchEvent(new Event('change'))"
        )
        cause = page.js("document.querySelector('#filters select[name=cause]').options[1].text")
        heads = page.js(
            "Array.prototype.map.call(document.querySelectorAll('#failures .group:not([hidden]) h3'),"
            "function(h){return h.textContent;})"
        )
        check(
            page.js(VISIBLE) > 0 and heads and all(cause in h for h in heads),
            "filter by cause %r: only its groups shown (%d)" % (cause, len(heads or [])),
        )
        page.js("clearAll()")
        # a matrix cell's link: the failures of that runner and section, as many as it counts
        link = page.js(
            "(function(){var a=document.querySelector('#matrix a');"
            "return a?[a.getAttribute('href'),a.textContent]:null;})()"
        )
        check(link is not None, "a matrix cell links to its failures (%s)" % (link,))
        if link:
            page.js("document.querySelector('#matrix a').click()")
            time.sleep(0.5)
            shown = page.js(VISIBLE)
            counted = sum(int(w[1:]) for w in link[1].split()[1:] if w[1:].isdigit())
            want = link[0].split(":", 1)[1].replace("ri=", "").replace("row=", "").split("&")
            keys = page.js(
                "Array.prototype.map.call(document.querySelectorAll("
                "'#failures details.failure:not([hidden])'),function(d){return d.dataset.f;})"
            )
            check(
                shown == counted and shown > 0,
                "following %s shows the cell's %d failures (%s shown)" % (link[0], counted, shown),
            )
            check(
                all(k.split()[:2] == want for k in keys), "and only that runner's, in that section"
            )
            check(
                page.js("document.querySelector('#filters select[name=ri]').value") == want[0],
                "the runner filter says so",
            )
        page.js("clearAll()")
        # a grid cell's link opens its box
        page.js("document.getElementById('all').open=true")
        href = page.js(
            "(function(){var a=document.querySelector('#grid a');return a?a.getAttribute('href'):null;})()"
        )
        check(
            href is not None
            and page.js("document.querySelectorAll('#grid tbody tr').length")
            == report["vectors"]["selected"],
            "the grid has a row per selected vector and links (%s)" % href,
        )
        if href:
            page.js("document.querySelector('#grid a').click()")
            time.sleep(0.5)
            check(
                page.js("document.getElementById(%s).open" % json.dumps(href[1:])) is True,
                "following a grid cell opens its box %s" % href,
            )
            rerun = page.js(
                "document.getElementById(%s).querySelector('pre.rerun').textContent"
                % json.dumps(href[1:])
            )
            check(
                " --only '" in (rerun or ""),
                "an opened box shows its rerun command (%r)" % (rerun or "")[-60:],
            )
        # a byte diff marks the differing bytes; a failed decode shows its input
        marks = page.js("document.querySelectorAll('#failures pre.hex mark').length")
        check(marks > 0, "byte diffs mark the differing bytes (%s marks)" % marks)
        check(
            page.js("document.querySelectorAll('#failures pre.in').length") > 0,
            "failed decodes show their input",
        )
        check(not page.errors(), "no script error after the clicks %s" % page.errors()[:1])
        png = page.screenshot()
        check(
            png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20000,
            "a screenshot (%d bytes of PNG)" % len(png),
        )
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            with open(os.path.join(args.keep, "report.png"), "wb") as f:
                f.write(png)
            shutil.copy(os.path.join(tmp, "report.html"), args.keep)
    finally:
        browser.close()
    shutil.rmtree(tmp, ignore_errors=True)
    print("%d failed" % len(FAILED))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
