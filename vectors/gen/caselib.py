"""Builders for vector cases and the computed parts of a vector (spec/vectors.md V.2, V.3).

Case modules call valid(...) / reject(...). generate.py fills in canonical bytes, features,
focus offsets and checks every case against smcpy (and the C reference)."""

import re

import smcpy

SINCE = "0.1"  # the first published vectors
V0_2 = "0.2"  # `since` of the vectors added in vectors 0.2 (spec/CHANGES.md, issue 13)
VERSION = "0.3"  # this release (vectors.md V.4): `since` of every vector added in it
TIERS = ("required", "recommended", "implementation-defined")
KINDS = (
    "message",
    "pigeon_request",
    "pigeon_reply",
    "method_call",
    "success_envelope",
    "error_envelope",
    "envelope",
    "host_encode",
    "host_decode",
)
HOST_KINDS = ("host_encode", "host_decode")
ENTRY_OF_KIND = {
    "message": "message",
    "pigeon_request": "message",
    "pigeon_reply": "message",
    "method_call": "call",
    "success_envelope": "envelope",
    "error_envelope": "envelope",
    "envelope": "envelope",
    "host_encode": "message",
    "host_decode": "message",
}
ID_RE = re.compile(r"^s(\d\d)\.(\d+)-[a-z0-9]+(?:-[a-z0-9]+)*$")
BOTH = ("flutter", "strict")
# `since` of the vectors issue 31 adds (vectors 0.3; bite.py checks each of them bites).
V03 = "0.3"


def section_of(case_id):
    m = ID_RE.match(case_id)
    if not m:
        raise ValueError("bad vector id %r (want sNN.M-slug)" % case_id)
    return "%d.%s" % (int(m.group(1)), m.group(2))


def slug_of(case_id):
    return case_id.split("-", 1)[1]


class Case(dict):
    """One vector before generation. Private keys start with '_'."""

    @property
    def entry(self):
        return ENTRY_OF_KIND[self["kind"]]

    @property
    def is_valid(self):
        return (
            "canonical" in self
            or "_expect_hex" in self
            or ("value" in self and "error" not in self)
        )


_DEFAULT_REQUIREMENTS = []


class tests:
    """`with tests("R2.2-1", "R2.2-2"):` — vectors made inside name these requirements
    unless they give their own `requirements=`."""

    def __init__(self, *ids):
        self.ids = list(ids)

    @classmethod
    def per_section(cls, table):
        """{section ("6.2", or "6" for the rest): ids}."""
        t = cls()
        t.ids = {k: list(v) for k, v in table.items()}
        return t

    def __enter__(self):
        _DEFAULT_REQUIREMENTS.append(self.ids)
        return self

    def __exit__(self, *exc):
        _DEFAULT_REQUIREMENTS.pop()
        return False


def _common(case_id, description, kind, tier, origin, notes, requirements, by_mode, since):
    """tier, when given, is only checked: the generator derives every tier from the
    requirements (spec §1.1) and fails on a hand-written one that disagrees."""
    if kind not in KINDS:
        raise ValueError("%s: bad kind %r" % (case_id, kind))
    if tier is not None and tier not in TIERS:
        raise ValueError("%s: bad tier %r" % (case_id, tier))
    if requirements is None and not by_mode and _DEFAULT_REQUIREMENTS:
        default = _DEFAULT_REQUIREMENTS[-1]
        if isinstance(default, dict):  # tests.per_section({...})
            sec = section_of(case_id)
            default = default.get(sec) or default.get(sec.split(".")[0])
        requirements = default
    if by_mode:
        if set(by_mode) - set(BOTH):
            raise ValueError("%s: by_mode keys are decoder modes" % case_id)
        requirements = sorted(
            set(requirements or ()) | {r for ids in by_mode.values() for r in ids}
        )
    if not requirements:
        raise ValueError("%s: a vector names the requirements it tests" % case_id)
    c = Case(
        id=case_id, description=description, section=section_of(case_id), kind=kind, since=since
    )
    c["_requirements"] = list(requirements)
    if by_mode:
        c["_by_mode"] = {m: list(ids) for m, ids in by_mode.items()}
    if tier is not None:
        c["_hand_tier"] = tier
    if origin is not None:
        c["origin"] = origin
    if notes is not None:
        c["_notes"] = notes
    return c


