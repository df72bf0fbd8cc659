#!/usr/bin/env python3
"""Small, faithful models of real codec failures behind the runner protocol
(runners/PROTOCOL.md, version 2; version 1 with MODEL_PROTOCOL=1), for the judge's tests of
issue 14: nothing a codec declares may hide a crash, a silent data loss or a missing MUST
feature. Each model is the independent Python codec of the vector generator
(vectors/gen/smcpy.py) with one fault, declared the way the real codec's runner honestly
would.

Usage: model_runner.py
Environment:
  MODEL_FAULT  one of
     none           a correct codec with every capability
     depth-segv     no depth limit (no `depth-limit`): it recurses, and the process dies with
                    SIGSEGV from 80,000 levels on (GLIB: about 74,650 on a default stack;
                    MODEL_SEGV_DEPTH sets another depth)
     depth-deep     no depth limit and a stack deep enough for every vector: the 100,000-level
                    bombs decode, and are answered with their summary (P.3)
     depth-accepts  as depth-deep, but declares `depth-limit`, which it does not enforce
     f32-null       no `float32list` (a Rust port): tag 14 and its payload decode to null
     f32-reject     no `float32list`, rejecting tag 14 with unknown_tag as R1.4-13 asks
     nul-truncate   no `embedded-nul` (GLIB, D12): strings are cut at U+0000 when decoded and
                    when encoded
     one-int        one integer type (DART, GLIB; no `int64-distinct`): tag 4 holding an int32
                    decodes to it, and integers are written by value (R4.2-4)
     one-int-map    one-int with host maps of one entry per key (GLIB's FlValue map, no
                    `duplicate-map-keys`): keys equal by value are one entry, the last value at
                    the first key's position
     panic          no bounds checks (a Rust port): a read past the end panics. Under protocol
                    1 the runner maps the panic to `truncated` (the old P.6); under 2 it answers
                    `crash`.
     range-error    as panic, in a host whose channel plumbing catches the failure (Dart's
                    ReadBuffer throws RangeError on short input, spec §1.4): under protocol 2
                    the runner answers `rejected` with kind RangeError (an unclassified
                    rejection)
     no-classes     errors carry no class (JAVA's "Message corrupted"): every rejection is
                    named unknown_tag, and `error-classes` is not declared (MODEL_CLASSES=1
                    declares it anyway)
     nothing        declares no capability, the message entry only, and no option
     largeint-string
                    no `largeint`, and tag 5 read as a string in flutter mode (DART, OBJC,
                    CPP): a behaviour the vector's notes list (spec §4.4, R4.4-2)
     largeint-null  no `largeint`, and tag 5 read as null: a behaviour no note lists, a
                    silent loss (R1.4-13)
     pad-remaining  a decoder that counts padding from the bytes remaining (a Swift port):
                    spec §3.1, the catalogue's pad-from-remaining written independently
     pad-extra      a decoder that skips a whole block when already aligned (the same port)
     (faults the catalogue also has, written here apart from it, may be combined with commas:
     pad-remaining,pad-extra)
     null-no-bytes  a top-level null message encoded as no bytes at all (`"hex": null`, P.3:
                    DART, JAVA, OBJC, D24): the catalogue's null-encodes-empty, answered as the
                    real codecs answer it
     stacktrace-three
                    an error envelope has exactly three elements when decoded (JAVA, D29) and
                    `error-stacktrace` is not declared (either way), but the encoder writes the fourth
                    element of a value that has one, as Android's does: it cannot read what it
                    writes (spec R1.4-18)
     pad-remaining-plus-one, pad-offset-plus-one
                    padding counted from one byte past where the catalogue's pad-from-remaining
                    or the spec counts it: bugs no entry describes, close to several entries
     alloc-first    allocates for a declared size before comparing it with the input (JAVA's
                    `new byte[length]`, `new ArrayList<>(size)`; maps are not sized first): a
                    size the input cannot hold that asks for 1 GiB or more answers `crash` with
                    kind java.lang.OutOfMemoryError (a JVM Error), D19; MODEL_ALLOC_KIND
                    names another kind; MODEL_ALLOC_ANSWER=rejected answers `rejected`
                    with it (a host whose plumbing catches the Error: an unclassified rejection)
     unknown-null   tags 0x0f..0x7f read as null, the tag byte alone (a Rust port's `_ =>
                    Value::Null`): the catalogue's unknown-tag-as-null written independently
     string-keys    host maps keyed by strings (a Rust port's HashMap<String, Value>): a map
                    key that is not a string is the decoder's rejection, which no error class
                    names, so neither `error-classes` nor `error-offsets` is declared.
                    unknown-null,string-keys: the port of issue 28 that passes the
                    s14.1-unknown-tag-*-map-key/-value vectors by accident (the null key is
                    rejected as not a string, not as an unknown tag). Its rejections send
                    the class as information (P.3), MODEL_CLASS_INFO=0: none at all
     unknown-null-top
                    only a message's first byte read as null when it is an unknown tag;
                    unknown tags anywhere else rejected (unknown_tag): close to the
                    catalogue's unknown-tag-as-null, not it (with string-keys: a runner
                    whose accidental passes must not let that entry in)
     java-stack     no depth limit (no `depth-limit`), and a stack that holds 2,260 levels
                    (JAVA's default thread stack, D22): deeper answers `crash` with kind
                    java.lang.StackOverflowError (alloc-first,java-stack: both, as JAVA)
  MODEL_PROTOCOL  1 or 2 (default 2)
  MODEL_CRASH_ON  comma-separated hex messages whose decode answers `crash` (kind panic)
"""

