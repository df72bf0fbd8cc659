#!/usr/bin/env python3
"""A runner (runners/PROTOCOL.md, version 1) around the vector generator's Python codec
(vectors/gen/smcpy.py), for testing fuzz/differential.py.

It is a test double, not a codec to conform against: differential.py's self-test runs it once
as a stand-in reference and once with a deliberate bug (--bug NAME) to show that the
disagreement is found and minimized. The codec is smcpy with the spec's order of checks; each
bug changes one thing in it, and each is a real bug class of third-party ports (spec §16.2):
  trailing     a value followed by more bytes decodes (CPP, D20)
  align-value  float64 and typed-list padding counted from the value's tag instead of the
               message start (§3.1)
  utf8-lenient strings are not checked for UTF-8: ill-formed bytes become U+FFFD (D11)
Python standard library only.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "vectors", "gen"))
sys.dont_write_bytecode = True

import smcpy  # noqa: E402

BUGS = ("trailing", "align-value", "utf8-lenient")


def reader_with(bugs):
    """smcpy's reader with the structural bugs of `bugs`; with none it is smcpy's own."""

    class Reader(smcpy._Reader):
        tag_at = 0

        def value(self, depth):
            self.tag_at = self.pos  # padding is read before any nested value
            return super().value(depth)

        def pad_len(self, width):
            if "align-value" in bugs:
                return (self.tag_at - self.pos) % width
            return super().pad_len(width)

        def finish(self):
            if "trailing" not in bugs:
                super().finish()

    return Reader


def answer(req, profile, reader):
    seq, op = req["seq"], req["op"]
    try:
        if op == "decode":
            value = smcpy.decode(
                req["entry"],
                bytes.fromhex(req["hex"]),
                req.get("mode") == "strict",
                profile=profile,
                reader=reader,
            )
            return {"seq": seq, "status": "ok", "value": value}
        if op == "encode":
            return {"seq": seq, "status": "ok", "hex": smcpy.encode(req["entry"], req["value"]).hex}
    except smcpy.SmcError as e:
        return {
            "seq": seq,
            "status": "error",
            "class": e.cls,
            "offset": e.offset,
            "message": e.message,
        }
    except smcpy.NotationError as e:
        return {"seq": seq, "status": "error", "class": "bad_notation", "message": str(e)}
    return {"seq": seq, "status": "skipped", "reason": "%s is not implemented" % op}


def main():
    bugs, args = set(), sys.argv[1:]
    while args:
        if args[0] != "--bug" or len(args) < 2 or args[1] not in BUGS:
            sys.exit("usage: fake_runner.py [--bug %s]..." % "|".join(BUGS))
        bugs.add(args[1])
        args = args[2:]
    profile = smcpy.Profile(utf8="replace") if "utf8-lenient" in bugs else smcpy.SPEC
    reader = reader_with(bugs)
    for line in sys.stdin:
        req = json.loads(line)
        if req["op"] == "bye":
            resp = {"seq": req["seq"], "status": "ok"}
        elif req["op"] == "hello":
            resp = {
                "seq": req["seq"],
                "status": "ok",
                "protocol": 1,
                "codec": {
                    "name": "smcpy" + "".join("+" + b for b in sorted(bugs)),
                    "version": "0",
                    "language": "Python",
                },
                "entries": ["message", "call", "envelope"],
                "capabilities": {
                    "decode": list(smcpy.FEATURES),
                    "encode": [f for f in smcpy.FEATURES if f != "largeint"],
                },
                "options": ["error-offsets"],
            }
        else:
            resp = answer(req, profile, reader)
        print(json.dumps(resp, ensure_ascii=False), flush=True)
        if req["op"] == "bye":
            return


if __name__ == "__main__":
    main()
