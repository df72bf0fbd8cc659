"""smcpy: an independent Python model of the StandardMessageCodec wire format.

Written from spec/standard-message-codec.md, spec/errors.md and spec/notation.md only. It is
the second implementation the vector generator cross-checks against the C reference, so it
must never be "fixed" by looking at the C code: where the two disagree, the spec decides.

Values are handled directly in the value notation (nested Python lists, as json.loads gives
them). Public entry points:

    check_value(v) / check_call(c) / check_envelope(e)   notation validation (bad_notation)
    read_notation(text, entry)                             notation text -> checked value
    encode_message(v) / encode_call(c) / encode_envelope(e)  -> Encoded(bytes, marks)
    decode_message(b, strict) / decode_call(b, strict) / decode_envelope(b, strict)
    notation_text(v)                                       the one canonical JSON text
"""

import json
import os
import struct

MAX_DEPTH = 128  # spec §15.1: the reference default
MAX_SIZE = 0xFFFFFFFF  # spec §15.2

TAG_NULL, TAG_TRUE, TAG_FALSE = 0x00, 0x01, 0x02
TAG_I32, TAG_I64, TAG_LARGEINT, TAG_F64 = 0x03, 0x04, 0x05, 0x06
TAG_STR, TAG_U8S, TAG_I32S, TAG_I64S, TAG_F64S = 0x07, 0x08, 0x09, 0x0A, 0x0B
TAG_LIST, TAG_MAP, TAG_F32S = 0x0C, 0x0D, 0x0E
TAG_CUSTOM_MIN = 0x80

