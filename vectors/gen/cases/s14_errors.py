"""spec §14 (errors.md): cross-cutting reject vectors. 14.1: every strict prefix of a
representative set of valid vectors (truncated at the prefix length), the GLib test's
decode-error inputs, every unknown tag 0x0f..0x7f. 14.2: vectors where the order of checks
decides the class or offset.

LATE: built after every other module, so truncations can name their base vector."""

import smcpy
from caselib import ENTRY_OF_KIND, UTF8_NOTES, alt, origin, reject, slug_of, tests

SECTION = "14"
FILE = "s14-errors"
TITLE = "Errors: truncation, unknown tags, order of checks"
LATE = True

GLIB = "fl_standard_message_codec_test.cc decode errors (wire-format-notes.md §3.5)"

# Valid vectors whose every strict prefix becomes a truncation vector.
TRUNCATION_BASES = [
    "s04.2-i32-0x01234567",
    "s04.2-i64-0x0123456789abcdef",
    "s04.3-f64-pi",
    "s05.1-hello",
    "s05.1-4byte-emoji",
    "s02.1-size-u16-little-endian",
    "s06.1-u8s-0-4",
    "s06.2-i32s-glib",
    "s06.2-i32s-empty",
    "s06.3-i64s-glib",
    "s06.3-i64s-empty",
    "s06.4-f64s-cpp",
    "s06.4-f64s-empty",
    "s06.5-f32s-glib",
    "s06.5-f32s-empty",
    "s06.6-null-i32s-empty-7",
    "s07.1-cpp-mixed",
    "s07.1-glib-mixed",
    "s07.2-glib-value-types-as-keys",
    "s07.2-order-ab",
    "s07.1-every-type",
    "s08.5-enum-dart",
    "s08.4-class-dart",
    "s08.3-overflow-enum",
    "s08.1-payload-f64-aligned",
    "s08.4-all-nullable-types-record",
    "s10.1-glib-hello-list",
    "s03.1-call-m-f64",
    "s10.1-args-f64s",
    "s10.1-args-map",
    "s11.1-cpp-success-42",
    "s03.1-success-f64-one",
    "s11.2-cpp-error-full",
    "s11.2-glib-code-message",
    "s11.3-dart-stacktrace",
    "s11.2-details-i64s-msg",
    "s12.2-reply-error-details-map",
    "s12.1-request-class-enum",
    "s15.1-depth64-mixed",
]
# Aligned items at every offset mod 8 (spec §3): their prefixes end inside the padding at
# every possible padding length, which a decoder must report as truncated (spec §3.3).
TRUNCATION_BASES += [
    "s03.2-%s-list-off%d%s" % (w, r, sfx)
    for w, sfx in (("i32s", "-n1"), ("i64s", "-n1"), ("f64s", "-n1"), ("f32s", "-n1"), ("f64", ""))
    for r in range(8)
]
TRUNCATION_BASES += ["s03.1-f64-call-off%d" % r for r in range(8)]
TRUNCATION_BASES += ["s03.1-f64-error-details-off%d" % r for r in range(8)]
# Large bases: only the prefixes that end inside the tag, size field and first bytes.
HEAD_TRUNCATIONS = [
    ("s02.2-u8s-zeros-65536", 12),
    ("s05.1-ascii-70000", 12),
    ("s02.2-u8s-zeros-254", 8),
]

GLIB_TRUNCATED = [
    "03",
    "0367",
    "03674523",
    "04",
    "04ef",
    "04efcdab89674523",
    "060000000000000000",
    "060000000000000000000000000000",
    "07",
    "0705",
    "070568",
    "070568656c6c",
    "08",
    "0805",
    "080500",
    "080500010203",
    "09",
    "09050000",
    "0905000000",
    "090500000000ffffffff02000000fdffffff040000",
    "0a",
    "0a05000000000000",
    "0a0500000000000000",
    "0a050000000000000000000000000000ffffffffffffffff0200000000000000fdffffffffffffff040000",
    "0e",
    "0e050000",
    "0e05000000",
    "0e05000000000000000000bf0000803e000000becdcccc",
    "0b",
    "0b05000000000000",
    "0b0500000000000000",
    "0b050000000000000000000000000000000000000000e0bf000000000000d03f000000000000c0bf9a99999999",
    "0c",
    "0c07",
    "0c0700",
    "0c070001032a00000006000000000000182d4454fb210940070568656c6c6f0c000d",
    "0d",
    "0d07",
    "0d0707",
    "0d0707046e756c6c000704626f6f6c010703696e74032a0000000705666c6f617406000000000000182d"
    "4454fb2109400706737472696e67070568656c6c6f07046c6973740c0007036d61700d",
]


