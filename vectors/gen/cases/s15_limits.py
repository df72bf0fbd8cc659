"""spec §15: nesting depth (15.1: 64 required, 128 the reference limit, 129 rejected with
depth_limit, recommended) and declared sizes checked against the remaining input before
anything is allocated (15.2, errors.md §14.3)."""

import struct

from caselib import (
    V0_2,
    V03,
    alt,
    call,
    custom,
    error,
    i32,
    lst,
    mp,
    notes,
    null,
    origin,
    reject,
    success,
    tests,
    valid,
)

SECTION = "15"
FILE = "s15-limits"
TITLE = "Limits"

LARGEINT_NOTES = notes(
    "Flutter mode reads largeInt (spec §4.4), so its size is checked like a string's; strict "
    "mode rejects the tag itself (unknown_tag at the tag, see s04.4).",
    ("reads it as a string", ["DART", "OBJC", "CPP"]),
    ("BigInteger from hex text", ["JAVA"]),
    ("rejects tag 5", ["GLIB"]),
)


# Rungs of the depth ladder, in levels (a top-level container is level 1).
LADDER = (256, 512, 1000, 2000, 5000, 10000, 20000, 50000)


def _ladder_notes(depth):
    """Who survives this rung, from the stack depths of spec D22 (profiles.STACK_DEPTH)."""
    import profiles

    stack = profiles.STACK_DEPTH
    alts = []
    survive = sorted((w for w in stack if stack[w] > depth), key=stack.get)
    overflow = sorted((w for w in stack if stack[w] <= depth), key=stack.get)
    if survive:
        alts.append(
            (
                "no depth limit: decodes every level (its stack overflows beyond "
                "about %s)" % ", ".join("{:,} levels for {}".format(stack[w], w) for w in survive),
                survive,
            )
        )
    if overflow:
        alts.append(
            (
                "no depth limit: the stack overflows at about %s"
                % ", ".join("{:,} levels for {}".format(stack[w], w) for w in overflow),
                overflow,
            )
        )
    return notes(
        "Nesting deeper than 128 levels is rejected with depth_limit at the tag of "
        "the 129th container (R15.1-3), before recursing further.",
        *alts,
    )


def size_hex(n):
    """The minimal size form (spec §2.2)."""
    if n < 254:
        return "%02x" % n
    if n <= 0xFFFF:
        return "fe" + struct.pack("<H", n).hex()
    return "ff" + struct.pack("<I", n).hex()


def nest(kind, depth, leaf):
    v = leaf
    for i in range(depth):
        k = kind if kind != "mixed" else ("list", "map", "custom")[i % 3]
        if k == "list":
            v = lst(v)
        elif k == "map":
            v = mp((null(), v))
        else:
            v = custom(129 + i % 100, v)
    return v


def nest_hex(kind, depth, leaf_hex):
    """Bytes of `depth` nested containers around leaf_hex (for reject inputs)."""
    pre = []
    for i in range(depth):
        k = kind if kind != "mixed" else ("list", "map", "custom")[(depth - 1 - i) % 3]
        pre.append(
            {"list": "0c01", "map": "0d0100", "custom": "%02x" % (129 + (depth - 1 - i) % 100)}[k]
        )
    return "".join(pre) + leaf_hex


JAVA_MAP_NOTES = notes(
    "A map that declares more entries than the input can hold is truncated at the input "
    "length (spec §15.2), however large the count.",
    (
        "reads the count as a signed int: 2^31 and more are negative, the loop never runs, and "
        "the map decodes as {} (observed)",
        ["JAVA"],
    ),
)
PADDED_BOMB_NOTES = notes(
    "A typed list whose count needs more bytes than remain is truncated at the input length "
    "(spec §15.2), before anything is allocated for it; the padding being present changes "
    "nothing.",
    (
        "checks the padding, then allocates count x 8 bytes before reading: 32 GiB, and the "
        "process aborts (observed in a third-party Swift port; bombs cut before the padding did "
        "not reach the allocation)",
        ["SWIFT-PORT"],
    ),
)


def cases(registry):
    with tests.per_section({"15.1": ("R15.1-3",), "15.2": ("R15.2-3",)}):
        return _cases()


