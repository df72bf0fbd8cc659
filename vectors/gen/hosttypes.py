"""Host types (spec §17): which wire type each host language's values are written as, and
which host type each wire type decodes to, as data, plus the model that turns a host value
into the notation value it stands for (encode) and a decoded value into the host value a
decoder must produce (decode).

A host value is `{"type": T, "value": X}` (spec §17.1, vectors.md V.2): T a type name of one
vocabulary, X its literal: JSON null, true/false, a decimal string (integers), 8 or 16
lower-case hex digits (the bit pattern of a 32- or 64-bit float, as in the notation), a
JSON string (or, for a string type of UTF-16 code units, {"utf16": H}: UTF16_STRINGS), hex
bytes, an array of such literals (typed arrays), an array of host values (lists) or an array of
[key, value] host-value pairs (maps).

The tables here and the tables of spec §17 must name the same types with the same wire
types: `check_spec_tables` reads the spec and fails on any difference, `check_schema` does
the same for the names in vectors/schema.json, and the generator fails if a type is left
without a vector in a direction it has (`check_coverage`)."""

import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = os.path.join(os.path.dirname(os.path.dirname(HERE)), "spec", "standard-message-codec.md")

INT32 = (-(2**31), 2**31 - 1)
INT64 = (-(2**63), 2**63 - 1)


class Refused(Exception):
    """The spec says the host value is refused with not_encodable (R1.4-2)."""


class HostType:
    """One row of a §17 table.

    lit: the literal kind of X (null, bool, int, f32, f64, str, bytes, ints, f32s, f64s, list,
    map). enc: how it is written (the wire word, or by-value, u64, f32-widened, int-list,
    refuse). rng: the range of an integer type. reqs: the requirements its encode vectors
    test (R17-1 always). decode: the wire words that decode to it (vocabulary's decode
    table). unordered: a map type whose iteration order the spec does not pin."""

    def __init__(self, name, lit, enc, rng=None, reqs=(), decode=(), unordered=False):
        self.name, self.lit, self.enc, self.rng = name, lit, enc, rng
        self.reqs = ("R17-1",) + tuple(reqs)
        self.decode = tuple(decode)
        self.unordered = unordered

    @property
    def encodes(self):
        return self.enc is not None

    @property
    def spec_word(self):
        """What the spec table's "Written as" cell starts with."""
        return {
            "by-value": "by value",
            "u64": "i64",
            "f32-widened": "f64",
            "int-list": "list",
            "int64-list": "list",
            "refuse": "not_encodable",
        }.get(self.enc, self.enc)


T = HostType
U8, I8, U16, I16, U32 = (0, 255), (-128, 127), (0, 65535), (-32768, 32767), (0, 2**32 - 1)
U64 = (0, 2**64 - 1)
SAFE = (-(2**53), 2**53)

