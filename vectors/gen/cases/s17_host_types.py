"""spec §17: host types. Encode-from-host vectors (a host-typed value and the bytes it must
be written as, or not_encodable) and decode-to-host vectors (bytes and the host value a
decoder of that language must produce), for every type of every vocabulary's table
(hosttypes.py; the generator checks that none is left out)."""

import smcpy
from caselib import (
    V03,
    b,
    f32s,
    f64,
    f64s,
    host_decode,
    host_encode,
    i32,
    i32s,
    i64,
    i64s,
    lst,
    mp,
    null,
    s,
    u8s,
)

SECTION = "17"
FILE = "s17-host-types"
TITLE = "Host types"


def hv(t, x):
    return {"type": t, "value": x}


def f32(x):
    return smcpy.f32_bits(x)


def d64(x):
    return smcpy.f64_bits(x)


PI32 = "40490fdb"  # 3.1415927f, the float of OBJC's CanEncodeAndDecodeFloat32 test

# Who writes something else (spec §16.2, the D row in parentheses); description only.
N_PIGEON_DART = (
    "PIGEON-Dart writes every int as int64 (R12.3-1; runners declare pigeon-int64)",
    ["PIGEON-Dart"],
)
N_WEB_NUMBERS = (
    "Dart compiled to JavaScript writes every number as float64 (D8)",
    ["DART (web)", "WEBUI"],
)
N_OBJC_U64 = (
    "writes the value's int64 bit pattern: 0xfffffffffffffffa becomes -6 (D41, "
    "test CanEncodeUInt64)",
    ["OBJC"],
)
N_SWIFT_FLOAT = (
    "a third-party Swift port wrote tag 6 with the 4-byte binary32 payload (D42)",
    ["a Swift port"],
)
N_OBJC_BRIDGE = (
    "a Swift array bridged to NSArray of NSNumber is written as a List of "
    "integers or floats, not a typed list (D43, inferred)",
    ["OBJC"],
)
N_JAVA_BIGINT = ("writes tag 5 with the lower-case hex text (D2)", ["JAVA"])
N_CPP_PADDING = ("writes no padding for an empty vector (D10)", ["CPP"])
N_GLIB_NUL = ("truncates the string at U+0000 (D12)", ["GLIB"])
N_CPP_CUSTOM = (
    "writes 00 (null) in release builds for a CustomEncodableValue without an extension (D5)",
    ["CPP"],
)
N_WEB_F32 = ("the web engine's codec has no tag 14 (D3)", ["WEBUI"])
N_TOP_NULL = ("writes no bytes for a top-level null (D24)", ["DART", "JAVA", "OBJC"])
N_DART_U64 = ("writes a Uint64List as a List of Dart ints, which wrap above 2^63-1 (D44)", ["DART"])


def _enc(out, vocab, slug, t, x, desc, *who):
    out.append(host_encode(vocab, slug, hv(t, x), desc, who))


def cases(registry):
    out = []
    _dart(out)
    _dart_web(out)
    _kotlin(out)
    _swift(out)
    _cpp(out)
    _glib(out)
    _c(out)
    _any(out)
    _decoders(out)
    _empty_arrays(out)
    _swift_uint32(out)
    _utf16_strings(out)
    return out


