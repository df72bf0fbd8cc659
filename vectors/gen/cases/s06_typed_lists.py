"""spec §6: Uint8List (6.1), Int32List (6.2), Int64List (6.3), Float64List (6.4),
Float32List (6.5), empty typed lists carry padding (6.6)."""

from caselib import (
    f32s,
    f64s,
    i32,
    i32s,
    i64s,
    lst,
    notes,
    null,
    origin,
    reject,
    tests,
    u8s,
    valid,
    with_alternatives,
)

SECTION = "6"
FILE = "s06-typed-lists"
TITLE = "Byte arrays and typed lists"

GLIB = "fl_standard_message_codec_test.cc (wire-format-notes.md §3.5)"
CPP = "standard_message_codec_unittests.cc (wire-format-notes.md §3.4)"

CPP_EMPTY_NOTES = notes(
    "An empty Int32/Int64/Float32/Float64 list still carries its padding (spec §6.6); "
    "without it the input ends inside the padding (truncated) or the next value is misread.",
    (
        "writes no padding for an empty typed list (09 00) and reads either form; inside a list "
        "it then misreads the next element like everyone else",
        ["CPP"],
    ),
    (
        "write the padding; reject a top-level unpadded empty list as out of data",
        ["DART", "JAVA", "OBJC", "GLIB"],
    ),
)


WITH_ALTERNATIVES = [
    "s06.2-i32s-glib",
    "s06.3-i64s-glib",
    "s06.4-f64s-glib",
    "s06.5-f32s-glib",
    "s06.6-null-i32s-empty-7",
]


REQUIREMENTS = {
    "6.1": ("R6-1", "R6.1-1"),
    "6.2": ("R6-1", "R6.2-1"),
    "6.3": ("R6-1", "R6.3-1"),
    "6.4": ("R6-1", "R6.4-1"),
    "6.5": ("R6-1", "R6.5-1"),
    "6.6": ("R3.2-3", "R6.6-1"),
}
# C++'s unpadded empty lists: the input ends inside the padding (R3.3-2); the strict-only
# one has non-zero padding that flutter mode ignores (R3.3-3, R3.3-4).
CPP_SHORT = ("R3.3-2", "R6.6-1")
CPP_MISREAD = ("R3.3-3", "R3.3-4", "R6.6-1")


def cases(registry):
    with tests.per_section(REQUIREMENTS):
        return with_alternatives(_cases(), WITH_ALTERNATIVES)


