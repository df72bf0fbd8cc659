"""spec §12: the Pigeon channel protocol on BasicMessageChannel: requests are null or a list
of arguments (12.1); replies are [result], void [null] / [], or [code, message, details]
(12.2). Decoded with the message entry point."""

from caselib import (
    b,
    custom,
    f32s,
    f64,
    f64s,
    i32,
    i32s,
    i64,
    i64s,
    lst,
    mp,
    null,
    origin,
    s,
    tests,
    u8s,
    valid,
    with_alternatives,
)

SECTION = "12"
FILE = "s12-pigeon-channel"
TITLE = "Pigeon channel protocol"

P = "wire-format-notes.md §4.5"

DETAILS = [
    ("null", null()),
    ("bool", b(True)),
    ("i32", i32(7)),
    ("i64", i64(7)),
    ("f64", f64(0.75)),
    ("str", s("Cause: x, Stacktrace: y")),
    ("u8s", u8s("00")),
    ("i32s", i32s([1])),
    ("i64s", i64s([1])),
    ("f64s", f64s([1.0])),
    ("f32s", f32s([1.0])),
    ("list", lst(s("a"))),
    ("map", mp((s("k"), s("v")))),
    ("custom", custom(129, i64(1))),
]


WITH_ALTERNATIVES = ["s12.1-request-typed-data"]


def cases(registry):
    with tests.per_section({"12.1": ("R12.1-1",), "12.2": ("R12.2-1", "R12.2-3")}):
        return with_alternatives(_cases(), WITH_ALTERNATIVES)


def _cases():
    out = [
        valid(
            "s12.1-request-no-args",
            "request of a method without parameters: null",
            null(),
            kind="pigeon_request",
            expect_hex="00",
            origin=origin("derived", P + " request null"),
        ),
        valid(
            "s12.1-request-one-int-dart",
            "request [5] from Dart (every int is int64)",
            lst(i64(5)),
            kind="pigeon_request",
            expect_hex="0c01040500000000000000",
            origin=origin("derived", "wire-format-notes.md §4.3 Dart writes every int as int64"),
        ),
        valid(
            "s12.1-request-one-int-java",
            "request [5] from Java/C++ (int32 when the host type is int)",
            lst(i32(5)),
            kind="pigeon_request",
            expect_hex="0c010305000000",
        ),
        valid(
            "s12.1-request-many",
            'request ["name", 2.5, true, null, [1,2]]',
            lst(s("name"), f64(2.5), b(True), null(), lst(i64(1), i64(2))),
            kind="pigeon_request",
        ),
        valid(
            "s12.1-request-class-enum",
            "request [class, enum, nullable class absent]",
            lst(custom(131, lst(s("x"), i64(1))), custom(129, i64(2)), null()),
            kind="pigeon_request",
        ),
        valid(
            "s12.1-request-map-int-keys",
            "request [Map<int?, String?>] with a null key (flutter/flutter#136111)",
            lst(mp((i64(1), s("a")), (null(), null()))),
            kind="pigeon_request",
        ),
        valid(
            "s12.1-request-typed-data",
            "request [Uint8List, Int32List, Int64List, Float64List]",
            lst(u8s("0102"), i32s([3]), i64s([4]), f64s([5.0])),
            kind="pigeon_request",
        ),
        valid(
            "s12.2-reply-result",
            'reply ["result"]',
            lst(s("result")),
            kind="pigeon_reply",
            expect_hex="0c010706726573756c74",
        ),
        valid(
            "s12.2-reply-result-class",
            "reply [class]",
            lst(custom(132, lst(b(True), i64(1), s("s")))),
            kind="pigeon_reply",
        ),
        valid(
            "s12.2-reply-result-null",
            "reply [null] for a nullable return (also the platform's void reply)",
            lst(null()),
            kind="pigeon_reply",
            expect_hex="0c0100",
            requirements=("R12.2-1", "R12.2-2", "R12.2-4"),
            origin=origin("derived", P + " void reply [null]"),
        ),
        valid(
            "s12.2-reply-void-dart",
            "void reply [] from a Dart-side handler (the platform "
            "side replies [null]; Pigeon decoders treat both as void)",
            lst(),
            kind="pigeon_reply",
            expect_hex="0c00",
            requirements=("R12.2-1", "R12.2-2", "R12.2-4"),
            origin=origin("derived", P + " Dart wrapResponse(empty: true)"),
        ),
        valid(
            "s12.2-reply-error-dart",
            "error reply [code, message, details] from Dart",
            lst(s("channel-error"), s('Unable to establish connection on channel: "x".'), null()),
            kind="pigeon_reply",
            origin=origin("derived", P + " channel-error"),
        ),
        valid(
            "s12.2-reply-error-null-message",
            "error reply with a null message (Kotlin's decoder throws on it, others accept)",
            lst(s("code"), null(), null()),
            kind="pigeon_reply",
            requirements=("R12.2-3", "R12.2-6"),
        ),
        valid(
            "s12.2-reply-error-kotlin-throwable",
            "Kotlin wrapError of a plain Throwable: "
            '[simpleName, toString(), "Cause: ..., Stacktrace: ..."]',
            lst(
                s("IllegalStateException"),
                s("java.lang.IllegalStateException: bad"),
                s("Cause: null, Stacktrace: ..."),
            ),
            kind="pigeon_reply",
        ),
        valid(
            "s12.2-reply-error-java-throwable",
            "Java wrapError of a plain Throwable: "
            "[toString(), simpleName, ...] (first two swapped relative to Kotlin)",
            lst(
                s("java.lang.IllegalStateException: bad"),
                s("IllegalStateException"),
                s("Cause: null, Stacktrace: ..."),
            ),
            kind="pigeon_reply",
        ),
        valid(
            "s12.2-reply-error-cpp",
            'C++ WrapError(msg): [msg, "Error", null]',
            lst(s("something went wrong"), s("Error"), null()),
            kind="pigeon_reply",
        ),
        valid(
            "s12.2-reply-error-gobject",
            'GObject error: message never null, "" when absent',
            lst(s("code"), s(""), null()),
            kind="pigeon_reply",
        ),
    ]
    for slug, d in DETAILS:
        out.append(
            valid(
                "s12.2-reply-error-details-%s" % slug,
                "error reply with %s details" % slug,
                lst(s("ERR"), s("message"), d),
                kind="pigeon_reply",
                focus="$[2]",
            )
        )
    return out
