"""spec §11: success (11.1) and error (11.2) envelopes, the optional stacktrace element
(11.3, implementation-defined), bad flags and empty envelopes (11.4)."""

from caselib import (with_alternatives, b, custom, error, f32s, f64, f64s, i32, i32s, i64, i64s, lst, mp, notes,
                     null, origin, reject, s, success, u8s, valid, enc)

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
    "An envelope has at least its flag byte; an empty one is truncated at 0 (spec §11.4).",
    ("a 0-length reply means 'not implemented' at the channel level", ["GLIB", "DART", "JAVA",
                                                                       "OBJC", "CPP"]),
    ("CPP decodes it as a success with no value (inferred)", ["CPP"]),
)

DETAILS = [
    ("null", null()), ("bool", b(False)), ("i32", i32(42)), ("i64", i64(2**33)),
    ("f64", f64(-0.25)), ("str", s("details")), ("u8s", u8s("beef")), ("i32s", i32s([1, -1])),
    ("i64s", i64s([7])), ("f64s", f64s([2.0])), ("f32s", f32s([2.0])),
    ("list", lst(s("a"), i32(42))), ("map", mp((s("k"), i32(1)))), ("custom", custom(131, lst(i64(1)))),
]


WITH_ALTERNATIVES = ['s11.2-cpp-error-full', 's11.1-glib-success-list']


def cases(registry):
    return with_alternatives(_cases(), WITH_ALTERNATIVES)