def _cases():
    out = [
        valid(
            "s06.1-u8s-empty",
            "empty Uint8List",
            u8s(""),
            expect_hex="0800",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s06.1-u8s-0-4",
            "Uint8List [0,1,2,3,4]",
            u8s("0001020304"),
            expect_hex="08050001020304",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s06.1-u8s-ba5eba11",
            "Uint8List ba 5e ba 11",
            u8s("ba5eba11"),
            expect_hex="0804ba5eba11",
            origin=origin("flutter-cpp-test", CPP),
        ),
        valid(
            "s06.1-objc-nsdata",
            "NSData ba 5e ba 11 is written as a Uint8List (inferred bytes)",
            u8s("ba5eba11"),
            expect_hex="0804ba5eba11",
            origin=origin(
                "flutter-objc-test",
                "flutter_standard_codec_unittest.mm NSData "
                "(wire-format-notes.md §3.3, bytes inferred)",
            ),
        ),
        valid(
            "s06.1-u8s-all-bytes",
            "Uint8List 00..ff (no alignment, 3-byte size)",
            u8s(bytes(range(256))),
        ),
        valid(
            "s06.1-u8s-odd-offset",
            "Uint8List after a null in a list: never aligned",
            lst(null(), u8s("ff007f80")),
            expect_hex="0c02000804ff007f80",
            focus="$[1]",
        ),
        valid(
            "s06.2-i32s-empty",
            "empty Int32List: tag, count 0, 2 padding bytes",
            i32s([]),
            expect_hex="09000000",
            origin=origin("flutter-glib-test", GLIB + " EncodeInt32ListEmpty"),
        ),
        valid(
            "s06.2-i32s-glib",
            "Int32List [0,-1,2,-3,4]",
            i32s([0, -1, 2, -3, 4]),
            expect_hex="0905000000000000ffffffff02000000fdffffff04000000",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s06.2-i32s-cpp",
            "Int32List [0x12345678, -1, 0]",
            i32s([0x12345678, -1, 0]),
            expect_hex="0903000078563412ffffffff00000000",
            origin=origin("flutter-cpp-test", CPP),
        ),
        valid("s06.2-i32s-bounds", "Int32List [min, max, 0]", i32s([-(2**31), 2**31 - 1, 0])),
        valid(
            "s06.3-i64s-empty",
            "empty Int64List: 6 padding bytes",
            i64s([]),
            expect_hex="0a00000000000000",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s06.3-i64s-glib",
            "Int64List [0,-1,2,-3,4]",
            i64s([0, -1, 2, -3, 4]),
            expect_hex="0a050000000000000000000000000000ffffffffffffffff0200000000000000"
            "fdffffffffffffff0400000000000000",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s06.3-i64s-cpp",
            "Int64List [0x1234567890abcdef, -1]",
            i64s([0x1234567890ABCDEF, -1]),
            expect_hex="0a02000000000000efcdab9078563412ffffffffffffffff",
            origin=origin("flutter-cpp-test", CPP),
        ),
        valid(
            "s06.3-i64s-dart-bounds",
            "Int64List [min, 0, max]",
            i64s([-(2**63), 0, 2**63 - 1]),
            origin=origin(
                "flutter-dart-test", "message_codecs_vm_test.dart Int64List (round-trip only)"
            ),
        ),
        valid("s06.3-i64s-small", "Int64List [1]: small values stay 8 bytes wide", i64s([1])),
        valid(
            "s06.4-f64s-empty",
            "empty Float64List",
            f64s([]),
            expect_hex="0b00000000000000",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s06.4-f64s-glib",
            "Float64List [0,-0.5,0.25,-0.125,0.00625]",
            f64s([0.0, -0.5, 0.25, -0.125, 0.00625]),
            expect_hex="0b050000000000000000000000000000000000000000e0bf000000000000d03f"
            "000000000000c0bf9a9999999999793f",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s06.4-f64s-cpp",
            "Float64List [pi, 1000.0]",
            f64s(["400921fb54442d18", 1000.0]),
            expect_hex="0b02000000000000182d4454fb2109400000000000408f40",
            origin=origin("flutter-cpp-test", CPP),
        ),
        valid(
            "s06.4-f64s-specials",
            "Float64List -inf, -max, -min subnormal, -0, 0, min "
            "subnormal, max, inf, NaN (Dart test list)",
            f64s(
                [
                    float("-inf"),
                    -1.7976931348623157e308,
                    -5e-324,
                    -0.0,
                    0.0,
                    5e-324,
                    1.7976931348623157e308,
                    float("inf"),
                    "7ff8000000000000",
                ]
            ),
            origin=origin(
                "flutter-dart-test", "message_codecs_test.dart Float64List (round-trip only)"
            ),
        ),
        valid(
            "s06.4-f64s-nan-payloads",
            "Float64List of NaNs with payloads, signalling and negative",
            f64s(
                [
                    "7ff0000000000001",
                    "7ff8000000000001",
                    "fff8000000000000",
                    "7ff4000000000000",
                    "ffffffffffffffff",
                ]
            ),
        ),
        valid(
            "s06.4-f64s-subnormals",
            "Float64List min/max subnormal and min normal",
            f64s(["0000000000000001", "000fffffffffffff", "0010000000000000"]),
        ),
        valid(
            "s06.5-f32s-empty",
            "empty Float32List",
            f32s([]),
            expect_hex="0e000000",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s06.5-f32s-glib",
            "Float32List [0,-0.5,0.25,-0.125,0.00625]",
            f32s([0.0, -0.5, 0.25, -0.125, 0.00625]),
            expect_hex="0e05000000000000000000bf0000803e000000becdcccc3b",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s06.5-f32s-cpp",
            "Float32List [3.1415920257568359375, 1000.0]",
            f32s([3.1415920257568359375, 1000.0]),
            expect_hex="0e020000d80f494000007a44",
            origin=origin("flutter-cpp-test", CPP),
        ),
        valid(
            "s06.5-f32s-java",
            "Java float[]{1.0f, 2.2f, 5.3f}",
            f32s([1.0, 2.2, 5.3]),
            origin=origin(
                "flutter-java-test",
                "StandardMessageCodecTest.java itEncodesFloatArrays (round-trip only)",
            ),
        ),
        valid(
            "s06.5-f32s-specials",
            "Float32List -0, inf, -inf, NaN, max, min subnormal",
            f32s(["80000000", "7f800000", "ff800000", "7fc00000", "7f7fffff", "00000001"]),
        ),
        valid(
            "s06.5-f32s-nan-payloads",
            "Float32List NaNs with payloads (Java canonicalises them to 7fc00000 on encode)",
            f32s(["7f800001", "7fc00001", "ffc00000", "7fffffff"]),
        ),
        valid(
            "s06.5-f32s-not-f64s",
            "Float32List [1.0] is not Float64List [1.0]",
            lst(f32s([1.0]), f64s([1.0])),
        ),
        # §6.6 and the C++ divergence (wire-format-notes.md §2.4, §3.6, §8.4).
        valid(
            "s06.6-null-i32s-empty",
            "[null, Int32List[]]: the empty list keeps its 3 padding bytes",
            lst(null(), i32s([])),
            expect_hex="0c02000900000000",
            origin=origin("derived", "wire-format-notes.md §3.6 [null, Int32List[]] standard"),
        ),
        valid(
            "s06.6-null-i32s-empty-7",
            "[null, Int32List[], 7]",
            lst(null(), i32s([]), i32(7)),
            expect_hex="0c030009000000000307000000",
            origin=origin("derived", "wire-format-notes.md §3.6 [null, Int32List[], 7] standard"),
        ),
        valid(
            "s06.6-f32s-empty-top",
            "Float32List[] at offset 0 (standard form)",
            f32s([]),
            expect_hex="0e000000",
            origin=origin("derived", "wire-format-notes.md §3.6 Float32List[] standard"),
        ),
        valid(
            "s06.6-u8s-i64s-empty-i32",
            "[Uint8List 01, Int64List[], int32 9]",
            lst(u8s("01"), i64s([]), i32(9)),
            focus="$[1]",
        ),
        reject(
            "s06.6-cpp-null-i32s-empty",
            "[null, Int32List[]] as C++ writes it (no padding): the input ends inside the padding",
            "0c02000900",
            "truncated",
            5,
            notes=CPP_EMPTY_NOTES,
            requirements=CPP_SHORT,
            origin=origin("derived", "wire-format-notes.md §3.6 [null, Int32List[]] CPP"),
        ),
        reject(
            "s06.6-cpp-f32s-empty-top",
            "Float32List[] as C++ writes it (0e 00)",
            "0e00",
            "truncated",
            2,
            notes=CPP_EMPTY_NOTES,
            requirements=CPP_SHORT,
            origin=origin("derived", "wire-format-notes.md §3.6 Float32List[] CPP"),
        ),
        reject(
            "s06.6-cpp-i32s-empty-top",
            "Int32List[] as C++ writes it (09 00)",
            "0900",
            "truncated",
            2,
            notes=CPP_EMPTY_NOTES,
            requirements=CPP_SHORT,
            origin=origin("observed", "wire-format-notes.md §8.4"),
        ),
        reject(
            "s06.6-cpp-i64s-empty-top",
            "Int64List[] as C++ writes it (0a 00)",
            "0a00",
            "truncated",
            2,
            notes=CPP_EMPTY_NOTES,
            requirements=CPP_SHORT,
            origin=origin("observed", "wire-format-notes.md §8.4"),
        ),
        reject(
            "s06.6-cpp-f64s-empty-top",
            "Float64List[] as C++ writes it (0b 00)",
            "0b00",
            "truncated",
            2,
            notes=CPP_EMPTY_NOTES,
            requirements=CPP_SHORT,
            origin=origin("observed", "wire-format-notes.md §8.4"),
        ),
        reject(
            "s06.6-cpp-u8s-i64s-empty-i32",
            "C++'s bytes for [Uint8List 01, Int64List[], "
            "int32 9]: a conforming flutter-mode decoder reads the int32's tag as padding and "
            "decodes [Uint8List 01, Int64List[], Int32List[]] (as C++, GLib and Java do); "
            "strict mode sees the non-zero padding byte",
            "0c030801010a000309000000",
            "not_canonical",
            7,
            modes=("strict",),
            value=lst(u8s("01"), i64s([]), i32s([])),
            notes=CPP_EMPTY_NOTES,
            requirements=CPP_MISREAD,
            origin=origin("observed", "wire-format-notes.md §8.4"),
        ),
    ]
    return out
