"""spec §5: strings. Size = UTF-8 byte count (5.1), embedded NUL (5.2), well-formed UTF-8
only (5.3, implementation-defined tier for the rejects)."""

from caselib import UTF8_NOTES, V0_2, alt, mp, notes, null, origin, reject, s, tests, valid

SECTION = "5"
FILE = "s05-strings"
TITLE = "Strings"

GLIB = "fl_standard_message_codec_test.cc (wire-format-notes.md §3.5)"
CPP = "standard_message_codec_unittests.cc (wire-format-notes.md §3.4)"
OBJC = "flutter_standard_codec_unittest.mm (wire-format-notes.md §3.3)"

BOM_NOTES = notes(
    "A U+FEFF at the start of a string is a character like any other and is kept (spec §5.1, "
    "R5.1-3).",
    ("drops a leading U+FEFF: its UTF-8 decoder skips a byte-order mark (observed)", ["DART"]),
    (
        "String(data:encoding: .utf8) drops it in Foundation on Linux (observed in a third-party "
        "Swift port)",
        ["SWIFT-PORT"],
    ),
)

NUL_NOTE = " (GLib truncates at the NUL on decode and encode, ObjC's encoder may too: divergence)"


def cases(registry):
    with tests("R5.1-1", "R5.1-2"):
        out = _encoding()
    with tests("R5.2-1"):
        out += _nul()
    with tests("R5.3-2"):
        out += _ill_formed()
    return out


def _encoding():
    out = [
        valid(
            "s05.1-empty",
            "empty string",
            s(""),
            expect_hex="0700",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s05.1-cpp-empty",
            "empty string (C++ test)",
            s(""),
            expect_hex="0700",
            origin=origin("flutter-cpp-test", CPP),
        ),
        valid(
            "s05.1-hello",
            '"hello"',
            s("hello"),
            expect_hex="070568656c6c6f",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s05.1-glib-sized-hello",
            '"Hello" (GLib string_sized("Hello World", 5))',
            s("Hello"),
            expect_hex="070548656c6c6f",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s05.1-hello-world",
            '"hello world"',
            s("hello world"),
            expect_hex="070b68656c6c6f20776f726c64",
            origin=origin("flutter-cpp-test", CPP),
        ),
        valid(
            "s05.1-objc-hello-world",
            '"hello world" (ObjC test)',
            s("hello world"),
            expect_hex="070b68656c6c6f20776f726c64",
            origin=origin("flutter-objc-test", OBJC),
        ),
        valid(
            "s05.1-3byte-smiley",
            '"h\\u263aw": a 3-byte UTF-8 character, size 5',
            s("h\u263aw"),
            expect_hex="070568e298ba77",
            origin=origin("flutter-cpp-test", CPP),
        ),
        valid(
            "s05.1-objc-3byte-smiley",
            '"h\\u263aw" (ObjC test)',
            s("h\u263aw"),
            expect_hex="070568e298ba77",
            origin=origin("flutter-objc-test", OBJC),
        ),
        valid(
            "s05.1-4byte-emoji",
            '"h\\U0001F602w": a 4-byte UTF-8 character, size 6',
            s("h\U0001f602w"),
            expect_hex="070668f09f988277",
            origin=origin("flutter-cpp-test", CPP),
        ),
        valid(
            "s05.1-objc-4byte-emoji",
            '"h\\U0001F602w" (ObjC test)',
            s("h\U0001f602w"),
            expect_hex="070668f09f988277",
            origin=origin("flutter-objc-test", OBJC),
        ),
        valid(
            "s05.1-dart-special-chars",
            "'special chars >\\u263A\\u{1F602}<' (Dart round-trip test)",
            s("special chars >\u263a\U0001f602<"),
            origin=origin("flutter-dart-test", "message_codecs_test.dart (round-trip only)"),
        ),
        valid(
            "s05.1-2byte",
            '"\\u00e9\\u00f1": 2-byte UTF-8 characters',
            s("\u00e9\u00f1"),
            expect_hex="0704c3a9c3b1",
        ),
        valid("s05.1-3byte-euro", '"\\u20ac": 3-byte', s("\u20ac"), expect_hex="0703e282ac"),
        valid(
            "s05.1-max-scalar",
            "U+10FFFF, the largest scalar value",
            s("\U0010ffff"),
            expect_hex="0704f48fbfbf",
        ),
        valid(
            "s05.1-min-4byte",
            "U+10000, the smallest 4-byte scalar",
            s("\U00010000"),
            expect_hex="0704f0908080",
        ),
        valid(
            "s05.1-u-d7ff",
            "U+D7FF, the scalar just below the surrogates",
            s("\ud7ff"),
            expect_hex="0703ed9fbf",
        ),
        valid(
            "s05.1-u-e000",
            "U+E000, the scalar just above the surrogates",
            s("\ue000"),
            expect_hex="0703ee8080",
        ),
        valid(
            "s05.1-u-0080", "U+0080, the smallest 2-byte scalar", s("\u0080"), expect_hex="0702c280"
        ),
        valid(
            "s05.1-u-07ff-0800",
            "U+07FF and U+0800 (2/3-byte boundary)",
            s("\u07ff\u0800"),
            expect_hex="0705dfbfe0a080",
        ),
        valid(
            "s05.1-bom",
            "a leading U+FEFF byte-order mark is text, kept",
            s("\ufeffa"),
            expect_hex="0704efbbbf61",
            requirements=("R5.1-1", "R5.1-3"),
            notes=BOM_NOTES,
            origin=origin("observed", 'DART decodes it to "a" (issue 13)'),
        ),
        valid(
            "s05.1-bom-only",
            "a string that is only U+FEFF: kept, not emptied",
            s("\ufeff"),
            expect_hex="0703efbbbf",
            requirements=("R5.1-1", "R5.1-3"),
            notes=BOM_NOTES,
            since=V0_2,
        ),
        valid(
            "s05.1-bom-after-first",
            "U+FEFF after the first character is always text",
            s("a\ufeff"),
            expect_hex="0704 61 efbbbf",
            since=V0_2,
        ),
        valid(
            "s05.1-replacement-char",
            "U+FFFD (what Dart writes for a lone surrogate)",
            s("\ufffd"),
            expect_hex="0703efbfbd",
            origin=origin("derived", "wire-format-notes.md §3.6 U+FFFD"),
        ),
        valid(
            "s05.1-control-chars",
            "control characters \\t \\n \\u001f and DEL",
            s("\t\n\x1f\x7f"),
            expect_hex="0704090a1f7f",
        ),
        valid(
            "s05.1-2byte-x127",
            "127 two-byte characters: 254 UTF-8 bytes need the 3-byte "
            "size although there are fewer than 254 characters",
            s("\u00e9" * 127),
        ),
        valid(
            "s05.1-4byte-x64",
            "64 four-byte characters: 256 bytes, 64 code points, 128 UTF-16 units",
            s("\U0001f602" * 64),
        ),
        valid("s05.1-3byte-x85", "85 three-byte characters: 255 bytes", s("\u20ac" * 85)),
    ]
    for n in (253, 254, 255, 65535, 65536, 70000):
        out.append(
            valid(
                "s05.1-ascii-%d" % n,
                "ASCII string of %d bytes" % n,
                s("".join(chr(0x61 + i % 26) for i in range(n))),
            )
        )
    return out