# issue 31: strings of UTF-16 code units (spec §17.1, the utf16 literal), as
# (slug, code units, what they are). Each of the first four holds a lone surrogate, which
# R5.4-2 refuses; the last is the control: a pair is one scalar, and a codec that refuses or
# splits every surrogate code unit fails it.
LONE_SURROGATES = (
    ("string-lone-high", "0061d8000062", "a\\ud800b", "a high surrogate alone, D13's example"),
    ("string-lone-low", "0061dc000062", "a\\udc00b", "a low surrogate alone"),
    ("string-reversed-pair", "dc00d800", "\\udc00\\ud800", "low then high: two lone ones"),
    ("string-lone-high-at-end", "0061d83d", "a\\ud83d", "a pair cut after its high half"),
)
UTF16_PAIR = ("string-utf16-pair", "0068d83dde000077", "h\\ud83d\\ude00w", "a valid pair, U+1F600")
# Who writes something else for a lone surrogate, per vocabulary: (policy, who, how known),
# the policies of hosttypes.LONE_SURROGATE_POLICIES (spec §5.4, D13).
LONE_WHO = {
    "dart": (("fffd", ["DART"], "dart:convert's utf8 encoder"),),
    "dart-web": (("fffd", ["DART (web)"], "the same dart:convert encoder, not run on the web"),),
    "kotlin": (
        ("question", ["JAVA"], "String.getBytes(UTF_8), observed on OpenJDK 17; ART unverified"),
    ),
    "swift": (("truncate", ["OBJC"], "inferred, spec §16.2 D13; not run"),),
}
POLICY_TEXT = {
    "fffd": "writes each lone surrogate as U+FFFD, which R5.4-3 permits",
    "question": 'writes each lone surrogate as "?", which R5.4-4 forbids',
    "truncate": "drops the string from the first lone surrogate on, which R5.4-4 forbids",
}


def _lone_who(vocab, units):
    import hosttypes

    out = []
    for policy, who, known in LONE_WHO[vocab]:
        data = smcpy.encode("message", s(hosttypes.utf16_written(units, policy)))
        out.append(("%s (%s): %s" % (POLICY_TEXT[policy], known, data.hex), who))
    return tuple(out)


def _utf16_strings(out):
    import hosttypes

    for vocab, types in hosttypes.UTF16_STRINGS.items():
        for t in types:
            for slug, h, text, what in LONE_SURROGATES:
                units = hosttypes.utf16_units({"utf16": h})
                out.append(
                    host_encode(
                        vocab,
                        "%s%s" % ("nsstring-" if t == "NSString" else "", slug),
                        hv(t, {"utf16": h}),
                        "%s %s (%s) is refused, not written as other text (R5.4-2)"
                        % (t, text, what),
                        _lone_who(vocab, units),
                        since=V03,
                    )
                )
            slug, h, text, what = UTF16_PAIR
            out.append(
                host_encode(
                    vocab,
                    "%s%s" % ("nsstring-" if t == "NSString" else "", slug),
                    hv(t, {"utf16": h}),
                    "%s %s (%s) is written with one 4-byte scalar (R5.4-1)" % (t, text, what),
                    since=V03,
                )
            )


N_SWIFT_EMPTY = (
    "a third-party Swift port wrote an empty Array, [Int32]() and [Int]() as 08 "
    "00, an empty Uint8List (observed)",
    ["a Swift port"],
)
EMPTY_WHO = {
    ("swift", "Array"): (N_SWIFT_EMPTY,),
    ("swift", "[Int32]"): (N_SWIFT_EMPTY,),
    ("swift", "[Int]"): (N_SWIFT_EMPTY,),
}


def _type_slug(name):
    """A vector-id slug of a host type name: [Int32] -> int32-array, std::vector<float> ->
    std-vector-float, FL_VALUE_TYPE_UINT8_LIST -> uint8-list."""
    import re

    n = name.replace("FL_VALUE_TYPE_", "").replace("SMC_TYPE_", "")
    if n.startswith("[") and n.endswith("]"):
        n = n[1:-1] + "-array"
    return re.sub(r"[^a-z0-9]+", "-", n.lower()).strip("-")