def _cases():
    out = []
    # spec §15.1: depth. A top-level container is level 1.
    for kind in ("list", "map", "custom", "mixed"):
        out.append(
            valid(
                "s15.1-depth64-%s" % kind,
                "%s nesting 64 levels deep (every decoder must support it)" % kind,
                nest(kind, 64, i32(64)),
                requirements=("R15.1-1",),
            )
        )
    for kind in ("list", "custom", "mixed"):
        out.append(
            valid(
                "s15.1-depth128-%s" % kind,
                "%s nesting 128 levels deep, the reference limit" % kind,
                nest(kind, 128, null()),
                tier="recommended",
                requirements=("R15.1-2",),
            )
        )
    out.append(
        valid(
            "s15.1-depth128-list-empty-leaf",
            "128 nested lists, the innermost empty",
            nest("list", 127, lst()),
            tier="recommended",
            requirements=("R15.1-2",),
        )
    )
    out.append(
        valid(
            "s15.1-depth128-call-args",
            "method call whose arguments nest 128 lists",
            call("m", nest("list", 128, null())),
            kind="method_call",
            tier="recommended",
            requirements=("R15.1-2",),
        )
    )
    out.append(
        valid(
            "s15.1-depth128-success",
            "success envelope whose result nests 128 levels",
            success(nest("custom", 128, null())),
            kind="success_envelope",
            tier="recommended",
            requirements=("R15.1-2",),
        )
    )
    out.append(
        valid(
            "s15.1-depth128-error-details",
            "error envelope whose details nest 128 lists",
            error("e", None, nest("list", 128, null())),
            kind="error_envelope",
            tier="recommended",
            requirements=("R15.1-2",),
        )
    )
    # 129 levels: the tag of the 129th container is the offset.
    for kind, per in (("list", 2), ("map", 3), ("custom", 1)):
        leaf = {"list": "0c00", "map": "0d00", "custom": "8100"}[kind]
        hx = nest_hex(kind, 128, leaf)
        out.append(
            reject(
                "s15.1-depth129-%s" % kind,
                "%s nesting 129 levels: one past the limit" % kind,
                hx,
                "depth_limit",
                128 * per,
                tier="recommended",
            )
        )
    hx = nest_hex("list", 128, "0c01 00")
    out.append(
        reject(
            "s15.1-depth129-list-nonempty",
            "129 nested lists, the innermost holding a null",
            hx,
            "depth_limit",
            256,
            tier="recommended",
        )
    )
    hx = nest_hex("mixed", 128, "0c00")
    off = len(bytes.fromhex(nest_hex("mixed", 128, "")))
    out.append(
        reject(
            "s15.1-depth129-mixed",
            "lists, maps and customs nesting 129 levels",
            hx,
            "depth_limit",
            off,
            tier="recommended",
        )
    )
    hx = "0d01" + nest_hex("list", 128, "00") + "00"
    out.append(
        reject(
            "s15.1-depth129-map-key",
            "a map whose key nests 128 lists (129 levels)",
            hx,
            "depth_limit",
            2 + 127 * 2,
            tier="recommended",
        )
    )
    out.append(
        reject(
            "s15.1-depth129-call-args",
            "method call arguments nesting 129 lists",
            "07016d" + nest_hex("list", 128, "0c00"),
            "depth_limit",
            3 + 256,
            kind="method_call",
            tier="recommended",
        )
    )
    out.append(
        reject(
            "s15.1-depth129-success",
            "success result nesting 129 lists",
            "00" + nest_hex("list", 128, "0c00"),
            "depth_limit",
            1 + 256,
            kind="success_envelope",
            tier="recommended",
        )
    )
    out.append(
        reject(
            "s15.1-depth129-error-details",
            "error details nesting 129 customs",
            "01 070165 00" + nest_hex("custom", 128, "8100"),
            "depth_limit",
            5 + 128,
            kind="error_envelope",
            tier="recommended",
        )
    )
    out.append(
        reject(
            "s15.1-depth-bomb-100000-lists",
            "100,000 nested single-element lists: "
            "rejected at the 129th level without recursing further",
            "0c01" * 100000 + "00",
            "depth_limit",
            256,
            tier="recommended",
        )
    )
    out.append(
        reject(
            "s15.1-depth-bomb-100000-customs",
            "100,000 nested custom tags (one byte per level)",
            "81" * 100000 + "00",
            "depth_limit",
            128,
            tier="recommended",
        )
    )
    # The depth ladder (issue 31): real decoders have no limit and overflow their stack
    # somewhere between 2,000 and 100,000 levels (D22); one rung per depth lets the report
    # say which depth a codec survives. Each rung is rejected at the 129th level (R15.1-3).
    for kind, per, leaf in (("list", 2, "0c00"), ("map", 3, "0d00"), ("custom", 1, "8100")):
        for depth in LADDER:
            out.append(
                reject(
                    "s15.1-ladder-%s-%d" % (kind, depth),
                    "%s nesting %s levels (depth ladder)" % (kind, "{:,}".format(depth)),
                    nest_hex(kind, depth - 1, leaf),
                    "depth_limit",
                    128 * per,
                    tier="recommended",
                    since=V03,
                    notes=_ladder_notes(depth),
                )
            )
    out.append(
        reject(
            "s15.1-depth-bomb-unterminated",
            "20,000 nested lists and no leaf: the depth check comes before the missing bytes",
            "0c01" * 20000,
            "depth_limit",
            256,
            tier="recommended",
        )
    )
    # spec §15.2 / errors.md §14.3: declared sizes beyond the input.
    sized = [
        ("str", "07", 1),
        ("u8s", "08", 1),
        ("i32s", "09", 4),
        ("f32s", "0e", 4),
        ("i64s", "0a", 8),
        ("f64s", "0b", 8),
        ("list", "0c", 1),
        ("map", "0d", 2),
    ]
    for slug, tag, unit in sized:
        for n in (1, 2, 0xFD, 0xFE, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF):
            # One byte of content is present (where possible) so only the size is wrong.
            body = "00" if n > 1 else ""
            hx = tag + size_hex(n) + body
            out.append(
                reject(
                    "s15.2-bomb-%s-%x" % (slug, n),
                    "%s declaring %d %s with %d "
                    "byte(s) left"
                    % (
                        slug,
                        n,
                        "bytes" if unit == 1 and slug != "list" else "elements",
                        len(body) // 2,
                    ),
                    hx,
                    "truncated",
                    len(hx) // 2,
                )
            )
    # Products that wrap in 32-bit arithmetic: a decoder computing count*width in uint32
    # would think these fit.
    wraps = [
        ("i32s", "09", 0x40000001, 4),
        ("f32s", "0e", 0x40000001, 4),
        ("i64s", "0a", 0x20000001, 8),
        ("f64s", "0b", 0x20000001, 8),
        ("map", "0d", 0x80000001, 2),
        ("i32s-exact", "09", 0x40000000, 4),
        ("i64s-exact", "0a", 0x20000000, 8),
    ]
    for slug, tag, n, width in wraps:
        head = tag + size_hex(n)
        pad = (-(len(head) // 2)) % (width if width in (4, 8) else 1)
        wrapped = (n * width) % 2**32
        hx = head + "00" * (pad + wrapped + 8)
        out.append(
            reject(
                "s15.2-bomb-wrap32-%s" % slug,
                "%s count 0x%x: count*%d is %d modulo "
                "2^32, and %d bytes follow"
                % (slug, n, width, wrapped, len(hx) // 2 - len(head) // 2),
                hx,
                "truncated",
                len(hx) // 2,
            )
        )
    out.append(
        reject(
            "s15.2-bomb-list-ffffffff-with-values",
            "list of 0xffffffff elements followed by 16 nulls",
            "0c ffffffffff" + "00" * 16,
            "truncated",
            22,
        )
    )
    out.append(
        reject(
            "s15.2-bomb-map-ffffffff-with-pairs",
            "map of 0xffffffff pairs followed by 8 null pairs",
            "0d ffffffffff" + "00" * 16,
            "truncated",
            22,
        )
    )
    out.append(
        reject(
            "s15.2-bomb-list-exact-minus-one",
            "list of 5 declared with 4 nulls",
            "0c05 00000000",
            "truncated",
            6,
        )
    )
    out.append(
        reject(
            "s15.2-bomb-map-odd", "map of 3 pairs with 5 values", "0d03 0000000000", "truncated", 7
        )
    )
    for slug, hx, _off, kind in (
        ("nested-str", "0c02 00 07ffffffffff", None, "message"),
        ("map-value-u8s", "0d01 00 08ff00000100 0000", None, "message"),
        ("custom-f64s", "81 0bffffffff7f 0000", None, "message"),
        ("method-name", "07ffffffffff 00", None, "method_call"),
        ("call-args-list", "07016d 0cffffffffff", None, "method_call"),
        ("success-i64s", "00 0aff00000080 000000", None, "success_envelope"),
        ("error-code", "01 07ff00000001 00", None, "error_envelope"),
        ("error-message", "01 070165 07fe0001 00", None, "error_envelope"),
        ("error-details-map", "01 070165 00 0dfeffff 0000", None, "error_envelope"),
        ("stacktrace", "01 070165 00 00 07fd 00", None, "error_envelope"),
    ):
        n = len(hx.replace(" ", "")) // 2
        alts = [alt("trailing_bytes", 6, "three-element")] if slug == "stacktrace" else []
        out.append(
            reject(
                "s15.2-bomb-in-%s" % slug,
                "declared size beyond the input inside %s" % slug.replace("-", " "),
                hx,
                "truncated",
                n,
                kind=kind,
                alternatives=alts,
            )
        )
    # largeInt sizes: flutter mode only (strict mode rejects the tag first).
    for n in (0xFD, 0xFFFF, 0xFFFFFFFF):
        hx = "05" + size_hex(n) + "31"
        out.append(
            reject(
                "s15.2-bomb-largeint-%x" % n,
                "largeInt declaring %d bytes with 1 left (flutter mode)" % n,
                hx,
                "truncated",
                len(hx) // 2,
                modes=("flutter",),
                tier="implementation-defined",
                requirements=("R4.4-2", "R15.2-3"),
                notes=LARGEINT_NOTES,
            )
        )
    out += _new_bombs()
    return out


def _new_bombs():
    """Bombs real codecs were caught by (issue 13): a map count of 2^31 or more with nothing
    after it, and 64-bit typed lists whose padding is present."""
    out = []
    for slug, hx in (
        ("map-80000000-nothing-after", "0d ff00000080"),
        ("map-ffffffff-nothing-after", "0d ffffffffff"),
        ("nested-map-80000000-nothing-after", "0c01 0d ff00000080"),
        ("map-value-map-80000000-nothing-after", "0d01 00 0d ff00000080"),
    ):
        n = len(hx.replace(" ", "")) // 2
        out.append(
            reject(
                "s15.2-bomb-%s" % slug,
                "%s: a map count of 2^31 or more and no byte after it" % hx,
                hx,
                "truncated",
                n,
                notes=JAVA_MAP_NOTES,
                since=V0_2,
                origin=origin("observed", "JAVA decodes {} (wire-format-notes.md §8.10)"),
            )
        )
    for word, tag, width in (
        ("i64s", "0a", 8),
        ("f64s", "0b", 8),
        ("i32s", "09", 4),
        ("f32s", "0e", 4),
    ):
        top = tag + "ffffffffff"
        pad = (-len(bytes.fromhex(top))) % width
        out.append(
            reject(
                "s15.2-bomb-padded-%s-top" % word,
                "%s of 0xffffffff elements at "
                "offset 0 with its %d padding bytes present" % (word, pad),
                top + "00" * pad,
                "truncated",
                len(top) // 2 + pad,
                notes=PADDED_BOMB_NOTES,
                since=V0_2,
                origin=origin("observed", "a Swift port allocates and aborts (issue 13)"),
            )
        )
        for m in range(width):
            # m nulls before it in a list: the count's end moves, the padding length with it
            head = "0c%02x" % (m + 1) + "00" * m + top
            pad = (-len(bytes.fromhex(head))) % width
            hx = head + "00" * pad
            out.append(
                reject(
                    "s15.2-bomb-padded-%s-pad%d" % (word, pad),
                    "%s of 0xffffffff "
                    "elements after %d null(s) in a list, its %d padding bytes "
                    "present" % (word, m, pad),
                    hx,
                    "truncated",
                    len(hx) // 2,
                    notes=PADDED_BOMB_NOTES,
                    since=V0_2,
                    origin=origin("observed", "a Swift port allocates and aborts (issue 13)"),
                )
            )
    return out
    return out