def _nul():
    out = []
    # Embedded NUL (spec §5.2)
    for slug, text, hx in (
        ("nul-middle", "a\x00b", "0703610062"),
        ("nul-only", "\x00", "070100"),
        ("nul-three", "\x00\x00\x00", "0703000000"),
        ("nul-end", "ab\x00", "0703616200"),
    ):
        out.append(
            valid(
                "s05.2-%s" % slug,
                "string %r with embedded U+0000%s" % (text, NUL_NOTE),
                s(text),
                expect_hex=hx,
            )
        )
    out.append(
        valid(
            "s05.2-nul-map-key",
            'map key "a\\u0000b" distinct from key "a"',
            mp((s("a\x00b"), null()), (s("a"), null())),
        )
    )
    return out


def _ill_formed():
    out = []
    # Ill-formed UTF-8 (spec §5.3). Each: (slug, description, payload bytes, bad index).
    bad = [
        ("lone-continuation-80", "a lone continuation byte 80", "80", 0),
        ("lone-continuation-bf", "a lone continuation byte bf", "bf", 0),
        ("continuation-after-ascii", '"a" then continuation 80', "6180", 1),
        ("truncated-2byte-end", "2-byte lead c3 at the end", "61c3", 1),
        ("truncated-3byte-end", "3-byte sequence e2 82 cut at the end", "e282", 0),
        ("truncated-4byte-end", "4-byte sequence f0 9f 98 cut at the end", "f09f98", 0),
        ("truncated-2byte-then-ascii", "lead c3 followed by ASCII 41", "c341", 0),
        ("truncated-3byte-then-ascii", "e2 82 followed by ASCII", "e28241", 0),
        ("overlong-2byte-c0", "overlong 2-byte NUL c0 80", "c080", 0),
        ("overlong-2byte-c1", "overlong 2-byte c1 bf", "c1bf", 0),
        ("overlong-3byte", "overlong 3-byte e0 80 80", "e08080", 0),
        ("overlong-3byte-max", "overlong 3-byte e0 9f bf (U+07FF)", "e09fbf", 0),
        ("overlong-4byte", "overlong 4-byte f0 80 80 80", "f0808080", 0),
        ("overlong-4byte-max", "overlong 4-byte f0 8f bf bf (U+FFFF)", "f08fbfbf", 0),
        ("surrogate-high", "encoded surrogate U+D800 (ed a0 80)", "eda080", 0),
        ("surrogate-low", "encoded surrogate U+DFFF (ed bf bf)", "edbfbf", 0),
        ("surrogate-pair", "CESU-8 surrogate pair ed a0 bd ed b8 82", "eda0bdedb882", 0),
        ("above-max-f4-90", "U+110000 (f4 90 80 80), above U+10FFFF", "f4908080", 0),
        ("lead-f5", "lead byte f5", "f5808080", 0),
        ("byte-ff", "byte ff", "ff", 0),
        ("byte-fe", "byte fe", "fe", 0),
        ("ff-in-middle", '"ab" ff "cd"', "6162ff6364", 2),
        ("bad-after-valid-emoji", "a valid 4-byte emoji then a lone 80", "f09f988280", 4),
        ("3byte-bad-second", "e0 followed by 7f", "e07f80", 0),
        ("3byte-bad-third", "e1 80 followed by 41", "e18041", 0),
        ("4byte-bad-fourth", "f0 90 80 followed by c0", "f09080c0", 0),
        ("truncated-f1-end", "f1 80 80 at the end", "6162f18080", 2),
        ("surrogate-after-ascii", '"x" then ed b0 80 (U+DC00)', "78edb080", 1),
        ("f4-then-90-mid", 'f4 90 80 80 after "ok"', "6f6bf4908080", 2),
        ("two-errors-first-wins", "two ill-formed bytes: the first one counts", "61ff62fe", 1),
    ]
    for slug, desc, payload, idx in bad:
        data = bytes.fromhex(payload)
        out.append(
            reject(
                "s05.3-bad-utf8-%s" % slug,
                "string with %s" % desc,
                "07%02x%s" % (len(data), payload),
                "bad_utf8",
                2 + idx,
                tier="implementation-defined",
                notes=UTF8_NOTES,
            )
        )
    # In other places a string occurs.
    out += [
        reject(
            "s05.3-bad-utf8-in-list",
            "ill-formed string as 2nd list element",
            "0c02 0700 0702 c328",
            "bad_utf8",
            6,
            tier="implementation-defined",
            notes=UTF8_NOTES,
        ),
        reject(
            "s05.3-bad-utf8-map-key",
            "ill-formed map key",
            "0d01 0701 ff 00",
            "bad_utf8",
            4,
            tier="implementation-defined",
            notes=UTF8_NOTES,
        ),
        reject(
            "s05.3-bad-utf8-map-value",
            "ill-formed map value",
            "0d01 00 0703 eda080",
            "bad_utf8",
            5,
            tier="implementation-defined",
            notes=UTF8_NOTES,
        ),
        reject(
            "s05.3-bad-utf8-custom",
            "ill-formed string inside custom 129",
            "81 0701 80",
            "bad_utf8",
            3,
            tier="implementation-defined",
            notes=UTF8_NOTES,
        ),
        reject(
            "s05.3-bad-utf8-method-name",
            "ill-formed method name",
            "0702 c0af 00",
            "bad_utf8",
            2,
            kind="method_call",
            tier="implementation-defined",
            notes=UTF8_NOTES,
        ),
        reject(
            "s05.3-bad-utf8-call-args",
            "ill-formed string argument",
            "07016d 0701 ff",
            "bad_utf8",
            5,
            kind="method_call",
            tier="implementation-defined",
            notes=UTF8_NOTES,
        ),
        reject(
            "s05.3-bad-utf8-success",
            "ill-formed success result",
            "00 0701 fe",
            "bad_utf8",
            3,
            kind="success_envelope",
            tier="implementation-defined",
            notes=UTF8_NOTES,
        ),
        reject(
            "s05.3-bad-utf8-error-code",
            "ill-formed error code",
            "01 0702 6180 00 00",
            "bad_utf8",
            4,
            kind="error_envelope",
            tier="implementation-defined",
            notes=UTF8_NOTES,
        ),
        reject(
            "s05.3-bad-utf8-error-message",
            "ill-formed error message",
            "01 070165 0703 eda080 00",
            "bad_utf8",
            6,
            kind="error_envelope",
            tier="implementation-defined",
            notes=UTF8_NOTES,
        ),
        reject(
            "s05.3-bad-utf8-error-details",
            "ill-formed string in error details",
            "01 070165 00 0701 bf",
            "bad_utf8",
            7,
            kind="error_envelope",
            tier="implementation-defined",
            notes=UTF8_NOTES,
        ),
        reject(
            "s05.3-bad-utf8-stacktrace",
            "ill-formed stacktrace (4th element)",
            "01 070165 00 00 0704 f4908080",
            "bad_utf8",
            8,
            kind="error_envelope",
            tier="implementation-defined",
            notes=UTF8_NOTES,
            alternatives=[alt("trailing_bytes", 6, "three-element")],
        ),
    ]
    return out