def valid(
    case_id,
    description,
    value,
    kind="message",
    tier=None,
    accepted=None,
    focus=None,
    origin=None,
    notes=None,
    expect_hex=None,
    requirements=None,
    since=SINCE,
):
    """A valid vector. expect_hex (upstream literal bytes) is asserted against smcpy."""
    c = _common(case_id, description, kind, tier, origin, notes, requirements, None, since)
    c["value"] = value
    if accepted:
        c["accepted"] = list(accepted)
    if focus is not None:
        c["_focus_path"] = focus
    if expect_hex is not None:
        c["_expect_hex"] = expect_hex.replace(" ", "").lower()
    return c


def reject(
    case_id,
    description,
    hex_input,
    cls,
    offset,
    kind="message",
    modes=BOTH,
    tier=None,
    value=None,
    focus=None,
    origin=None,
    notes=None,
    requirements=None,
    by_mode=None,
    alternatives=(),
    since=SINCE,
):
    """A reject vector: decoding hex_input fails with cls at offset in each of modes, or
    with one of `alternatives` (alt(...): the outcome under a permitted order of errors.md
    §14.2.1; the generator computes them and fails unless they are exactly these)."""
    c = _common(case_id, description, kind, tier, origin, notes, requirements, by_mode, since)
    if value is not None:
        c["value"] = value
    c["hex"] = hex_input.replace(" ", "").lower()
    c["error"] = {"class": cls, "offset": offset, "modes": list(modes)}
    c["_alternatives"] = [dict(a) for a in alternatives]
    if focus is not None:
        c["focus"] = focus
    return c


HOST_DECISION = (
    "spec §17: the %s table fixes the wire type of every host type; these "
    "implementations write something else for this value"
)


def host_encode(vocab, slug, host_value, description, who=(), since=VERSION):
    """An encode-from-host vector (spec §17): the bytes `host_value` must be written as, or
    not_encodable. The generator computes the value, the bytes and the requirements from
    hosttypes.py; `who` ((behaviour, [implementations]), ...) names who differs."""
    import hosttypes

    case_id = "s%s-%s-enc-%s" % (hosttypes.SECTION_OF[vocab], vocab, slug)
    c = Case(
        id=case_id,
        description=description,
        section=section_of(case_id),
        kind="host_encode",
        since=since,
    )
    c["host"] = vocab
    c["host_value"] = host_value
    if who:
        c["_notes"] = notes(HOST_DECISION % vocab, *who)
    return c


def host_decode(vocab, slug, value, since=VERSION):
    """A decode-to-host vector (spec §17): the canonical bytes of `value` and the host value
    a decoder of `vocab` must produce (computed from hosttypes.py)."""
    import hosttypes

    case_id = "s%s-%s-dec-%s" % (hosttypes.SECTION_OF[vocab], vocab, slug)
    c = Case(
        id=case_id, description="", section=section_of(case_id), kind="host_decode", since=since
    )
    c["host"] = vocab
    c["value"] = value
    return c


def alt(cls, offset, order, modes=None):
    """An outcome a decoder following a permitted order gives (errors.md §14.2.1)."""
    a = {"class": cls, "offset": offset, "order": order}
    if modes is not None:
        a["modes"] = list(modes)
    return a


def accept(hex_input, why, strict):
    return {"hex": hex_input.replace(" ", "").lower(), "why": why, "strict": strict}


def origin(source, ref):
    return {"source": source, "ref": ref}


def notes(decision, *alternatives):
    """alternatives: (behaviour, [who, ...]) or (behaviour, [who, ...], outcome). The
    generator computes each alternative's outcome on each vector from the profile of the
    implementations in `who` (profiles.IMPLEMENTATIONS); an explicit outcome ({"value": V}
    or {"error": {...}}) is for behaviours the model does not have (Pigeon's class
    registries)."""
    alts = []
    for a in alternatives:
        entry = {"behaviour": a[0], "who": list(a[1])}
        if len(a) > 2:
            entry["_outcome"] = a[2]
        alts.append(entry)
    return {"decision": decision, "alternatives": alts}