def _empty_arrays(out):
    """issue 31: the empty value of every array-like host type of every vocabulary, both
    directions (hosttypes.check_empty_coverage fails if one is left out)."""
    import hosttypes

    have = {
        (c["host"], c["host_value"]["type"])
        for c in out
        if c["kind"] == "host_encode" and c["host_value"]["value"] in ("", [])
    }
    for vocab, types in hosttypes.VOCABULARIES.items():
        for t in types:
            if not t.encodes or t.lit not in hosttypes.ARRAY_LITS or (vocab, t.name) in have:
                continue
            who = EMPTY_WHO.get((vocab, t.name), ())
            if t.name.startswith("std::vector<") and t.lit != "bytes":
                who = (N_CPP_PADDING,)
            elif vocab == "swift" and t.name in ("[UInt8]", "[Int64]", "[Float]", "[Double]"):
                who = (N_OBJC_BRIDGE,)
            out.append(
                host_encode(
                    vocab,
                    "empty-" + _type_slug(t.name),
                    hv(t.name, hosttypes.empty_value(t)),
                    "an empty %s (%s)"
                    % (
                        t.name,
                        "refused like any other"
                        if t.enc == "refuse"
                        else "its own wire type, empty",
                    ),
                    who,
                    since=V03,
                )
            )
        words = {w for t in types for w in t.decode}
        for word, value in (
            ("u8s", u8s("")),
            ("i32s", i32s([])),
            ("i64s", i64s([])),
            ("f64s", f64s([])),
            ("f32s", f32s([])),
            ("list", lst()),
            ("map", mp()),
        ):
            if word in words:
                out.append(host_decode(vocab, "empty-" + word, value, since=V03))


def _swift_uint32(out):
    """issue 31: a UInt32 above 2^31-1 is an int64 like every UInt32; a port that writes the
    type's bit pattern as an int32 gives a negative number."""
    who = (
        "a third-party Swift port writes a UInt32 as an int32: 5 as 0305000000, and "
        "above 2^31-1 a negative bit pattern (observed)",
        ["a Swift port"],
    )
    for x in ("2147483648", "3000000000"):
        out.append(
            host_encode(
                "swift",
                "uint32-%s" % x,
                hv("UInt32", x),
                "UInt32 %s (above Int32.max) is an int64 (R4.2-2)" % x,
                (who,),
                since=V03,
            )
        )
    out.append(
        host_encode(
            "swift",
            "uint32-in-array",
            hv("Array", [hv("UInt32", "2147483648"), hv("UInt32", "5")]),
            "UInt32 2^31 and 5 inside an Array: both int64",
            (who,),
            since=V03,
        )
    )


def _dart(out):
    v = "dart"
    for slug, n in (
        ("int-0", "0"),
        ("int-int32-max", "2147483647"),
        ("int-int32-min", "-2147483648"),
        ("int-2p31", "2147483648"),
        ("int-below-int32", "-2147483649"),
        ("int-int64-max", "9223372036854775807"),
    ):
        _enc(
            out, v, slug, "int", n, "a Dart int %s is written by value (R4.2-4)" % n, N_PIGEON_DART
        )
    _enc(out, v, "double-1-5", "double", d64(1.5), "double 1.5 is a float64")
    _enc(
        out,
        v,
        "double-nan-payload",
        "double",
        "7ff0000000000001",
        "a double NaN keeps its payload (R4.3-2)",
    )
    _enc(out, v, "bool", "bool", True, "bool true")
    _enc(out, v, "string", "String", "h\u263aw", "a String is UTF-8 (tag 7)")
    _enc(
        out,
        v,
        "null-in-list",
        "List",
        [hv("Null", None), hv("int", "5")],
        "null inside a List, and the List itself",
    )
    _enc(out, v, "uint8list", "Uint8List", "ba5eba11", "Uint8List is tag 8")
    _enc(out, v, "int32list", "Int32List", ["1", "-2"], "Int32List is tag 9")
    _enc(out, v, "int64list", "Int64List", ["5"], "Int64List is tag 10, whatever the values")
    _enc(out, v, "float32list", "Float32List", [f32(1.5)], "Float32List is tag 14")
    _enc(out, v, "float64list", "Float64List", [d64(1.5)], "Float64List is tag 11")
    for t, xs in (
        ("Int8List", ["-128", "127"]),
        ("Int16List", ["-32768", "32767"]),
        ("Uint16List", ["65535"]),
        ("Uint32List", ["4294967295", "1"]),
        ("Uint8ClampedList", ["255"]),
    ):
        _enc(
            out,
            v,
            t.lower(),
            t,
            xs,
            "a %s has no wire type: a List of its ints, each by "
            "value (R4.2-4), as DART writes it" % t,
            N_PIGEON_DART,
        )
    _enc(
        out,
        v,
        "uint64list",
        "Uint64List",
        ["18446744073709551615"],
        "a Uint64List is refused: Dart reads 2^64-1 as -1 (R17-3)",
        N_DART_U64,
    )
    _enc(
        out,
        v,
        "uint64list-small",
        "Uint64List",
        ["1"],
        "a Uint64List is refused whole, also when every element fits (R17-3)",
        N_DART_U64,
    )
    _enc(out, v, "set", "Set", [hv("int", "1")], "a Set has no wire type (R1.4-2)")
    _enc(
        out,
        v,
        "map",
        "Map",
        [[hv("String", "b"), hv("int", "1")], [hv("String", "a"), hv("double", d64(2.5))]],
        "a Map (LinkedHashMap) keeps insertion order (R7.2-2)",
    )