def _details_end(base):
    """Offset just after the details of a 4-element error envelope, else None: a decoder
    that reads three elements reports trailing_bytes there (errors.md §14.2.1)."""
    v = base["value"]
    if ENTRY_OF_KIND[base["kind"]] != "envelope" or v[0] != "error" or len(v) != 5:
        return None
    return len(smcpy.encode("envelope", v[:4]).data)


def _prefix_vectors(base, limit, seen):
    entry = ENTRY_OF_KIND[base["kind"]]
    data = bytes.fromhex(base["canonical"])
    end3 = _details_end(base)
    out = []
    for k in range(0, min(len(data), limit)):
        if k == 0 and entry == "message":
            continue  # the empty message is implementation-defined (s09.2-empty-message)
        hx = data[:k].hex()
        if (entry, hx) in seen:
            continue
        try:
            smcpy.decode(entry, data[:k])
            # Only the 3-element error envelope is a valid prefix of a longer item (the
            # 4-element form, spec §11.3).
            if not (
                entry == "envelope" and base["value"][0] == "error" and len(base["value"]) == 5
            ):
                raise SystemExit("prefix %d of %s decodes: not a truncation" % (k, base["id"]))
            continue
        except smcpy.SmcError:
            pass
        seen.add((entry, hx))
        alts = [alt("trailing_bytes", end3, "three-element")] if end3 and k > end3 else []
        out.append(
            reject(
                "s14.1-%s-trunc%d" % (slug_of(base["id"]), k),
                "%s cut after %d of %d bytes" % (base["id"], k, len(data)),
                hx,
                "truncated",
                k,
                kind=base["kind"],
                alternatives=alts,
            )
        )
    return out


def cases(registry):
    with tests("R14-1"):
        return _cases(registry)


def _cases(registry):
    seen = {(c.entry, c["hex"]) for c in registry.values() if "hex" in c}
    out = []
    for i, hx in enumerate(GLIB_TRUNCATED):
        n = len(hx) // 2
        out.append(
            reject(
                "s14.1-glib-truncated-%d" % (i + 1),
                "GLib test input %s: out of data" % (hx if len(hx) <= 24 else hx[:24] + "..."),
                hx,
                "truncated",
                n,
                origin=origin("flutter-glib-test", GLIB),
            )
        )
        seen.add(("message", hx))
    with tests("R8.1-2"):
        out += _unknown_tags()
    out += _order_of_checks()
    # Truncations: every strict prefix of each base.
    for base_id in TRUNCATION_BASES:
        out += _prefix_vectors(registry[base_id], 10**9, seen)
    for base_id, limit in HEAD_TRUNCATIONS:
        out += _prefix_vectors(registry[base_id], limit, seen)
    return out


def _unknown_tags():
    out = []
    out.append(
        reject(
            "s14.1-glib-unknown-tag-0f",
            "GLib DecodeUnknownType: tag 0f",
            "0f",
            "unknown_tag",
            0,
            origin=origin(
                "flutter-glib-test", "fl_standard_message_codec_test.cc DecodeUnknownType"
            ),
        )
    )
    # Every reserved tag 0x0f..0x7f at the top level (0x0f is the GLib vector above).
    for tag in range(0x10, 0x80):
        out.append(
            reject(
                "s14.1-unknown-tag-%02x" % tag,
                "reserved tag 0x%02x" % tag,
                "%02x" % tag,
                "unknown_tag",
                0,
            )
        )
    # ... followed by bytes that would make sense for a neighbouring tag, and in containers.
    for tag in (0x0F, 0x10, 0x3F, 0x40, 0x7E, 0x7F):
        out.append(
            reject(
                "s14.1-unknown-tag-%02x-with-payload" % tag,
                "reserved tag 0x%02x followed by 8 bytes" % tag,
                "%02x" % tag + "01" * 8,
                "unknown_tag",
                0,
            )
        )
        out.append(
            reject(
                "s14.1-unknown-tag-%02x-in-list" % tag,
                "reserved tag 0x%02x as the 2nd list element" % tag,
                "0c02 00 %02x" % tag,
                "unknown_tag",
                3,
            )
        )
        out.append(
            reject(
                "s14.1-unknown-tag-%02x-map-key" % tag,
                "reserved tag as a map key",
                "0d01 %02x 00" % tag,
                "unknown_tag",
                2,
            )
        )
        out.append(
            reject(
                "s14.1-unknown-tag-%02x-map-value" % tag,
                "reserved tag as a map value",
                "0d01 00 %02x" % tag,
                "unknown_tag",
                3,
            )
        )
        out.append(
            reject(
                "s14.1-unknown-tag-%02x-custom" % tag,
                "reserved tag as a custom payload",
                "81 %02x" % tag,
                "unknown_tag",
                1,
            )
        )
        out.append(
            reject(
                "s14.1-unknown-tag-%02x-call-args" % tag,
                "reserved tag as method arguments",
                "07016d %02x" % tag,
                "unknown_tag",
                3,
                kind="method_call",
            )
        )
        out.append(
            reject(
                "s14.1-unknown-tag-%02x-success" % tag,
                "reserved tag as a success result",
                "00 %02x" % tag,
                "unknown_tag",
                1,
                kind="success_envelope",
            )
        )
        out.append(
            reject(
                "s14.1-unknown-tag-%02x-error-details" % tag,
                "reserved tag as error details",
                "01 070165 00 %02x" % tag,
                "unknown_tag",
                5,
                kind="error_envelope",
            )
        )
    return out


