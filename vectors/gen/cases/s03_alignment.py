"""spec §3: alignment. Aligned items (f64 scalar, typed-list data) at every offset 0-7 of
the buffer, in every context that moves them: top level, list elements, custom payloads,
map keys and values, method-call arguments (counted from the name, §3.1) and envelopes
(counted from the flag byte, §3.1). Plus non-zero padding (§3.3)."""

from caselib import (
    accept,
    call,
    custom,
    enc,
    error,
    f32s,
    f64,
    f64s,
    i32,
    i32s,
    i64s,
    lst,
    mp,
    nonzero_pad,
    null,
    origin,
    reject,
    s,
    success,
    tests,
    valid,
)

SECTION = "3"
FILE = "s03-alignment"
TITLE = "Alignment"

PI = "400921fb54442d18"


def items():
    """(slug, value) of every aligned item: each typed list empty, with one and with three
    elements, and the float64 scalar."""
    out = []
    for word, mk, one, many in (
        ("i32s", i32s, [7], [1, -2, 0x7FFFFFFF]),
        ("i64s", i64s, [7], [1, -2, 2**63 - 1]),
        ("f64s", f64s, [1.5], [-0.0, float("inf"), 3.25]),
        ("f32s", f32s, [1.5], [-0.0, float("inf"), 3.25]),
    ):
        out.append(("%s-n0" % word, mk([])))
        out.append(("%s-n1" % word, mk(one)))
        out.append(("%s-n3" % word, mk(many)))
    out.append(("f64", f64(PI)))
    return out


def contexts(item, r):
    """Yield (context slug, section, kind, value, focus path) placing item's tag at an offset
    congruent to r (mod 8)."""
    if r == 0:
        yield "top", "3.2", "message", item, "$"
    m = (r - 2) % 8
    yield "list", "3.2", "message", lst(*([null()] * m + [item])), "$[%d]" % m
    k = r if r else 8
    v, path = item, "$"
    for _ in range(k):
        v = custom(129, v)
        path += ".v"
    yield "custom", "3.2", "message", v, path
    # A one-entry map after m nulls in a list: the key's offset moves without giving the map
    # two entries (which would need the map-order feature).
    m = (r - 4) % 8
    yield "mapkey", "3.2", "message", lst(*([null()] * m + [mp((item, null()))])), "$[%d]<0>" % m
    n = (r - 4) % 8
    yield "mapvalue", "3.2", "message", mp((s("k" * n), item)), "${0}"
    n = (r - 2) % 8
    yield "call", "3.1", "method_call", call("abcdefg"[:n], item), "$.args"
    if r == 1:
        yield "success", "3.1", "success_envelope", success(item), "$.result"
    m = (r - 3) % 8
    yield (
        "success-list",
        "3.1",
        "success_envelope",
        success(lst(*([null()] * m + [item]))),
        "$.result[%d]" % m,
    )
    n = (r - 4) % 8
    yield "error-details", "3.1", "error_envelope", error("e" * n, None, item), "$.details"


# Where padding is counted from and what it holds (spec §3.1-§3.3).
ALIGNED = ("R3.1-1", "R3.2-1", "R3.2-2", "R3.3-1")
EMPTY_TYPED = ("R3.2-3", "R6.6-1")  # an empty typed list keeps its padding
PAD_CONTENT = ("R3.3-3", "R3.3-4")  # flutter ignores padding content, strict rejects it


def cases(registry):
    with tests(*ALIGNED):
        return _cases()


