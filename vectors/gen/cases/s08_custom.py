"""spec §8: custom values and the Pigeon convention: tags 128..255 + one nested value (8.1),
ProxyApi reference 128 (8.2), overflow wrapper 255 (8.3), data classes (8.4), enums (8.5)."""

import json
import struct

from caselib import (
    b,
    custom,
    f64,
    i32,
    i32s,
    i64,
    lst,
    mp,
    notes,
    null,
    origin,
    s,
    tests,
    u8s,
    valid,
)

SECTION = "8"
FILE = "s08-custom-types"
TITLE = "Custom values (Pigeon convention)"

# Copied from the shared benchmark payload b_anr_1 (b_anr_1.notation.json and b_anr_1.bin) so
# that generation does not depend on files outside the repository. Floats are C99 hex-float
# strings there; _convert_bench turns them into bit patterns.
BENCH_NOTATION = r"""["custom", 129, ["list", [["bool", true], ["bool", false], ["i32", 42], ["i64", "3000000000"], ["f64", "0x1.921fb54442d18p+1"], ["str", "Hello, Pigeon! \ud83d\udc4b"], ["u8s", "01020304"], ["i32s", [1, -2, 3]], ["i64s", ["1", "-2", "3000000000"]], ["f64s", ["0x1.8p+0", "-0x1.2p+1", "0x1.7e43c8800759cp+996"]], ["list", [["str", "a"], ["i32", 1], ["f64", "0x1.4p+1"], ["null"]]], ["map", [[["str", "k1"], ["str", "v1"]], [["str", "k2"], ["str", "v2"]]]], ["custom", 130, ["i32", 2]], ["null"], ["null"], ["str", ""], ["i32", -7], ["i64", "-5000000000"], ["f64", "-0x1p-1"], ["str", "another string field"], ["null"], ["bool", true], ["list", []], ["map", []], ["custom", 130, ["i32", 0]], ["u8s", "ff007f80"], ["i32s", [2147483647]], ["null"], ["f64", "0x1.56e1fc2f8f359p-997"], ["str", "\ud83d\ude00"], ["list", [["list", [["i32", 1], ["i32", 2]]], ["list", [["i32", 3]]]]]]]]"""
BENCH_HEX = (
    "810c1f0102032a00000004005ed0b2000000000600000000182d4454fb210940071348656c6c6f2c20506967"
    "656f6e2120f09f918b080401020304090300000001000000feffffff030000000a0300000100000000000000"
    "feffffffffffffff005ed0b2000000000b03000000000000000000000000f83f00000000000002c09c750088"
    "3ce4377e0c0407016103010000000600000000000000000000000440000d0207026b310702763107026b3207"
    "0276328203020000000000070003f9ffffff04000efad5feffffff0600000000000000000000e0bf0714616e"
    "6f7468657220737472696e67206669656c6400010c000d008203000000000804ff007f8009010000ffffff7f"
    "000600000000000059f3f8c21f6ea5010704f09f98800c020c02030100000003020000000c010303000000"
)

NON_LIST_NOTES = notes(
    "At the wire level a custom value is a tag and exactly one nested value of any type "
    "(spec §8.1); a generic decoder (the reference) decodes it. A Pigeon decoder whose schema "
    "makes the tag a class should reject it (R8.4-3).",
    (
        "rejects it: Dart TypeError from 'as List<Object?>', Java ClassCastException, C++ "
        "bad_variant_access, GObject FL_MESSAGE_CODEC_ERROR_FAILED",
        ["PIGEON-Dart", "PIGEON-Java", "PIGEON-C++", "PIGEON-GObject"],
        {"error": {}},
    ),
    (
        "'as? List' makes the class null silently (breaks the MUST NOT of R8.4-3)",
        ["PIGEON-Kotlin"],
        {"value": ["null"]},
    ),
    ("crashes on 'as!' (never acceptable, R1.4-8)", ["PIGEON-Swift"]),
)

REQUIREMENTS = {
    "8.1": ("R8.1-3", "R8.1-4"),
    "8.2": ("R8.1-4", "R8.2-1"),
    "8.3": ("R8.1-4", "R8.3-1", "R8.3-3"),
    "8.4": ("R8.1-4", "R8.4-1", "R8.4-2"),
    "8.5": ("R8.1-4", "R8.5-1"),
}


