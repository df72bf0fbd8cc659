#!/usr/bin/env python3
"""Writes the judge's own small vector set (tests/vectors/) and a malformed one (vectors-bad/).

The bytes are worked out by hand from the spec (comments cite the sections), so these tests
do not depend on the generated golden set. Run it after editing; the output is committed."""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def vec(vid, desc, tier="required", kind="message", features=(), requirements=("R1.4-3",), **kw):
    if "section" in kw:
        section = kw.pop("section")
    else:
        major, rest = vid[1:].split("-", 1)[0].split(".")
        section = "%d.%s" % (int(major), rest)
    v = {
        "id": vid,
        "description": desc,
        "section": section,
        "tier": tier,
        "requirements": list(requirements),
        "kind": kind,
        "since": "0.1",
        "features": sorted(features),
    }
    v.update(kw)
    return v


NOTES = {
    "decision": "judge test: the spec's decision",
    "alternatives": [{"behaviour": "another behaviour", "who": ["DART"]}],
}
# vectors.md V.2: machine-readable outcomes of other implementations (spec §1.1)
UTF8_NOTES = {
    "decision": "reject with bad_utf8 (spec §5.3)",
    "alternatives": [
        {"behaviour": "FormatException", "who": ["DART"]},
        {
            "behaviour": "replaces it with U+FFFD",
            "who": ["JAVA"],
            "outcome": {"value": ["str", "\ufffd"]},
        },
        {
            "behaviour": "keeps the raw bytes",
            "who": ["CPP", "GLIB"],
            "outcome": {"value": ["strbytes", "ff"]},
        },
    ],
}
DUP_NOTES = {
    "decision": "keep both entries (spec §7.3)",
    "alternatives": [
        {
            "behaviour": "first value wins",
            "who": ["CPP", "OBJC"],
            "outcome": {"value": ["map", [[["i32", 1], ["null"]]]]},
        },
        {
            "behaviour": "last value wins",
            "who": ["DART", "GLIB"],
            "outcome": {"value": ["map", [[["i32", 1], ["bool", True]]]]},
        },
    ],
}
LARGEINT_NOTES = {
    "decision": "flutter mode keeps the text (spec §4.4)",
    "alternatives": [
        {
            "behaviour": "reads it as a string",
            "who": ["DART", "OBJC", "CPP"],
            "outcome": {"value": ["str", "1f"]},
        },
        {
            "behaviour": "rejects tag 5",
            "who": ["GLIB"],
            "outcome": {"error": {"class": "unknown_tag", "offset": 0}},
        },
    ],
}