import os
import signal
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "vectors", "gen"))
sys.dont_write_bytecode = True
sys.setrecursionlimit(20000)

import protocol_lines  # noqa: E402
import smcpy  # noqa: E402

FAULT = os.environ.get("MODEL_FAULT", "none")
FAULTS = set(FAULT.split(","))
PROTOCOL = int(os.environ.get("MODEL_PROTOCOL", "2"))
FEATURES = list(smcpy.FEATURES)  # every feature word, from vectors/schema.json
LACKS = {
    "depth-segv": {"depth-limit"},
    "depth-deep": {"depth-limit"},
    "java-stack": {"depth-limit"},
    "f32-null": {"float32list"},
    "f32-reject": {"float32list"},
    "nul-truncate": {"embedded-nul"},
    "one-int": {"int64-distinct"},
    "one-int-map": {"int64-distinct", "duplicate-map-keys"},
    "largeint-string": {"largeint"},
    "largeint-null": {"largeint"},
    "stacktrace-three": {"error-stacktrace"},
    "nothing": set(FEATURES),
}
LACKS = set().union(LACKS.get(FAULT, set()), *(LACKS.get(f, set()) for f in FAULTS))
UNLIMITED = FAULT in ("depth-segv", "depth-deep", "depth-accepts") or "java-stack" in FAULTS
JAVA_STACK_DEPTH = 2260  # java-stack: the deepest nesting its stack holds
# alloc-first: the kind its crash answers name (MODEL_ALLOC_KIND: another, for the tests that a
# known kind blocks a wrong match and an unknown one matches loosely)
ALLOC_KIND = os.environ.get("MODEL_ALLOC_KIND", "java.lang.OutOfMemoryError")
SEGV_DEPTH = int(os.environ.get("MODEL_SEGV_DEPTH", "80000"))  # where depth-segv dies
PRINTABLE_DEPTH = 500
# MODEL_CRASH_ON: comma-separated hex messages whose decode answers `crash` (a panic), as a
# port with a bug there does: the diagnosis probes it refuses (judge/diag_probes.h)
CRASH_ON = set(filter(None, os.environ.get("MODEL_CRASH_ON", "").split(",")))


class Panic(Exception):
    """What a port without bounds checks does on a read past the end."""


