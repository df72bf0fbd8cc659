"""spec §11: success (11.1) and error (11.2) envelopes, the optional stacktrace element
(11.3, implementation-defined), bad flags and empty envelopes (11.4)."""

from caselib import (
    V0_2,
    V03,
    alt,
    b,
    custom,
    enc,
    error,
    f32s,
    f64,
    f64s,
    i32,
    i32s,
    i64,
    i64s,
    lst,
    mp,
    notes,
    null,
    origin,
    reject,
    s,
    success,
    tests,
    u8s,
    valid,
    with_alternatives,
)

SECTION = "11"
FILE = "s11-envelopes"
TITLE = "Envelopes"

CPP = "standard_method_codec_unittests.cc (wire-format-notes.md §3.4)"
GLIB = "fl_standard_method_codec_test.cc (wire-format-notes.md §3.5)"

STACK_NOTES = notes(
    "An error envelope may carry a 4th element, the stacktrace (string or null); decoders "
    "accept it and encoders can write it (spec §11.3).",
    ("reads it into PlatformException.stacktrace", ["DART"]),
    ("writes it (encodeErrorEnvelopeWithStacktrace) but rejects it on decode", ["JAVA"]),
    ("ignores the 4th value", ["CPP"]),
    ("rejects it as extra data", ["GLIB"]),
    ("asserts (bytes remain)", ["OBJC"]),
    ("FormatException('Invalid envelope')", ["WEBUI"]),
)
EMPTY_NOTES = notes(
    "An envelope has at least its flag byte; an empty one is truncated at 0 (spec §11.4). At "
    "the channel level every platform reads a 0-length reply as 'not implemented' before the "
    "codec sees it.",
    ("FormatException / BufferUnderflowException, as the spec decides", ["DART", "JAVA"]),
    ("returns a not-implemented response", ["GLIB"]),
    ("decodes it as success with no value (observed)", ["CPP"]),
)
LARGEINT_TEXT_NOTES = notes(
    "An error code or message is a string (tag 07) or, for the message, null; a largeInt is "
    "neither, so the envelope is bad_envelope at its tag (spec §11.5), also for a decoder that "
    "accepts tag 5 as a largeInt (R4.4-2).",
    ("reads tag 5 as a string, so the envelope is a valid error", ["DART", "OBJC", "CPP"]),
    ('BigInteger("", 16) throws NumberFormatException', ["JAVA"]),
    ("rejects tag 5 (Unexpected standard codec type 05)", ["GLIB"]),
)
SUCCESS_THEN_ERROR_NOTES = notes(
    "A success envelope is the flag and one value; bytes after it are trailing_bytes "
    "(spec §11.5), whatever they look like.",
    (
        "falls through to the error path when bytes remain and parses them as code, message and "
        "details: a complete triple becomes a FlutterException (observed)",
        ["JAVA"],
    ),
    ("do not check for bytes after the value", ["DART", "WEBUI", "CPP"]),
)
AFTER_DETAILS_NOTES = notes(
    "Bytes after an error envelope's details are either a stacktrace (a string or null) or an "
    "error: bad_envelope at the byte after the details for a decoder that reads the 4th "
    "element, trailing_bytes there for one that reads three (errors.md §14.2.1); never "
    "ignored (spec §11.5).",
    ("ignores everything after the details and returns the error (observed)", ["CPP"]),
)

DETAILS = [
    ("null", null()),
    ("bool", b(False)),
    ("i32", i32(42)),
    ("i64", i64(2**33)),
    ("f64", f64(-0.25)),
    ("str", s("details")),
    ("u8s", u8s("beef")),
    ("i32s", i32s([1, -1])),
    ("i64s", i64s([7])),
    ("f64s", f64s([2.0])),
    ("f32s", f32s([2.0])),
    ("list", lst(s("a"), i32(42))),
    ("map", mp((s("k"), i32(1)))),
    ("custom", custom(131, lst(i64(1)))),
]


WITH_ALTERNATIVES = ["s11.2-cpp-error-full", "s11.1-glib-success-list"]


