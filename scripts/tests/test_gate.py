#!/usr/bin/env python3
"""The CI gate: action.yml's own steps, run here, give the reports and the exit codes of
docs/ci.md.

    python3 scripts/tests/test_gate.py --build BUILD_DIR

The composite action's `run` steps are executed as GitHub would run them: `bash -e -o
pipefail`, the `${{ inputs.* }}`, `${{ github.action_path }}` and `${{ steps.gate.outputs.* }}`
expressions filled in, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, and a fresh workspace as
the current directory. Any other expression fails the test, since it could not be checked
here. The `uses:` step (upload-artifact) is checked only for its `if: always()` and its path.
The cases:

* the default path: the action builds and installs this checkout's smc (RUNNER_TEMP), and the
  copied C reference runner passes every vector: exit 0, four reports (JSON valid against
  judge/report.schema.json, JUnit with one testcase per vector), outputs and job summary;
* a deliberately broken runner (judge/tests/oracle_runner.py with wrong bytes on a required
  vector): exit 1; a wrong recommended vector: 0 under `gate: required` (fail-ungated), 1
  under `recommended` and `all`; the broken vector in `expected-failures`: 0; a listed vector
  that passes: 1;
* setup errors, each 2: a runner that cannot start, an unknown gate word, a missing
  expected-failure list, no smc at the given path, an unknown judge option in `args`; a
  report left by an earlier run is removed, and the job summary says "setup error".
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

import yaml
from checks import ROOT, check, foreign_host_vectors, verdict

STALE = {"gate": {"passed": True}, "stale": True}
EXPR = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")


class Action:
    """action.yml, and a local run of its steps."""

    def __init__(self):
        with open(os.path.join(ROOT, "action.yml")) as f:
            self.text = f.read()
        self.doc = yaml.safe_load(self.text)
        self.inputs = self.doc["inputs"]
        self.steps = self.doc["runs"]["steps"]

    def static_checks(self):
        check(self.doc["runs"]["using"] == "composite", "action.yml is a composite action")
        used = set(re.findall(r"inputs\.([A-Za-z0-9_-]+)", self.text))
        check(
            used <= set(self.inputs),
            "every input the steps use is declared",
            used - set(self.inputs),
        )
        with open(os.path.join(ROOT, "scripts", "gate.sh")) as f:
            gate = f.read()
        written = set(re.findall(r'echo "([a-z-]+)=\$', gate))
        outs = {k: v["value"] for k, v in self.doc["outputs"].items()}
        check(
            all(
                re.fullmatch(r"\$\{\{ steps\.gate\.outputs\.([a-z-]+) \}\}", v)
                and v.split(".")[-1].rstrip(" }") in written
                for v in outs.values()
            ),
            "every output is one scripts/gate.sh writes",
            (outs, written),
        )
        upload = [s for s in self.steps if "uses" in s]
        check(
            len(upload) == 1
            and upload[0]["uses"].startswith("actions/upload-artifact@")
            and "always()" in upload[0]["if"]
            and "steps.gate.outputs.reports" in upload[0]["with"]["path"],
            "the reports are uploaded whatever the verdict (if: always())",
            upload,
        )
        runs = [s for s in self.steps if "run" in s]
        check(
            len(runs) == 2
            and "gate.sh" in runs[0]["env"]["SMC_GATE_SCRIPT"]
            and "always()" in runs[1].get("if", ""),
            "one step runs scripts/gate.sh, a last one gives the verdict",
        )

    def run(self, inputs, workspace, env_extra, action_path=ROOT):
        """The exit status of the job's last step, the step outputs, and all output. Each
        `run` step is a script file run as GitHub runs `shell: bash` (`bash -e {0}`); after a
        run, `self.files` holds what the steps left in the command files."""
        values = {k: str(v.get("default", "")) for k, v in self.inputs.items()}
        values.update(inputs)
        outputs, log, status = {}, "", 0
        self.files = {"output": "", "env": ""}
        out_file = os.path.join(workspace, ".github_output")
        env_file = os.path.join(workspace, ".github_env")
        summary_file = os.path.join(workspace, ".github_step_summary")
        for n, step in enumerate(self.steps):
            if "run" not in step:
                continue

            def fill(text):
                def one(m):
                    e = m.group(1)
                    if e.startswith("inputs."):
                        return values[e[len("inputs.") :]]
                    if e == "github.action_path":
                        return action_path
                    if e.startswith("steps.gate.outputs."):
                        return outputs.get(e[len("steps.gate.outputs.") :], "")
                    raise KeyError("expression the test cannot evaluate: " + e)

                return EXPR.sub(one, text)

            env = dict(os.environ)
            env.update(env_extra)
            env.update({k: fill(str(v)) for k, v in step.get("env", {}).items()})
            env.update(
                {
                    "GITHUB_OUTPUT": out_file,
                    "GITHUB_ENV": env_file,
                    "GITHUB_STEP_SUMMARY": summary_file,
                    "GITHUB_WORKSPACE": workspace,
                    "GITHUB_ACTION_PATH": action_path,
                }
            )
            for f in (out_file, env_file):
                if os.path.exists(f):
                    os.chmod(f, 0o644)
                open(f, "w").close()
            open(summary_file, "a").close()  # GitHub gives each step its summary file
            script = os.path.join(workspace, ".step%d.sh" % n)
            with open(script, "w") as f:
                f.write(fill(step["run"]))
            r = subprocess.run(
                ["bash", "--noprofile", "--norc", "-e", "-o", "pipefail", script],
                cwd=workspace,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                universal_newlines=True,
            )
            log += r.stdout
            status = r.returncode
            with open(out_file) as f:
                text = f.read()
            self.files["output"] += text
            for line in text.splitlines():
                if "=" in line:
                    k, v = line.split("=", 1)
                    outputs[k] = v  # the last line of a name wins, as on GitHub
            with open(env_file) as f:
                self.files["env"] += f.read()
            if status != 0 and step.get("if") != "always()":
                break
        summary = open(summary_file).read() if os.path.exists(summary_file) else ""
        return status, outputs, log, summary


def first_vector(vectors_dir, tier):
    """A valid vector of `tier` with one tier for every mode (its wrong bytes fail that tier),
    holding no text: the sabotaged runner's last byte flipped inside a string would be bytes its
    own decoder rejects, which fails the self-consistency check (spec R1.4-18) at the required
    tier whatever the vector's tier."""
    for name in sorted(os.listdir(vectors_dir)):
        if re.match(r"s[0-9][0-9]-.*\.json$", name):
            with open(os.path.join(vectors_dir, name)) as f:
                for v in json.load(f)["vectors"]:
                    text = any(t in json.dumps(v.get("value")) for t in ('"str"', '"largeint"'))
                    if v["tier"] == tier and "canonical" in v and "by_mode" not in v and not text:
                        return v["id"]
    raise SystemExit("no %s vector with canonical bytes" % tier)