# Vocabularies (runners/PROTOCOL.md P.1 `hosts`), in the order of spec §17.2-§17.9.
VOCABULARIES = {
    "dart": [
        T("Null", "null", "null", decode=["null"]),
        T("bool", "bool", "bool", decode=["bool"]),
        T("int", "int", "by-value", INT64, reqs=["R4.2-4"], decode=["i32", "i64"]),
        T("double", "f64", "f64", reqs=["R4.3-2"], decode=["f64"]),
        T("String", "str", "str", decode=["str"]),
        T("Uint8List", "bytes", "u8s", decode=["u8s"]),
        T("Int32List", "ints", "i32s", INT32, decode=["i32s"]),
        T("Int64List", "ints", "i64s", INT64, decode=["i64s"]),
        T("Float32List", "f32s", "f32s", decode=["f32s"]),
        T("Float64List", "f64s", "f64s", decode=["f64s"]),
        T("Int8List", "ints", "int-list", I8, reqs=["R4.2-4"]),
        T("Int16List", "ints", "int-list", I16, reqs=["R4.2-4"]),
        T("Uint16List", "ints", "int-list", U16, reqs=["R4.2-4"]),
        T("Uint32List", "ints", "int-list", U32, reqs=["R4.2-4"]),
        T("Uint8ClampedList", "ints", "int-list", U8, reqs=["R4.2-4"]),
        T("Uint64List", "ints", "refuse", U64, reqs=["R17-3"]),
        T("List", "list", "list", decode=["list"]),
        T("Map", "map", "map", reqs=["R7.2-2"], decode=["map"]),
        T("Set", "list", "refuse", reqs=["R1.4-2"]),
    ],
    "dart-web": [
        T("Null", "null", "null", decode=["null"]),
        T("bool", "bool", "bool", decode=["bool"]),
        T("int", "int", "by-value", SAFE, reqs=["R4.2-4"], decode=["i32"]),
        T("double", "f64", "f64", decode=["f64"]),
        T("String", "str", "str", decode=["str"]),
        T("Uint8List", "bytes", "u8s", decode=["u8s"]),
        T("Int32List", "ints", "i32s", INT32, decode=["i32s"]),
        T("Float32List", "f32s", "f32s", decode=["f32s"]),
        T("Float64List", "f64s", "f64s", decode=["f64s"]),
        T("List", "list", "list", decode=["list"]),
        T("Map", "map", "map", reqs=["R7.2-2"], decode=["map"]),
    ],
    "kotlin": [
        T("null", "null", "null", decode=["null"]),
        T("Boolean", "bool", "bool", decode=["bool"]),
        T("Byte", "int", "i32", I8),
        T("Short", "int", "i32", I16),
        T("Int", "int", "i32", INT32, decode=["i32"]),
        T("Long", "int", "i64", INT64, reqs=["R4.2-2"], decode=["i64"]),
        T("Float", "f32", "f32-widened", reqs=["R17-4"]),
        T("Double", "f64", "f64", reqs=["R4.3-2"], decode=["f64"]),
        T("String", "str", "str", decode=["str"]),
        T("Char", "str", "refuse", reqs=["R1.4-2"]),
        T("BigInteger", "int", "refuse", reqs=["R4.4-1"]),
        T("ByteArray", "bytes", "u8s", decode=["u8s"]),
        T("IntArray", "ints", "i32s", INT32, decode=["i32s"]),
        T("LongArray", "ints", "i64s", INT64, decode=["i64s"]),
        T("FloatArray", "f32s", "f32s", decode=["f32s"]),
        T("DoubleArray", "f64s", "f64s", decode=["f64s"]),
        T("ShortArray", "ints", "refuse", I16, reqs=["R1.4-2"]),
        T("List", "list", "list", decode=["list"]),
        T("LinkedHashMap", "map", "map", reqs=["R7.2-2"]),
        T("HashMap", "map", "map", reqs=["R7.2-2"], unordered=True),
        T("Map", "map", None, decode=["map"]),
        T("Set", "list", "refuse", reqs=["R1.4-2"]),
    ],
    "swift": [
        T("nil", "null", "null", decode=["null"]),
        T("NSNull", "null", "null"),
        T("Bool", "bool", "bool", decode=["bool"]),
        T("Int8", "int", "i32", I8),
        T("Int16", "int", "i32", I16),
        T("Int32", "int", "i32", INT32, decode=["i32"]),
        T("Int64", "int", "i64", INT64, reqs=["R4.2-2"], decode=["i64"]),
        T("Int", "int", "i64", INT64, reqs=["R4.2-2"]),
        T("UInt8", "int", "i32", U8),
        T("UInt16", "int", "i32", U16),
        T("UInt32", "int", "i64", U32, reqs=["R4.2-2"]),
        T("UInt64", "int", "u64", U64, reqs=["R17-3"]),
        T("UInt", "int", "u64", U64, reqs=["R17-3"]),
        T("Float", "f32", "f32-widened", reqs=["R17-4"]),
        T("Double", "f64", "f64", reqs=["R4.3-2"], decode=["f64"]),
        T("String", "str", "str", decode=["str"]),
        T("NSString", "str", "str"),
        T("Data", "bytes", "u8s", decode=["u8s"]),
        T("[UInt8]", "bytes", "u8s", reqs=["R6-1"]),
        T("[Int32]", "ints", "i32s", INT32, reqs=["R6-1"], decode=["i32s"]),
        T("[Int64]", "ints", "i64s", INT64, reqs=["R6-1"], decode=["i64s"]),
        T("[Float]", "f32s", "f32s", reqs=["R6-1"], decode=["f32s"]),
        T("[Double]", "f64s", "f64s", reqs=["R6-1"], decode=["f64s"]),
        T("[Int]", "ints", "int64-list", INT64, reqs=["R4.2-2"]),
        T("Array", "list", "list", decode=["list"]),
        T("Dictionary", "map", "map", reqs=["R7.2-2"], decode=["map"], unordered=True),
    ],
    "cpp": [
        T("std::monostate", "null", "null", decode=["null"]),
        T("bool", "bool", "bool", decode=["bool"]),
        T("int32_t", "int", "i32", INT32, decode=["i32"]),
        T("int64_t", "int", "i64", INT64, reqs=["R4.2-2"], decode=["i64"]),
        T("double", "f64", "f64", reqs=["R4.3-2"], decode=["f64"]),
        T("std::string", "str", "str", decode=["str"]),
        T("std::vector<uint8_t>", "bytes", "u8s", decode=["u8s"]),
        T("std::vector<int32_t>", "ints", "i32s", INT32, reqs=["R3.2-3"], decode=["i32s"]),
        T("std::vector<int64_t>", "ints", "i64s", INT64, reqs=["R3.2-3"], decode=["i64s"]),
        T("std::vector<float>", "f32s", "f32s", reqs=["R3.2-3"], decode=["f32s"]),
        T("std::vector<double>", "f64s", "f64s", reqs=["R3.2-3"], decode=["f64s"]),
        T("EncodableList", "list", "list", decode=["list"]),
        T("EncodableMap", "map", "map", reqs=["R7.2-2"], decode=["map"], unordered=True),
        T("CustomEncodableValue", "null", "refuse", reqs=["R1.4-2"]),
    ],
    "glib": [
        T("FL_VALUE_TYPE_NULL", "null", "null", decode=["null"]),
        T("FL_VALUE_TYPE_BOOL", "bool", "bool", decode=["bool"]),
        T("FL_VALUE_TYPE_INT", "int", "by-value", INT64, reqs=["R4.2-4"], decode=["i32", "i64"]),
        T("FL_VALUE_TYPE_FLOAT", "f64", "f64", reqs=["R4.3-2"], decode=["f64"]),
        T("FL_VALUE_TYPE_STRING", "str", "str", reqs=["R5.2-1"], decode=["str"]),
        T("FL_VALUE_TYPE_UINT8_LIST", "bytes", "u8s", decode=["u8s"]),
        T("FL_VALUE_TYPE_INT32_LIST", "ints", "i32s", INT32, decode=["i32s"]),
        T("FL_VALUE_TYPE_INT64_LIST", "ints", "i64s", INT64, decode=["i64s"]),
        T("FL_VALUE_TYPE_FLOAT32_LIST", "f32s", "f32s", decode=["f32s"]),
        T("FL_VALUE_TYPE_FLOAT_LIST", "f64s", "f64s", decode=["f64s"]),
        T("FL_VALUE_TYPE_LIST", "list", "list", decode=["list"]),
        T("FL_VALUE_TYPE_MAP", "map", "map", reqs=["R7.2-2"], decode=["map"]),
    ],
    "c": [
        T("SMC_TYPE_NULL", "null", "null", decode=["null"]),
        T("SMC_TYPE_BOOL", "bool", "bool", decode=["bool"]),
        T("SMC_TYPE_I32", "int", "i32", INT32, decode=["i32"]),
        T("SMC_TYPE_I64", "int", "i64", INT64, reqs=["R4.2-2"], decode=["i64"]),
        T("SMC_TYPE_F64", "f64", "f64", reqs=["R4.3-2"], decode=["f64"]),
        T("SMC_TYPE_STR", "str", "str", decode=["str"]),
        T("SMC_TYPE_U8S", "bytes", "u8s", decode=["u8s"]),
        T("SMC_TYPE_I32S", "ints", "i32s", INT32, decode=["i32s"]),
        T("SMC_TYPE_I64S", "ints", "i64s", INT64, decode=["i64s"]),
        T("SMC_TYPE_F64S", "f64s", "f64s", decode=["f64s"]),
        T("SMC_TYPE_F32S", "f32s", "f32s", decode=["f32s"]),
        T("SMC_TYPE_LIST", "list", "list", decode=["list"]),
        T("SMC_TYPE_MAP", "map", "map", reqs=["R7.2-2"], decode=["map"]),
        T("SMC_TYPE_LARGEINT", "str", "refuse", reqs=["R4.4-1"]),
    ],
    "any": [
        T("null", "null", "null"),
        T("bool", "bool", "bool"),
        T("int32", "int", "i32", INT32),
        T("float32", "f32", "f32-widened", reqs=["R17-4"]),
        T("float64", "f64", "f64", reqs=["R4.3-2"]),
        T("string", "str", "str"),
        T("bytes", "bytes", "u8s"),
    ],
}