FILES = {
    "s04-judge-scalars.json": (
        "4",
        "Scalars (judge tests)",
        [
            vec("s04.1-null", "null is 00 (spec §4.1)", value=["null"], canonical="00"),
            vec(
                "s04.2-i32-one",
                "int32 1, little-endian (spec §4.2)",
                features=["int32"],
                value=["i32", 1],
                canonical="0301000000",
            ),
            vec(
                "s04.2-i64-3e9",
                "int64 3000000000 (spec §4.2)",
                features=["int64"],
                value=["i64", "3000000000"],
                canonical="04005ed0b200000000",
            ),
            vec(
                "s04.3-f64-one",
                "float64 1.0: tag, 7 padding bytes, 8 bytes (spec §4.3)",
                features=["float64"],
                value=["f64", "3ff0000000000000"],
                canonical="06" + "00" * 7 + "000000000000f03f",
                accepted=[
                    {
                        "hex": "06" + "01" + "00" * 6 + "000000000000f03f",
                        "why": "non-zero padding byte",
                        "strict": "not_canonical",
                    }
                ],
                focus={"path": "$", "offset": 0},
            ),
            vec(
                "s04.4-largeint-1f",
                'largeInt "1f": flutter decodes it, strict rejects tag 5',
                tier="implementation-defined",
                features=["largeint", "strict-mode"],
                requirements=["R4.4-2", "R4.4-4", "R4.4-5"],
                by_mode={
                    "flutter": {
                        "requirements": ["R4.4-2", "R4.4-4"],
                        "tier": "implementation-defined",
                    },
                    "strict": {"requirements": ["R4.4-5"], "tier": "required"},
                },
                value=["largeint", "1f"],
                hex="05023166",
                error={"class": "unknown_tag", "offset": 0, "modes": ["strict"]},
                notes=LARGEINT_NOTES,
            ),
        ],
    ),
    "s05-judge-strings.json": (
        "5",
        "Strings (judge tests)",
        [
            vec(
                "s05.1-str-ab",
                'string "ab" (spec §5.1)',
                value=["str", "ab"],
                canonical="07026162",
                accepted=[
                    {
                        "hex": "07fe02006162",
                        "why": "size in the 3-byte form",
                        "strict": "not_canonical",
                    }
                ],
            ),
            vec(
                "s05.2-str-nul",
                "string with an embedded NUL (spec §5.2)",
                features=["embedded-nul"],
                value=["str", "a\u0000<&>\u0001"],
                canonical="070661003c263e01",
            ),
            vec(
                "s05.3-bad-utf8",
                "string bytes ff are not UTF-8 (spec §5.3)",
                tier="implementation-defined",
                hex="0701ff",
                requirements=["R5.3-2"],
                error={"class": "bad_utf8", "offset": 2, "modes": ["flutter", "strict"]},
                notes=UTF8_NOTES,
            ),
        ],
    ),
    "s07-judge-maps.json": (
        "7",
        "Maps (judge tests)",
        [
            vec(
                "s07.2-map-two",
                'map {"a": 1, "b": null} in wire order (spec §7.2)',
                features=["int32", "map-order"],
                value=["map", [[["str", "a"], ["i32", 1]], [["str", "b"], ["null"]]]],
                canonical="0d02070161030100000007016200",
            ),
            vec(
                "s07.3-dup-keys",
                "map with a duplicate key, both entries kept (spec §7.3)",
                tier="implementation-defined",
                features=["duplicate-map-keys", "int32", "map-order"],
                value=["map", [[["i32", 1], ["null"]], [["i32", 1], ["bool", True]]]],
                canonical="0d02030100000000030100000001",
                requirements=["R7.3-2"],
                notes=DUP_NOTES,
            ),
        ],
    ),
    "s10-judge-calls.json": (
        "10",
        "Method calls and envelopes (judge tests)",
        [
            vec(
                "s10.1-call-hi",
                'method call "hi" with null arguments (spec §10.1)',
                kind="method_call",
                features=["method-codec"],
                value=["call", "hi", ["null"]],
                canonical="0702686900",
            ),
            vec(
                "s10.1-call-bad-name",
                "method name with tag 03 (spec §10.1)",
                kind="method_call",
                features=["method-codec"],
                hex="030100000000",
                requirements=["R10.1-3"],
                error={"class": "bad_envelope", "offset": 0, "modes": ["flutter", "strict"]},
            ),
            vec(
                "s10.1-call-unknown-name",
                "method name with the unknown tag 0f: bad_envelope, or "
                "unknown_tag for a decoder that reads the name first (errors.md §14.2.1)",
                kind="method_call",
                features=["method-codec"],
                hex="0f00",
                requirements=["R10.1-3"],
                error={
                    "class": "bad_envelope",
                    "offset": 0,
                    "modes": ["flutter", "strict"],
                    "alternatives": [{"class": "unknown_tag", "offset": 0, "order": "value-first"}],
                },
            ),
        ],
    ),
    "s14-judge-errors.json": (
        "14",
        "Errors (judge tests)",
        [
            vec(
                "s14.1-truncated-i32",
                "int32 with 3 of its 4 bytes (errors.md §14.1)",
                features=["int32"],
                hex="03010000",
                error={"class": "truncated", "offset": 4, "modes": ["flutter", "strict"]},
            ),
            vec(
                "s14.1-trailing",
                "null followed by another byte (errors.md §14.1)",
                hex="0000",
                error={"class": "trailing_bytes", "offset": 1, "modes": ["flutter", "strict"]},
            ),
            vec(
                "s14.1-unknown-tag",
                "tag 0f is unknown (errors.md §14.1)",
                hex="0f",
                error={"class": "unknown_tag", "offset": 0, "modes": ["flutter", "strict"]},
            ),
            vec(
                "s15.1-depth-129",
                "recommended: 129 nested lists, one past the limit (spec §15.1)",
                tier="recommended",
                features=["depth-limit"],
                hex="0c01" * 129 + "00",
                requirements=["R15.1-3"],
                error={"class": "depth_limit", "offset": 256, "modes": ["flutter", "strict"]},
            ),
        ],
    ),
}


def main():
    for name, (section, title, vectors) in FILES.items():
        doc = {
            "suite": "smc-conformance",
            "format_version": 1,
            "spec_version": "0.1",
            "vectors_version": "0.2",
            "section": section,
            "title": title,
            "vectors": vectors,
        }
        with open(os.path.join(HERE, "vectors", name), "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1, ensure_ascii=False)
            f.write("\n")
    # malformed: a reject vector without an offset, a bad id, and bad hex
    bad = {
        "suite": "smc-conformance",
        "format_version": 1,
        "spec_version": "0",
        "section": "4",
        "title": "malformed on purpose",
        "vectors": [
            vec("s04.1-null", "fine", value=["null"], canonical="00"),
            vec(
                "s04.1-no-offset",
                "error without offset",
                hex="0000",
                error={"class": "trailing_bytes", "modes": ["flutter"]},
            ),
            vec("S4-bad-id", "bad id", section="4", value=["null"], canonical="00"),
            vec("s04.2-bad-hex", "upper-case hex", value=["i32", 1], canonical="03010000ZZ"),
        ],
    }
    with open(os.path.join(HERE, "vectors-bad", "s04-bad.json"), "w", encoding="utf-8") as f:
        json.dump(bad, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
