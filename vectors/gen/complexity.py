"""Complexity families (spec §15.4, spec/vectors.md V.8): vectors/c15-complexity.json.

A family is one shape at sizes n, 2n, 4n, ... up to a few MB. The file holds the rule (the
shape's name and each size) and, per member, its length and SHA-256; it never holds the
bytes. The judge expands each member itself (judge/vectors/complexity_family.c) and refuses one whose
length or hash differs, so this expansion and the judge's check each other. The two smallest
members of each family are also written with smcpy's encoder from their notation values, and
decoded by the C reference (cross_check), like every vector.
"""

import hashlib
import json
import struct

import smcpy

FILE_NAME = "c15-complexity.json"
REQUIREMENT = "R15.4-1"
TIER = "recommended"
ALPHA = b"abcdefghijklmnopqrstuvwxyz"
DEEP = 47  # lists per chain: depth 48 with the outer list, within R15.1-1's 64

# id, title, shape, entry, first n, members. Sizes end near 2-5 MB.
FAMILIES = [
    ("c15-map-distinct-keys", "map of distinct keys", "map-distinct-keys", "message", 256, 11),
    (
        "c15-map-java-colliding-keys",
        "map of keys colliding under Java's String.hashCode",
        "map-java-colliding-keys",
        "message",
        256,
        10,
    ),
    ("c15-list-small-strings", "list of small strings", "list-small-strings", "message", 256, 11),
    ("c15-long-string", "long string", "long-string", "message", 4096, 11),
    ("c15-long-bytes", "long byte array", "long-bytes", "message", 4096, 11),
    ("c15-custom-values", "list of custom values", "custom-values", "message", 256, 12),
    ("c15-wide-nesting", "wide nesting (small maps of lists)", "wide-nesting", "message", 256, 11),
    ("c15-deep-nesting", "deep nesting (chains of 48 levels)", "deep-nesting", "message", 16, 12),
    (
        "c15-error-envelope-details",
        "error envelope with large details",
        "error-envelope-details",
        "envelope",
        256,
        11,
    ),
]


def size_prefix(n):
    if n < 254:
        return bytes([n])
    if n <= 0xFFFF:
        return b"\xfe" + struct.pack("<H", n)
    return b"\xff" + struct.pack("<I", n)


def text(s):
    return b"\x07" + size_prefix(len(s)) + s


def java_key(i, m):
    """Key i of 2**m keys with one String.hashCode: "Aa" and "BB" both hash to 2112."""
    return b"".join(b"BB" if (i >> (m - 1 - j)) & 1 else b"Aa" for j in range(m))


def java_hash(s):
    h = 0
    for c in s.decode("ascii"):
        h = (31 * h + ord(c)) & 0xFFFFFFFF
    return h


def expand(shape, n):
    """The member of `shape` at size n, as bytes (the rule of V.8)."""
    if shape in ("map-distinct-keys", "map-java-colliding-keys"):
        m = n.bit_length() - 1
        keys = ((b"k%d" % i) if shape == "map-distinct-keys" else java_key(i, m) for i in range(n))
        return b"\x0d" + size_prefix(n) + b"".join(text(k) + b"\x00" for k in keys)
    if shape == "long-string":
        return b"\x07" + size_prefix(n) + bytes(ALPHA[i % 26] for i in range(n))
    if shape == "long-bytes":
        return b"\x08" + size_prefix(n) + bytes(i & 0xFF for i in range(n))
    if shape == "error-envelope-details":
        return (
            b"\x01"
            + text(b"E")
            + text(b"m")
            + b"\x0c"
            + size_prefix(n)
            + b"".join(text(b"d%d" % i) for i in range(n))
        )
    item = {
        "list-small-strings": lambda i: text(b"s%d" % i),
        "custom-values": lambda i: b"\x80\x03" + struct.pack("<I", i & 0xFFFFFFFF),
        "wide-nesting": lambda i: b"\x0d\x01" + text(b"k") + b"\x0c\x01\x00",
        "deep-nesting": lambda i: b"\x0c\x01" * DEEP + b"\x00",
    }[shape]
    return b"\x0c" + size_prefix(n) + b"".join(item(i) for i in range(n))