class Skip(Exception):
    pass


class KeyNotString(Exception):
    """string-keys: the codec's documented rejection of a map key that is not a string, a
    reason no class of spec/errors.md names."""

    def __init__(self, offset):
        super().__init__("map key at %d is not a string" % offset)


class HostError(Exception):
    """A failure the host's plumbing does not survive (a JVM Error): answered as `crash`."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


class FaultyReader(smcpy._Reader):
    def need(self, k, what):
        if FAULT in ("panic", "range-error") and self.pos + k > self.n:
            raise Panic(
                "index out of bounds: the len is %d but the index is %d" % (self.n, self.pos + k)
            )
        super().need(k, what)

    def require(self, k, what):
        # alloc-first: the allocation comes before the comparison; a map is read entry by entry
        if "alloc-first" in FAULTS and self.n - self.pos < k and not what.startswith("a map"):
            units = 4 * k if what.startswith("a list") else k  # a list holds references
            if units >= 1 << 30:
                raise HostError(ALLOC_KIND, "Java heap space (%s)" % what)
        super().require(k, what)

    def value(self, depth):
        unknown = self.pos < self.n and 0x0F <= self.data[self.pos] <= 0x7F
        if unknown and (
            "unknown-null" in FAULTS or ("unknown-null-top" in FAULTS and not self.pos)
        ):
            self.pos += 1
            return ["null"]
        if FAULT == "f32-reject" and self.pos < self.n and self.data[self.pos] == smcpy.TAG_F32S:
            self.fail("unknown_tag", self.pos, "no Float32List")
        return super().value(depth)

    def map_entries(self, n, depth):
        if "string-keys" not in FAULTS:
            return super().map_entries(n, depth)
        out = []
        for _ in range(n):
            at = self.pos
            k = self.value(depth + 1)
            if k[:1] != ["str"]:
                raise KeyNotString(at)
            out.append([k, self.value(depth + 1)])
        return out

    def pad_len(self, width):
        if FAULTS & {"pad-remaining", "pad-remaining-plus-one"}:
            k = (-(self.n - self.pos) + ("pad-remaining-plus-one" in FAULTS)) % width
        else:
            k = (-self.pos - ("pad-offset-plus-one" in FAULTS)) % width
        return width if k == 0 and "pad-extra" in FAULTS else k

    def typed_list(self, tag):
        out = super().typed_list(tag)
        return ["null"] if FAULT == "f32-null" and tag == smcpy.TAG_F32S else out

    def largeint(self):
        if FAULT == "largeint-string":  # tag 5 read the way tag 7 is
            return self.text_value(self.text("a largeInt"))
        if FAULT == "largeint-null":
            self.text("a largeInt")
            return ["null"]
        return super().largeint()

    def text(self, what, utf8=None, verbatim=False):
        t = super().text(what, utf8, verbatim)
        if FAULT == "nul-truncate" and isinstance(t, str):
            return t.split("\0", 1)[0]  # GLIB: g_strndup stops at the NUL
        return t


def by_value(v):
    """One integer type: an int64 that fits int32 is the same host integer as an int32."""
    if not isinstance(v, list):
        return v
    if v[:1] == ["i64"] and smcpy.INT32_MIN <= int(v[1]) <= smcpy.INT32_MAX:
        return ["i32", int(v[1])]
    return [by_value(x) for x in v]


def merge_keys(v):
    """A host map of one entry per key: equal keys (after by_value) are one entry, the last
    value at the first key's position (R7.3-2)."""
    if not isinstance(v, list) or not v:
        return v
    if v[0] == "map":
        out, at = [], {}
        for k, x in v[1]:
            k, x = merge_keys(k), merge_keys(x)
            key = smcpy.notation_text(k)
            if key in at:
                out[at[key]][1] = x
            else:
                at[key] = len(out)
                out.append([k, x])
        return ["map", out]
    return [merge_keys(x) for x in v]