REQUIREMENTS = {
    "11.1": ("R11.1-1",),
    "11.2": ("R11.2-1",),
    "11.3": ("R11.3-1", "R11.3-2", "R11.3-3"),
    "11.4": ("R11.5-1",),
}
MESSAGE_NULL = ("R11.2-1", "R11.2-2", "R11.2-3")


FLAG_NOTES = notes(
    "Flags 2..255 are bad_envelope at 0 (R11.4-1, D28), whatever follows them.",
    (
        'any non-zero flag starts an error envelope: the triple decodes as error("e", null, '
        "null) (observed)",
        ["DART", "WEBUI"],
    ),
    ('returns "unhandled"', ["CPP"]),
)


def cases(registry):
    with tests.per_section(REQUIREMENTS):
        return with_alternatives(_cases(), WITH_ALTERNATIVES)


def _cases():
    out = [
        valid(
            "s11.1-cpp-success-null",
            "success envelope without a result",
            success(null()),
            kind="success_envelope",
            expect_hex="0000",
            origin=origin("flutter-cpp-test", CPP),
        ),
        valid(
            "s11.1-cpp-success-42",
            "success envelope 42",
            success(i32(42)),
            kind="success_envelope",
            expect_hex="00032a000000",
            origin=origin("flutter-cpp-test", CPP),
        ),
        valid(
            "s11.1-glib-success-hello",
            'success("hello")',
            success(s("hello")),
            kind="success_envelope",
            expect_hex="00070568656c6c6f",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s11.1-glib-success-list",
            'success(["count", 42])',
            success(lst(s("count"), i32(42))),
            kind="success_envelope",
            expect_hex="000c020705636f756e74032a000000",
            origin=origin("flutter-glib-test", GLIB),
        ),
    ]
    for slug, v in DETAILS:
        out.append(
            valid(
                "s11.1-success-%s" % slug,
                "success envelope with a %s result" % slug,
                success(v),
                kind="success_envelope",
                focus="$.result",
            )
        )
    out += [
        valid(
            "s11.2-cpp-error-code-only",
            'error("errorCode"): C++ writes the empty message as null, null details',
            error("errorCode", None, null()),
            kind="error_envelope",
            expect_hex="01 0709 6572726f72436f6465 00 00",
            origin=origin("flutter-cpp-test", CPP),
        ),
        valid(
            "s11.2-cpp-error-full",
            'error("errorCode", "something failed", ["a", 42])',
            error("errorCode", "something failed", lst(s("a"), i32(42))),
            kind="error_envelope",
            expect_hex="01 07096572726f72436f6465 0710736f6d657468696e67206661696c6564 0c02 "
            "070161 032a000000",
            origin=origin("flutter-cpp-test", CPP),
        ),
        valid(
            "s11.2-glib-empty-code",
            'error("", NULL, NULL)',
            error("", None, null()),
            kind="error_envelope",
            expect_hex="0107000000",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s11.2-glib-code",
            'error("error", NULL, NULL)',
            error("error", None, null()),
            kind="error_envelope",
            expect_hex="0107056572726f720000",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s11.2-glib-code-message",
            'error("error", "message", NULL)',
            error("error", "message", null()),
            kind="error_envelope",
            expect_hex="0107056572726f7207076d65737361676500",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s11.2-glib-code-details",
            'error("error", NULL, ["count", 42])',
            error("error", None, lst(s("count"), i32(42))),
            kind="error_envelope",
            expect_hex="0107056572726f72000c020705636f756e74032a000000",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s11.2-glib-full",
            'error("error", "message", ["count", 42])',
            error("error", "message", lst(s("count"), i32(42))),
            kind="error_envelope",
            expect_hex="0107056572726f7207076d6573736167650c020705636f756e74032a000000",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s11.2-message-empty-string",
            'error message "" (0700) differs from null (00); C++ writes "" as null',
            error("e", "", null()),
            kind="error_envelope",
            expect_hex="01 070165 0700 00",
            requirements=MESSAGE_NULL,
        ),
        valid(
            "s11.2-message-null",
            "error message null",
            error("e", None, null()),
            kind="error_envelope",
            expect_hex="01 070165 00 00",
            requirements=MESSAGE_NULL,
        ),
        valid(
            "s11.2-unicode-code-message",
            "non-ASCII code and message",
            error("\u00e9rr", "\U0001f4a5 boom", null()),
            kind="error_envelope",
        ),
    ]
    for slug, v in DETAILS:
        for mslug, msg in (("msg", "failed"), ("nomsg", None)):
            out.append(
                valid(
                    "s11.2-details-%s-%s" % (slug, mslug),
                    "error envelope, %s message, %s details" % ("string" if msg else "null", slug),
                    error("CODE", msg, v),
                    kind="error_envelope",
                    focus="$.details",
                )
            )
    # spec §11.3: the 4th element.
    out += [
        valid(
            "s11.3-dart-stacktrace",
            'error("error", "boom", null, "st"): Dart reads the stacktrace',
            error("error", "boom", null(), "st"),
            kind="error_envelope",
            expect_hex="0107056572726f720704626f6f6d0007027374",
            tier="implementation-defined",
            notes=STACK_NOTES,
            origin=origin("derived", "wire-format-notes.md §3.6 error envelope with stacktrace"),
        ),
        valid(
            "s11.3-dart-native-stacktrace",
            "error envelope with stacktrace 'errorStacktrace' "
            "(Dart test: should decode error envelope with native stacktrace)",
            error("errorCode", "errorMessage", null(), "errorStacktrace"),
            kind="error_envelope",
            tier="implementation-defined",
            notes=STACK_NOTES,
            origin=origin(
                "flutter-dart-test",
                "message_codecs_test.dart should decode error "
                "envelope with native stacktrace (bytes from the canonical rules)",
            ),
        ),
        valid(
            "s11.3-java-with-stacktrace",
            'Java encodeErrorEnvelopeWithStacktrace("code", '
            '"foo", <stack string>, "error stacktrace")',
            error(
                "code",
                "foo",
                s("java.lang.RuntimeException: x\n\tat A.b(A.java:1)"),
                "error stacktrace",
            ),
            kind="error_envelope",
            tier="implementation-defined",
            notes=STACK_NOTES,
            origin=origin(
                "flutter-java-test",
                "StandardMethodCodecTest.java encodeErrorEnvelopeWithStacktrace (shape only)",
            ),
        ),
        valid(
            "s11.3-stacktrace-null",
            "4-element error envelope whose stacktrace is null "
            "(differs from the 3-element form). GLib's test expects this input to fail with "
            "'extra data'",
            error("error", None, null(), None),
            kind="error_envelope",
            expect_hex="0107056572726f72000000",
            tier="implementation-defined",
            notes=STACK_NOTES,
            origin=origin(
                "flutter-glib-test",
                GLIB + " decode response 0107056572726f72000000 (FAILED in GLib)",
            ),
        ),
        valid(
            "s11.3-stacktrace-empty",
            'stacktrace ""',
            error("e", "m", null(), ""),
            kind="error_envelope",
            tier="implementation-defined",
            notes=STACK_NOTES,
        ),
        valid(
            "s11.3-stacktrace-after-f64-details",
            "stacktrace after aligned float64 details",
            error("e", None, f64(1.0), "trace"),
            kind="error_envelope",
            focus="$.details",
            tier="implementation-defined",
            notes=STACK_NOTES,
        ),
    ]
    # spec §11.4 and the entry-point tag checks (errors.md §14.2).
    out += [
        reject(
            "s11.4-glib-flag-2",
            "envelope flag 02",
            "02",
            "bad_envelope",
            0,
            kind="envelope",
            requirements=("R11.4-1",),
            origin=origin("flutter-glib-test", GLIB + " decode response 02"),
        ),
        reject(
            "s11.4-flag-2-with-value",
            "flag 02 followed by a value",
            "02 00",
            "bad_envelope",
            0,
            kind="envelope",
            requirements=("R11.4-1",),
        ),
        reject(
            "s11.4-flag-ff",
            "flag ff followed by a value",
            "ff 00",
            "bad_envelope",
            0,
            kind="envelope",
            requirements=("R11.4-1",),
        ),
        reject(
            "s11.4-flag-80",
            "flag 80 (negative as a Java byte)",
            "80 00",
            "bad_envelope",
            0,
            kind="envelope",
            requirements=("R11.4-1",),
        ),
        reject(
            "s11.4-flag-03-like-int32",
            "flag 03 followed by 4 bytes",
            "03 01000000",
            "bad_envelope",
            0,
            kind="envelope",
            requirements=("R11.4-1",),
        ),
    ]
    # D28 with a valid rest: after the flag, a well-formed error triple, so a decoder that
    # takes every non-zero flag as an error has nothing else to reject (the flag vectors
    # above are malformed after the flag too).
    for flag, why in (
        ("02", "the first flag above 1"),
        ("ff", "the last byte value"),
        ("80", "negative as a Java or Dart signed byte"),
    ):
        out.append(
            reject(
                "s11.4-flag-%s-error-triple" % flag,
                "flag %s (%s) followed by a "
                'well-formed error triple ("e", null, null)' % (flag, why),
                flag + " 070165 00 00",
                "bad_envelope",
                0,
                kind="envelope",
                requirements=("R11.4-1",),
                notes=FLAG_NOTES,
                since=V03,
                origin=origin("observed", "DART decodes it as an error envelope (issue 31)"),
            )
        )
    out += [
        reject(
            "s11.4-empty",
            "empty envelope (0 bytes)",
            "",
            "truncated",
            0,
            kind="envelope",
            tier="implementation-defined",
            notes=EMPTY_NOTES,
            requirements=("R11.4-2",),
            origin=origin(
                "flutter-glib-test",
                GLIB + " decode response 0-length (GLib: not-implemented response)",
            ),
        ),
        reject(
            "s11.4-glib-success-no-value",
            "success flag only",
            "00",
            "truncated",
            1,
            kind="success_envelope",
            origin=origin("flutter-glib-test", GLIB),
        ),
        reject(
            "s11.4-glib-success-trailing",
            "success(null) then one more byte",
            "000000",
            "trailing_bytes",
            2,
            kind="success_envelope",
            origin=origin("flutter-glib-test", GLIB),
        ),
        reject(
            "s11.4-glib-error-flag-only",
            "error flag only",
            "01",
            "truncated",
            1,
            kind="error_envelope",
            origin=origin("flutter-glib-test", GLIB),
        ),
        reject(
            "s11.4-glib-error-no-message",
            "error code, then nothing",
            "0107056572726f72",
            "truncated",
            8,
            kind="error_envelope",
            origin=origin("flutter-glib-test", GLIB),
        ),
        reject(
            "s11.4-glib-error-no-details",
            "error code and null message, no details",
            "0107056572726f7200",
            "truncated",
            9,
            kind="error_envelope",
            origin=origin("flutter-glib-test", GLIB),
        ),
        reject(
            "s11.4-success-trailing-after-list",
            "success([1]) then a null",
            enc(success(lst(i32(1))), "envelope").hex + "00",
            "trailing_bytes",
            8,
            kind="success_envelope",
        ),
        reject(
            "s11.4-trailing-after-stacktrace",
            "4-element error envelope then one more byte",
            "01 070165 00 00 00 00",
            "trailing_bytes",
            7,
            kind="error_envelope",
            alternatives=[alt("trailing_bytes", 6, "three-element")],
        ),
        reject(
            "s11.4-trailing-after-stacktrace-str",
            "4-element error envelope (string stacktrace) then a null",
            "01 070165 00 00 070174 00",
            "trailing_bytes",
            9,
            kind="error_envelope",
            alternatives=[alt("trailing_bytes", 6, "three-element")],
        ),
    ]
    # The code, message and stacktrace of an error envelope, each a complete value of the
    # wrong type, so the type is the only fault whichever order a decoder checks in.
    largeint_modes = {"flutter": ("R11.5-1", "R4.4-2"), "strict": ("R11.5-1",)}
    for tag, desc, hx in (
        (0x00, "null", "01 00 00 00"),
        (0x03, "int32", "01 03 00000000 00 00"),
        (0x0C, "list", "01 0c 00 00 00"),
        (0x05, "largeInt", "01 05 00 00 00"),
        (0x0F, "unknown tag 15", "01 0f 00 00 00"),
        (0x81, "custom 129", "01 81 00 00 00"),
    ):
        kw = {}
        if tag == 0x0F:
            kw["alternatives"] = [alt("unknown_tag", 1, "value-first")]
        if tag == 0x05:
            kw.update(
                by_mode=largeint_modes,
                notes=LARGEINT_TEXT_NOTES,
                alternatives=[alt("unknown_tag", 1, "value-first", modes=["strict"])],
            )
        out.append(
            reject(
                "s11.4-code-tag-%02x" % tag,
                "error code with tag %02x (%s)" % (tag, desc),
                hx,
                "bad_envelope",
                1,
                kind="error_envelope",
                **kw,
            )
        )
    for tag, desc, hx in (
        (0x01, "true", "01 070165 01 00"),
        (0x03, "int32", "01 070165 03 00000000 00"),
        (0x0C, "list", "01 070165 0c00 00"),
        (0x08, "Uint8List", "01 070165 0800 00"),
        (0x05, "largeInt", "01 070165 0500 00"),
        (0x10, "unknown tag 16", "01 070165 10 00 00 00 00"),
        (0x80, "custom 128", "01 070165 8000 00"),
    ):
        kw = {}
        if tag == 0x10:
            kw["alternatives"] = [alt("unknown_tag", 4, "value-first")]
        if tag == 0x05:
            kw.update(
                by_mode=largeint_modes,
                notes=LARGEINT_TEXT_NOTES,
                alternatives=[alt("unknown_tag", 4, "value-first", modes=["strict"])],
            )
        out.append(
            reject(
                "s11.4-message-tag-%02x" % tag,
                "error message with tag %02x (%s): neither string nor null" % (tag, desc),
                hx,
                "bad_envelope",
                4,
                kind="error_envelope",
                **kw,
            )
        )
    # Bytes after the details, in codecs without error-stacktrace too (issue 13): CPP ignores
    # them; JAVA parses what follows a success value as an error triple.
    out += [
        reject(
            "s11.4-after-details-ff",
            'error("e", null, null) then custom(255, null): a '
            "complete value that is not a stacktrace (a lone ff would also be cut short, a "
            "second fault for a decoder that reads it as a value first)",
            "01 070165 00 00 ff00",
            "bad_envelope",
            6,
            kind="error_envelope",
            notes=AFTER_DETAILS_NOTES,
            since=V0_2,
            origin=origin(
                "observed", 'CPP accepts 01070165 0000 ff as error("e", null, null) (issue 13)'
            ),
            alternatives=[alt("trailing_bytes", 6, "three-element")],
        ),
        reject(
            "s11.4-success-then-error-triple",
            'success("x") followed by a complete error code, message and details',
            "00 070178 070165 00 00",
            "trailing_bytes",
            4,
            kind="success_envelope",
            notes=SUCCESS_THEN_ERROR_NOTES,
            since=V0_2,
            origin=origin("observed", 'JAVA decodes error("e", null, null) (issue 13)'),
        ),
        reject(
            "s11.4-success-null-then-error-triple",
            "success(null) followed by a complete error code, message and details",
            "00 00 070165 00 00",
            "trailing_bytes",
            2,
            kind="success_envelope",
            notes=SUCCESS_THEN_ERROR_NOTES,
            since=V0_2,
            origin=origin("observed", "JAVA's fall-through to the error path (D27)"),
        ),
    ]
    three = alt("trailing_bytes", 6, "three-element")
    for tag, _desc in ((0x01, "true"), (0x03, "int32"), (0x0C, "list"), (0x0F, "unknown tag 15")):
        alts = [three]
        if tag == 0x0F:
            alts.insert(0, alt("unknown_tag", 6, "value-first"))
        out.append(
            reject(
                "s11.4-stacktrace-tag-%02x" % tag,
                "bytes after the details start "
                "with tag %02x: the 4th element must be a string or null" % tag,
                "01 070165 00 00 %02x 00000000" % tag,
                "bad_envelope",
                6,
                kind="error_envelope",
                alternatives=alts,
                notes=AFTER_DETAILS_NOTES,
            )
        )
    return out
