#!/usr/bin/env python3
"""A runner (runners/PROTOCOL.md, version 1) around the independent Python model of the
vector generator (vectors/gen/smcpy.py), decoding in the check order Flutter's own decoders
use, optionally with one real bug.

The point (issue 13): a decoder built from the spec but checking in Flutter's order must pass
every required and recommended vector, and the same decoder with a real bug must not.

Usage: smcpy_runner.py
Environment:
  SMCPY_ORDER  comma-separated permitted orders of errors.md §14.2.1 (default
               "all-values-first,elements-first": DART's and JAVA's); "spec" for none
  SMCPY_PROFILE  an implementation of vectors/gen/profiles.py (DART, JAVA, GLIB, CPP, OBJC):
               its orders and its behaviour on every implementation-defined rule, instead
               of SMCPY_ORDER; a decoder that rejects tag 5 does not declare largeint. GLIB's
               and OBJC's error types have no stacktrace: their encoders refuse one, and do
               not declare error-stacktrace for encoding; JAVA's writes it (and, reading
               three elements, cannot read it back: spec R1.4-18, D29)
  SMCPY_BUGS   comma-separated bugs, each one a real one seen in codecs:
     type-unchecked        reads a method name, error code or message as a value and never
                           checks its type: a non-string becomes its notation text
     count-trusted         reads a list's or map's elements one by one and, when the input
                           ends inside them, returns those it has
     nfc-merge             map keys compared as NFC-normalised strings (Swift's String ==)
     nan-key-drop          float64 keys ordered with <, so a NaN is "equivalent" to every
                           float64 key and the later entry is dropped (CPP's std::map)
     huge-map-silent       a map count read as a signed 32-bit int: 2^31 and more are
                           negative, the loop never runs, the map is {} (JAVA)
     ignore-after-details  nothing after an error envelope's details is looked at (CPP)
     padded-bomb-alloc     a typed list's count x width is allocated once its padding is
                           there, before the data is known to be: past 1 GiB the process
                           aborts (a Swift port)
     success-fallthrough   bytes after a success envelope's value are read as an error code,
                           message and details (JAVA)
     bom-strip             every U+FEFF is removed from decoded strings, not only a leading one
"""

import os
import struct
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "vectors", "gen"))
sys.dont_write_bytecode = True

import profiles  # noqa: E402
import protocol_lines  # noqa: E402
import smcpy  # noqa: E402

FEATURES = list(smcpy.FEATURES)  # every feature word, from vectors/schema.json
ORDER_SETTINGS = {
    "value-first": ("fixed", "value-first"),
    "all-values-first": ("fixed", "all-values-first"),
    "elements-first": ("counts", "elements-first"),
    "three-element": ("envelope", "three"),
}
BUGS = {w for w in os.environ.get("SMCPY_BUGS", "").split(",") if w}
ALLOCATION_LIMIT = 1 << 30
NO_STACKTRACE_HOSTS = (
    "GLIB",
    "OBJC",
)  # FlMethodErrorResponse, FlutterError: code, message, details


def profile():
    impl = os.environ.get("SMCPY_PROFILE")
    if impl:
        settings = dict(profiles.IMPLEMENTATIONS[impl])
        if "ignore-after-details" in BUGS:
            settings["envelope"] = "ignore"
        return smcpy.Profile(**settings)
    words = os.environ.get("SMCPY_ORDER", "all-values-first,elements-first")
    settings = {}
    for w in words.split(","):
        if w and w != "spec":
            field, value = ORDER_SETTINGS[w]
            settings[field] = value
    if "ignore-after-details" in BUGS:
        settings["envelope"] = "ignore"
    return smcpy.Profile(**settings)


class BuggyReader(smcpy._Reader):
    """smcpy's reader with the bugs of SMCPY_BUGS; with none it is smcpy's own."""

    def as_text(self, elem, nullable, what):
        off, v = elem
        if "type-unchecked" in BUGS and v[0] not in ("str", "null"):
            return smcpy.notation_text(v)
        return super().as_text(elem, nullable, what)

    def list_items(self, n, depth):
        if "count-trusted" not in BUGS:
            return super().list_items(n, depth)
        out = []
        for _ in range(n):
            if self.pos >= self.n:
                break
            out.append(self.value(depth + 1))
        return out

    def map_entries(self, n, depth):
        if "huge-map-silent" in BUGS and n >= 2**31:
            return []
        if not BUGS & {"nfc-merge", "nan-key-drop", "count-trusted"}:
            return super().map_entries(n, depth)
        out = []
        for _ in range(n):
            if "count-trusted" in BUGS and self.pos >= self.n:
                break
            k = self.value(depth + 1)
            v = self.value(depth + 1)
            merged = False
            for entry in out:
                if (
                    "nfc-merge" in BUGS
                    and k[0] == "str"
                    and entry[0][0] == "str"
                    and unicodedata.normalize("NFC", k[1])
                    == unicodedata.normalize("NFC", entry[0][1])
                ):
                    entry[1] = v  # Dictionary assignment: the last value, the first key
                    merged = True
                    break
                if "nan-key-drop" in BUGS and k[0] == "f64" and entry[0][0] == "f64":
                    a, b = (struct.unpack(">d", bytes.fromhex(x[1]))[0] for x in (k, entry[0]))
                    if not a < b and not b < a:  # "equivalent" for std::map: emplace fails
                        merged = True
                        break
            if not merged:
                out.append([k, v])
        return out

    def drop_bom(self, s):
        if "bom-strip" in BUGS:
            return s.replace("\ufeff", "")
        return super().drop_bom(s)

    def take(self, k, what):
        if (
            "padded-bomb-alloc" in BUGS
            and what in ("i32s", "i64s", "f64s", "f32s")
            and k > ALLOCATION_LIMIT
        ):
            sys.stderr.write("smcpy-runner: allocating %d bytes for a %s\n" % (k, what))
            sys.stderr.flush()
            os.abort()
        return super().take(k, what)


