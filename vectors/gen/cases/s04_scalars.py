"""spec §4: null, booleans (4.1), int32/int64 (4.2), float64 (4.3), largeInt (4.4)."""

import struct

from caselib import V03, b, f64, i32, i64, lst, mp, notes, null, origin, reject, s, tests, valid

SECTION = "4"
FILE = "s04-scalars"
TITLE = "Scalars"

GLIB = "fl_standard_message_codec_test.cc"
CPP = "standard_message_codec_unittests.cc"
OBJC = "flutter_standard_codec_unittest.mm"
GLIB_REF = GLIB + " (value table, wire-format-notes.md §3.5)"
CPP_REF = CPP + " (wire-format-notes.md §3.4)"
OBJC_REF = OBJC + " (wire-format-notes.md §3.3)"
DART = "message_codecs_test.dart should encode integers correctly at boundary cases (VM only)"

LARGEINT_NOTES = notes(
    "Encoders never write tag 5. Flutter-mode decoders may accept it; the reference keeps "
    "the text verbatim after a UTF-8 check. Strict mode rejects tag 5 with unknown_tag "
    "(spec §4.4).",
    ("decodes as a String (same path as tag 7)", ["DART", "OBJC", "CPP"]),
    (
        "decodes BigInteger(text, 16); non-hex text throws NumberFormatException; re-encodes "
        "lower-case toString(16)",
        ["JAVA"],
    ),
    ("rejects: Unexpected standard codec type 05", ["GLIB"]),
    ("int.parse(text, radix: 16)", ["WEBUI"]),
)


# Strict-only largeInt rejects: strict mode MUST reject tag 5 (R4.4-5); the flutter-mode decode
# to `value` tests R4.4-2 (accepting is implementation-defined) and R4.4-4 (text verbatim).
LARGEINT_MODES = {"strict": ("R4.4-5",), "flutter": ("R4.4-2", "R4.4-4")}


def cases(registry):
    with tests("R4.1-1"):
        out = _null_bool()
    with tests("R4.2-1"):
        out += _ints()
    with tests("R4.3-1", "R4.3-2"):
        out += _floats()
    out += _largeint()
    return out


def _null_bool():
    return [
        valid(
            "s04.1-null",
            "null",
            null(),
            expect_hex="00",
            origin=origin("flutter-glib-test", GLIB_REF),
        ),
        valid(
            "s04.1-true",
            "true",
            b(True),
            expect_hex="01",
            origin=origin("flutter-glib-test", GLIB_REF),
        ),
        valid(
            "s04.1-false",
            "false",
            b(False),
            expect_hex="02",
            origin=origin("flutter-glib-test", GLIB_REF),
        ),
        valid(
            "s04.1-cpp-null",
            "null (C++ test)",
            null(),
            expect_hex="00",
            origin=origin("flutter-cpp-test", CPP_REF),
        ),
        valid(
            "s04.1-cpp-true",
            "true (C++ test)",
            b(True),
            expect_hex="01",
            origin=origin("flutter-cpp-test", CPP_REF),
        ),
        valid(
            "s04.1-cpp-false",
            "false (C++ test)",
            b(False),
            expect_hex="02",
            origin=origin("flutter-cpp-test", CPP_REF),
        ),
        valid(
            "s04.1-objc-yes",
            "@YES",
            b(True),
            expect_hex="01",
            origin=origin("flutter-objc-test", OBJC_REF),
        ),
        valid(
            "s04.1-objc-no",
            "@NO",
            b(False),
            expect_hex="02",
            origin=origin("flutter-objc-test", OBJC_REF),
        ),
    ]