def _dart_web(out):
    v = "dart-web"
    _enc(
        out,
        v,
        "int-5",
        "int",
        "5",
        "an integral number in int32 range is an int32 (R4.2-4)",
        N_WEB_NUMBERS,
    )
    _enc(
        out,
        v,
        "int-2p40",
        "int",
        str(2**40),
        "an integral number beyond int32 is an int64 (R4.2-4)",
        N_WEB_NUMBERS,
    )
    _enc(out, v, "double-1-5", "double", d64(1.5), "a number with a fraction is a float64")
    _enc(
        out,
        v,
        "null-bool-string",
        "List",
        [hv("Null", None), hv("bool", False), hv("String", "x")],
        "null, bool and String in a List",
    )
    _enc(out, v, "uint8list", "Uint8List", "00ff", "Uint8List is tag 8")
    _enc(out, v, "int32list", "Int32List", ["7"], "Int32List is tag 9")
    _enc(out, v, "float32list", "Float32List", [f32(0.5)], "Float32List is tag 14", N_WEB_F32)
    _enc(out, v, "float64list", "Float64List", [d64(0.5)], "Float64List is tag 11")
    _enc(
        out,
        v,
        "map",
        "Map",
        [[hv("String", "k"), hv("double", d64(0.25))]],
        "a Map keeps insertion order",
    )


def _kotlin(out):
    v = "kotlin"
    _enc(out, v, "byte", "Byte", "-128", "a Byte is an int32 (JAVA: Integer, Short, Byte)")
    _enc(out, v, "short", "Short", "32767", "a Short is an int32")
    _enc(out, v, "int-5", "Int", "5", "an Int is an int32")
    _enc(out, v, "int-min", "Int", "-2147483648", "Int.MIN_VALUE")
    _enc(out, v, "long-5", "Long", "5", "a Long is an int64 even when small (R4.2-2)")
    _enc(out, v, "long-2p40", "Long", str(2**40), "a Long beyond int32")
    _enc(out, v, "float-1-5", "Float", f32(1.5), "a Float is widened to float64 exactly (R17-4)")
    _enc(
        out,
        v,
        "float-pi",
        "Float",
        PI32,
        "3.1415927f widened: 400921fb60000000, not the double nearest to pi",
    )
    _enc(out, v, "double", "Double", d64(-0.0), "Double -0.0 keeps its sign")
    _enc(out, v, "boolean", "Boolean", False, "Boolean false")
    _enc(out, v, "string", "String", "a\u0000b", "a String with U+0000 (R5.2-1)")
    _enc(out, v, "char", "Char", "a", "a Char has no wire type (JAVA: Unsupported value)")
    _enc(
        out, v, "biginteger", "BigInteger", "31", "a BigInteger is refused (R4.4-1)", N_JAVA_BIGINT
    )
    _enc(out, v, "bytearray", "ByteArray", "0102", "ByteArray is tag 8")
    _enc(
        out,
        v,
        "list-of-byte",
        "List",
        [hv("Byte", "1"), hv("Byte", "2")],
        "a List<Byte> is a List of int32, not a Uint8List",
    )
    _enc(out, v, "intarray", "IntArray", ["1", "2"], "IntArray is tag 9")
    _enc(out, v, "longarray", "LongArray", ["5"], "LongArray is tag 10")
    _enc(out, v, "floatarray", "FloatArray", [f32(1.5)], "FloatArray is tag 14")
    _enc(out, v, "doublearray", "DoubleArray", [d64(1.5)], "DoubleArray is tag 11")
    _enc(
        out,
        v,
        "shortarray",
        "ShortArray",
        ["1"],
        "a ShortArray has no wire type (JAVA: Unsupported value)",
    )
    _enc(out, v, "null-in-list", "List", [hv("null", None), hv("Long", "1")], "null inside a List")
    _enc(
        out,
        v,
        "linkedhashmap",
        "LinkedHashMap",
        [[hv("String", "b"), hv("Int", "1")], [hv("String", "a"), hv("Int", "2")]],
        "a LinkedHashMap is written in insertion order (R7.2-2)",
    )
    _enc(
        out,
        v,
        "hashmap",
        "HashMap",
        [[hv("String", "a"), hv("Int", "1")], [hv("String", "b"), hv("Long", "2")]],
        "a HashMap is written in its iteration order, which the spec does not pin",
    )
    _enc(out, v, "set", "Set", [hv("Int", "1")], "a Set has no wire type (JAVA: Unsupported value)")