# spec §17 subsection of each vocabulary (vector ids are s17.N-...).
SECTION_OF = {
    "dart": "17.2",
    "dart-web": "17.3",
    "kotlin": "17.4",
    "swift": "17.5",
    "cpp": "17.6",
    "glib": "17.7",
    "c": "17.8",
    "any": "17.9",
}
# What every list element / map key and value is for list and map types of a vocabulary:
# the type a decoder produces for a nested value is its decode type.
WIRE_WORDS = (
    "null",
    "bool",
    "i32",
    "i64",
    "f64",
    "str",
    "u8s",
    "i32s",
    "i64s",
    "f64s",
    "f32s",
    "list",
    "map",
)


class HostError(ValueError):
    pass


def table(vocab):
    return {t.name: t for t in VOCABULARIES[vocab]}


def decode_type(vocab, word):
    """The host type a decoder of `vocab` produces for wire type `word`, or None."""
    for t in VOCABULARIES[vocab]:
        if word in t.decode:
            return t
    return None


# -- literals -------------------------------------------------------------------------------


def _int(x, rng, where):
    if not isinstance(x, str) or not re.match(r"^-?(0|[1-9][0-9]*)$", x) or x == "-0":
        raise HostError("%s: an integer literal is a canonical decimal string" % where)
    n = int(x)
    if rng and not rng[0] <= n <= rng[1]:
        raise HostError("%s: %s is outside the type's range %s" % (where, x, rng))
    return n