def cut_nul(v):
    if isinstance(v, str):
        return v.split("\0", 1)[0]
    if isinstance(v, list):
        return [cut_nul(x) for x in v]
    return v


def contains(v, word):
    return isinstance(v, list) and (v[:1] == [word] or any(contains(x, word) for x in v))


def shape(data):
    """(depth, values, bytes) of a message without recursion (PROTOCOL.md P.3 summary), or the
    SmcError a decoder without a depth limit meets (truncated, unknown_tag, trailing_bytes)."""
    pos, n = 0, len(data)
    depth = values = payload = 0

    def fail(cls, off):
        raise smcpy.SmcError(cls, off, "shape scan")

    def size():
        nonlocal pos
        if pos >= n:
            fail("truncated", n)
        first = data[pos]
        pos += 1
        if first < 254:
            return first
        k = 2 if first == 254 else 4
        if pos + k > n:
            fail("truncated", n)
        v = int.from_bytes(data[pos : pos + k], "little")
        pos += k
        return v

    remaining = [1]  # values still to read: a virtual root expecting one, then each open container
    while remaining:
        if remaining[-1] == 0:
            remaining.pop()
            continue
        remaining[-1] -= 1
        if pos >= n:
            fail("truncated", n)
        tag = data[pos]
        pos += 1
        values += 1
        children = None
        if tag in (0, 1, 2):
            pass
        elif tag in (3, 4):
            pos += 4 if tag == 3 else 8
        elif tag == 6:
            pos += (-pos) % 8 + 8
        elif tag in (5, 7, 8):
            k = size()
            pos += k
            payload += k
        elif tag in smcpy.TYPED_BY_TAG:
            width = smcpy.TYPED_BY_TAG[tag][1]
            k = size()
            pos += (-pos) % width + width * k
            payload += width * k
        elif tag == 0x0C:
            children = size()
        elif tag == 0x0D:
            children = 2 * size()
        elif tag >= 0x80:
            children = 1
        else:
            fail("unknown_tag", pos - 1)
        if pos > n:
            fail("truncated", n)
        if children is not None:
            remaining.append(children)
            depth = max(depth, len(remaining) - 1)
    if pos != n:
        fail("trailing_bytes", pos)
    return depth, values, payload


def nesting(data):
    """How deep the containers of a message's bytes nest (its leading run of list/map/custom
    tags with one element each is how the depth bombs and the depth ladder are built)."""
    d = 0
    pos = 0
    while pos < len(data) and (data[pos] in (0x0C, 0x0D) or data[pos] >= 0x80):
        d += 1
        if data[pos] >= 0x80:
            pos += 1
        elif data[pos : pos + 3] == b"\x0d\x01\x00":
            pos += 3  # a map of one entry whose key is null: the depth ladder's maps
        else:
            pos += 2
    return d


def decode(entry, data, strict):
    if UNLIMITED and entry == "message":
        deep = nesting(data)
        if "java-stack" in FAULTS and deep > JAVA_STACK_DEPTH:
            raise HostError("java.lang.StackOverflowError", "%d levels" % deep)
        if FAULT == "depth-segv" and deep >= SEGV_DEPTH:
            sys.stderr.write("model: recursing %d levels: stack overflow\n" % deep)
            sys.stderr.flush()
            os.kill(os.getpid(), signal.SIGSEGV)
        if deep > PRINTABLE_DEPTH:
            d, count, payload = shape(data)
            return {"summary": {"depth": d, "values": count, "bytes": payload}}
    profile = smcpy.SPEC.with_(envelope="three") if FAULT == "stacktrace-three" else smcpy.SPEC
    v = smcpy.decode(
        entry,
        data,
        strict,
        reader=FaultyReader,
        profile=profile,
        max_depth=10**6 if UNLIMITED else smcpy.MAX_DEPTH,
    )
    if FAULT in ("one-int", "one-int-map"):
        v = by_value(v)
    if FAULT == "one-int-map":
        v = merge_keys(v)
    return {"value": v}