def _swift(out):
    v = "swift"
    for t, x in (
        ("Int8", "-1"),
        ("Int16", "-32768"),
        ("Int32", "5"),
        ("UInt8", "255"),
        ("UInt16", "65535"),
    ):
        _enc(out, v, t.lower(), t, x, "%s is an int32" % t)
    for t, x in (("Int64", "5"), ("Int", "5"), ("UInt32", "5"), ("UInt32", "4294967295")):
        _enc(
            out,
            v,
            "%s-%s" % (t.lower(), x),
            t,
            x,
            "%s %s is an int64: the type's range picks the tag (R4.2-2)" % (t, x),
        )
    for t in ("UInt64", "UInt"):
        _enc(out, v, t.lower() + "-5", t, "5", "%s 5 is an int64" % t)
        _enc(out, v, t.lower() + "-int64-max", t, str(2**63 - 1), "%s Int64.max is an int64" % t)
        _enc(
            out,
            v,
            t.lower() + "-above-int64",
            t,
            "18446744073709551610",
            "%s above Int64.max is refused, never written as its bit pattern (R17-3)" % t,
            N_OBJC_U64,
        )
    _enc(
        out,
        v,
        "float-1-5",
        "Float",
        f32(1.5),
        "a Float is widened to float64 (R17-4): 06 + padding + 8 bytes",
        N_SWIFT_FLOAT,
    )
    _enc(
        out,
        v,
        "float-pi",
        "Float",
        PI32,
        "3.1415927f as OBJC's test writes it (…00000060fb210940)",
        N_SWIFT_FLOAT,
    )
    _enc(
        out,
        v,
        "float-in-array",
        "Array",
        [hv("Int32", "1"), hv("Float", f32(-2.0))],
        "a Float inside an Array, at an offset that needs padding",
        N_SWIFT_FLOAT,
    )
    _enc(out, v, "double", "Double", d64(3.141592653589793), "Double pi")
    _enc(out, v, "bool", "Bool", True, "Bool true")
    _enc(out, v, "string", "String", "\u00e9", "String é (NFC, 2 bytes)")
    _enc(
        out,
        v,
        "string-nfd",
        "String",
        "e\u0301",
        "String e + U+0301 (NFD, 3 bytes): no normalisation (R5.1-2)",
    )
    _enc(
        out,
        v,
        "nil-nsnull",
        "Array",
        [hv("nil", None), hv("NSNull", None)],
        "nil and NSNull inside an Array are both null",
    )
    _enc(out, v, "data", "Data", "ba5eba11", "Data is tag 8")
    _enc(out, v, "uint8-array", "[UInt8]", "0102", "[UInt8] is a Uint8List (R6-1)", N_OBJC_BRIDGE)
    _enc(out, v, "int32-array", "[Int32]", ["1"], "[Int32] is an Int32List", N_OBJC_BRIDGE)
    _enc(out, v, "int64-array", "[Int64]", ["1"], "[Int64] is an Int64List", N_OBJC_BRIDGE)
    _enc(out, v, "float-array", "[Float]", [f32(1.5)], "[Float] is a Float32List", N_OBJC_BRIDGE)
    _enc(out, v, "double-array", "[Double]", [d64(1.5)], "[Double] is a Float64List", N_OBJC_BRIDGE)
    _enc(
        out,
        v,
        "int-array",
        "[Int]",
        ["5"],
        "[Int] is a List of int64 (there is no Int64List of Int)",
    )
    _enc(
        out,
        v,
        "dictionary",
        "Dictionary",
        [[hv("String", "a"), hv("Int32", "1")], [hv("String", "b"), hv("Int64", "2")]],
        "a Dictionary is written in its iteration order, which Swift does not pin",
    )