def _bits(x, digits, where):
    if not isinstance(x, str) or not re.match(r"^[0-9a-f]{%d}$" % digits, x):
        raise HostError("%s: a float literal is %d lower-case hex digits" % (where, digits))
    return x


def widen_f32(h):
    """binary32 bits -> the binary64 bits of the same value (exact; NaN: quiet, payload moved
    to the top of the binary64 payload, as IEEE 754 conversion does)."""
    b = int(h, 16)
    sign, exp, frac = b >> 31, (b >> 23) & 0xFF, b & 0x7FFFFF
    if exp == 0xFF:
        e64, f64 = 0x7FF, (frac << 29) | (1 << 51 if frac else 0)
    elif exp == 0:
        if frac == 0:
            e64, f64 = 0, 0
        else:  # subnormal: normalise
            e = -126
            while not frac & 0x800000:
                frac <<= 1
                e -= 1
            e64, f64 = e + 1023, (frac & 0x7FFFFF) << 29
    else:
        e64, f64 = exp - 127 + 1023, frac << 29
    return "%016x" % ((sign << 63) | (e64 << 52) | f64)


def _integral64(h):
    """A binary64 bit pattern holding an integer (not NaN or an infinity)."""
    b = int(h, 16)
    exp = (b >> 52) & 0x7FF
    if exp == 0x7FF:
        return False
    import struct

    x = struct.unpack("<d", b.to_bytes(8, "little"))[0]
    return x == int(x)


def to_value(vocab, hv, where="$"):
    """The notation value host value `hv` must be written as (spec §17), or raise Refused."""
    if not isinstance(hv, dict) or set(hv) != {"type", "value"}:
        raise HostError('%s: a host value is {"type": T, "value": X}' % where)
    t = table(vocab).get(hv["type"])
    if t is None or not t.encodes:
        raise HostError("%s: %r is not an encodable %s type" % (where, hv["type"], vocab))
    x = hv["value"]
    check_literal(vocab, t, x, where)
    if t.enc == "refuse":
        raise Refused("%s %s" % (vocab, t.name))
    if t.enc == "null":
        return ["null"]
    if t.enc == "bool":
        return ["bool", x]
    if t.enc in ("i32", "i64"):
        return [t.enc, int(x) if t.enc == "i32" else x]
    if t.enc == "by-value":
        n = int(x)
        return ["i32", n] if INT32[0] <= n <= INT32[1] else ["i64", x]
    if t.enc == "u64":
        if int(x) > INT64[1]:
            raise Refused("%s %s above Int64.max" % (vocab, t.name))
        return ["i64", x]
    if t.enc == "f64":
        return ["f64", x]
    if t.enc == "f32-widened":
        return ["f64", widen_f32(x)]
    if t.enc == "str":
        if is_utf16_literal(x):
            text = utf16_text(utf16_units(x, where))
            if text is None:
                raise Refused("%s %s with a lone surrogate (R5.4-2)" % (vocab, t.name))
            return ["str", text]
        return ["str", x]
    if t.enc == "u8s":
        return ["u8s", x]
    if t.enc == "i32s":
        return ["i32s", [int(e) for e in x]]
    if t.enc in ("i64s", "f64s", "f32s"):
        return [t.enc, list(x)]
    if t.enc == "int-list":
        return ["list", [to_value(vocab, {"type": "int", "value": e}) for e in x]]
    if t.enc == "int64-list":
        return ["list", [["i64", e] for e in x]]
    if t.enc == "list":
        return ["list", [to_value(vocab, e, "%s[%d]" % (where, i)) for i, e in enumerate(x)]]
    if t.enc == "map":
        return [
            "map",
            [[to_value(vocab, k, where + "<>"), to_value(vocab, v, where + "{}")] for k, v in x],
        ]
    raise AssertionError(t.enc)