def _hexfloat_to_bits(x):
    return "%016x" % struct.unpack("<Q", struct.pack("<d", float.fromhex(x)))[0]


def _convert_bench(v):
    """The bench notation writes floats as C99 hex-float strings; the suite's notation wants
    bit patterns (notation.md N.1)."""
    t = v[0]
    if t == "f64":
        return ["f64", _hexfloat_to_bits(v[1])]
    if t == "f64s":
        return ["f64s", [_hexfloat_to_bits(x) for x in v[1]]]
    if t == "list":
        return ["list", [_convert_bench(x) for x in v[1]]]
    if t == "map":
        return ["map", [[_convert_bench(k), _convert_bench(x)] for k, x in v[1]]]
    if t == "custom":
        return ["custom", v[1], _convert_bench(v[2])]
    return v


def _bench_record():
    return _convert_bench(json.loads(BENCH_NOTATION)), BENCH_HEX


def cases(registry):
    with tests.per_section(REQUIREMENTS):
        return _cases()


def _cases():
    out = []
    # spec §8.1: every custom tag, payload one nested value.
    for tag in range(128, 256):
        out.append(
            valid(
                "s08.1-tag-%d" % tag,
                "custom tag %d wrapping int64 %d" % (tag, tag),
                custom(tag, i64(tag)),
                expect_hex="%02x04%s" % (tag, struct.pack("<q", tag).hex()),
            )
        )
    out += [
        valid(
            "s08.1-payload-null", "custom 129 wrapping null", custom(129, null()), expect_hex="8100"
        ),
        valid(
            "s08.1-payload-str",
            "custom 140 wrapping a string",
            custom(140, s("hi")),
            expect_hex="8c07026869",
        ),
        valid(
            "s08.1-payload-f64-aligned",
            "custom 129 wrapping 1.0: the double is aligned "
            "from the message start (tag at 1, payload at 8)",
            custom(129, f64(1.0)),
            expect_hex="8106000000000000000000000000f03f",
            focus="$.v",
        ),
        valid(
            "s08.1-nested-custom",
            "custom 130 wrapping custom 131 wrapping null",
            custom(130, custom(131, null())),
            expect_hex="828300",
        ),
        valid(
            "s08.1-custom-map-key",
            "a custom value as a map key",
            mp((custom(129, i64(1)), s("one"))),
        ),
        valid(
            "s08.1-custom-list",
            "a list of three custom values",
            lst(custom(129, i64(0)), custom(129, i64(1)), custom(200, null())),
        ),
        # spec §8.2: 128 is a ProxyApi instance reference.
        valid(
            "s08.2-proxy-ref-0",
            "ProxyApi instance reference 0 (tag 128, int64 identifier)",
            custom(128, i64(0)),
            expect_hex="80040000000000000000",
        ),
        valid(
            "s08.2-proxy-ref-large",
            "ProxyApi instance reference 65536 + 1 (identifiers from the host side start high)",
            custom(128, i64(65537)),
        ),
        valid(
            "s08.2-proxy-ref-in-args",
            'a request [instance ref 5, "arg"]',
            lst(custom(128, i64(5)), s("arg")),
            kind="pigeon_request",
        ),
        # spec §8.3: overflow wrapper 255 = [index, wrapped].
        valid(
            "s08.3-overflow-enum",
            "overflow type 0 wrapping enum index 2, from Dart (every int is int64)",
            custom(255, lst(i64(0), i64(2))),
            expect_hex="ff0c02040000000000000000040200000000000000",
            origin=origin(
                "derived",
                "wire-format-notes.md §4.4 overflow type 0 wrapping enum index 2 from Dart",
            ),
        ),
        valid(
            "s08.3-overflow-class",
            'overflow type 3 wrapping a class [true, "x"]',
            custom(255, lst(i64(3), lst(b(True), s("x")))),
        ),
        valid(
            "s08.3-overflow-null",
            "overflow type 1 wrapping null (Pigeon decodes it as null)",
            custom(255, lst(i64(1), null())),
        ),
        valid(
            "s08.3-overflow-int32-index",
            "overflow index as int32 (C++ width is inferred; the wire allows it)",
            custom(255, lst(i32(0), i32(1))),
        ),
        # spec §8.4: data classes.
        valid(
            "s08.4-class-dart",
            'class [1, "x"] with tag 130 from Dart (int64 fields)',
            custom(130, lst(i64(1), s("x"))),
            expect_hex="820c02040100000000000000070178",
            origin=origin("derived", 'wire-format-notes.md §4.4 class [1, "x"] tag 130 from Dart'),
        ),
        valid(
            "s08.4-empty-class",
            "an empty class (Pigeon >= 27.2.0): tag 135 + empty list",
            custom(135, lst()),
            expect_hex="870c00",
        ),
        valid(
            "s08.4-nullable-fields-absent",
            "class with three nullable fields, all absent",
            custom(133, lst(null(), null(), null())),
            expect_hex="850c03000000",
        ),
        valid(
            "s08.4-nullable-fields-mixed",
            'class with fields [null, 7 (int64), null, "s"]',
            custom(133, lst(null(), i64(7), null(), s("s"))),
        ),
        valid(
            "s08.4-nested-class",
            "class whose 2nd field is another class and 3rd an enum",
            custom(136, lst(s("outer"), custom(132, lst(b(True), i64(1))), custom(129, i64(2)))),
        ),
        valid(
            "s08.4-list-of-classes",
            "list field holding three classes",
            custom(
                137,
                lst(
                    lst(
                        custom(131, lst(i64(0))), custom(131, lst(i64(1))), custom(131, lst(null()))
                    )
                ),
            ),
        ),
        valid(
            "s08.4-map-of-classes",
            "map field: string -> class, enum -> class",
            custom(
                137,
                lst(
                    mp(
                        (s("a"), custom(131, lst(i64(1)))),
                        (custom(129, i64(0)), custom(131, lst(i64(2)))),
                    )
                ),
            ),
        ),
        valid(
            "s08.4-class-with-typed-lists",
            "class with Uint8List, Int32List and float64 "
            "fields after the custom tag (alignment counted from the message start)",
            custom(132, lst(u8s("ff"), i32s([1, 2]), f64(0.1))),
            focus="$.v[1]",
        ),
        valid(
            "s08.4-non-list-payload",
            "class tag 131 followed by int32 42 instead of a field list: valid at the wire level",
            custom(131, i32(42)),
            expect_hex="83032a000000",
            tier="implementation-defined",
            notes=NON_LIST_NOTES,
            requirements=("R8.1-4", "R8.4-3"),
        ),
        valid(
            "s08.4-non-list-payload-str",
            "class tag 131 followed by a string",
            custom(131, s("not a list")),
            tier="implementation-defined",
            notes=NON_LIST_NOTES,
            requirements=("R8.1-4", "R8.4-3"),
        ),
        # spec §8.5: enums, index int32 (Java, C++, GObject) or int64 (Dart, Kotlin, Swift, ObjC).
        valid(
            "s08.5-enum-dart",
            "enum index 1 with tag 129 from Dart (int64)",
            custom(129, i64(1)),
            expect_hex="81040100000000000000",
            origin=origin("derived", "wire-format-notes.md §4.4 Dart enum index 1"),
        ),
        valid(
            "s08.5-enum-java",
            "enum index 1 with tag 129 from Java (int32)",
            custom(129, i32(1)),
            expect_hex="810301000000",
            origin=origin("derived", "wire-format-notes.md §4.4 Java enum index 1"),
        ),
        valid(
            "s08.5-enum-index0-int32",
            "enum index 0 as int32",
            custom(130, i32(0)),
            expect_hex="820300000000",
        ),
        valid(
            "s08.5-enum-index0-int64",
            "enum index 0 as int64",
            custom(130, i64(0)),
            expect_hex="82040000000000000000",
        ),
        valid(
            "s08.5-enum-nullable-absent",
            "a nullable enum field that is absent is plain null inside the class list",
            custom(133, lst(null(), custom(129, i64(0)))),
        ),
        valid(
            "s08.5-enum-list",
            "a list of enums with both widths",
            lst(custom(129, i32(0)), custom(129, i64(1))),
        ),
    ]
    value, bench_hex = _bench_record()
    out.append(
        valid(
            "s08.4-all-nullable-types-record",
            "an AllNullableTypes-like record: tag 129 wrapping 31 fields of every "
            "type, enum fields as tag 130 wrapping int32",
            value,
            expect_hex=bench_hex,
            kind="pigeon_request",
            origin=origin("bench-payload", "shared/bench-payloads/b_anr_1.bin"),
        )
    )
    return out