# Ill-formed UTF-8 (spec §5.3, D11): what each official decoder does, for every vector that
# names R5.3-2 (the outcome of each is computed per vector, checks.py).
UTF8_NOTES = notes(
    "The bytes of a string must be well-formed UTF-8 (RFC 3629); decoders reject otherwise "
    "with bad_utf8 at the first byte of the first ill-formed subsequence (spec §5.3).",
    ("FormatException (utf8 decoder without allowMalformed)", ["DART"]),
    ("replaces ill-formed sequences with U+FFFD, no error; re-encoding differs", ["JAVA"]),
    ("CFString creation fails: nil (NSNull inside containers)", ["OBJC"]),
    ("keeps the raw bytes, no validation", ["CPP", "GLIB"]),
)


# ---------------------------------------------------------------------------------------
# Features (spec/vectors.md V.3), computed, never hand-written.

NAN64_CANONICAL = "7ff8000000000000"
NAN32_CANONICAL = "7fc00000"


def _value_features(v, out):
    t = v[0]
    if t == "i32":
        out.add("int32")
    elif t == "i64":
        out.add("int64")
        if smcpy.INT32_MIN <= int(v[1]) <= smcpy.INT32_MAX:
            out.add("int64-distinct")
    elif t == "f64":
        out.add("float64")
        if smcpy.is_nan64(v[1]) and v[1] != NAN64_CANONICAL:
            out.add("nan-payload")
    elif t == "largeint":
        out.add("largeint")
    elif t == "str":
        _text_features(v[1], out)
    elif t == "i32s":
        out.add("typed-lists")
        if v[1]:
            out.add("int32")
    elif t == "i64s":
        out.update(("typed-lists", "int64"))
    elif t == "f64s":
        out.add("typed-lists")
        if any(smcpy.is_nan64(h) and h != NAN64_CANONICAL for h in v[1]):
            out.add("nan-payload")
    elif t == "f32s":
        out.add("float32list")
        if any(smcpy.is_nan32(h) and h != NAN32_CANONICAL for h in v[1]):
            out.add("nan-payload")
    elif t == "list":
        for e in v[1]:
            _value_features(e, out)
    elif t == "map":
        if len(v[1]) >= 2:
            out.add("map-order")
        keys = [smcpy.notation_text(k) for k, _ in v[1]]
        if len(set(keys)) != len(keys):
            out.add("duplicate-map-keys")
        for k, val in v[1]:
            _value_features(k, out)
            _value_features(val, out)
    elif t == "custom":
        out.add("custom-types")
        _value_features(v[2], out)


def _text_features(s, out):
    if s is not None and "\x00" in s:
        out.add("embedded-nul")


def value_features(kind, value):
    return entry_value_features(ENTRY_OF_KIND[kind], value)


def entry_value_features(entry, value):
    """Features of a value of entry point `entry` ("message", "call", "envelope"): a
    message value, a call form or an envelope form (notation.md N.1, N.2). Also what
    fuzz/differential.py computes for the values runners decode."""
    out = set()
    if entry == "message":
        _value_features(value, out)
    elif entry == "call":
        out.add("method-codec")
        _text_features(value[1], out)
        _value_features(value[2], out)
    else:
        out.add("method-codec")
        if value[0] == "success":
            _value_features(value[1], out)
        else:
            _text_features(value[1], out)
            _text_features(value[2], out)
            _value_features(value[3], out)
            if len(value) == 5:
                out.add("error-stacktrace")
                _text_features(value[4], out)
    return out


def reject_features(case):
    """Features of a reject vector: what a decoder meets in its bytes before the fault under
    any permitted order of errors.md §14.2.1 (a trace of smcpy's decode under each), what
    its value needs (strict-only rejects) and what the expected error needs. Never
    error-stacktrace: a decoder that reads three elements rejects every reject vector too
    (the `three-element` order)."""
    import profiles  # noqa: E402 (profiles imports smcpy only)

    out = set()
    entry = case.entry
    if entry != "message":
        out.add("method-codec")
    mode = case["error"]["modes"][0]
    for _, prof in profiles.ORDERS:
        trace = set()
        try:
            smcpy.decode(
                entry, bytes.fromhex(case["hex"]), mode == "strict", trace=trace, profile=prof
            )
        except smcpy.SmcError:
            pass
        out |= trace
    out.discard("error-stacktrace")
    if "value" in case:
        out |= value_features(case["kind"], case["value"])
    if case["error"]["modes"] == ["strict"]:
        out.add("strict-mode")
    if case["error"]["class"] == "depth_limit":
        out.add("depth-limit")
    return out