# spec §17.1 (decision of vectors 0.3): the string types whose values are sequences of UTF-16
# code units, the only ones that can hold a lone surrogate; only they take the literal
# {"utf16": H}, H four lower-case hex digits per code unit.
UTF16_STRINGS = {
    "dart": ("String",),
    "dart-web": ("String",),
    "kotlin": ("String",),
    "swift": ("NSString",),
}
UTF16_RE = re.compile(r"^([0-9a-f]{4})*$")


def is_utf16_literal(x):
    return isinstance(x, dict) and set(x) == {"utf16"}


def utf16_units(x, where="$"):
    """The code units of a {"utf16": H} literal."""
    h = x.get("utf16") if is_utf16_literal(x) else None
    if not isinstance(h, str) or not UTF16_RE.match(h):
        raise HostError(
            '%s: a utf16 literal is {"utf16": H}, 4 lower-case hex digits per code '
            "unit (spec §17.1)" % where
        )
    return [int(h[i : i + 4], 16) for i in range(0, len(h), 4)]


def utf16_pieces(units):
    """The string as pieces: a str of scalars for each well-formed run, an int for each lone
    surrogate (a high one not followed by a low one, a low one not after a high one)."""
    out, run, i = [], [], 0
    while i < len(units):
        u = units[i]
        if 0xD800 <= u <= 0xDBFF and i + 1 < len(units) and 0xDC00 <= units[i + 1] <= 0xDFFF:
            run.append(chr(0x10000 + ((u - 0xD800) << 10) + (units[i + 1] - 0xDC00)))
            i += 2
            continue
        if 0xD800 <= u <= 0xDFFF:
            out.extend(["".join(run), u])
            run = []
        else:
            run.append(chr(u))
        i += 1
    out.append("".join(run))
    return [p for p in out if p != ""]


def utf16_text(units):
    """The Unicode scalars of well-formed code units, or None if a surrogate is lone."""
    pieces = utf16_pieces(units)
    if any(isinstance(p, int) for p in pieces):
        return None
    return "".join(pieces)


# What official codecs write for a string with lone surrogates instead of refusing it
# (spec §5.4, D13): each lone surrogate as U+FFFD (DART, R5.4-3), as "?" (JAVA, R5.4-4
# forbids it), or the string up to the first one (OBJC, inferred; R5.4-4 forbids it).
LONE_SURROGATE_POLICIES = ("fffd", "question", "truncate")


def utf16_written(units, policy):
    """The str a codec with `policy` writes for the code units (LONE_SURROGATE_POLICIES)."""
    out = []
    for p in utf16_pieces(units):
        if not isinstance(p, int):
            out.append(p)
        elif policy == "truncate":
            break
        else:
            out.append("\ufffd" if policy == "fffd" else "?")
    return "".join(out)


def has_lone_surrogate(s):
    return any(0xD800 <= ord(c) <= 0xDFFF for c in s)