def decode(entry, data, strict, prof):
    try:
        return smcpy.decode(entry, data, strict, profile=prof, reader=BuggyReader)
    except smcpy.SmcError as e:
        if (
            "success-fallthrough" in BUGS
            and entry == "envelope"
            and data[:1] == b"\x00"
            and e.cls == "trailing_bytes"
        ):
            # JAVA: bytes remain after the result, so it parses them as an error envelope
            return smcpy.decode(
                "envelope", b"\x01" + data[e.offset :], strict, profile=prof, reader=BuggyReader
            )
        raise


def reply(obj):
    protocol_lines.reply(obj, ascii=False, compact=True)


def error(seq, e):
    reply(
        {
            "seq": seq,
            "status": "error",
            "class": e.cls or "bad_envelope",
            "offset": e.offset,
            "message": e.message,
        }
    )


def main():
    prof = profile()
    caps = [f for f in FEATURES if not (f == "largeint" and prof.largeint == "reject")]
    no_stacktrace = os.environ.get("SMCPY_PROFILE") in NO_STACKTRACE_HOSTS
    ecaps = [f for f in caps if not (no_stacktrace and f == "error-stacktrace")]
    name = os.environ.get("SMCPY_PROFILE") or os.environ.get("SMCPY_ORDER", "flutter order")
    for req in protocol_lines.requests():
        seq, op = req["seq"], req["op"]
        if op == "hello":
            reply(
                {
                    "seq": seq,
                    "status": "ok",
                    "protocol": 1,
                    "codec": {
                        "name": "smcpy (%s)" % name,
                        "version": "bugs: " + (",".join(sorted(BUGS)) or "none"),
                        "language": "Python",
                    },
                    "entries": ["message", "call", "envelope"],
                    "capabilities": {"decode": caps, "encode": ecaps},
                    "options": ["error-offsets", "shift"],
                }
            )
            continue
        if op == "bye":
            reply({"seq": seq, "status": "ok"})
            return
        entry = req["entry"]
        try:
            if op in ("decode", "roundtrip"):
                # Python bytes have no address: `shift` cannot change anything here
                data = bytes.fromhex(req["hex"])
                value = decode(entry, data, req.get("mode") == "strict", prof)
                if op == "decode":
                    reply({"seq": seq, "status": "ok", "value": value})
                else:
                    reply(
                        {
                            "seq": seq,
                            "status": "ok",
                            "value": value,
                            "hex": smcpy.encode(entry, value).hex,
                        }
                    )
            elif (
                op == "encode"
                and no_stacktrace
                and entry == "envelope"
                and req["value"][:1] == ["error"]
                and len(req["value"]) == 5
            ):
                reply(
                    {
                        "seq": seq,
                        "status": "error",
                        "class": "not_encodable",
                        "offset": None,
                        "message": "the host's error has no stacktrace",
                    }
                )
            elif op == "encode":
                reply({"seq": seq, "status": "ok", "hex": smcpy.encode(entry, req["value"]).hex})
            else:
                reply(
                    {
                        "seq": seq,
                        "status": "error",
                        "class": "bad_notation",
                        "offset": None,
                        "message": "unknown op %r" % op,
                    }
                )
        except smcpy.SmcError as e:
            error(seq, e)
        except smcpy.NotationError as e:
            reply(
                {
                    "seq": seq,
                    "status": "error",
                    "class": "bad_notation",
                    "offset": None,
                    "message": str(e),
                }
            )
        except RecursionError:
            reply(
                {
                    "seq": seq,
                    "status": "error",
                    "class": "depth_limit",
                    "offset": None,
                    "message": "Python recursion limit",
                }
            )


if __name__ == "__main__":
    main()
