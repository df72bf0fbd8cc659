#!/usr/bin/env python3
"""A host-type runner for testing the judge's spec §17 checks (runners/PROTOCOL.md P.1 hosts,
P.2 host_encode / host_decode): the generator's host model (vectors/gen/hosttypes.py) behind
the protocol, encoding through smcpy, so it is right by the spec's tables, except for the one
real bug it is told to have.

Usage: host_runner.py
Environment:
  HOST_RUNNER_HOSTS  comma-separated vocabularies it speaks (default: dart,kotlin,swift,any)
  HOST_RUNNER_BUG    swift-float4: a Swift Float (and an any float32) written as tag 6 with its
                     4-byte binary32 payload and no padding, the old bug of a Swift port (D42);
                     java-by-type: a Dart int (and the ints of Int8List...) written as int64
                     whatever its value, Java's by-type choice for a Long (D6);
                     dart-uint64-list: a Dart Uint64List written as a List of Dart ints, an
                     element above 2^63-1 read as negative (DART's `is List` branch, D44)
                     java-biginteger: a Kotlin BigInteger written as largeInt (tag 5) with
                     its lower-case hex text, JAVA's writer (D2), and a `c` largeInt as its
                     own text
  HOST_RUNNER_LACKS  float32list: it does not declare the feature, and a host value or message
                     holding a Float32List is refused cleanly (encode: not_encodable; decode:
                     unknown_tag), as R1.4-13 allows
  HOST_RUNNER_LOSS   1: instead of refusing to encode, it writes each such part as null (a
                     silent loss)
  HOST_RUNNER_HOSTS_JSON  the hello's `hosts` as raw JSON text (a malformed declaration)
  HOST_RUNNER_WITHOUT  the hello's `hosts_without` as JSON (spec §17.1: types its API lacks,
                     e.g. {"swift": ["NSNull"]}); a host value holding one is answered
                     `skipped`, as a kit answers it
  HOST_RUNNER_ANSWER_ABSENT  1: it encodes such a value anyway (its statement is not true)
  HOST_RUNNER_RENAME  FROM=TO: a decoded host value's type FROM is named TO (swift Data=[UInt8]:
                     a pure-Swift codec, spec §17.1 alternatives; Data=[Int32]: a wrong type)
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "vectors", "gen"))
sys.dont_write_bytecode = True

import hosttypes  # noqa: E402
import protocol_lines  # noqa: E402
import smcpy  # noqa: E402

RENAME = (
    dict([os.environ["HOST_RUNNER_RENAME"].split("=", 1)])
    if os.environ.get("HOST_RUNNER_RENAME")
    else {}
)


def renamed(hv):
    """The host value with the types of RENAME renamed, node by node."""
    if isinstance(hv, dict) and "type" in hv:
        x = hv["value"]
        if isinstance(x, list):
            x = [
                renamed(e)
                if isinstance(e, dict)
                else [renamed(p) for p in e]
                if isinstance(e, list)
                else e
                for e in x
            ]
        return {"type": RENAME.get(hv["type"], hv["type"]), "value": x}
    return hv


WITHOUT = json.loads(os.environ.get("HOST_RUNNER_WITHOUT") or "null")
ANSWER_ABSENT = os.environ.get("HOST_RUNNER_ANSWER_ABSENT") == "1"


def stated_absent(vocab, hv):
    """The first type of host value `hv` the runner states absent (WITHOUT), or None."""
    absent = set((WITHOUT or {}).get(vocab, []))
    found = [t for t in hosttypes.types_in(hv) if t in absent]
    return found[0] if found else None


HOSTS = [h for h in os.environ.get("HOST_RUNNER_HOSTS", "dart,kotlin,swift,any").split(",") if h]
BUG = os.environ.get("HOST_RUNNER_BUG", "")
LACKS = [f for f in os.environ.get("HOST_RUNNER_LACKS", "").split(",") if f]
LOSS = os.environ.get("HOST_RUNNER_LOSS") == "1"
FEATURES = [
    f
    for f in [
        "int32",
        "int64",
        "int64-distinct",
        "float64",
        "float32list",
        "typed-lists",
        "nan-payload",
        "embedded-nul",
        "duplicate-map-keys",
        "map-order",
    ]
    if f not in LACKS
]
# The wire word of each feature this runner can lack.
LACKED_WORDS = {"float32list": "f32s"}


def lacked(v):
    """The value with every part needing a lacked feature made null (LOSS), or None if it
    has none; raises Unsupported to refuse it."""
    words = {LACKED_WORDS[f] for f in LACKS}

    def walk(x):
        if x[0] in words:
            if not LOSS:
                raise Unsupported(x[0])
            return ["null"], True
        if x[0] == "list":
            parts = [walk(e) for e in x[1]]
            return ["list", [p for p, _ in parts]], any(c for _, c in parts)
        if x[0] == "map":
            parts = [(walk(k), walk(e)) for k, e in x[1]]
            return ["map", [[k, e] for (k, _), (e, _) in parts]], any(
                a or b for (_, a), (_, b) in parts
            )
        return x, False

    out, changed = walk(v)
    return out if changed else None


class Unsupported(Exception):
    pass


def buggy_value(vocab, hv):
    """The notation value the buggy encoder writes; None for a bug-specific byte form."""
    t = hosttypes.table(vocab)[hv["type"]]
    x = hv["value"]
    if BUG == "java-by-type" and vocab == "dart":
        if t.enc == "by-value":
            return ["i64", x]
        if t.enc == "int-list":
            return ["list", [["i64", e] for e in x]]
    if t.enc == "list":
        return ["list", [buggy_value(vocab, e) for e in x]]
    if t.enc == "map":
        return ["map", [[buggy_value(vocab, k), buggy_value(vocab, e)] for k, e in x]]
    return hosttypes.to_value(vocab, hv)


def wrapped_ints(hv):
    """A Uint64List as a List of Dart ints (D44): each element's bits as a signed int64,
    written by value (R4.2-4)."""
    out = []
    for e in hv["value"]:
        n = int(e) - 2**64 if int(e) > 2**63 - 1 else int(e)
        out.append(["i32", n] if -(2**31) <= n < 2**31 else ["i64", str(n)])
    return ["list", out]


def size_bytes(n):
    """A size in its shortest form (spec §2.2)."""
    if n < 254:
        return bytes([n])
    if n <= 0xFFFF:
        return b"\xfe" + n.to_bytes(2, "little")
    return b"\xff" + n.to_bytes(4, "little")


def largeint_text(vocab, hv):
    """The text JAVA's writer gives a big integer (D2), or None for another host value."""
    if vocab == "kotlin" and hv["type"] == "BigInteger":
        n = int(hv["value"])
        return ("-" if n < 0 else "") + format(abs(n), "x")
    if vocab == "c" and hv["type"] == "SMC_TYPE_LARGEINT":
        return hv["value"]
    return None