def _cpp(out):
    v = "cpp"
    _enc(out, v, "int32", "int32_t", "5", "int32_t is an int32")
    _enc(out, v, "int64-5", "int64_t", "5", "int64_t is an int64 whatever the value (R4.2-2)")
    _enc(out, v, "double", "double", d64(3.14), "double 3.14")
    _enc(out, v, "bool", "bool", True, "bool")
    _enc(out, v, "string", "std::string", "hello", "std::string")
    _enc(out, v, "bytes", "std::vector<uint8_t>", "ba5eba11", "std::vector<uint8_t> is tag 8")
    for t, x in (
        ("std::vector<int32_t>", ["1"]),
        ("std::vector<int64_t>", ["1"]),
        ("std::vector<float>", [f32(1.0)]),
        ("std::vector<double>", [d64(1.0)]),
    ):
        _enc(out, v, "vector-" + t.split("<")[1].rstrip(">").replace("_", "-"), t, x, "a %s" % t)
        _enc(
            out,
            v,
            "empty-" + t.split("<")[1].rstrip(">").replace("_", "-"),
            "EncodableList",
            [hv("std::monostate", None), hv(t, []), hv("int32_t", "7")],
            "an empty %s keeps its padding (R3.2-3)" % t,
            N_CPP_PADDING,
        )
    _enc(
        out,
        v,
        "map",
        "EncodableMap",
        [[hv("std::string", "a"), hv("int32_t", "1")], [hv("int32_t", "2"), hv("bool", False)]],
        "an EncodableMap (a std::map: sorted) in its iteration order",
    )
    _enc(
        out,
        v,
        "custom",
        "CustomEncodableValue",
        None,
        "a CustomEncodableValue without an extension is refused (R1.4-2)",
        N_CPP_CUSTOM,
    )


def _glib(out):
    v = "glib"
    p = "FL_VALUE_TYPE_"
    _enc(
        out,
        v,
        "int-5",
        p + "INT",
        "5",
        "an FlValue int (int64) 5 is written by value as an int32 (R4.2-4)",
    )
    _enc(out, v, "int-2p32", p + "INT", str(2**32), "2^32 is an int64")
    _enc(out, v, "float", p + "FLOAT", d64(1.0), "FL_VALUE_TYPE_FLOAT is a float64")
    _enc(
        out,
        v,
        "string-nul",
        p + "STRING",
        "a\u0000b",
        "a string with U+0000 keeps it (R5.2-1)",
        N_GLIB_NUL,
    )
    _enc(
        out,
        v,
        "list",
        p + "LIST",
        [hv(p + "NULL", None), hv(p + "BOOL", True)],
        "a list of null and true",
    )
    for t, x in (
        ("UINT8_LIST", "01"),
        ("INT32_LIST", ["1"]),
        ("INT64_LIST", ["1"]),
        ("FLOAT32_LIST", [f32(1.0)]),
        ("FLOAT_LIST", [d64(1.0)]),
    ):
        _enc(out, v, t.lower().replace("_", "-"), p + t, x, "FL_VALUE_TYPE_%s" % t)
    _enc(
        out,
        v,
        "map",
        p + "MAP",
        [[hv(p + "STRING", "z"), hv(p + "INT", "1")], [hv(p + "STRING", "a"), hv(p + "INT", "2")]],
        "an FlValue map keeps insertion order",
    )


