"""Tests of the runner's glib host hook (fl_host.c) beyond the s17.7 vectors: it declares
hosts ["glib"], builds exactly the named FlValue, and skips (never guesses) a type name
outside spec §17.7's table or a literal that does not fit its type (PROTOCOL.md P.2). Needs
the pinned engine and a built runner; without them it prints that it skipped and why."""

import json
import os
import subprocess
import sys
import unittest

import engine

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
RUNNER = os.path.join(
    os.environ.get("SMC_BUILD", os.path.join(ROOT, "build")),
    "runners",
    "flutter-linux",
    "smc-flutter-linux-runner",
)


def engine_path():
    """The pinned CI wheel's library if it is cached, else None."""
    lib = os.path.join(engine.cache_dir(engine.pins()["ci"]), engine.LIB)
    return lib if os.path.isfile(lib) else None


def ask(lib, requests):
    """The runner's answers to a hello (protocol 2) and then `requests`, by seq."""
    lines = [{"seq": 0, "op": "hello", "protocol": 2, "protocols": [2]}]
    lines += [dict(r, seq=i + 1) for i, r in enumerate(requests)]
    out = subprocess.run(
        [RUNNER],
        input="".join(json.dumps(l) + "\n" for l in lines),
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, SMC_FLUTTER_ENGINE=lib),
        check=True,
    ).stdout
    return [json.loads(l) for l in out.splitlines()]


def enc(type_, value):
    return {"op": "host_encode", "host": "glib", "host_value": {"type": type_, "value": value}}


class GlibHostHook(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.lib = engine_path()
        why = None
        if not cls.lib:
            why = "no pinned Flutter Linux engine (scripts/install-deps.sh installs it)"
        elif not os.access(RUNNER, os.X_OK):
            why = "no runner built at $SMC_BUILD/runners/flutter-linux (run the c-build step)"
        if why:
            print(f"test_host_hook: skipped: {why}", file=sys.stderr)
            raise unittest.SkipTest(why)

    def test_declares_glib(self):
        self.assertEqual(ask(self.lib, [])[0]["hosts"], ["glib"])

    def test_builds_exactly_the_named_type(self):
        # an int is written by value, a float with the same number as a float64 (§17.7)
        got = ask(
            self.lib,
            [
                enc("FL_VALUE_TYPE_INT", "-1"),
                enc("FL_VALUE_TYPE_FLOAT", "bff0000000000000"),
                enc("FL_VALUE_TYPE_MAP", []),
            ],
        )
        self.assertEqual(
            [a.get("hex") for a in got[1:]],
            ["03ffffffff", "0600000000000000000000000000f0bf", "0d00"],
        )

    def test_skips_what_it_cannot_build(self):
        bad = [
            enc("FL_VALUE_TYPE_CUSTOM", "01"),  # no row in §17.7's table
            enc("SMC_TYPE_I32", "5"),  # another vocabulary's name
            enc("FL_VALUE_TYPE_INT", "5.0"),  # not a decimal integer
            enc("FL_VALUE_TYPE_INT", "9223372036854775808"),  # past int64
            enc("FL_VALUE_TYPE_INT32_LIST", ["2147483648"]),  # past int32
            enc("FL_VALUE_TYPE_FLOAT", "3f800000"),  # a float32's bits, not a float64's
            enc("FL_VALUE_TYPE_UINT8_LIST", "abc"),  # odd hex
            enc("FL_VALUE_TYPE_LIST", "00"),  # a list's literal is an array
            enc("FL_VALUE_TYPE_LIST", [{"type": "FL_VALUE_TYPE_BOOL", "value": "1"}]),
        ]
        got = ask(self.lib, bad)
        for req, answer in zip(bad, got[1:], strict=True):
            self.assertEqual(answer["status"], "skipped", (req, answer))


if __name__ == "__main__":
    unittest.main()