def _ints():
    out = []
    # int32 (spec §4.2)
    for slug, x, hx, org in (
        ("zero", 0, "0300000000", origin("flutter-glib-test", GLIB_REF)),
        ("one", 1, "0301000000", origin("flutter-glib-test", GLIB_REF)),
        ("0x01234567", 0x01234567, "0367452301", origin("flutter-glib-test", GLIB_REF)),
        ("min", -(2**31), "0300000080", origin("flutter-glib-test", GLIB_REF)),
        ("max", 2**31 - 1, "03ffffff7f", origin("flutter-glib-test", GLIB_REF)),
        ("dart-min", -0x80000000, "0300000080", origin("flutter-dart-test", DART)),
        ("dart-max", 0x7FFFFFFF, "03ffffff7f", origin("flutter-dart-test", DART)),
        ("cpp-0x12345678", 0x12345678, "0378563412", origin("flutter-cpp-test", CPP_REF)),
        ("objc-0x12345678", 0x12345678, "0378563412", origin("flutter-objc-test", OBJC_REF)),
        (
            "objc-uint8-0xfe",
            0xFE,
            "03fe000000",
            origin("flutter-objc-test", OBJC_REF + " (UInt8 widened to int32)"),
        ),
        (
            "objc-uint16-0xfedc",
            0xFEDC,
            "03dcfe0000",
            origin("flutter-objc-test", OBJC_REF + " (UInt16 widened to int32)"),
        ),
        (
            "objc-sint8-0xfe",
            -2,
            "03feffffff",
            origin("flutter-objc-test", OBJC_REF + " ((SInt8)0xfe = -2)"),
        ),
        (
            "objc-sint16-0xfedc",
            -292,
            "03dcfeffff",
            origin("flutter-objc-test", OBJC_REF + " ((SInt16)0xfedc = -292)"),
        ),
        ("minus-one", -1, "03ffffffff", None),
        ("seven", 7, "0307000000", None),
        ("minus-seven", -7, "03f9ffffff", None),
        ("min-plus-one", -(2**31) + 1, "0301000080", None),
        ("max-minus-one", 2**31 - 2, "03feffff7f", None),
        ("0x80", 0x80, "0380000000", None),
        ("0x100", 0x100, "0300010000", None),
    ):
        desc = "int32 %d" % x
        if slug.startswith("objc-uint"):
            desc += " (an ObjC unsigned NSNumber; our notation has no unsigned type)"
        out.append(valid("s04.2-i32-%s" % slug.lower(), desc, i32(x), expect_hex=hx, origin=org))
    # int64, including small values with the int64 tag (spec §4.2: distinct from int32).
    for slug, x, hx, org in (
        (
            "0x0123456789abcdef",
            0x0123456789ABCDEF,
            "04efcdab8967452301",
            origin("flutter-glib-test", GLIB_REF),
        ),
        ("min", -(2**63), "040000000000000080", origin("flutter-glib-test", GLIB_REF)),
        ("max", 2**63 - 1, "04ffffffffffffff7f", origin("flutter-glib-test", GLIB_REF)),
        (
            "dart-min-int32-minus-one",
            -0x80000001,
            "04ffffff7fffffffff",
            origin("flutter-dart-test", DART),
        ),
        (
            "dart-max-int32-plus-one",
            0x80000000,
            "040000008000000000",
            origin("flutter-dart-test", DART),
        ),
        ("dart-min", -(2**63), "040000000000000080", origin("flutter-dart-test", DART)),
        ("dart-max", 2**63 - 1, "04ffffffffffffff7f", origin("flutter-dart-test", DART)),
        (
            "dart-wrap-to-max",
            2**63 - 1,
            "04ffffffffffffff7f",
            origin(
                "flutter-dart-test",
                DART + " (-0x7fffffffffffffff - 2 wraps to the maximum on the VM)",
            ),
        ),
        (
            "dart-wrap-to-min",
            -(2**63),
            "040000000000000080",
            origin(
                "flutter-dart-test",
                DART + " (0x7fffffffffffffff + 1 wraps to the minimum on the VM)",
            ),
        ),
        (
            "cpp-0x1234567890abcdef",
            0x1234567890ABCDEF,
            "04efcdab9078563412",
            origin("flutter-cpp-test", CPP_REF),
        ),
        (
            "objc-0x1234567890abcdef",
            0x1234567890ABCDEF,
            "04efcdab9078563412",
            origin("flutter-objc-test", OBJC_REF),
        ),
        (
            "objc-uint32-0xfedcba09",
            0xFEDCBA09,
            "0409badcfe00000000",
            origin(
                "flutter-objc-test",
                OBJC + " CanEncodeAndDecodeUInt32 (a UInt32 NSNumber is written as int64)",
            ),
        ),
        (
            "objc-uint64-0xfffffffffffffffa",
            -6,
            "04faffffffffffffff",
            origin(
                "flutter-objc-test",
                OBJC + " CanEncodeUInt64 (encode only: the UInt64 bit pattern is int64 -6)",
            ),
        ),
        (
            "dart-98742923489",
            98742923489,
            None,
            origin(
                "flutter-dart-test",
                "message_codecs_test.dart (round-trip only; bytes from the canonical rules)",
            ),
        ),
        (
            "dart-minus-98742923489",
            -98742923489,
            None,
            origin(
                "flutter-dart-test",
                "message_codecs_test.dart (round-trip only; bytes from the canonical rules)",
            ),
        ),
        ("max-int32-plus-one", 2**31, "040000008000000000", None),
        ("min-int32-minus-one", -(2**31) - 1, "04ffffff7fffffffff", None),
        ("min-plus-one", -(2**63) + 1, "040100000000000080", None),
        ("max-minus-one", 2**63 - 2, "04feffffffffffff7f", None),
        ("0x100000000", 2**32, "040000000001000000", None),
    ):
        desc = "int64 %d" % x
        if "uint32" in slug:
            desc += " (ObjC UInt32 0xfedcba09: our notation maps it to i64)"
        if "uint64" in slug:
            desc += " (ObjC UInt64 0xfffffffffffffffa: notation i64 -6, same bits)"
        out.append(valid("s04.2-i64-%s" % slug, desc, i64(x), expect_hex=hx, origin=org))
    for x in (0, 1, -1, 5, 42, 2**31 - 1, -(2**31)):
        out.append(
            valid(
                "s04.2-i64-small-%s" % (str(x).replace("-", "minus")),
                "int64-tagged %d: a value that fits int32 keeps tag 4 (distinct from int32)" % x,
                i64(x),
                requirements=("R4.2-1", "R4.2-2"),
            )
        )
    out.append(
        valid(
            "s04.2-i32-and-i64-same-number",
            "list [int32 5, int64 5]: two different values",
            lst(i32(5), i64(5)),
            requirements=("R4.2-1", "R4.2-2"),
            expect_hex="0c02 0305000000 040500000000000000",
        )
    )
    return out