def encode(vocab, hv):
    text = largeint_text(vocab, hv) if BUG == "java-biginteger" else None
    if text is not None:
        data = text.encode("utf-8")
        return (b"\x05" + size_bytes(len(data)) + data).hex()
    if BUG == "dart-uint64-list" and vocab == "dart" and hv["type"] == "Uint64List":
        return smcpy.encode("message", wrapped_ints(hv)).hex
    if BUG == "swift-float4":
        t = hosttypes.table(vocab)[hv["type"]]
        if (vocab, t.enc) in (("swift", "f32-widened"), ("any", "f32-widened")):
            return "06" + bytes.fromhex(hv["value"])[::-1].hex()  # tag 6 + 4 LE bytes
        if vocab == "swift" and t.enc == "list":
            # the bug inside an Array: each element as the buggy writer writes it
            parts = [bytes.fromhex(encode(vocab, e)) for e in hv["value"]]
            if any(e["type"] == "Float" for e in hv["value"]):
                return (bytes([0x0C, len(parts)]) + b"".join(parts)).hex()
    value = buggy_value(vocab, hv)
    return smcpy.encode("message", lacked(value) or value).hex


def answer(req):
    seq = req.get("seq")
    op = req.get("op")
    if op == "hello":
        hosts = (
            json.loads(os.environ["HOST_RUNNER_HOSTS_JSON"])
            if "HOST_RUNNER_HOSTS_JSON" in os.environ
            else HOSTS
        )
        return {
            "seq": seq,
            "status": "ok",
            "protocol": 2,
            "codec": {"name": "host-model", "version": "0", "language": "Python"},
            "entries": ["message"],
            "capabilities": {"decode": FEATURES, "encode": FEATURES},
            "options": ["error-classes"],
            "hosts": hosts,
            **({"hosts_without": WITHOUT} if WITHOUT is not None else {}),
        }
    if op == "bye":
        return {"seq": seq, "status": "ok"}
    vocab = req.get("host")
    if op not in ("host_encode", "host_decode") or vocab not in HOSTS:
        return {"seq": seq, "status": "skipped", "reason": "only host ops of %s" % HOSTS}
    absent = stated_absent(vocab, req["host_value"]) if op == "host_encode" else None
    if absent and not ANSWER_ABSENT:
        return {"seq": seq, "status": "skipped", "reason": "the codec's API has no %s" % absent}
    try:
        if op == "host_encode":
            return {"seq": seq, "status": "ok", "hex": encode(vocab, req["host_value"])}
        value = smcpy.decode("message", bytes.fromhex(req["hex"]))
        if LACKS and not LOSS:
            try:
                lacked(value)
            except Unsupported as e:
                return {
                    "seq": seq,
                    "status": "error",
                    "class": "unknown_tag",
                    "message": "no %s in this codec" % e,
                }
        return {
            "seq": seq,
            "status": "ok",
            "host_value": renamed(hosttypes.from_value(vocab, value)),
        }
    except hosttypes.Refused as e:
        return {"seq": seq, "status": "error", "class": "not_encodable", "message": str(e)}
    except Unsupported as e:
        return {
            "seq": seq,
            "status": "error",
            "class": "not_encodable",
            "message": "no %s in this codec" % e,
        }
    except (hosttypes.HostError, smcpy.SmcError) as e:
        return {"seq": seq, "status": "skipped", "reason": str(e)}


def main():
    protocol_lines.serve(answer)


if __name__ == "__main__":
    main()