def _order_of_checks():
    """errors.md §14.2: inputs where the spec's order decides the class or offset. Where a
    permitted order (§14.2.1) gives the one fault another outcome, the vector lists it;
    s14.2-count-before-element (`0c020f`, two faults) is retired."""
    return [
        reject(
            "s14.2-element-after-count",
            "list of 2 with an unknown tag then a null: now the tag is reached",
            "0c02 0f 00",
            "unknown_tag",
            2,
            requirements=("R8.1-2",),
        ),
        reject(
            "s14.2-utf8-after-presence",
            "string of 3 declared, one invalid byte present: presence is checked before UTF-8",
            "0703 ff",
            "truncated",
            3,
        ),
        reject(
            "s14.2-utf8-before-trailing",
            "invalid string then a trailing byte",
            "0701 ff 00",
            "bad_utf8",
            2,
            requirements=("R5.3-2", "R9.1-2"),
            notes=UTF8_NOTES,
        ),
        reject(
            "s14.2-unknown-before-trailing",
            "unknown tag inside a list, then a trailing byte",
            "0c01 0f 00",
            "unknown_tag",
            2,
            requirements=("R8.1-2", "R9.1-2"),
        ),
        reject(
            "s14.2-pad-missing",
            "float64 whose padding is cut after one non-zero byte: "
            "missing padding is truncated in every mode",
            "06 01",
            "truncated",
            2,
            requirements=("R3.3-2",),
        ),
        reject(
            "s14.2-typed-min-includes-pad",
            "Int32List of 1 with 3 of the 6 bytes (2 pad + 4 data)",
            "0901 0000 00",
            "truncated",
            5,
            requirements=("R15.2-3",),
        ),
        reject(
            "s14.2-typed-min-before-pad",
            "Int32List of 2 with its 2 padding bytes and 5 of "
            "its 8 data bytes: truncated at the input length (the size check, pad + 8)",
            "0902 0000 0000000000",
            "truncated",
            9,
            requirements=("R15.2-3",),
        ),
        reject(
            "s14.2-depth-before-size",
            "129th container with a missing size byte: the depth check comes first",
            "81" * 128 + "0c",
            "depth_limit",
            128,
            tier="recommended",
            requirements=("R15.1-3",),
        ),
        reject(
            "s14.2-name-tag-before-decode",
            "method name with an unknown tag: bad_envelope "
            "when the tag is checked first (spec order), unknown_tag when the name is read "
            "as a value first",
            "0f 00",
            "bad_envelope",
            0,
            kind="method_call",
            requirements=("R10.1-3",),
            alternatives=[alt("unknown_tag", 0, "value-first")],
        ),
        reject(
            "s14.2-code-tag-before-decode",
            "error code with tag 0x7f: bad_envelope, or "
            "unknown_tag when the code is read as a value first",
            "01 7f 00 00",
            "bad_envelope",
            1,
            kind="error_envelope",
            requirements=("R11.5-1",),
            alternatives=[alt("unknown_tag", 1, "value-first")],
        ),
        reject(
            "s14.2-flag-before-anything",
            "flag 05 with nothing after it",
            "05",
            "bad_envelope",
            0,
            kind="envelope",
            requirements=("R11.4-1",),
        ),
        reject(
            "s14.2-message-tag-missing",
            "error code then end of input: the message tag is missing",
            "01 0700",
            "truncated",
            3,
            kind="error_envelope",
            requirements=("R11.5-1",),
        ),
    ]