def _cases():
    out = []
    for slug, item in items():
        for r in range(8):
            for ctx, sec, kind, value, path in contexts(item, r):
                word = slug.split("-")[0]
                out.append(
                    valid(
                        "s%02d.%s-%s-%s-off%d%s"
                        % (
                            3,
                            sec.split(".")[1],
                            word,
                            ctx,
                            r,
                            "" if "-" not in slug else "-" + slug.split("-")[1],
                        ),
                        "%s with its tag at an offset = %d (mod 8), %s"
                        % (
                            slug,
                            r,
                            {
                                "top": "top level",
                                "list": "as a list element",
                                "custom": "inside custom payloads",
                                "mapkey": "as a map key",
                                "mapvalue": "as a map value",
                                "call": "as method-call arguments (alignment from the name)",
                                "success": "as a success result (the flag byte counts)",
                                "success-list": "in a list in a success envelope",
                                "error-details": "as error-envelope details",
                            }[ctx],
                        ),
                        value,
                        kind=kind,
                        focus=path,
                        requirements=ALIGNED + (EMPTY_TYPED if slug.endswith("-n0") else ()),
                    )
                )
    # Literal upstream and derived vectors.
    out += [
        valid(
            "s03.2-f64-one-top",
            "1.0 at offset 0: 7 padding bytes before the payload",
            f64(1.0),
            expect_hex="06 00000000000000 000000000000f03f",
            origin=origin(
                "flutter-dart-test", "message_codecs_test.dart should align doubles to 8 bytes"
            ),
        ),
        valid(
            "s03.1-success-f64-one",
            "success envelope 1.0: the flag byte counts toward alignment",
            success(f64(1.0)),
            kind="success_envelope",
            expect_hex="00 06 000000000000 000000000000f03f",
            focus="$.result",
            origin=origin("derived", "wire-format-notes.md §3.6 success envelope 1.0"),
        ),
        valid(
            "s03.1-call-m-f64",
            'call("m", 1.5): the double is aligned from the name\'s first byte',
            call("m", f64(1.5)),
            kind="method_call",
            expect_hex="07016d 06 00000000 000000000000f83f",
            focus="$.args",
            origin=origin("derived", 'wire-format-notes.md §3.6 call("m", 1.5)'),
        ),
        valid(
            "s03.2-dart-unaligned-composite",
            "composite list where two nulls leave the next typed list unaligned (Dart test)",
            lst(
                s("hello"),
                ["u8s", "0102"],
                i32s([-1, 2]),
                null(),
                null(),
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
                lst(i32(1), lst()),
                mp((null(), s("x"))),
            ),
            focus="$[5]",
            origin=origin(
                "flutter-dart-test",
                "message_codecs_test.dart should encode and "
                "decode composite message (round-trip only; bytes from the "
                "canonical rules)",
            ),
        ),
    ]
    with tests(*(ALIGNED + PAD_CONTENT)):
        out += _pad_content()
    # §3.3: padding is counted from the message offset, never from the value. A decoder that
    # aligns relative to the start of the list (or of the method arguments) skips the wrong
    # number of bytes and fails these.
    out.append(
        valid(
            "s03.3-i32s-after-odd-prefix",
            "Int32List after a 3-byte string in a list: pad counted from the message start",
            lst(s("abc"), i32s([1, 2])),
            focus="$[1]",
        )
    )
    out.append(
        valid(
            "s03.3-nested-f64-odd",
            "float64 nested three lists deep after an odd-length prefix",
            lst(i32(1), lst(null(), lst(f64(-2.5)))),
            focus="$[1][1][0]",
        )
    )
    return out


def _pad_content():
    out = []
    # §3.3: padding content is ignored in flutter mode, not_canonical in strict mode. One
    # vector per aligned type and pad length, non-zero in the first or only the last byte.
    fills = {"ff": lambda n: b"\xff" * n, "last": lambda n: bytes(n - 1) + b"\x01"}
    for word, mk, width in (
        ("f64", lambda: f64(PI), 8),
        ("i32s", lambda: i32s([5]), 4),
        ("i64s", lambda: i64s([5]), 8),
        ("f64s", lambda: f64s([2.0]), 8),
        ("f32s", lambda: f32s([2.0]), 4),
        ("i32s-n0", lambda: i32s([]), 4),
        ("f64s-n0", lambda: f64s([]), 8),
    ):
        for m in range(width):
            value = lst(*([null()] * m + [mk()]))
            e = enc(value)
            pad_len = e.marks["$[%d]" % m]["pad_len"]
            if pad_len == 0:
                continue
            for fname, fill in fills.items():
                if pad_len == 1 and fname == "last":
                    continue
                hx, off = nonzero_pad(value, "$[%d]" % m, fill)
                out.append(
                    reject(
                        "s03.3-pad-%s-%s-len%d" % (word, fname, pad_len),
                        "%s after %d nulls in a list: %d padding bytes, %s non-zero"
                        % (word, m, pad_len, "all" if fname == "ff" else "only the last"),
                        hx,
                        "not_canonical",
                        off,
                        modes=("strict",),
                        value=value,
                        focus={"path": "$[%d]" % m, "offset": e.marks["$[%d]" % m]["tag"]},
                    )
                )
    # Accepted encodings with non-zero padding on valid vectors, including a method call and
    # an envelope whose padding is counted from their first byte.
    v = f64(1.0)
    hx, _ = nonzero_pad(v, "$", lambda n: bytes(range(1, n + 1)))
    out.append(
        valid(
            "s03.3-f64-one-nonzero-pad-accepted",
            "1.0 with padding 01..07 accepted in flutter mode",
            v,
            accepted=[accept(hx, "padding bytes 01..07", "not_canonical")],
        )
    )
    c = call("m", f64s([1.0]))
    hx, off = nonzero_pad(c, "$.args", lambda n: b"\xaa" * n, entry="call")
    out.append(
        reject(
            "s03.3-pad-call-f64s",
            "method call: non-zero padding before Float64List data (counted from the name)",
            hx,
            "not_canonical",
            off,
            kind="method_call",
            modes=("strict",),
            value=c,
        )
    )
    e_ = error("e", None, i32s([1]))
    hx, off = nonzero_pad(e_, "$.details", lambda n: b"\x55" * n, entry="envelope")
    out.append(
        reject(
            "s03.3-pad-error-i32s",
            "error envelope: non-zero padding before Int32List "
            "details (counted from the flag byte)",
            hx,
            "not_canonical",
            off,
            kind="error_envelope",
            modes=("strict",),
            value=e_,
        )
    )
    sv = success(f64(2.0))
    hx, off = nonzero_pad(sv, "$.result", lambda n: b"\x80" * n, entry="envelope")
    out.append(
        reject(
            "s03.3-pad-success-f64",
            "success envelope: non-zero padding before a float64",
            hx,
            "not_canonical",
            off,
            kind="success_envelope",
            modes=("strict",),
            value=sv,
        )
    )
    return out
