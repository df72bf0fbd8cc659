"""spec §9: a message is exactly one value (9.1, trailing bytes), the empty message (9.2,
implementation-defined), top-level null (9.3)."""

from caselib import (
    custom,
    enc,
    f64,
    i32,
    i32s,
    lst,
    mp,
    notes,
    null,
    origin,
    reject,
    s,
    tests,
    valid,
)

SECTION = "9"
FILE = "s09-messages"
TITLE = "Messages"

EMPTY_NOTES = notes(
    "A message is one value; an empty (0-byte) message has none and is truncated at 0 "
    "(spec §9.2). Channels use an empty message for 'no reply / not implemented'.",
    ("decode a 0-length message as null", ["GLIB", "CPP", "OBJC"]),
    ("throw (FormatException / IllegalArgumentException 'Message corrupted')", ["DART", "JAVA"]),
)


def cases(registry):
    with tests.per_section({"9.1": ("R9.1-1", "R9.1-2"), "9.2": ("R9.2-1",), "9.3": ("R9.3-1",)}):
        return _cases()


def _cases():
    out = [
        valid(
            "s09.3-top-level-null",
            "top-level null is the byte 00 (Dart, Java and ObjC "
            "encoders return no bytes for a null message: divergence, spec §9.3)",
            null(),
            expect_hex="00",
            origin=origin(
                "flutter-objc-test",
                "flutter_standard_codec_unittest.mm [NSNull null] -> 00 (nil -> no data)",
            ),
        ),
        reject(
            "s09.2-empty-message",
            "empty message (0 bytes)",
            "",
            "truncated",
            0,
            tier="implementation-defined",
            notes=EMPTY_NOTES,
            origin=origin(
                "flutter-glib-test",
                "fl_standard_message_codec_test.cc DecodeNull (GLib decodes it as null)",
            ),
        ),
    ]
    # spec §9.1: bytes after the complete top-level value.
    trailing = [
        ("null-null", null(), "00"),
        ("null-ff", null(), "ff"),
        ("true-null", ["bool", True], "00"),
        ("i32", i32(1), "00"),
        ("f64", f64(1.0), "00"),
        ("str", s("a"), "61"),
        ("empty-list", lst(), "00"),
        ("empty-map", mp(), "00"),
        ("list", lst(i32(1)), "0301000000"),
        ("i32s", i32s([1]), "00000000"),
        ("custom", custom(129, null()), "00"),
        ("unknown-tag-after", null(), "0f"),
        ("many", i32(7), "00" * 16),
    ]
    for slug, value, extra in trailing:
        base = enc(value).hex
        out.append(
            reject(
                "s09.1-trailing-%s" % slug,
                "complete %s value followed by %d extra "
                "byte(s) %s%s"
                % (
                    value[0],
                    len(extra) // 2,
                    extra[:16],
                    " (an unknown tag after the value is still trailing)"
                    if slug == "unknown-tag-after"
                    else "",
                ),
                base + extra,
                "trailing_bytes",
                len(base) // 2,
            )
        )
    out.append(
        reject(
            "s09.1-trailing-glib-message",
            "an int32 and one more byte (GLib: Unused 1 bytes after standard message)",
            "030100000000",
            "trailing_bytes",
            5,
        )
    )
    out.append(
        reject(
            "s09.1-two-values", "two complete values back to back", "0c00 0c00", "trailing_bytes", 2
        )
    )
    return out