def _floats():
    out = []
    # float64 (spec §4.3): bits preserved, aligned to 8.
    f64_cases = [
        ("zero", "0000000000000000", origin("flutter-glib-test", GLIB_REF)),
        ("one", "3ff0000000000000", origin("flutter-glib-test", GLIB_REF)),
        ("minus-one", "bff0000000000000", origin("flutter-glib-test", GLIB_REF)),
        ("half", "3fe0000000000000", origin("flutter-glib-test", GLIB_REF)),
        ("pi", "400921fb54442d18", origin("flutter-glib-test", GLIB_REF)),
        ("minus-zero", "8000000000000000", origin("flutter-glib-test", GLIB_REF)),
        ("nan", "7ff8000000000000", origin("flutter-glib-test", GLIB_REF)),
        ("inf", "7ff0000000000000", origin("flutter-glib-test", GLIB_REF)),
        ("cpp-pi", "400921fb54442d18", origin("flutter-cpp-test", CPP_REF)),
        ("objc-pi", "400921fb54442d18", origin("flutter-objc-test", OBJC_REF)),
        (
            "objc-float32-pi",
            "400921fb60000000",
            origin(
                "flutter-objc-test",
                OBJC + " CanEncodeAndDecodeFloat32 (@3.1415927f widened to float64)",
            ),
        ),
        (
            "dart-3-14",
            "40091eb851eb851f",
            origin("flutter-dart-test", "message_codecs_test.dart 3.14 (round-trip only)"),
        ),
        ("minus-inf", "fff0000000000000", None),
        ("nan-negative-quiet", "fff8000000000000", None),
        ("nan-quiet-payload-1", "7ff8000000000001", None),
        ("nan-signalling-payload-1", "7ff0000000000001", None),
        ("nan-signalling-high", "7ff4000000000000", None),
        ("nan-all-ones", "ffffffffffffffff", None),
        ("nan-max-positive", "7fffffffffffffff", None),
        ("nan-payload-deadbeef", "7ff80000deadbeef", None),
        ("min-subnormal", "0000000000000001", None),
        ("max-subnormal", "000fffffffffffff", None),
        ("min-normal", "0010000000000000", None),
        ("max", "7fefffffffffffff", None),
        ("minus-max", "ffefffffffffffff", None),
        ("minus-min-subnormal", "8000000000000001", None),
        ("one-third", "3fd5555555555555", None),
        ("two-pow-53-plus-one", "4340000000000001", None),
    ]
    for slug, bits, org in f64_cases:
        value = struct.unpack("<d", bytes.fromhex(bits)[::-1])[0]
        out.append(
            valid(
                "s04.3-f64-%s" % slug,
                "float64 bits %s (%r)" % (bits, value),
                f64(bits),
                origin=org,
                expect_hex=("06" + "00" * 7 + bytes.fromhex(bits)[::-1].hex()),
            )
        )
    out.append(
        valid(
            "s04.3-f64-list-nan-payloads",
            "NaNs with different payloads inside a list (bits preserved element by element)",
            lst(f64("7ff8000000000001"), f64("7ff0000000000002"), f64("fff8000000000003")),
        )
    )
    return out