def check_literal(vocab, t, x, where):
    lit = t.lit
    if lit == "str" and is_utf16_literal(x):
        if t.name not in UTF16_STRINGS.get(vocab, ()):
            raise HostError(
                "%s: %s %s holds no UTF-16 code units: a utf16 literal is not one of its "
                "literals (spec §17.1)" % (where, vocab, t.name)
            )
        utf16_units(x, where)
        return
    if lit == "null":
        ok = x is None
    elif lit == "bool":
        ok = isinstance(x, bool)
    elif lit == "int":
        _int(x, t.rng, where)
        ok = True
    elif lit in ("f32", "f64"):
        _bits(x, 8 if lit == "f32" else 16, where)
        ok = True
        if vocab == "dart-web" and t.name == "double" and _integral64(x):
            raise HostError("%s: on dart2js an integral double is an int (spec §17.3)" % where)
    elif lit == "str":
        ok = isinstance(x, str)
        if ok and has_lone_surrogate(x):
            raise HostError(
                '%s: a JSON string literal holds Unicode scalars; a lone surrogate is {"utf16": '
                "H} (spec §17.1)" % where
            )
    elif lit == "bytes":
        ok = isinstance(x, str) and re.match(r"^([0-9a-f]{2})*$", x) is not None
    elif lit == "ints":
        ok = isinstance(x, list)
        for e in x if ok else ():
            _int(e, t.rng, where)
    elif lit in ("f32s", "f64s"):
        ok = isinstance(x, list)
        for e in x if ok else ():
            _bits(e, 8 if lit == "f32s" else 16, where)
    elif lit == "list":
        ok = isinstance(x, list)
    elif lit == "map":
        ok = isinstance(x, list) and all(isinstance(p, list) and len(p) == 2 for p in x)
    else:
        raise AssertionError(lit)
    if not ok:
        raise HostError("%s: %r is not a %s literal of %s" % (where, x, lit, t.name))


def from_value(vocab, v, where="$"):
    """The host value a decoder of `vocab` must produce for notation value `v` (spec §17)."""
    word = v[0]
    t = decode_type(vocab, word)
    if t is None:
        raise HostError("%s: %s has no %s host type" % (where, word, vocab))
    if word == "null":
        x = None
    elif word in ("bool", "str", "u8s", "f64"):
        x = v[1]
    elif word == "i32":
        x = str(v[1])
    elif word == "i64":
        x = v[1]
    elif word == "i32s":
        x = [str(e) for e in v[1]]
    elif word in ("i64s", "f64s", "f32s"):
        x = list(v[1])
    elif word == "list":
        x = [from_value(vocab, e, "%s[%d]" % (where, i)) for i, e in enumerate(v[1])]
    elif word == "map":
        x = [[from_value(vocab, k, where), from_value(vocab, e, where)] for k, e in v[1]]
    else:
        raise HostError("%s: %s has no host type" % (where, word))
    return {"type": t.name, "value": x}


def types_in(hv):
    """Every type name in a host value tree."""
    out = [hv["type"]]
    x = hv["value"]
    if isinstance(x, list):
        for e in x:
            if isinstance(e, dict):
                out.extend(types_in(e))
            elif isinstance(e, list) and len(e) == 2 and all(isinstance(p, dict) for p in e):
                out.extend(types_in(e[0]) + types_in(e[1]))
    return out


def utf16_literals(hv):
    """The code units of every {"utf16": H} literal in a host value tree."""
    x = hv["value"]
    if is_utf16_literal(x):
        return [utf16_units(x)]
    out = []
    if isinstance(x, list):
        for e in x:
            if isinstance(e, dict):
                out.extend(utf16_literals(e))
            elif isinstance(e, list) and len(e) == 2 and all(isinstance(p, dict) for p in e):
                out.extend(utf16_literals(e[0]) + utf16_literals(e[1]))
    return out


def string_reqs(hv):
    """spec §5.4: a string of code units is written as well-formed UTF-8 (R5.4-1) or, with a
    lone surrogate, refused (R5.4-2)."""
    out = set()
    for units in utf16_literals(hv):
        out.add("R5.4-1" if utf16_text(units) is not None else "R5.4-2")
    return out


def unordered(vocab, hv):
    """True if a map type in the tree has no pinned iteration order (spec §17.1)."""
    tab = table(vocab)
    return any(tab[name].unordered for name in types_in(hv) if name in tab)


# -- self-checks ----------------------------------------------------------------------------

TABLE_HEAD_RE = re.compile(r"^\| Host type \| Written as \| Decoded from \|")
VOCAB_LINE_RE = re.compile(r"^Vocabulary `([a-z-]+)`")
ROW_RE = re.compile(r"^\| `([^`]+)` \| ([^|]*)\| ([^|]*)\|")