def encode(entry, value):
    if "null-no-bytes" in FAULTS and entry == "message" and value in (None, "null", ["null"]):
        return None
    if FAULT in ("f32-null", "f32-reject") and contains(value, "f32s"):
        raise Skip("the host has no Float32List")
    if FAULT == "nul-truncate":
        value = cut_nul(value)
    if FAULT in ("one-int", "one-int-map"):
        value = by_value(value)
    if FAULT == "one-int-map" and smcpy.notation_text(merge_keys(value)) != smcpy.notation_text(
        value
    ):
        raise Skip("a host map holds one entry per key")
    return smcpy.encode(entry, value).hex


def reply(obj):
    protocol_lines.reply(obj, compact=True)


def hello(seq):
    options = []
    unclassed = FAULT == "no-classes" or "string-keys" in FAULTS
    if not unclassed or os.environ.get("MODEL_CLASSES") == "1":
        options.append("error-classes")
    if FAULT not in ("no-classes", "panic", "range-error") and "string-keys" not in FAULTS:
        options.append("error-offsets")
    options.append("shift")
    if FAULT == "nothing":
        options = []
    caps = [f for f in FEATURES if f not in LACKS]
    reply(
        {
            "seq": seq,
            "status": "ok",
            "protocol": PROTOCOL,
            "codec": {"name": "model (%s)" % FAULT, "version": "0", "language": "Python"},
            "entries": ["message"] if FAULT == "nothing" else ["message", "call", "envelope"],
            "capabilities": {"decode": caps, "encode": [c for c in caps if c != "largeint"]},
            "options": options,
        }
    )


def main():
    for req in protocol_lines.requests():
        seq, op = req["seq"], req["op"]
        if op == "hello":
            hello(seq)
            continue
        if op == "bye":
            reply({"seq": seq, "status": "ok"})
            return
        entry = req["entry"]
        try:
            if op == "encode":
                reply({"seq": seq, "status": "ok", "hex": encode(entry, req["value"])})
                continue
            if req.get("hex") in CRASH_ON:  # MODEL_CRASH_ON: a probe this runner refuses
                reply({"seq": seq, "status": "crash", "kind": "panic", "message": "crash"})
                continue
            # Python bytes have no address: `shift` cannot change anything here
            out = decode(entry, bytes.fromhex(req["hex"]), req.get("mode") == "strict")
            if op == "roundtrip":
                out["hex"] = encode(entry, out["value"])
            reply(dict(out, seq=seq, status="ok"))
        except smcpy.SmcError as e:
            cls = "unknown_tag" if FAULT == "no-classes" else e.cls
            if "string-keys" in FAULTS and os.environ.get("MODEL_CLASS_INFO") == "0":
                cls = None
            reply(
                {
                    "seq": seq,
                    "status": "error",
                    "class": cls,
                    "offset": e.offset,
                    "message": e.message,
                }
            )
        except KeyNotString as e:
            reply({"seq": seq, "status": "error", "class": None, "offset": None, "message": str(e)})
        except Panic as e:
            if PROTOCOL == 1:  # the old P.6: "catch every exception and map it to an error class"
                reply(
                    {
                        "seq": seq,
                        "status": "error",
                        "class": "truncated",
                        "offset": None,
                        "message": "panic: %s" % e,
                    }
                )
            elif FAULT == "range-error":
                reply({"seq": seq, "status": "rejected", "kind": "RangeError", "message": str(e)})
            else:
                reply({"seq": seq, "status": "crash", "kind": "panic", "message": str(e)})
        except HostError as e:
            status = os.environ.get("MODEL_ALLOC_ANSWER", "crash")
            reply({"seq": seq, "status": status, "kind": e.kind, "message": str(e)})
        except (Skip, smcpy.NotationError) as e:
            reply({"seq": seq, "status": "skipped", "reason": str(e)})


if __name__ == "__main__":
    main()
