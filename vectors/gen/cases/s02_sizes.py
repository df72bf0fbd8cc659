"""spec §2: byte order (2.1) and the size field (2.2)."""

from caselib import (
    accept,
    call,
    custom,
    error,
    f32s,
    f64s,
    i32,
    i32s,
    i64,
    i64s,
    lst,
    mp,
    nonminimal,
    null,
    origin,
    reject,
    s,
    tests,
    u8s,
    valid,
)

SECTION = "2"
FILE = "s02-sizes"
TITLE = "Byte order and sizes"

DART = "message_codecs_test.dart should encode sizes correctly at boundary cases"


# Non-minimal size forms: flutter mode reads them (R2.2-3), strict mode rejects them (R2.2-4).
NONMINIMAL = ("R2.2-3", "R2.2-4")


def cases(registry):
    with tests("R2.2-1", "R2.2-2"):
        return _cases()


def _cases():
    with tests("R2.1-1"):
        out = _byte_order()
    out += _sizes()
    return out


def _byte_order():
    return [
        valid(
            "s02.1-i32-little-endian",
            "int32 0x01020304: least significant byte first",
            i32(0x01020304),
            expect_hex="0304030201",
        ),
        valid(
            "s02.1-i64-little-endian",
            "int64 0x0102030405060708: least significant byte first",
            i64(0x0102030405060708),
            expect_hex="040807060504030201",
        ),
        valid(
            "s02.1-f64-little-endian",
            "float64 bit pattern 0x0102030405060708 stored LSB first",
            ["f64", "0102030405060708"],
            expect_hex="06000000000000000807060504030201",
        ),
        valid(
            "s02.1-size-u16-little-endian",
            "Uint8List of 0x0102 bytes: the 3-byte size is fe 02 01",
            u8s(bytes(range(256)) + b"\x00\x01"),
            focus="$",
        ),
        valid(
            "s02.1-i32s-little-endian",
            "Int32List element 0x0a0b0c0d is stored LSB first",
            i32s([0x0A0B0C0D]),
            expect_hex="090100000d0c0b0a",
        ),
    ]


def _sizes():
    out = []

    # Dart's literal boundary vectors (Uint8List of zeros).
    for n, hx_size, tag in (
        (253, "fd", "253"),
        (254, "fefe00", "254"),
        (0xFFFF, "feffff", "65535"),
        (0x10000, "ff00000100", "65536"),
    ):
        out.append(
            valid(
                "s02.2-u8s-zeros-%s" % tag,
                "Uint8List of %d zero bytes: size %s" % (n, hx_size),
                u8s(bytes(n)),
                expect_hex="08" + hx_size + "00" * n,
                origin=origin("flutter-dart-test", DART),
            )
        )
    # Size boundaries for every sized type (sizes are element / pair counts, spec §2.2).
    for n in (0, 1, 253, 254, 255):
        out.append(valid("s02.2-str-size%d" % n, "string of %d ASCII bytes" % n, s("x" * n)))
    out.append(
        valid(
            "s02.2-u8s-size255",
            "Uint8List of 255 bytes (3-byte size)",
            u8s(bytes(i % 256 for i in range(255))),
        )
    )
    for word, mk in (
        ("i32s", lambda n: i32s(range(n))),
        ("i64s", lambda n: i64s(range(n))),
        ("f64s", lambda n: f64s([float(i) for i in range(n)])),
        ("f32s", lambda n: f32s([float(i) for i in range(n)])),
    ):
        for n in (253, 254):
            out.append(
                valid(
                    "s02.2-%s-count%d" % (word, n),
                    "%s with %d elements: the size counts elements, not bytes" % (word, n),
                    mk(n),
                )
            )
    for n in (253, 254):
        out.append(valid("s02.2-list-count%d" % n, "list of %d nulls" % n, lst(*[null()] * n)))
        out.append(
            valid(
                "s02.2-map-count%d" % n,
                "map of %d int32 keys to null: the size counts pairs" % n,
                mp(*[(i32(i), null()) for i in range(n)]),
            )
        )

    with tests(*NONMINIMAL):
        out += _nonminimal()
    return out