# ---------------------------------------------------------------------------------------
# Small value constructors used by many case modules


def null():
    return ["null"]


def b(x):
    return ["bool", bool(x)]


def i32(x):
    return ["i32", x]


def i64(x):
    return ["i64", str(x)]


def f64(x):
    """x: a Python float, or a 16-digit bit pattern string."""
    return ["f64", x if isinstance(x, str) else smcpy.f64_bits(x)]


def s(x):
    return ["str", x]


def u8s(data):
    return ["u8s", data if isinstance(data, str) else bytes(data).hex()]


def i32s(xs):
    return ["i32s", list(xs)]


def i64s(xs):
    return ["i64s", [str(x) for x in xs]]


def f64s(xs):
    return ["f64s", [x if isinstance(x, str) else smcpy.f64_bits(x) for x in xs]]


def f32s(xs):
    return ["f32s", [x if isinstance(x, str) else smcpy.f32_bits(x) for x in xs]]


def lst(*xs):
    return ["list", list(xs)]


def mp(*pairs):
    return ["map", [list(p) for p in pairs]]


def custom(tag, v):
    return ["custom", tag, v]


def call(name, args):
    return ["call", name, args]


def success(v):
    return ["success", v]


def error(code, message, details, *stacktrace):
    return ["error", code, message, details] + list(stacktrace)


def hexenc(value, entry="message", **kw):
    """Canonical (or, with size_form/pad_fill, deliberately non-canonical) hex of a value."""
    return smcpy.encode(entry, value, **kw).hex


def enc(value, entry="message", **kw):
    return smcpy.encode(entry, value, **kw)


def nonminimal(value, path, form, entry="message"):
    """(hex, offset of the escape byte) for value with the size at path in a longer form."""
    e = smcpy.encode(entry, value, size_form=lambda p: form if p == path else None)
    return e.hex, e.marks[path]["size"]


def nonzero_pad(value, path, fill, entry="message"):
    """(hex, offset of the first non-zero pad byte) with the padding at path replaced by
    fill(n) (n = pad length)."""
    e = smcpy.encode(entry, value, pad_fill=lambda p, n: fill(n) if p == path else None)
    start = e.marks[path]["pad"]
    pad = e.data[start : start + e.marks[path]["pad_len"]]
    first = next(i for i, x in enumerate(pad) if x != 0)
    return e.hex, start + first


def alternatives(value, entry="message", limit=8):
    """Decode-only encodings of value: each size written one form longer (fe for a 1-byte
    size, ff for a 3-byte one) and each non-empty padding filled with ff. Flutter mode
    accepts them; strict mode rejects them with not_canonical (spec §2.2, §3.3)."""
    base = smcpy.encode(entry, value)
    out = []
    for path, mark in sorted(
        base.marks.items(), key=lambda kv: min(v for k, v in kv[1].items() if k != "pad_len")
    ):
        if len(out) >= limit:
            break
        if "size" in mark:
            size_byte = base.data[mark["size"]]
            form = "fe" if size_byte < 254 else ("ff" if size_byte == 254 else None)
            if form:
                hx, off = nonminimal(value, path, form, entry)
                out.append(
                    accept(
                        hx,
                        "size at offset %d in the %s form"
                        % (off, "3-byte" if form == "fe" else "5-byte"),
                        "not_canonical",
                    )
                )
        if mark.get("pad_len") and len(out) < limit:
            hx, off = nonzero_pad(value, path, lambda n: b"\xff" * n, entry)
            out.append(accept(hx, "padding at offset %d filled with ff" % off, "not_canonical"))
    return out


def with_alternatives(cases, ids):
    """Attach decode-only non-canonical encodings (alternatives()) to the vectors named in ids.

    Each section file picks a few representative vectors; doing it for every vector would
    multiply the suite without testing anything new (spec §2.2 and §3.3 accept rules are
    the same for every value)."""
    for c in cases:
        if c["id"] in ids:
            c["accepted"] = alternatives(c["value"], c.entry)
    return cases