def _c(out):
    v = "c"
    p = "SMC_TYPE_"
    _enc(out, v, "i64-5", p + "I64", "5", "SMC_TYPE_I64 5 is an int64")
    _enc(
        out,
        v,
        "list",
        p + "LIST",
        [
            hv(p + "NULL", None),
            hv(p + "BOOL", False),
            hv(p + "I32", "-1"),
            hv(p + "F64", d64(0.5)),
            hv(p + "STR", "s"),
        ],
        "every scalar type in a list",
    )
    for t, x in (
        ("U8S", ""),
        ("I32S", ["1"]),
        ("I64S", ["1"]),
        ("F64S", [d64(1.0)]),
        ("F32S", [f32(1.0)]),
    ):
        _enc(out, v, t.lower(), p + t, x, "SMC_TYPE_%s" % t)
    _enc(
        out,
        v,
        "map",
        p + "MAP",
        [[hv(p + "I32", "1"), hv(p + "I64", "1")]],
        "a map with an int32 key and an int64 value",
    )
    _enc(out, v, "largeint", p + "LARGEINT", "1f", "a largeInt is never written (R4.4-1)")


def _any(out):
    v = "any"
    _enc(out, v, "null", "null", None, "a null host value at top level is 00 (R9.3-1)", N_TOP_NULL)
    _enc(out, v, "bool", "bool", False, "a boolean")
    _enc(out, v, "int32", "int32", "-7", "a 32-bit signed integer is an int32", N_PIGEON_DART)
    _enc(
        out,
        v,
        "float32-1-5",
        "float32",
        f32(1.5),
        "a 32-bit float is widened to float64 (R17-4)",
        N_SWIFT_FLOAT,
    )
    _enc(
        out,
        v,
        "float32-nan",
        "float32",
        "7fc00000",
        "the float32 quiet NaN widens to the float64 quiet NaN 7ff8000000000000",
    )
    _enc(
        out,
        v,
        "float32-subnormal",
        "float32",
        "00000001",
        "the smallest float32 subnormal widens exactly (36a0000000000000)",
    )
    _enc(out, v, "float64", "float64", d64(0.1), "a 64-bit float")
    _enc(out, v, "string", "string", "\U0001f602", "a string outside the BMP (4 UTF-8 bytes)")
    _enc(out, v, "bytes", "bytes", "", "an empty byte array")


# Decode-to-host: for every vocabulary with decode rows, one value per wire type it decodes
# (spec §17: the host type each wire type becomes), with small int64s where the distinction
# matters.
DECODE_VALUES = [
    ("null", null()),
    ("bool", b(True)),
    ("i32", i32(5)),
    ("i64-5", i64(5)),
    ("i64-2p40", i64(2**40)),
    ("f64", f64(1.5)),
    ("str", s("\u00e9")),
    ("u8s", u8s("ba11")),
    ("i32s", i32s([1, -1])),
    ("i64s", i64s([5])),
    ("f64s", f64s([1.5])),
    ("f32s", f32s([1.5])),
    ("list", lst(i32(1), i64(1), s("x"))),
    ("list-no-i64", lst(null(), s("x"))),
    ("map", mp((s("b"), i32(1)), (s("a"), f64(2.5)))),
]


def _words(v):
    out = {v[0]}
    if v[0] == "list":
        for e in v[1]:
            out |= _words(e)
    elif v[0] == "map":
        for k, e in v[1]:
            out |= _words(k) | _words(e)
    return out


def _decoders(out):
    import hosttypes

    for vocab in hosttypes.VOCABULARIES:
        words = {w for t in hosttypes.VOCABULARIES[vocab] for w in t.decode}
        if not words:
            continue
        for slug, value in DECODE_VALUES:
            if _words(value) <= words:
                out.append(host_decode(vocab, slug, value))