def sandboxed_hostile(action, act, tmp, counter, token, hostile, smc):
    """The same hostile runner under the action's default sandbox (bwrap, where it runs):
    none of its attacks lands (it cannot even write its own log of them), the reports say
    it ran sandboxed, and the verdict is the same GATE FAILED."""
    bwrap = shutil.which("bwrap")
    if not bwrap or subprocess.run([bwrap, "--ro-bind", "/", "/", "true"]).returncode != 0:
        print(
            "skip: the sandboxed hostile job: bwrap %s"
            % ("cannot run here" if bwrap else "is not installed")
        )
        return
    shutil.copy2(os.path.join(ROOT, "scripts", "gate.sh"), os.path.join(act, "scripts", "gate.sh"))
    # its log in a folder it may write (--sandbox-write, through the action's args)
    scratch = os.path.join(tmp, "hostile-scratch")
    os.makedirs(scratch, exist_ok=True)
    attacks = os.path.join(scratch, "attacks.txt")
    old_log = shlex.quote(os.path.join(tmp, "hostile-attacks.txt"))
    hostile = hostile.replace(old_log, shlex.quote(attacks), 1)
    counter[0] += 1
    ws = os.path.join(tmp, "ws%d" % counter[0])
    os.makedirs(ws)
    status, out, log, summary = action.run(
        {"runner": hostile, "smc": smc, "args": "--sandbox-write " + scratch},
        ws,
        {"RUNNER_TEMP": tmp, "SMC_GATE_TEST_JOB": token},
        act,
    )
    with (
        open(os.path.join(act, "scripts", "gate.sh")) as f,
        open(os.path.join(ROOT, "scripts", "gate.sh")) as g,
    ):
        untouched = f.read() == g.read()
    text = open(os.path.join(ws, "smc-reports", "conformance.txt")).read()
    done = open(attacks).read().splitlines() if os.path.exists(attacks) else None
    check(
        done == [] and untouched,
        "sandboxed, the runner ran its attacks and none landed (gate.sh untouched): %s" % done,
        log[-2000:],
    )
    check(
        status == 1
        and out.get("exit-code") == "1"
        and "GATE FAILED" in summary
        and "GATE PASSED" not in summary
        and "sandbox: runners sandboxed: bwrap" in text,
        "sandboxed: exit 1, GATE FAILED, and the report says the runner ran sandboxed",
        (status, summary[-500:], text[:600]),
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True, help="a built tree (for the C reference runner)")
    a = ap.parse_args()
    action = Action()
    action.static_checks()
    # Not under /tmp: the runner sandbox (on by default where bwrap runs) gives the runner a
    # private /tmp, where it would not find itself.
    tmp = tempfile.mkdtemp(prefix="smc-gate-test-", dir=os.path.abspath(a.build))
    counter = [0]

    def job(inputs, env_extra=None, stale=False):
        counter[0] += 1
        ws = os.path.join(tmp, "ws%d" % counter[0])
        os.makedirs(ws)
        if stale:  # a report of an earlier run, which must not pass for this one's
            os.makedirs(os.path.join(ws, "smc-reports"))
            with open(os.path.join(ws, "smc-reports", "conformance.json"), "w") as f:
                json.dump(STALE, f)
        return (ws,) + action.run(inputs, ws, dict({"RUNNER_TEMP": tmp}, **(env_extra or {})))

    try:
        runner = os.path.join(tmp, "bin", "my-runner")
        os.makedirs(os.path.dirname(runner))
        shutil.copy2(os.path.join(a.build, "runners", "c", "smc-c-runner"), runner)

        ws, status, out, log, summary = job({"runner": runner})
        smc = os.path.join(tmp, "smc-gate", "prefix", "bin", "smc")
        vectors = os.path.join(tmp, "smc-gate", "prefix", "share", "smc", "vectors")
        reports = os.path.join(ws, "smc-reports")
        check(status == 0 and out.get("exit-code") == "0", "pass: the job exits 0", log)
        check(os.access(smc, os.X_OK), "the action built and installed smc under RUNNER_TEMP", log)
        check(
            out.get("reports") == reports
            and out.get("summary", "").startswith("mine: ")
            and out.get("vectors")
            == json.load(open(os.path.join(ROOT, "vectors/MANIFEST.json")))["vectors_version"],
            "outputs: reports, summary, vectors",
            out,
        )
        check(
            "GATE PASSED" in summary and "mine: " in summary,
            "the job summary shows the verdict",
            summary,
        )
        try:
            rep = json.load(open(os.path.join(reports, "conformance.json")))
            junit = ET.parse(os.path.join(reports, "conformance.xml")).getroot()
            html = open(os.path.join(reports, "conformance.html")).read()
            text = open(os.path.join(reports, "conformance.txt")).read()
        except (OSError, ValueError, ET.ParseError) as e:
            check(False, "four reports written", e)
            return 1
        total = rep["vectors"]["total"]
        na = foreign_host_vectors(vectors, rep["runners"][0]["hosts"])
        counts = rep["runners"][0]["counts"]
        check(
            rep["vectors"]["dir"] == vectors
            and rep["gate"]["passed"]
            and counts["pass"] == total - na
            and counts["na"] == na,
            "JSON: every installed vector passed but the host-type vectors of vocabularies the "
            "runner does not speak (n/a)",
            [rep["gate"], counts],
        )
        try:
            import jsonschema

            jsonschema.validate(
                rep, json.load(open(os.path.join(ROOT, "judge", "report.schema.json")))
            )
            check(True, "JSON report valid against judge/report.schema.json")
        except ImportError:
            print("skip: jsonschema not importable; the JSON report's schema is not checked")
        except jsonschema.ValidationError as e:
            check(False, "JSON report valid against judge/report.schema.json", e.message)
        # the complexity families (spec §15.4) are testcases NAME.complexity beside the vectors
        cases = [
            c
            for c in junit.findall(".//testcase")
            if not c.get("classname", "").endswith(".complexity")
        ]
        check(
            len(cases) == total and not junit.findall(".//failure"),
            "JUnit: one passing testcase per vector",
            len(cases),
        )
        check(
            "<html" in html and text.rstrip().endswith("GATE PASSED"),
            "HTML and text reports written",
        )

        # the oracle reads the vectors to answer: a copy of its own, since the runner sandbox
        # hides the judge's vector files
        oracle_vectors = os.path.join(tmp, "oracle-vectors")
        shutil.copytree(vectors, oracle_vectors)
        oracle = "python3 %s %s" % (
            os.path.join(ROOT, "judge", "tests", "oracle_runner.py"),
            oracle_vectors,
        )
        required, recommended = (
            first_vector(vectors, "required"),
            first_vector(vectors, "recommended"),
        )

        def broken(vid):
            return "ORACLE_SABOTAGE=wrong_bytes:%s %s" % (vid, oracle)

        ws, status, out, log, _ = job({"runner": broken(required), "smc": smc})
        check(
            status == 1 and out.get("exit-code") == "1",
            "broken runner (required %s): exit 1" % required,
            log,
        )
        rep_path = os.path.join(ws, "smc-reports", "conformance.json")
        try:
            rep = json.load(open(rep_path))
            junit = ET.parse(os.path.join(ws, "smc-reports", "conformance.xml")).getroot()
            by_id = {x["id"]: x for x in rep["runners"][0]["results"]}
            check(
                not rep["gate"]["passed"]
                and by_id[required]["status"] == "fail"
                and len(junit.findall(".//failure")) == 1,
                "its reports show the one failure",
            )
        except (OSError, ValueError, KeyError, ET.ParseError) as e:
            check(False, "reports of the failing run", e)

        for policy, want in (("required", 0), ("recommended", 1), ("all", 1)):
            ws, status, out, log, _ = job(
                {"runner": broken(recommended), "smc": smc, "gate": policy}
            )
            check(
                status == want and out.get("exit-code") == str(want),
                "wrong recommended vector under gate %s: exit %d" % (policy, want),
                log,
            )
            if policy == "required" and status == 0:
                rep = json.load(open(os.path.join(ws, "smc-reports", "conformance.json")))
                by_id = {x["id"]: x for x in rep["runners"][0]["results"]}
                check(
                    by_id[recommended]["status"] == "fail-ungated",
                    "  listed as fail-ungated",
                    by_id[recommended],
                )

        # A hostile runner (issue 26; scripts/tests/hostile_gate_runner.py): it rewrites the
        # running scripts/gate.sh and the step's script, appends exit-code=0 / BASH_ENV= /
        # GATE PASSED to the command files its ancestors' environments name (GITHUB_OUTPUT made
        # read-only), writes GATE PASSED through its ancestors' stdout and stderr (the judge's
        # among them), then fails a required vector. The job exits 1 and says GATE FAILED.
        # The action runs from a copy here: the attack rewrites its scripts/gate.sh.
        act = os.path.join(tmp, "action")
        os.makedirs(os.path.join(act, "scripts"))
        shutil.copy2(
            os.path.join(ROOT, "scripts", "gate.sh"), os.path.join(act, "scripts", "gate.sh")
        )
        attacks = os.path.join(tmp, "hostile-attacks.txt")
        token = "job-%d" % os.getpid()
        hostile = "python3 %s %s %s -- %s" % (
            os.path.join(ROOT, "scripts", "tests", "hostile_gate_runner.py"),
            shlex.quote(attacks),
            token,
            broken(required),
        )
        counter[0] += 1
        ws = os.path.join(tmp, "ws%d" % counter[0])
        os.makedirs(ws)
        status, out, log, summary = action.run(
            {"runner": hostile, "smc": smc, "sandbox": "none"},
            ws,
            {"RUNNER_TEMP": tmp, "SMC_GATE_TEST_JOB": token},
            act,
        )
        done = open(attacks).read().splitlines() if os.path.exists(attacks) else []
        check(
            [d for d in done if d.startswith("leaked ")] == [],
            "the runner's environment names none of the gate's files",
            done,
        )
        want = [
            "rewrote %s" % os.path.join(act, "scripts", "gate.sh"),
            "appended to GITHUB_OUTPUT",
            "appended to GITHUB_ENV",
            "appended to GITHUB_STEP_SUMMARY",
            "wrote to fd 1 of smc",
        ]
        check(
            all(w in done for w in want)
            and any(d.startswith("rewrote ") and ".step" in d for d in done),
            "the attacks were made (the running gate.sh and step script rewritten, the command files "
            "and the judge's stdout written)",
            done,
        )
        text = open(os.path.join(ws, "smc-reports", "conformance.txt")).read()
        check(
            status == 1
            and out.get("exit-code") == "1"
            and "exit-code=0" not in action.files["output"]
            and "BASH_ENV" not in action.files["env"]
            and "GATE FAILED" in summary
            and "GATE PASSED" not in summary
            and text.rstrip().split("\n")[-1].startswith("GATE FAILED")
            and "GATE PASSED" not in text,
            "a hostile runner cannot turn the verdict: exit 1, GATE FAILED, no forged line kept",
            (status, action.files, summary[-500:], log[-2000:]),
        )
        sandboxed_hostile(action, act, tmp, counter, token, hostile, smc)
        ws, status, out, log, _ = job({"runner": runner, "smc": smc, "reports": "r\nexit-code=0"})
        check(
            status == 2 and out.get("exit-code") in (None, "2"),
            "an input with a newline is refused (exit 2), no line of it in the outputs",
            (status, out),
        )

        xfail = os.path.join(tmp, "expected.txt")
        with open(xfail, "w") as f:
            f.write("%s  # wrong bytes on purpose\n" % required)
        ws, status, out, log, _ = job(
            {"runner": broken(required), "smc": smc, "expected-failures": xfail}
        )
        check(status == 0, "the broken vector in expected-failures: exit 0", log)
        ws, status, out, log, _ = job({"runner": oracle, "smc": smc, "expected-failures": xfail})
        check(status == 1 and "unexpected pass" in log, "a listed vector that passes: exit 1", log)

        ws, status, out, log, _ = job(
            {"runner": oracle, "smc": smc, "args": "--section 4 --max-details 1"}
        )
        rep = json.load(open(os.path.join(ws, "smc-reports", "conformance.json")))
        n4 = sum(
            1
            for x in rep["runners"][0]["results"]
            if x["section"] == "4" or x["section"].startswith("4.")
        )
        check(
            status == 0 and rep["vectors"]["selected"] == n4 > 0,
            "args are passed to the judge (--section 4)",
            rep["vectors"],
        )

        setup = [
            ({"runner": "/nonexistent/runner", "smc": smc}, "a runner that cannot start"),
            ({"runner": runner, "smc": smc, "gate": "most"}, "an unknown gate word"),
            (
                {"runner": runner, "smc": smc, "expected-failures": "missing.txt"},
                "a missing expected-failure list",
            ),
            ({"runner": runner, "smc": os.path.join(tmp, "no-smc")}, "no smc at the given path"),
            ({"runner": runner, "smc": smc, "args": "--no-such-option"}, "an unknown judge option"),
        ]
        for inputs, what in setup:
            ws, status, out, log, summary = job(inputs, stale=True)
            check(
                status == 2 and out.get("exit-code") == "2", "setup error, %s: exit 2" % what, log
            )
            report = os.path.join(ws, "smc-reports", "conformance.json")
            fresh = not os.path.exists(report) or json.load(open(report)) != STALE
            check(
                fresh and "setup error" in summary,
                "  no stale report left, the job summary says setup error",
                summary,
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return verdict("test_gate")


if __name__ == "__main__":
    sys.exit(main())
