"""Unit tests of the generator's cross-check against the C reference (crosscheck.py; run:
python3 -m unittest vectors/gen/test_crosscheck.py).

With the C runner built (build*/runners/c/smc-c-runner), a few vectors of every kind must
agree with it and a vector with a wrong byte, value, class or offset must not. Without it
those tests are skipped, saying why. Whatever is built, a process that is not a runner, one
that dies, one that breaks the stream and one that hangs must each stop the cross-check with
a message that names it, never pass."""

import glob
import os
import stat
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True

import checks  # noqa: E402
import crosscheck  # noqa: E402
from caselib import accept, reject, valid  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
RUNNERS = sorted(
    glob.glob(os.path.join(REPO, "build*", "runners", "c", "smc-c-runner")), key=os.path.getmtime
)
HELLO = '{"seq":0,"status":"ok","protocol":1,"entries":["message","call","envelope"]}'


def cases():
    out = [
        valid("s04.2-x1", "int32 1", ["i32", 1], requirements=("R4.2-1",)),
        valid(
            "s02.2-x2",
            "str ab",
            ["str", "ab"],
            requirements=("R2.2-1",),
            accepted=[accept("07fe02006162", "3-byte size", "not_canonical")],
        ),
        valid(
            "s10.1-x3",
            "call",
            ["call", "m", ["null"]],
            kind="method_call",
            requirements=("R10.1-1",),
        ),
        valid(
            "s11.2-x4",
            "error envelope",
            ["error", "e", None, ["null"]],
            kind="error_envelope",
            requirements=("R11.2-1",),
        ),
        reject("s09.1-x5", "trailing", "0000", "trailing_bytes", 1, requirements=("R9.1-1",)),
    ]
    for c in out:
        checks.complete_with_smcpy(c)
    return {c["id"]: c for c in out}


def script(tmp, body):
    path = os.path.join(tmp, "runner-%d.sh" % len(os.listdir(tmp)))
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body + "\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path


@unittest.skipUnless(RUNNERS, "the C runner is not built (no build*/runners/c/smc-c-runner)")
class AgainstTheCRunner(unittest.TestCase):
    def setUp(self):
        self.runner = crosscheck.CRunner(RUNNERS[-1], jobs=2)

    def test_agrees_on_every_kind(self):
        registry = cases()
        self.assertEqual(crosscheck.cross_check(self.runner, registry), [])
        self.assertEqual(self.runner.calls, 16)  # one request per check of P.5

    def test_each_wrong_expectation_is_a_disagreement(self):
        registry = cases()
        registry["s04.2-x1"]["canonical"] = "0302000000"
        registry["s02.2-x2"]["value"] = ["str", "ac"]
        registry["s09.1-x5"]["error"]["offset"] = 2
        registry["s10.1-x3"]["accepted"] = [{"hex": "07016d01", "why": "x", "strict": None}]
        failures = crosscheck.cross_check(self.runner, registry)
        for cid in (
            "s04.2-x1 encode",
            "s04.2-x1 decode canonical (flutter)",
            "s02.2-x2 decode canonical (strict)",
            "s02.2-x2 decode accepted",
            "s09.1-x5 decode (flutter)",
            "s10.1-x3 decode accepted",
        ):
            self.assertTrue(any(f.startswith(cid) for f in failures), (cid, failures))


class BrokenRunners(unittest.TestCase):
    def check_stops(self, body, pattern, timeout=60):
        with tempfile.TemporaryDirectory() as tmp:
            runner = crosscheck.CRunner(script(tmp, body), jobs=1, timeout=timeout)
            with self.assertRaisesRegex(SystemExit, pattern):
                crosscheck.cross_check(runner, cases())

    def test_not_a_runner(self):
        self.check_stops("exec cat", "not a runner of every entry point")

    def test_dies_at_start(self):
        self.check_stops("echo gone >&2; exit 3", r"did not answer the hello .*exit status 3.*gone")

    def test_line_that_is_not_json(self):
        self.check_stops("read l; echo '%s'; read l; echo oops" % HELLO, "not JSON: 'oops")

    def test_wrong_seq(self):
        self.check_stops(
            'read l; echo \'%s\'; read l; echo \'{"seq":9,"status":"ok"}\'' % HELLO,
            "answered seq 9 where 1 was due",
        )

    def test_stops_answering(self):
        self.check_stops("read l; echo '%s'; read l; exit 0" % HELLO, "stopped before answering")

    def test_hangs(self):
        self.check_stops(
            "read l; echo '%s'; exec sleep 60" % HELLO,
            "killed after 1 s without an answer",
            timeout=1,
        )


if __name__ == "__main__":
    unittest.main()
