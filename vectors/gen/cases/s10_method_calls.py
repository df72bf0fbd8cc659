"""spec §10: method calls = name (a tag-07 string) + arguments (one value), alignment from the
name's first byte."""

from caselib import (
    alt,
    b,
    call,
    custom,
    enc,
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
    tests,
    u8s,
    valid,
    with_alternatives,
)

SECTION = "10"
FILE = "s10-method-calls"
TITLE = "Method calls"

GLIB = "fl_standard_method_codec_test.cc (wire-format-notes.md §3.5)"


WITH_ALTERNATIVES = ["s10.1-glib-hello-list"]

NAME_LARGEINT_NOTES = notes(
    "A method name is a string (tag 07); a largeInt is not one, so the call is bad_envelope at "
    "0 (spec §10.1), also for a decoder that accepts tag 5 as a largeInt (R4.4-2).",
    ('reads tag 5 as a string, so the name is "" and the call is valid', ["DART", "OBJC", "CPP"]),
    ('BigInteger("", 16) throws NumberFormatException', ["JAVA"]),
    ("rejects tag 5 (Unexpected standard codec type 05)", ["GLIB"]),
)


def cases(registry):
    with tests("R10.1-1"):
        return with_alternatives(_cases(), WITH_ALTERNATIVES)


def _cases():
    out = [
        valid(
            "s10.1-glib-hello-null",
            'call("hello", null)',
            call("hello", null()),
            kind="method_call",
            expect_hex="070568656c6c6f00",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s10.1-glib-hello-world",
            'call("hello", "world")',
            call("hello", s("world")),
            kind="method_call",
            expect_hex="070568656c6c6f0705776f726c64",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s10.1-glib-hello-list",
            'call("hello", ["count", 42])',
            call("hello", lst(s("count"), i32(42))),
            kind="method_call",
            expect_hex="070568656c6c6f0c020705636f756e74032a000000",
            origin=origin("flutter-glib-test", GLIB),
        ),
        valid(
            "s10.1-empty-name",
            'method name ""',
            call("", null()),
            kind="method_call",
            expect_hex="070000",
        ),
        valid(
            "s10.1-unicode-name",
            "method name with 2-, 3- and 4-byte characters",
            call("m\u00e9\u20ac\U0001f602", null()),
            kind="method_call",
        ),
        valid(
            "s10.1-name-with-nul",
            "method name with an embedded NUL",
            call("a\x00b", null()),
            kind="method_call",
        ),
        valid(
            "s10.1-long-name",
            "method name of 300 bytes (3-byte size)",
            call("n" * 300, i32(1)),
            kind="method_call",
        ),
    ]
    args = [
        ("null", null()),
        ("true", b(True)),
        ("false", b(False)),
        ("i32", i32(42)),
        ("i64", i64(-(2**40))),
        ("i64-small", i64(3)),
        ("f64", f64(2.5)),
        ("str", s("arg")),
        ("u8s", u8s("0102")),
        ("i32s", i32s([1, 2, 3])),
        ("i64s", i64s([1, 2])),
        ("f64s", f64s([0.5, 1.5])),
        ("f32s", f32s([0.5])),
        ("list", lst(i32(1), s("two"))),
        ("map", mp((s("key"), s("value")), (s("n"), i32(1)))),
        ("custom", custom(129, lst(i64(1)))),
        ("nested", lst(mp((s("k"), lst(f64(1.0)))))),
    ]
    for slug, a in args:
        out.append(
            valid(
                "s10.1-args-%s" % slug,
                'call("method", <%s>)' % slug,
                call("method", a),
                kind="method_call",
                focus="$.args",
            )
        )
    # Rejects: name not a string, no args, trailing bytes. Each name is a complete value, so
    # the only fault is its type whichever order a decoder checks in (errors.md §14.2.2).
    for tag, desc, hx in (
        (0x00, "null", "0000"),
        (0x01, "true", "0100"),
        (0x03, "int32", "03 00000000 00"),
        (0x05, "largeInt", "050000"),
        (0x08, "Uint8List", "080000"),
        (0x0C, "list", "0c0000"),
        (0x0D, "map", "0d0000"),
        (0x0F, "unknown tag 15", "0f0000"),
        (0x80, "custom 128", "800000"),
        (0xFF, "custom 255", "ff0000"),
    ):
        kw = {}
        if tag == 0x0F:
            kw["alternatives"] = [alt("unknown_tag", 0, "value-first")]
        if tag == 0x05:
            # strict mode never accepts tag 5, so only flutter mode meets R4.4-2
            kw.update(
                by_mode={"flutter": ("R10.1-3", "R4.4-2"), "strict": ("R10.1-3",)},
                notes=NAME_LARGEINT_NOTES,
                alternatives=[alt("unknown_tag", 0, "value-first", modes=["strict"])],
            )
        out.append(
            reject(
                "s10.1-name-tag-%02x" % tag,
                "method name with tag %02x (%s)" % (tag, desc),
                hx,
                "bad_envelope",
                0,
                kind="method_call",
                **dict({} if "by_mode" in kw else {"requirements": ("R10.1-3",)}, **kw),
            )
        )
    out += [
        reject(
            "s10.1-glib-name-null",
            "call bytes 000000: the name is null",
            "000000",
            "bad_envelope",
            0,
            kind="method_call",
            requirements=("R10.1-3",),
            origin=origin("flutter-glib-test", GLIB),
        ),
        reject(
            "s10.1-glib-empty",
            "empty method call",
            "",
            "truncated",
            0,
            kind="method_call",
            requirements=("R10.1-2",),
            origin=origin("flutter-glib-test", GLIB),
        ),
        reject(
            "s10.1-glib-no-args",
            'name "hello" with no arguments value',
            "070568656c6c6f",
            "truncated",
            7,
            kind="method_call",
            requirements=("R14-1",),
            origin=origin("flutter-glib-test", GLIB),
        ),
        reject(
            "s10.1-name-truncated",
            "name of declared size 5 with 2 bytes",
            "07056865",
            "truncated",
            4,
            kind="method_call",
            requirements=("R14-1",),
        ),
        reject(
            "s10.1-trailing-null",
            'call("m", null) followed by a null',
            "07016d 00 00",
            "trailing_bytes",
            4,
            kind="method_call",
            requirements=("R10.1-5",),
        ),
        reject(
            "s10.1-trailing-after-list",
            'call("m", [1]) followed by one byte',
            enc(call("m", lst(i32(1))), "call").hex + "01",
            "trailing_bytes",
            10,
            kind="method_call",
            requirements=("R10.1-5",),
        ),
        reject(
            "s10.1-args-unknown-tag",
            "arguments value with unknown tag 0x20",
            "07016d 20",
            "unknown_tag",
            3,
            kind="method_call",
            requirements=("R8.1-2",),
        ),
    ]
    return out