# Element width and alignment of each typed list (spec §6.2-§6.5).
TYPED_LISTS = {
    "i32s": (TAG_I32S, 4, "<i"),
    "i64s": (TAG_I64S, 8, "<q"),
    "f64s": (TAG_F64S, 8, "<Q"),
    "f32s": (TAG_F32S, 4, "<I"),
}
TYPED_BY_TAG = {tag: (word, width, fmt) for word, (tag, width, fmt) in TYPED_LISTS.items()}

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def _schema_words(name):
    """The words of $defs/<name> in vectors/schema.json, where the error classes (spec/errors.md)
    and the feature words (spec/vectors.md V.3) are defined once; the C tools' lists are
    generated from the same file (notation/CMakeLists.txt: smct_vocab.h)."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "schema.json")
    with open(path, encoding="utf-8") as f:
        return tuple(json.load(f)["$defs"][name]["enum"])


ERROR_CLASSES = _schema_words("errorClass")
FEATURES = _schema_words("feature")  # what a runner may declare it decodes or encodes (P.1)


class SmcError(Exception):
    """A decode (or encode) failure with an error class and byte offset (spec §14)."""

    def __init__(self, cls, offset, message):
        super().__init__("%s at offset %s: %s" % (cls, offset, message))
        self.cls = cls
        self.offset = offset
        self.message = message


class NotationError(ValueError):
    """The notation given is not valid notation (class bad_notation)."""


# ---------------------------------------------------------------------------------------
# Notation validation (spec notation.md N.3, N.4)


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _check_dec64(s, where):
    if not isinstance(s, str):
        raise NotationError("%s: int64 must be a decimal string" % where)
    body = s[1:] if s.startswith("-") else s
    if not body or not body.isascii() or not body.isdigit() or (len(body) > 1 and body[0] == "0"):
        raise NotationError("%s: %r is not a canonical decimal" % (where, s))
    if s == "-0":
        raise NotationError("%s: -0 is not allowed" % where)
    if not INT64_MIN <= int(s) <= INT64_MAX:
        raise NotationError("%s: %s out of int64 range" % (where, s))


def _check_hex(s, digits, where):
    if not isinstance(s, str) or len(s) != digits or any(c not in "0123456789abcdef" for c in s):
        raise NotationError("%s: %r is not %d lower-case hex digits" % (where, s, digits))


def _check_text(s, where):
    if not isinstance(s, str):
        raise NotationError("%s: expected a JSON string" % where)
    if any(0xD800 <= ord(c) <= 0xDFFF for c in s):
        raise NotationError("%s: lone surrogate in string" % where)


def _check_strbytes_hex(x, where):
    """notation.md N.1 `strbytes`: the kept bytes of a decoded string that is not UTF-8."""
    if not isinstance(x, str) or len(x) % 2 or any(c not in "0123456789abcdef" for c in x):
        raise NotationError("%s: bad strbytes hex" % where)
    if utf8_error_offset(bytes.fromhex(x)) is None:
        raise NotationError("%s: strbytes holds well-formed UTF-8 (use str)" % where)


def _check_text_field(s, where, nullable):
    """A text field of a call or envelope (N.2): a JSON string, a strbytes value, or (for
    the message and stacktrace) JSON null."""
    if s is None and nullable:
        return
    if isinstance(s, list):
        if len(s) != 2 or s[0] != "strbytes":
            raise NotationError('%s: a text field is a string or ["strbytes", H]' % where)
        _check_strbytes_hex(s[1], where)
        return
    _check_text(s, where)


def check_value(v, where="$"):
    if not isinstance(v, list) or not v or not isinstance(v[0], str):
        raise NotationError("%s: a value is an array starting with a type word" % where)
    t = v[0]
    arity = {"null": 1, "custom": 3}.get(t, 2)
    if len(v) != arity:
        raise NotationError("%s: %s takes %d elements" % (where, t, arity))
    if t == "null":
        return
    x = v[1]
    if t == "bool":
        if not isinstance(x, bool):
            raise NotationError("%s: bool needs true/false" % where)
    elif t == "i32":
        if not _is_int(x) or not INT32_MIN <= x <= INT32_MAX:
            raise NotationError("%s: bad i32 %r" % (where, x))
    elif t == "i64":
        _check_dec64(x, where)
    elif t == "largeint":
        _check_text(x, where)
    elif t == "f64":
        _check_hex(x, 16, where)
    elif t == "str":
        _check_text(x, where)
    elif t == "strbytes":
        _check_strbytes_hex(x, where)
    elif t == "u8s":
        if not isinstance(x, str) or len(x) % 2 or any(c not in "0123456789abcdef" for c in x):
            raise NotationError("%s: bad u8s hex" % where)
    elif t in ("i32s", "i64s", "f64s", "f32s"):
        if not isinstance(x, list):
            raise NotationError("%s: %s needs an array" % (where, t))
        for i, e in enumerate(x):
            w = "%s[%d]" % (where, i)
            if t == "i32s":
                if not _is_int(e) or not INT32_MIN <= e <= INT32_MAX:
                    raise NotationError("%s: bad i32 element" % w)
            elif t == "i64s":
                _check_dec64(e, w)
            else:
                _check_hex(e, 16 if t == "f64s" else 8, w)
    elif t == "list":
        if not isinstance(x, list):
            raise NotationError("%s: list needs an array" % where)
        for i, e in enumerate(x):
            check_value(e, "%s[%d]" % (where, i))
    elif t == "map":
        if not isinstance(x, list):
            raise NotationError("%s: map needs an array of pairs" % where)
        for i, pair in enumerate(x):
            if not isinstance(pair, list) or len(pair) != 2:
                raise NotationError("%s: map entry %d is not a pair" % (where, i))
            check_value(pair[0], "%s<%d>" % (where, i))
            check_value(pair[1], "%s{%d}" % (where, i))
    elif t == "custom":
        if not _is_int(x) or not 128 <= x <= 255:
            raise NotationError("%s: custom tag %r outside 128..255" % (where, x))
        check_value(v[2], where + ".v")
    else:
        raise NotationError("%s: unknown type word %r" % (where, t))


def check_call(c):
    if not isinstance(c, list) or len(c) != 3 or c[0] != "call":
        raise NotationError('a method call is ["call", NAME, V]')
    _check_text_field(c[1], "$.name", False)
    check_value(c[2], "$.args")


def check_envelope(e):
    if not isinstance(e, list) or not e:
        raise NotationError('an envelope is ["success", V] or ["error", ...]')
    if e[0] == "success":
        if len(e) != 2:
            raise NotationError("success takes one value")
        check_value(e[1], "$.result")
    elif e[0] == "error":
        if len(e) not in (4, 5):
            raise NotationError("error takes code, message, details[, stacktrace]")
        _check_text_field(e[1], "$.code", False)
        _check_text_field(e[2], "$.message", True)
        check_value(e[3], "$.details")
        if len(e) == 5:
            _check_text_field(e[4], "$.stacktrace", True)
    else:
        raise NotationError("unknown envelope form %r" % (e[0],))


def _no_constant(name):
    raise NotationError("%s is not JSON (RFC 8259)" % name)


def read_notation(text, entry="message"):
    """Notation text of entry point `entry` ("message", "call", "envelope") to its value:
    strict JSON (RFC 8259: no NaN, no Infinity), then the checks of notation.md N.3/N.4.
    NotationError if the text is not that notation."""
    try:
        v = json.loads(text, parse_constant=_no_constant)
    except ValueError as e:
        raise NotationError("not JSON: %s" % e) from e
    {"message": check_value, "call": check_call, "envelope": check_envelope}[entry](v)
    return v


def notation_text(v):
    """The canonical JSON text of a notation value (used for equality and for files)."""
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def same(a, b):
    """Notation equality (notation.md N.4): structural JSON equality, types included."""
    return notation_text(a) == notation_text(b)


# ---------------------------------------------------------------------------------------
# Encoder (spec §2-§13)


class Encoded:
    def __init__(self, data, marks):
        self.data = bytes(data)
        self.marks = marks  # path -> {"tag": off, "size": off, "pad": off, "pad_len": n}

    @property
    def hex(self):
        return self.data.hex()


class _Writer:
    """Writes one buffer. size_form(path) may force "fe"/"ff" size forms and pad_fill(path,
    n) may return non-zero padding bytes: both exist only to build non-canonical inputs."""

    def __init__(self, size_form=None, pad_fill=None, max_depth=None):
        self.buf = bytearray()
        self.marks = {}
        self.size_form = size_form or (lambda path: None)
        self.pad_fill = pad_fill or (lambda path, n: None)

    def mark(self, path, key, off):
        self.marks.setdefault(path, {})[key] = off

    def size(self, n, path):
        if not 0 <= n <= MAX_SIZE:
            raise SmcError("not_encodable", None, "size %d above 2^32-1 (spec §15.2)" % n)
        self.mark(path, "size", len(self.buf))
        form = self.size_form(path)
        if form is None:
            form = "1" if n < 254 else ("fe" if n <= 0xFFFF else "ff")  # spec §2.2
        if form == "1":
            assert n < 254
            self.buf.append(n)
        elif form == "fe":
            assert n <= 0xFFFF
            self.buf += b"\xfe" + struct.pack("<H", n)
        else:
            self.buf += b"\xff" + struct.pack("<I", n)

    def align(self, width, path):
        # spec §3.1: padding counted from the first byte of this buffer.
        n = (-len(self.buf)) % width
        self.mark(path, "pad", len(self.buf))
        self.mark(path, "pad_len", n)
        fill = self.pad_fill(path, n)
        if fill is None:
            fill = bytes(n)  # spec §3.2: padding is written as 0x00
        assert len(fill) == n
        self.buf += fill

    def text(self, s, path):
        if isinstance(s, list):  # ["strbytes", H]: never written (spec §5.4, R5.4-1)
            raise SmcError("not_encodable", None, "a string that is not UTF-8 is never written")
        data = s.encode("utf-8")  # raises on lone surrogates; notation forbids them
        self.size(len(data), path)
        self.buf += data

    def value(self, v, path):
        self.mark(path, "tag", len(self.buf))
        t = v[0]
        b = self.buf
        if t == "null":
            b.append(TAG_NULL)
        elif t == "bool":
            b.append(TAG_TRUE if v[1] else TAG_FALSE)
        elif t == "i32":
            b.append(TAG_I32)
            b += struct.pack("<i", v[1])
        elif t == "i64":
            b.append(TAG_I64)
            b += struct.pack("<q", int(v[1]))
        elif t == "largeint":
            raise SmcError("not_encodable", None, "largeInt is never written (spec §4.4)")
        elif t == "f64":
            b.append(TAG_F64)
            self.align(8, path)
            b += struct.pack("<Q", int(v[1], 16))
        elif t == "str":
            b.append(TAG_STR)
            self.text(v[1], path)
        elif t == "strbytes":
            raise SmcError(
                "not_encodable", None, "a string that is not UTF-8 is never written (spec §5.4)"
            )
        elif t == "u8s":
            data = bytes.fromhex(v[1])
            b.append(TAG_U8S)
            self.size(len(data), path)
            b += data
        elif t in TYPED_LISTS:
            tag, width, fmt = TYPED_LISTS[t]
            b.append(tag)
            self.size(len(v[1]), path)
            self.align(width, path)  # spec §6.6: also for empty lists
            for e in v[1]:
                if t == "i64s":
                    e = int(e)
                elif t in ("f64s", "f32s"):
                    e = int(e, 16)
                b += struct.pack(fmt, e)
        elif t == "list":
            b.append(TAG_LIST)
            self.size(len(v[1]), path)
            for i, e in enumerate(v[1]):
                self.value(e, "%s[%d]" % (path, i))
        elif t == "map":
            b.append(TAG_MAP)
            self.size(len(v[1]), path)
            for i, (k, val) in enumerate(v[1]):
                self.value(k, "%s<%d>" % (path, i))
                self.value(val, "%s{%d}" % (path, i))
        elif t == "custom":
            b.append(v[1])
            self.value(v[2], path + ".v")
        else:
            raise NotationError("unknown type word %r" % t)


def encode_message(v, **kw):
    check_value(v)
    w = _Writer(**kw)
    w.value(v, "$")
    return Encoded(w.buf, w.marks)


def encode_call(c, **kw):
    check_call(c)
    w = _Writer(**kw)
    w.mark("$.name", "tag", 0)
    w.buf.append(TAG_STR)
    w.text(c[1], "$.name")
    w.value(c[2], "$.args")
    return Encoded(w.buf, w.marks)


def _nullable_text(w, s, path):
    if s is None:
        w.mark(path, "tag", len(w.buf))
        w.buf.append(TAG_NULL)
    else:
        w.mark(path, "tag", len(w.buf))
        w.buf.append(TAG_STR)
        w.text(s, path)


def encode_envelope(e, **kw):
    check_envelope(e)
    w = _Writer(**kw)
    if e[0] == "success":
        w.buf.append(0x00)
        w.value(e[1], "$.result")
    else:
        w.buf.append(0x01)
        _nullable_text(w, e[1], "$.code")
        _nullable_text(w, e[2], "$.message")
        w.value(e[3], "$.details")
        if len(e) == 5:
            _nullable_text(w, e[4], "$.stacktrace")
    return Encoded(w.buf, w.marks)


def encode(kind_entry, value, **kw):
    return {"message": encode_message, "call": encode_call, "envelope": encode_envelope}[
        kind_entry
    ](value, **kw)


# ---------------------------------------------------------------------------------------
# UTF-8 (RFC 3629, spec §5.3)


def utf8_error_offset(data):
    """Index of the first byte of the first ill-formed subsequence, or None if well formed."""
    i, n = 0, len(data)
    while i < n:
        c = data[i]
        if c < 0x80:
            i += 1
            continue
        # (number of continuation bytes, allowed range of the first continuation byte)
        if 0xC2 <= c <= 0xDF:
            need, lo, hi = 1, 0x80, 0xBF
        elif c == 0xE0:
            need, lo, hi = 2, 0xA0, 0xBF  # no overlong 3-byte forms
        elif 0xE1 <= c <= 0xEC or c in (0xEE, 0xEF):
            need, lo, hi = 2, 0x80, 0xBF
        elif c == 0xED:
            need, lo, hi = 2, 0x80, 0x9F  # no encoded surrogates
        elif c == 0xF0:
            need, lo, hi = 3, 0x90, 0xBF  # no overlong 4-byte forms
        elif 0xF1 <= c <= 0xF3:
            need, lo, hi = 3, 0x80, 0xBF
        elif c == 0xF4:
            need, lo, hi = 3, 0x80, 0x8F  # nothing above U+10FFFF
        else:
            return i  # 80..c1 (continuation or overlong lead), f5..ff
        for k in range(1, need + 1):
            if i + k >= n:
                return i
            cb = data[i + k]
            if k == 1:
                if not lo <= cb <= hi:
                    return i
            elif not 0x80 <= cb <= 0xBF:
                return i
        i += need + 1
    return None


def _cont(x):
    return 0x80 <= x <= 0xBF


def jdk_replace(raw):
    """The text `new String(bytes, UTF_8)` gives on OpenJDK 17 (observed, spec D11): one
    U+FFFD per maximal ill-formed subpart, except that a complete three-byte encoding of a
    surrogate (ED A0..BF 80..BF) is one U+FFFD, not three, and an incomplete sequence at the
    end of the input is one U+FFFD for all its bytes. Checked against the JDK on 3,000
    random inputs; ART (Android's runtime) is not checked."""
    out = []
    i, n = 0, len(raw)
    while i < n:
        b1, rest = raw[i], n - i
        b2 = raw[i + 1] if rest > 1 else None
        if b1 < 0x80:
            out.append(chr(b1))
            i += 1
        elif 0xC2 <= b1 <= 0xDF:
            if b2 is not None and _cont(b2):
                out.append(bytes(raw[i : i + 2]).decode("utf-8"))
                i += 2
            else:
                out.append("\ufffd")
                i += 1
        elif 0xE0 <= b1 <= 0xEF:
            bad2 = b2 is not None and ((b1 == 0xE0 and b2 < 0xA0) or not _cont(b2))
            out.append("\ufffd")
            if bad2:
                i += 1
            elif rest < 3:
                i = n
            elif not _cont(raw[i + 2]):
                i += 2
            else:
                c = ((b1 & 0x0F) << 12) | ((b2 & 0x3F) << 6) | (raw[i + 2] & 0x3F)
                if not 0xD800 <= c <= 0xDFFF:
                    out[-1] = chr(c)
                i += 3
        elif 0xF0 <= b1 <= 0xF4:
            bad2 = b2 is not None and (
                (b1 == 0xF0 and b2 < 0x90) or (b1 == 0xF4 and b2 > 0x8F) or not _cont(b2)
            )
            if bad2:
                out.append("\ufffd")
                i += 1
            elif rest > 2 and not _cont(raw[i + 2]):
                out.append("\ufffd")
                i += 2
            elif rest < 4:
                out.append("\ufffd")
                i = n
            elif not _cont(raw[i + 3]):
                out.append("\ufffd")
                i += 3
            else:
                out.append(bytes(raw[i : i + 4]).decode("utf-8"))
                i += 4
        else:
            out.append("\ufffd")
            i += 1
    return "".join(out)


# ---------------------------------------------------------------------------------------
# Decoder profiles. SPEC is the order of checks of errors.md §14.2 and the spec's decision on
# every implementation-defined rule (spec §1.1). The other settings are what real decoders
# do where the spec permits it:
#
#   fixed     how the fixed-type elements of calls and envelopes (method name; error code,
#             message, stacktrace) are read (errors.md §14.2, "permitted orders"):
#             "tag-first" (spec: the tag is checked before the element is decoded),
#             "value-first" (each element is decoded as a value, then its type is checked:
#             GLIB), "all-values-first" (every element is decoded, then the types are
#             checked: DART, JAVA)
#   counts    "count-first" (spec: a declared size is checked against the bytes left before
#             anything is read for it) or "elements-first" (elements and payloads are read
#             and the input runs out where it runs out: DART, JAVA, GLIB lists)
#   envelope  "four" (spec: a 4th element after the details is a stacktrace), "three" (an
#             error envelope has exactly three elements: JAVA, GLIB, OBJC), "ignore" (bytes
#             after the details are not looked at: CPP; never conforming, used only to name
#             CPP's behaviour on the implementation-defined stacktrace vectors)
#   and one setting per implementation-defined rule of spec §1.1:
#   largeint  R4.4-2: "value" (largeint), "string" (read as a string: DART, OBJC, CPP),
#             "bigint" (parsed as a hexadecimal BigInteger: JAVA), "reject" (unknown_tag)
#   utf8      R5.3-2: "reject" (bad_utf8), "keep" (raw bytes: CPP, GLIB), "replace" (U+FFFD:
#             JAVA, as OpenJDK 17 counts them: jdk_replace), "null" (the string becomes
#             null: OBJC)
#   bom       R5.1-3: "keep", "drop" (a leading U+FEFF is dropped: DART)
#   dupkeys   R7.3-2: "keep" (every entry), "first", "last" (the last value, at the first
#             key's position)
#   empty_message R9.2-1: "reject" (truncated at 0), "null"
#   empty_envelope R11.4-2: "reject", "success-null" (CPP), "other" (GLIB's not-implemented
#             response: an error whose class this spec does not assign)
#   custom    R8.1-4/R8.1-5: True (custom values), False (tags 0x80..0xff are unknown_tag)
#   and settings no permitted order or rule allows, which only name what a real codec does
#   (profiles.DEVIATIONS; never part of an implementation's conforming profile):
#   flags     R11.4-1: "reject" (bad_envelope for flags 2..255), "nonzero-error" (every
#             non-zero flag starts an error envelope: DART, D28)
#   keyeq     R7.3-3: "wire" (keys are equal when their encodings are), or the host map
#             equality of "dart" (numbers by value: 1 == 1.0, 0 == -0.0), "glib" (integers
#             by value, floats with ==), "cpp" (floats with ==), "java" (NaNs equal,
#             Double.equals), "objc" (NSNumber isEqual: numbers and booleans by value);
#             keys it merges are kept as `dupkeys` says (D17)

PROFILE_FIELDS = {
    "fixed": ("tag-first", "value-first", "all-values-first"),
    "counts": ("count-first", "elements-first"),
    "envelope": ("four", "three", "ignore"),
    "largeint": ("value", "string", "bigint", "reject"),
    "utf8": ("reject", "keep", "replace", "null"),
    "bom": ("keep", "drop"),
    "dupkeys": ("keep", "first", "last"),
    "empty_message": ("reject", "null"),
    "empty_envelope": ("reject", "success-null", "other"),
    "custom": (True, False),
    "flags": ("reject", "nonzero-error"),
    "keyeq": ("wire", "dart", "glib", "cpp", "java", "objc"),
}


class Profile:
    """One decoder configuration; immutable. Profile() is SPEC."""

    __slots__ = tuple(PROFILE_FIELDS)

    def __init__(self, **kw):
        for k in kw:
            if k not in PROFILE_FIELDS:
                raise ValueError("unknown profile setting %r" % k)
        for k, choices in PROFILE_FIELDS.items():
            v = kw.get(k, choices[0])
            if v not in choices:
                raise ValueError("profile %s=%r: want one of %s" % (k, v, choices))
            object.__setattr__(self, k, v)

    def __setattr__(self, k, v):
        raise AttributeError("Profile is immutable")

    def with_(self, **kw):
        d = {k: getattr(self, k) for k in PROFILE_FIELDS}
        d.update(kw)
        return Profile(**d)

    def changes(self):
        """The settings that differ from SPEC, as {field: value}."""
        return {
            k: getattr(self, k) for k, ch in PROFILE_FIELDS.items() if getattr(self, k) != ch[0]
        }

    def __repr__(self):
        return "Profile(%s)" % ", ".join("%s=%r" % kv for kv in sorted(self.changes().items()))


SPEC = Profile()


class Unassigned(SmcError):
    """A decoder rejects the input with an error this spec does not assign a class to (a
    Java NumberFormatException, an assertion): the outcome is "an error", class unknown."""

    def __init__(self, message):
        super().__init__(None, None, message)


# ---------------------------------------------------------------------------------------
# Decoder (spec §14.2 order of checks)


class _Reader:
    def __init__(self, data, strict, max_depth=MAX_DEPTH, trace=None, profile=SPEC):
        self.data = bytes(data)
        self.n = len(self.data)
        self.pos = 0
        self.strict = strict
        self.max_depth = max_depth
        self.trace = trace if trace is not None else set()
        self.p = profile

    def fail(self, cls, off, msg):
        raise SmcError(cls, off, msg)

    def need(self, k, what):
        if self.pos + k > self.n:
            self.fail("truncated", self.n, "input ends inside %s" % what)

    def byte(self, what):
        self.need(1, what)
        b = self.data[self.pos]
        self.pos += 1
        return b

    def take(self, k, what):
        self.need(k, what)
        out = self.data[self.pos : self.pos + k]
        self.pos += k
        return out

    def size(self):
        esc = self.pos
        first = self.byte("a size")
        if first < 254:
            return first
        if first == 254:
            n = struct.unpack("<H", self.take(2, "a 3-byte size"))[0]
            if self.strict and n < 254:
                self.fail("not_canonical", esc, "size %d written in the 3-byte form" % n)
        else:
            n = struct.unpack("<I", self.take(4, "a 5-byte size"))[0]
            if self.strict and n <= 0xFFFF:
                self.fail("not_canonical", esc, "size %d written in the 5-byte form" % n)
        return n

    def require(self, k, what):
        # spec §14.3: the declared size must fit in what remains, before anything else.
        # An elements-first decoder does not look ahead (errors.md §14.2 permitted orders).
        if self.p.counts == "count-first" and self.n - self.pos < k:
            self.fail(
                "truncated", self.n, "%s needs %d bytes, %d remain" % (what, k, self.n - self.pos)
            )

    def pad_len(self, width):
        return (-self.pos) % width

    def skip_pad(self, width):
        k = self.pad_len(width)
        self.need(k, "padding")
        if self.strict:
            for i in range(k):
                if self.data[self.pos + i] != 0:
                    self.fail("not_canonical", self.pos + i, "non-zero padding byte")
        self.pos += k

    def raw_text(self, what):
        """The size and bytes of a text payload, checked for presence only."""
        n = self.size()
        self.require(n, what)
        start = self.pos
        return start, self.take(n, what)

    def text(self, what, utf8=None, verbatim=False):
        """A UTF-8 text payload (string, largeInt, names): a Python str; under the utf8
        settings "keep" a ["strbytes", H] value and "null" None (spec §5.3, D11)."""
        start, raw = self.raw_text(what)
        bad = utf8_error_offset(raw)
        if bad is not None:
            mode = utf8 or self.p.utf8
            if mode == "keep":
                return ["strbytes", raw.hex()]
            if mode == "replace":
                text = jdk_replace(raw)
                return text if verbatim else self.drop_bom(text)
            if mode == "null":
                return None
            self.fail("bad_utf8", start + bad, "ill-formed UTF-8 in %s" % what)
        text = raw.decode("utf-8")
        return text if verbatim else self.drop_bom(text)

    def drop_bom(self, s):
        if self.p.bom == "drop" and s.startswith("\ufeff"):
            return s[1:]
        return s

    @staticmethod
    def text_value(t):
        if t is None:
            return ["null"]
        return t if isinstance(t, list) else ["str", t]

    def value(self, depth):
        if self.pos >= self.n:
            self.fail("truncated", self.n, "input ends where a value is expected")
        tag_off = self.pos
        tag = self.data[self.pos]
        custom = tag >= TAG_CUSTOM_MIN and self.p.custom
        if (tag in (TAG_LIST, TAG_MAP) or custom) and depth + 1 > self.max_depth:
            self.fail("depth_limit", tag_off, "nesting deeper than %d" % self.max_depth)
        if (
            0x0F <= tag <= 0x7F
            or (tag >= TAG_CUSTOM_MIN and not custom)
            or (tag == TAG_LARGEINT and (self.strict or self.p.largeint == "reject"))
        ):
            self.fail("unknown_tag", tag_off, "unknown tag 0x%02x" % tag)
        self.pos += 1
        if tag == TAG_NULL:
            return ["null"]
        if tag in (TAG_TRUE, TAG_FALSE):
            return ["bool", tag == TAG_TRUE]
        if tag == TAG_I32:
            self.trace.add("int32")
            return ["i32", struct.unpack("<i", self.take(4, "an int32"))[0]]
        if tag == TAG_I64:
            self.trace.add("int64")
            return ["i64", str(struct.unpack("<q", self.take(8, "an int64"))[0])]
        if tag == TAG_LARGEINT:
            self.trace.add("largeint")
            return self.largeint()
        if tag == TAG_F64:
            self.trace.add("float64")
            self.skip_pad(8)
            return ["f64", "%016x" % struct.unpack("<Q", self.take(8, "a float64"))[0]]
        if tag == TAG_STR:
            return self.text_value(self.text("a string"))
        if tag == TAG_U8S:
            n = self.size()
            self.require(n, "a Uint8List")
            return ["u8s", self.take(n, "a Uint8List").hex()]
        if tag in TYPED_BY_TAG:
            return self.typed_list(tag)
        if tag == TAG_LIST:
            n = self.size()
            self.require(n, "a list of %d values" % n)
            return ["list", self.list_items(n, depth)]
        if tag == TAG_MAP:
            n = self.size()
            self.require(2 * n, "a map of %d entries" % n)
            return ["map", self.map_entries(n, depth)]
        # tag >= 0x80: spec §8.1, exactly one nested value
        self.trace.add("custom-types")
        return ["custom", tag, self.value(depth + 1)]

    def largeint(self):
        mode = self.p.largeint
        if mode == "value":
            return [
                "largeint",
                self.text("a largeInt", utf8="reject", verbatim=True),
            ]  # R4.4-3, R4.4-4
        if mode == "string":
            return self.text_value(self.text("a largeInt"))
        # "bigint" (JAVA): new BigInteger(new String(bytes, UTF_8), 16).toString(16)
        t = self.text("a largeInt", utf8="replace", verbatim=True)
        body = t[1:] if t[:1] in ("-", "+") else t
        if not body or any(c not in "0123456789abcdefABCDEF" for c in body):
            raise Unassigned("largeInt text %r is not hexadecimal (NumberFormatException)" % t)
        n = int(t, 16)
        return ["largeint", ("-%x" % -n) if n < 0 else "%x" % n]

    def typed_list(self, tag):
        word, width, fmt = TYPED_BY_TAG[tag]
        self.trace.add("float32list" if word == "f32s" else "typed-lists")
        if word == "i64s":
            self.trace.add("int64")
        n = self.size()
        if word == "i32s" and n:
            self.trace.add("int32")
        self.require(self.pad_len(width) + width * n, "a %s of %d elements" % (word, n))
        self.skip_pad(width)
        raw = self.take(width * n, word)
        items = [struct.unpack_from(fmt, raw, width * i)[0] for i in range(n)]
        if word == "i64s":
            items = [str(x) for x in items]
        elif word == "f64s":
            items = ["%016x" % x for x in items]
        elif word == "f32s":
            items = ["%08x" % x for x in items]
        return [word, items]

    def list_items(self, n, depth):
        return [self.value(depth + 1) for _ in range(n)]

    def map_entries(self, n, depth):
        out = []
        first_at = {}  # notation text of a key -> index in out (dupkeys first/last)
        for _ in range(n):
            k = self.value(depth + 1)
            v = self.value(depth + 1)
            key = host_key(k, self.p.keyeq)
            if self.p.dupkeys != "keep" and key in first_at:
                if self.p.dupkeys == "last":
                    out[first_at[key]][1] = v
                continue
            first_at.setdefault(key, len(out))
            out.append([k, v])
        return out

    def finish(self):
        if self.pos != self.n:
            self.fail("trailing_bytes", self.pos, "%d bytes after the item" % (self.n - self.pos))

    # -- fixed-type elements of calls and envelopes --

    def fixed_tag(self, allowed, what):
        """Tag-first: the element's tag is checked before it is decoded (errors.md §14.2)."""
        if self.pos >= self.n:
            self.fail("truncated", self.n, "input ends where %s is expected" % what)
        tag = self.data[self.pos]
        if tag not in allowed:
            self.fail("bad_envelope", self.pos, "%s has tag 0x%02x" % (what, tag))
        return tag

    def tagged_text(self, nullable, what):
        tag = self.fixed_tag((TAG_NULL, TAG_STR) if nullable else (TAG_STR,), what)
        self.pos += 1
        if tag == TAG_NULL:
            return None
        t = self.text(what)
        if t is None and not nullable:  # utf8 "null" (OBJC) in a name or code: it asserts
            raise Unassigned("%s is not UTF-8 and became nil" % what)
        return t

    def element(self):
        """Value-first: (offset, value) of the next element, decoded as any value."""
        off = self.pos
        return off, self.value(0)

    def as_text(self, elem, nullable, what):
        """The type check of a value-first element: a string (or kept bytes), or null."""
        off, v = elem
        if v[0] == "str":
            return v[1]
        if v[0] == "strbytes":
            return v
        if v[0] == "null" and nullable:
            return None
        self.fail("bad_envelope", off, "%s is %s, not a string" % (what, v[0]))


def host_key(k, keyeq):
    """What a host map compares a decoded key by (profile setting keyeq, D17): keys with
    equal results are one entry in that host's map."""
    text = notation_text(k)
    if keyeq == "wire" or k[0] not in ("i32", "i64", "f64", "bool"):
        return text
    if k[0] == "f64":
        x = struct.unpack(">d", bytes.fromhex(k[1]))[0]
        if x != x:  # NaN: Double.equals canonicalises it (JAVA); == never holds (the rest)
            return "nan" if keyeq in ("java", "objc") else text
        if keyeq in ("glib", "cpp"):
            return ("f64", x)  # 0.0 == -0.0
        if keyeq in ("dart", "objc") and abs(x) != float("inf") and x == int(x):
            return ("num", int(x))
        return ("num", x) if keyeq in ("dart", "objc") else text
    if k[0] == "bool":
        return ("num", int(k[1])) if keyeq == "objc" else text
    if keyeq in ("dart", "glib", "objc"):
        return ("num", int(k[1]))
    return text


def _reader(data, strict, max_depth, trace, profile, reader):
    return (reader or _Reader)(data, strict, max_depth, trace, profile)


def decode_message(data, strict=False, max_depth=MAX_DEPTH, trace=None, profile=SPEC, reader=None):
    r = _reader(data, strict, max_depth, trace, profile, reader)
    if r.n == 0 and profile.empty_message == "null":
        return ["null"]  # GLIB, CPP, OBJC (D25)
    v = r.value(0)
    r.finish()
    return v


def decode_call(data, strict=False, max_depth=MAX_DEPTH, trace=None, profile=SPEC, reader=None):
    r = _reader(data, strict, max_depth, trace, profile, reader)
    r.trace.add("method-codec")
    what = "the method name"
    if profile.fixed == "tag-first":
        name = r.tagged_text(False, what)
        args = r.value(0)
    elif profile.fixed == "value-first":
        name = r.as_text(r.element(), False, what)
        args = r.value(0)
    else:
        elem = r.element()
        args = r.value(0)
        name = r.as_text(elem, False, what)
    r.finish()
    return ["call", name, args]


def _error_envelope(r, profile):
    p = profile
    four = p.envelope == "four"
    names = ("the error code", "the error message", "the stacktrace")
    if p.fixed == "tag-first":
        code = r.tagged_text(False, names[0])
        message = r.tagged_text(True, names[1])
        details = r.value(0)
        out = ["error", code, message, details]
        if four and r.pos < r.n:  # spec §11.3: optional 4th element
            r.trace.add("error-stacktrace")
            out.append(r.tagged_text(True, names[2]))
        return out
    if p.fixed == "value-first":
        code = r.as_text(r.element(), False, names[0])
        message = r.as_text(r.element(), True, names[1])
        details = r.value(0)
        out = ["error", code, message, details]
        if four and r.pos < r.n:
            r.trace.add("error-stacktrace")
            out.append(r.as_text(r.element(), True, names[2]))
        return out
    elems = [r.element(), r.element()]
    details = r.value(0)
    if four and r.pos < r.n:
        r.trace.add("error-stacktrace")
        elems.append(r.element())
    out = [
        "error",
        r.as_text(elems[0], False, names[0]),
        r.as_text(elems[1], True, names[1]),
        details,
    ]
    if len(elems) == 3:
        out.append(r.as_text(elems[2], True, names[2]))
    return out


def decode_envelope(data, strict=False, max_depth=MAX_DEPTH, trace=None, profile=SPEC, reader=None):
    r = _reader(data, strict, max_depth, trace, profile, reader)
    r.trace.add("method-codec")
    if r.pos >= r.n:
        if profile.empty_envelope == "success-null":
            return ["success", ["null"]]  # CPP (D32)
        if profile.empty_envelope == "other":
            raise Unassigned("an empty reply is a not-implemented response (GLIB, D32)")
        r.fail("truncated", r.n, "empty envelope")
    flag = r.data[0]
    if flag > 1 and profile.flags == "nonzero-error":
        flag = 1  # DART (D28): `if (flag == 0) success else error`
    if flag > 1:
        r.fail("bad_envelope", 0, "envelope flag 0x%02x" % flag)
    r.pos = 1
    if flag == 0:
        out = ["success", r.value(0)]
    else:
        out = _error_envelope(r, profile)
        if profile.envelope == "ignore":
            return out
    r.finish()
    return out


def decode(entry, data, strict=False, **kw):
    return {"message": decode_message, "call": decode_call, "envelope": decode_envelope}[entry](
        data, strict, **kw
    )


# ---------------------------------------------------------------------------------------
# Small helpers for case authors


def f64_bits(x):
    return "%016x" % struct.unpack("<Q", struct.pack("<d", x))[0]


def f32_bits(x):
    return "%08x" % struct.unpack("<I", struct.pack("<f", x))[0]


def is_nan64(h):
    b = int(h, 16)
    return (b >> 52) & 0x7FF == 0x7FF and b & ((1 << 52) - 1) != 0


def is_nan32(h):
    b = int(h, 16)
    return (b >> 23) & 0xFF == 0xFF and b & ((1 << 23) - 1) != 0