def _nonminimal():
    out = []
    # Non-minimal size forms: accepted in flutter mode, not_canonical in strict (spec §2.2).
    out.append(
        valid(
            "s02.2-str-ab",
            'string "ab" (non-minimal size forms accepted)',
            s("ab"),
            requirements=("R2.2-1", "R2.2-2") + NONMINIMAL,
            expect_hex="07026162",
            accepted=[
                accept("07fe02006162", "size 2 in the 3-byte form", "not_canonical"),
                accept("07ff020000006162", "size 2 in the 5-byte form", "not_canonical"),
            ],
            origin=origin("derived", "wire-format-notes.md §3.6 non-minimal size"),
        )
    )
    samples = [
        ("str", s("ab"), "$"),
        ("str-empty", s(""), "$"),
        ("u8s", u8s("ba5eba11"), "$"),
        ("u8s-empty", u8s(""), "$"),
        ("i32s", i32s([1, 2]), "$"),
        ("i32s-empty", i32s([]), "$"),
        ("i64s", i64s([1]), "$"),
        ("f64s", f64s([1.0]), "$"),
        ("f32s", f32s([1.0]), "$"),
        ("f32s-empty", f32s([]), "$"),
        ("i64s-empty", i64s([]), "$"),
        ("f64s-empty", f64s([]), "$"),
        ("list", lst(null(), i32(1)), "$"),
        ("list-empty", lst(), "$"),
        ("map", mp((s("a"), i32(1))), "$"),
        ("map-empty", mp(), "$"),
        ("nested-str", lst(null(), s("abc")), "$[1]"),
        ("map-key-u8s", mp((u8s("01"), null())), "$<0>"),
        ("custom-list", custom(130, lst(i32(1))), "$.v"),
    ]
    for slug, value, path in samples:
        for form in ("fe", "ff"):
            hx, off = nonminimal(value, path, form)
            out.append(
                reject(
                    "s02.2-nonminimal-%s-%s" % (form, slug),
                    "%s with the size at offset %d in the %s form: strict mode rejects it"
                    % (slug, off, "3-byte" if form == "fe" else "5-byte"),
                    hx,
                    "not_canonical",
                    off,
                    modes=("strict",),
                    value=value,
                )
            )
    # Largest sizes of each short form written one step longer.
    v253 = s("y" * 253)
    hx, off = nonminimal(v253, "$", "fe")
    out.append(
        reject(
            "s02.2-nonminimal-fe-str253",
            "string of 253 bytes with a 3-byte size",
            hx,
            "not_canonical",
            off,
            modes=("strict",),
            value=v253,
        )
    )
    v65535 = u8s(bytes(0xFFFF))
    hx, off = nonminimal(v65535, "$", "ff")
    out.append(
        reject(
            "s02.2-nonminimal-ff-u8s65535",
            "Uint8List of 65535 bytes with a 5-byte size",
            hx,
            "not_canonical",
            off,
            modes=("strict",),
            value=v65535,
        )
    )
    v254 = u8s(bytes(254))
    hx, off = nonminimal(v254, "$", "ff")
    out.append(
        reject(
            "s02.2-nonminimal-ff-u8s254",
            "Uint8List of 254 bytes with a 5-byte size",
            hx,
            "not_canonical",
            off,
            modes=("strict",),
            value=v254,
        )
    )
    # The 3-byte size of a typed list moves the padding: a fe-form count of 1 puts the
    # Int32List data at offset 4 with no padding.
    v = i32s([7])
    hx, off = nonminimal(v, "$", "fe")
    out.append(
        valid(
            "s02.2-i32s-one",
            "Int32List [7]",
            v,
            requirements=("R2.2-1", "R2.2-2", "R3.1-1") + NONMINIMAL,
            accepted=[
                accept(
                    hx, "count in the 3-byte form; data at offset 4, no padding", "not_canonical"
                )
            ],
        )
    )
    # Counts of 254..65535 written in the 5-byte form, for typed lists and containers.
    for slug, value in (
        ("i32s254", i32s(range(254))),
        ("f64s254", f64s([0.5] * 254)),
        ("list254", lst(*[null()] * 254)),
        ("map254", mp(*[(i32(i), null()) for i in range(254)])),
    ):
        hx, off = nonminimal(value, "$", "ff")
        out.append(
            reject(
                "s02.2-nonminimal-ff-%s" % slug,
                "%s with a 5-byte count (254 fits the 3-byte form)" % slug,
                hx,
                "not_canonical",
                off,
                modes=("strict",),
                value=value,
            )
        )
    # Method-call name and envelope strings use the same size rule.
    c = call("ab", null())
    hx, off = nonminimal(c, "$.name", "fe", entry="call")
    out.append(
        reject(
            "s02.2-nonminimal-fe-method-name",
            "method name with a 3-byte size",
            hx,
            "not_canonical",
            off,
            kind="method_call",
            modes=("strict",),
            value=c,
        )
    )
    e = error("code", "msg", null())
    hx, off = nonminimal(e, "$.message", "ff", entry="envelope")
    out.append(
        reject(
            "s02.2-nonminimal-ff-error-message",
            "error message with a 5-byte size",
            hx,
            "not_canonical",
            off,
            kind="error_envelope",
            modes=("strict",),
            value=e,
        )
    )
    return out