def _largeint():
    out = []
    # largeInt (spec §4.4): decode-only in flutter mode, unknown_tag in strict mode.
    for slug, text, desc in (
        ("1f", "1f", 'largeInt "1f" (Java BigInteger 31)'),
        ("minus-1f", "-1f", 'largeInt "-1f" (negative, Java form)'),
        ("empty", "", "largeInt with empty text"),
        ("big", "123456789abcdef0123456789abcdef", "largeInt beyond 64 bits"),
        (
            "not-hex",
            "zz",
            'largeInt "zz": not hex (Java throws '
            "NumberFormatException; the reference keeps the text)",
        ),
        ("upper-hex", "00FF", 'largeInt "00FF" (Java re-encodes as "ff")'),
    ):
        data = text.encode()
        out.append(
            reject(
                "s04.4-largeint-%s" % slug,
                desc + ": flutter mode decodes it, strict mode rejects tag 5",
                "05%02x%s" % (len(data), data.hex()),
                "unknown_tag",
                0,
                modes=("strict",),
                value=["largeint", text],
                by_mode=LARGEINT_MODES,
                notes=LARGEINT_NOTES,
            )
        )
    # Text a decimal reading would take as a number (issue 31: a port decodes 05 02 3132 as
    # the int64 12): the reference keeps the text, JAVA reads it as hexadecimal.
    for slug, text, desc in (
        ("decimal-12", "12", 'largeInt "12": digits only (12 as decimal, 0x12 as Java reads it)'),
        ("decimal-minus-12", "-12", 'largeInt "-12": a sign and digits'),
        ("decimal-2p64", "18446744073709551616", "largeInt 2^64 in decimal digits"),
        ("mixed-12ab", "12ab", 'largeInt "12ab": digits then hex letters'),
        (
            "mixed-0x1f",
            "0x1f",
            'largeInt "0x1f": a C-style prefix (Java throws NumberFormatException)',
        ),
        ("plus-1f", "+1f", 'largeInt "+1f" (Java accepts the sign and re-encodes "1f")'),
    ):
        data = text.encode()
        out.append(
            reject(
                "s04.4-largeint-%s" % slug,
                desc + ": flutter mode keeps the text, strict mode rejects tag 5",
                "05%02x%s" % (len(data), data.hex()),
                "unknown_tag",
                0,
                modes=("strict",),
                value=["largeint", text],
                by_mode=LARGEINT_MODES,
                notes=LARGEINT_NOTES,
                since=V03,
                origin=origin("observed", "a port decodes 05023132 as the int64 12 (issue 31)")
                if slug == "decimal-12"
                else None,
            )
        )
    v = lst(i32(1), ["largeint", "ff"], null())
    out.append(
        reject(
            "s04.4-largeint-in-list",
            'largeInt "ff" as the 2nd list element',
            "0c03 0301000000 05026666 00",
            "unknown_tag",
            7,
            modes=("strict",),
            value=v,
            by_mode=LARGEINT_MODES,
            notes=LARGEINT_NOTES,
        )
    )
    v = mp((["largeint", "a"], s("x")))
    out.append(
        reject(
            "s04.4-largeint-map-key",
            "largeInt as a map key",
            "0d01 050161 070178",
            "unknown_tag",
            2,
            modes=("strict",),
            value=v,
            by_mode=LARGEINT_MODES,
            notes=LARGEINT_NOTES,
        )
    )
    # Flutter-only rejects of largeInt payloads (strict fails earlier at the tag).
    out.append(
        reject(
            "s04.4-largeint-truncated",
            "largeInt of declared size 3 with 1 byte",
            "050331",
            "truncated",
            3,
            modes=("flutter",),
            requirements=("R4.4-2",),
            tier="implementation-defined",
            notes=LARGEINT_NOTES,
        )
    )
    out.append(
        reject(
            "s04.4-largeint-bad-utf8",
            "largeInt whose text is not UTF-8",
            "050231ff",
            "bad_utf8",
            3,
            modes=("flutter",),
            requirements=("R4.4-2", "R4.4-3", "R5.3-2"),
            tier="implementation-defined",
            notes=LARGEINT_NOTES,
        )
    )
    return out