def value(shape, n):
    """The same member as a notation value (spec/notation.md), for smcpy and the C reference."""
    s = lambda b: ["str", b.decode("ascii")]  # noqa: E731
    if shape == "map-distinct-keys":
        return ["map", [[s(b"k%d" % i), ["null"]] for i in range(n)]]
    if shape == "map-java-colliding-keys":
        m = n.bit_length() - 1
        return ["map", [[s(java_key(i, m)), ["null"]] for i in range(n)]]
    if shape == "list-small-strings":
        return ["list", [s(b"s%d" % i) for i in range(n)]]
    if shape == "long-string":
        return s(bytes(ALPHA[i % 26] for i in range(n)))
    if shape == "long-bytes":
        return ["u8s", bytes(i & 0xFF for i in range(n)).hex()]
    if shape == "custom-values":
        return ["list", [["custom", 128, ["i32", i]] for i in range(n)]]
    if shape == "wide-nesting":
        return ["list", [["map", [[["str", "k"], ["list", [["null"]]]]]] for _ in range(n)]]
    if shape == "deep-nesting":

        def chain(d):
            return ["null"] if d == 0 else ["list", [chain(d - 1)]]

        return ["list", [chain(DEEP) for _ in range(n)]]
    if shape == "error-envelope-details":
        return ["error", "E", "m", ["list", [s(b"d%d" % i) for i in range(n)]]]
    raise ValueError(shape)


def encoded(shape, entry, n):
    v = value(shape, n)
    if entry == "envelope":
        return bytes(smcpy.encode_envelope(v).data)
    return bytes(smcpy.encode_message(v).data)


def families(table=None):
    out = []
    for fid, title, shape, entry, first, count in table or FAMILIES:
        members = []
        for k in range(count):
            n = first << k
            data = expand(shape, n)
            if k < 2 and data != encoded(shape, entry, n):
                raise SystemExit("%s n=%d: the rule and smcpy's encoder disagree" % (fid, n))
            members.append({"n": n, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()})
        if shape == "map-java-colliding-keys":
            m = first.bit_length() - 1
            if len({java_hash(java_key(i, m)) for i in range(first)}) != 1:
                raise SystemExit("%s: the keys do not share one String.hashCode" % fid)
        out.append(
            {
                "id": fid,
                "title": title,
                "section": "15.4",
                "shape": shape,
                "entry": entry,
                "direction": "decode",
                "members": members,
            }
        )
    return out


def file_text(table=None):
    """The family file of `table` (default FAMILIES; the judge's tests pass smaller ones)."""
    doc = {
        "complexity_version": 1,
        "section": "15.4",
        "requirement": REQUIREMENT,
        "tier": TIER,
        "description": "Complexity families: one shape at doubling sizes, expanded by the "
        "judge from `shape` and `n` (spec/vectors.md V.8, spec §15.4).",
        "families": families(table),
    }
    lines = ["{"]
    head = [k for k in doc if k != "families"]
    for k in head:
        lines.append(" %s: %s," % (json.dumps(k), json.dumps(doc[k], ensure_ascii=False)))
    lines.append(' "families": [')
    fams = doc["families"]
    for i, f in enumerate(fams):
        lines.append(
            "  "
            + json.dumps(f, ensure_ascii=False, sort_keys=False)
            + ("," if i + 1 < len(fams) else "")
        )
    lines.append(" ]")
    lines.append("}")
    return ("\n".join(lines) + "\n").encode("utf-8")


def cross_check_requests():
    """(request, expected value) for the two smallest members of every family."""
    out = []
    for fid, _title, shape, entry, first, _count in FAMILIES:
        for k in range(2):
            n = first << k
            out.append(
                (
                    fid,
                    {
                        "op": "decode",
                        "entry": entry,
                        "hex": expand(shape, n).hex(),
                        "mode": "flutter",
                    },
                    value(shape, n),
                )
            )
    return out


def cross_check(runner):
    """Failure texts where the C reference decodes a member to another value."""
    cases = cross_check_requests()
    replies = runner.run([req for _fid, req, _v in cases])
    bad = []
    for (fid, req, want), r in zip(cases, replies, strict=True):
        if not r.ok or not smcpy.same(r.payload, want):
            bad.append("%s (%d bytes): C gave %s" % (fid, len(req["hex"]) // 2, r.describe()[:200]))
    return bad