def spec_tables(path=SPEC):
    """{vocabulary: {type: (written-as cell, decoded-from cell)}} read from spec §17."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, vocab, in_table = {}, None, False
    for line in lines:
        m = VOCAB_LINE_RE.match(line)
        if m:
            vocab = m.group(1)
            continue
        if TABLE_HEAD_RE.match(line):
            if vocab is None or vocab in out:
                raise SystemExit("spec §17: a host-type table without its own `Vocabulary` line")
            out[vocab] = {}
            in_table = True
            continue
        if in_table:
            if line.startswith("|---"):
                continue
            m = ROW_RE.match(line)
            if not m:
                in_table = False
                vocab = None
                continue
            out[vocab][m.group(1)] = (m.group(2).strip(), m.group(3).strip())
    return out


def _cell_words(cell):
    return set(re.findall(r"`([a-z0-9]+)`", cell))


def check_spec_tables(path=SPEC):
    """The spec's tables and VOCABULARIES agree: the same types, each written as the same wire
    word, each decoded from the same wire words."""
    spec = spec_tables(path)
    if set(spec) != set(VOCABULARIES):
        raise SystemExit(
            "spec §17 has tables for %s, the generator for %s"
            % (sorted(spec), sorted(VOCABULARIES))
        )
    for vocab, types in VOCABULARIES.items():
        rows = spec[vocab]
        names = [t.name for t in types]
        if sorted(rows) != sorted(names):
            raise SystemExit(
                "spec §17 %s table: types only in the spec %s, only in the "
                "generator %s"
                % (vocab, sorted(set(rows) - set(names)), sorted(set(names) - set(rows)))
            )
        for t in types:
            written, decoded = rows[t.name]
            want = "—" if not t.encodes else t.spec_word
            got = written.replace("**", "").strip()
            if not (got.startswith("`%s`" % want) or got.startswith(want)):
                raise SystemExit(
                    "spec §17 %s %s: written as %r, the generator says %s"
                    % (vocab, t.name, written, want)
                )
            if _cell_words(decoded) != set(t.decode):
                raise SystemExit(
                    "spec §17 %s %s: decoded from %r, the generator says %s"
                    % (vocab, t.name, decoded, list(t.decode) or "nothing")
                )


SCHEMA = os.path.join(os.path.dirname(HERE), "schema.json")


def check_schema(path=SCHEMA):
    """vectors/schema.json names the vocabularies and the type names of VOCABULARIES: the
    judge's list of vocabularies is generated from it, and the runners' words are checked
    against it (judge/tests handshake_words)."""
    with open(path, encoding="utf-8") as f:
        defs = json.load(f)["$defs"]
    if defs["hostVocabulary"]["enum"] != list(VOCABULARIES):
        raise SystemExit(
            "schema.json hostVocabulary %s, the generator's vocabularies %s"
            % (defs["hostVocabulary"]["enum"], list(VOCABULARIES))
        )
    names = {t.name for types in VOCABULARIES.values() for t in types}
    listed = defs["hostType"]["enum"]
    if set(listed) != names or len(listed) != len(names):
        raise SystemExit(
            "schema.json hostType differs from the generator's tables: %s"
            % (sorted(set(listed) ^ names) or "a name listed twice")
        )


# spec §17.1 (decision of vectors 0.3): host types a decoder may deliver instead of the
# table's, per vocabulary: {table type: (alternatives, ...)}. Each is written as the same wire
# type and holds every value of it without loss (check_alternatives).
ALTERNATIVES = {"swift": {"Data": ("[UInt8]",)}}


def check_alternatives():
    for vocab, alts in ALTERNATIVES.items():
        tab = table(vocab)
        for name, others in alts.items():
            for o in others:
                if name not in tab or o not in tab:
                    raise SystemExit(
                        "ALTERNATIVES: %s %s / %s is not in the table" % (vocab, name, o)
                    )
                if (tab[name].enc, tab[name].lit) != (tab[o].enc, tab[o].lit):
                    raise SystemExit(
                        "ALTERNATIVES: %s %s and %s are written differently" % (vocab, name, o)
                    )


PROTOCOL_SCHEMA = os.path.join(
    os.path.dirname(os.path.dirname(HERE)), "runners", "protocol.schema.json"
)


def stateable_absent(vocab):
    """spec §17.1 (Types an API cannot take or give): the types of `vocab` a runner may state
    its codec's API lacks, in table order: all but the core types, which are every type the
    table decodes into and, for a wire type none of those is written as, the first type
    written as exactly that wire type."""
    types = VOCABULARIES[vocab]
    core = {t.name for t in types if t.decode}
    covered = {t.enc for t in types if t.decode}
    for t in types:
        if t.enc in WIRE_WORDS and t.enc not in covered:
            core.add(t.name)
            covered.add(t.enc)
    return [t.name for t in types if t.name not in core]


def check_protocol_schema(path=PROTOCOL_SCHEMA):
    """runners/protocol.schema.json `$defs/hosts_without` lists, per vocabulary, exactly the
    types stateable_absent gives: the judge refuses a hello stating any other (a core type)
    by that list alone."""
    with open(path, encoding="utf-8") as f:
        props = json.load(f)["$defs"]["hosts_without"]["properties"]
    if sorted(props) != sorted(VOCABULARIES):
        raise SystemExit(
            "protocol.schema.json hosts_without has vocabularies %s, the generator %s"
            % (sorted(props), sorted(VOCABULARIES))
        )
    for vocab in VOCABULARIES:
        want = stateable_absent(vocab)
        items = props[vocab].get("items")
        got = items.get("enum") if isinstance(items, dict) else [] if items is False else None
        if got != want:
            raise SystemExit(
                "protocol.schema.json hosts_without.%s allows %s; spec §17.1 allows %s"
                % (vocab, got, want)
            )


def alternatives_in(vocab, host_value):
    """{type: [alternatives]} for the types of `host_value` that have alternatives."""
    alts = ALTERNATIVES.get(vocab, {})
    return {n: list(alts[n]) for n in sorted(types_in(host_value)) if n in alts}


# Literal kinds of the array-like host types: each has an empty value ("" or []).
ARRAY_LITS = ("bytes", "ints", "f32s", "f64s", "list", "map")
ARRAY_WORDS = ("u8s", "i32s", "i64s", "f64s", "f32s", "list", "map")


def empty_value(t):
    return "" if t.lit == "bytes" else []


def check_empty_coverage(cases):
    """issue 31: every array-like type of every vocabulary has an encode vector of its empty
    value (a Swift port wrote an empty Array as an empty Uint8List), and every array wire
    type a vocabulary decodes has a decode vector of its empty value."""
    enc, dec = set(), set()
    for c in cases:
        hv = c["host_value"]
        if c["kind"] == "host_encode" and hv["value"] in ("", []):
            enc.add((c["host"], hv["type"]))
        elif c["kind"] == "host_decode" and c["value"][1:] in ([""], [[]]):
            dec.add((c["host"], c["value"][0]))
    missing = []
    for vocab, types in VOCABULARIES.items():
        for t in types:
            if t.encodes and t.lit in ARRAY_LITS and (vocab, t.name) not in enc:
                missing.append("%s %s: no encode vector of its empty value" % (vocab, t.name))
            for w in t.decode:
                if w in ARRAY_WORDS and (vocab, w) not in dec:
                    missing.append("%s: no decode vector of an empty %s" % (vocab, w))
    if missing:
        raise SystemExit("spec §17 empty arrays (issue 31):\n  " + "\n  ".join(missing))


def check_coverage(cases):
    """Every type that is written has an encode vector, every type that is decoded to has a
    decode vector, and every wire word a vocabulary decodes has one (spec §17; issue 20)."""
    enc, dec, dec_words = set(), set(), set()
    for c in cases:
        vocab = c["host"]
        if c["kind"] == "host_encode":
            for name in types_in(c["host_value"]):
                enc.add((vocab, name))
        else:
            for name in types_in(c["host_value"]):
                dec.add((vocab, name))
            stack = [c["value"]]
            while stack:
                v = stack.pop()
                dec_words.add((vocab, v[0]))
                if v[0] == "list":
                    stack.extend(v[1])
                elif v[0] == "map":
                    for k, e in v[1]:
                        stack.extend((k, e))
    missing = []
    for vocab, types in VOCABULARIES.items():
        for t in types:
            if t.encodes and (vocab, t.name) not in enc:
                missing.append("%s %s: no encode-from-host vector" % (vocab, t.name))
            if t.decode and (vocab, t.name) not in dec:
                missing.append("%s %s: no decode-to-host vector" % (vocab, t.name))
            for w in t.decode:
                if (vocab, w) not in dec_words:
                    missing.append("%s: no decode-to-host vector decodes %s" % (vocab, w))
    if missing:
        raise SystemExit("host types left without a vector (spec §17):\n  " + "\n  ".join(missing))