def _cases():
    out = [
        valid("s11.1-cpp-success-null", "success envelope without a result", success(null()),
              kind="success_envelope", expect_hex="0000", origin=origin("flutter-cpp-test", CPP)),
        valid("s11.1-cpp-success-42", "success envelope 42", success(i32(42)),
              kind="success_envelope", expect_hex="00032a000000",
              origin=origin("flutter-cpp-test", CPP)),
        valid("s11.1-glib-success-hello", "success(\"hello\")", success(s("hello")),
              kind="success_envelope", expect_hex="00070568656c6c6f",
              origin=origin("flutter-glib-test", GLIB)),
        valid("s11.1-glib-success-list", "success([\"count\", 42])",
              success(lst(s("count"), i32(42))), kind="success_envelope",
              expect_hex="000c020705636f756e74032a000000", origin=origin("flutter-glib-test", GLIB)),
    ]
    for slug, v in DETAILS:
        out.append(valid("s11.1-success-%s" % slug, "success envelope with a %s result" % slug,
                         success(v), kind="success_envelope", focus="$.result"))
    out += [
        valid("s11.2-cpp-error-code-only", "error(\"errorCode\"): C++ writes the empty message "
              "as null, null details", error("errorCode", None, null()), kind="error_envelope",
              expect_hex="01 0709 6572726f72436f6465 00 00", origin=origin("flutter-cpp-test", CPP)),
        valid("s11.2-cpp-error-full", "error(\"errorCode\", \"something failed\", [\"a\", 42])",
              error("errorCode", "something failed", lst(s("a"), i32(42))),
              kind="error_envelope",
              expect_hex="01 07096572726f72436f6465 0710736f6d657468696e67206661696c6564 0c02 "
                         "070161 032a000000", origin=origin("flutter-cpp-test", CPP)),
        valid("s11.2-glib-empty-code", "error(\"\", NULL, NULL)", error("", None, null()),
              kind="error_envelope", expect_hex="0107000000", origin=origin("flutter-glib-test", GLIB)),
        valid("s11.2-glib-code", "error(\"error\", NULL, NULL)", error("error", None, null()),
              kind="error_envelope", expect_hex="0107056572726f720000",
              origin=origin("flutter-glib-test", GLIB)),
        valid("s11.2-glib-code-message", "error(\"error\", \"message\", NULL)",
              error("error", "message", null()), kind="error_envelope",
              expect_hex="0107056572726f7207076d65737361676500",
              origin=origin("flutter-glib-test", GLIB)),
        valid("s11.2-glib-code-details", "error(\"error\", NULL, [\"count\", 42])",
              error("error", None, lst(s("count"), i32(42))), kind="error_envelope",
              expect_hex="0107056572726f72000c020705636f756e74032a000000",
              origin=origin("flutter-glib-test", GLIB)),
        valid("s11.2-glib-full", "error(\"error\", \"message\", [\"count\", 42])",
              error("error", "message", lst(s("count"), i32(42))), kind="error_envelope",
              expect_hex="0107056572726f7207076d6573736167650c020705636f756e74032a000000",
              origin=origin("flutter-glib-test", GLIB)),
        valid("s11.2-message-empty-string", "error message \"\" (0700) differs from null (00); "
              "C++ writes \"\" as null", error("e", "", null()), kind="error_envelope",
              expect_hex="01 070165 0700 00"),
        valid("s11.2-message-null", "error message null", error("e", None, null()),
              kind="error_envelope", expect_hex="01 070165 00 00"),
        valid("s11.2-unicode-code-message", "non-ASCII code and message",
              error("\u00e9rr", "\U0001F4A5 boom", null()), kind="error_envelope"),
    ]
    for slug, v in DETAILS:
        for mslug, msg in (("msg", "failed"), ("nomsg", None)):
            out.append(valid("s11.2-details-%s-%s" % (slug, mslug),
                             "error envelope, %s message, %s details" % (
                                 "string" if msg else "null", slug),
                             error("CODE", msg, v), kind="error_envelope", focus="$.details"))
    # spec §11.3: the 4th element.
    out += [
        valid("s11.3-dart-stacktrace", "error(\"error\", \"boom\", null, \"st\"): Dart reads "
              "the stacktrace", error("error", "boom", null(), "st"), kind="error_envelope",
              expect_hex="0107056572726f720704626f6f6d0007027374", tier="implementation-defined",
              notes=STACK_NOTES, origin=origin("derived", "wire-format-notes.md §3.6 error "
                                               "envelope with stacktrace")),
        valid("s11.3-dart-native-stacktrace", "error envelope with stacktrace 'errorStacktrace' "
              "(Dart test: should decode error envelope with native stacktrace)",
              error("errorCode", "errorMessage", null(), "errorStacktrace"),
              kind="error_envelope", tier="implementation-defined", notes=STACK_NOTES,
              origin=origin("flutter-dart-test", "message_codecs_test.dart should decode error "
                            "envelope with native stacktrace (bytes from the canonical rules)")),
        valid("s11.3-java-with-stacktrace", "Java encodeErrorEnvelopeWithStacktrace(\"code\", "
              "\"foo\", <stack string>, \"error stacktrace\")",
              error("code", "foo", s("java.lang.RuntimeException: x\n\tat A.b(A.java:1)"),
                    "error stacktrace"), kind="error_envelope", tier="implementation-defined",
              notes=STACK_NOTES, origin=origin("flutter-java-test", "StandardMethodCodecTest.java "
                                               "encodeErrorEnvelopeWithStacktrace (shape only)")),
        valid("s11.3-stacktrace-null", "4-element error envelope whose stacktrace is null "
              "(differs from the 3-element form). GLib's test expects this input to fail with "
              "'extra data'", error("error", None, null(), None), kind="error_envelope",
              expect_hex="0107056572726f72000000", tier="implementation-defined",
              notes=STACK_NOTES, origin=origin("flutter-glib-test", GLIB + " decode response "
                                               "0107056572726f72000000 (FAILED in GLib)")),
        valid("s11.3-stacktrace-empty", "stacktrace \"\"", error("e", "m", null(), ""),
              kind="error_envelope", tier="implementation-defined", notes=STACK_NOTES),
        valid("s11.3-stacktrace-after-f64-details", "stacktrace after aligned float64 details",
              error("e", None, f64(1.0), "trace"), kind="error_envelope", focus="$.details",
              tier="implementation-defined", notes=STACK_NOTES),
    ]
    # spec §11.4 and the entry-point tag checks (errors.md §14.2).
    out += [
        reject("s11.4-glib-flag-2", "envelope flag 02", "02", "bad_envelope", 0, kind="envelope",
               origin=origin("flutter-glib-test", GLIB + " decode response 02")),
        reject("s11.4-flag-2-with-value", "flag 02 followed by a value", "02 00", "bad_envelope",
               0, kind="envelope"),
        reject("s11.4-flag-ff", "flag ff followed by a value", "ff 00", "bad_envelope", 0,
               kind="envelope"),
        reject("s11.4-flag-80", "flag 80 (negative as a Java byte)", "80 00", "bad_envelope", 0,
               kind="envelope"),
        reject("s11.4-flag-03-like-int32", "flag 03 followed by 4 bytes", "03 01000000",
               "bad_envelope", 0, kind="envelope"),
        reject("s11.4-empty", "empty envelope (0 bytes)", "", "truncated", 0, kind="envelope",
               tier="implementation-defined", notes=EMPTY_NOTES,
               origin=origin("flutter-glib-test", GLIB + " decode response 0-length "
                             "(GLib: not-implemented response)")),
        reject("s11.4-glib-success-no-value", "success flag only", "00", "truncated", 1,
               kind="success_envelope", origin=origin("flutter-glib-test", GLIB)),
        reject("s11.4-glib-success-trailing", "success(null) then one more byte", "000000",
               "trailing_bytes", 2, kind="success_envelope",
               origin=origin("flutter-glib-test", GLIB)),
        reject("s11.4-glib-error-flag-only", "error flag only", "01", "truncated", 1,
               kind="error_envelope", origin=origin("flutter-glib-test", GLIB)),
        reject("s11.4-glib-error-no-message", "error code, then nothing",
               "0107056572726f72", "truncated", 8, kind="error_envelope",
               origin=origin("flutter-glib-test", GLIB)),
        reject("s11.4-glib-error-no-details", "error code and null message, no details",
               "0107056572726f7200", "truncated", 9, kind="error_envelope",
               origin=origin("flutter-glib-test", GLIB)),
        reject("s11.4-success-trailing-after-list", "success([1]) then a null",
               enc(success(lst(i32(1))), "envelope").hex + "00", "trailing_bytes", 8,
               kind="success_envelope"),
        reject("s11.4-trailing-after-stacktrace", "4-element error envelope then one more byte",
               "01 070165 00 00 00 00", "trailing_bytes", 7, kind="error_envelope"),
        reject("s11.4-trailing-after-stacktrace-str", "4-element error envelope (string "
               "stacktrace) then a null", "01 070165 00 00 070174 00", "trailing_bytes", 9,
               kind="error_envelope"),
    ]
    for tag, desc in ((0x00, "null"), (0x03, "int32"), (0x0C, "list"), (0x05, "largeInt"),
                      (0x0F, "unknown tag 15"), (0x81, "custom 129")):
        out.append(reject("s11.4-code-tag-%02x" % tag, "error code with tag %02x (%s)" % (tag, desc),
                          "01 %02x 00 00 00" % tag, "bad_envelope", 1, kind="error_envelope"))
    for tag, desc in ((0x01, "true"), (0x03, "int32"), (0x0C, "list"), (0x08, "Uint8List"),
                      (0x05, "largeInt"), (0x10, "unknown tag 16"), (0x80, "custom 128")):
        out.append(reject("s11.4-message-tag-%02x" % tag, "error message with tag %02x (%s): "
                          "neither string nor null" % (tag, desc),
                          "01 070165 %02x 00 00 00 00" % tag, "bad_envelope", 4,
                          kind="error_envelope"))
    for tag, desc in ((0x01, "true"), (0x03, "int32"), (0x0C, "list"), (0x0F, "unknown tag 15")):
        out.append(reject("s11.4-stacktrace-tag-%02x" % tag, "bytes after the details start "
                          "with tag %02x: the 4th element must be a string or null" % tag,
                          "01 070165 00 00 %02x 00000000" % tag, "bad_envelope", 6,
                          kind="error_envelope"))
    return out
