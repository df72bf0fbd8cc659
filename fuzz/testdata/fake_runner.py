#!/usr/bin/env python3
"""A small StandardMessageCodec runner in Python, for testing fuzz/differential.py.

It speaks runners/PROTOCOL.md and implements decoding (message, call, envelope; flutter and
strict mode; error classes and offsets of spec/errors.md) and encoding of messages. It is a
test double, not a codec to conform against: differential.py's self-test runs it once as a
stand-in reference and once with a deliberate bug (--bug NAME) to show that the
disagreement is found and minimized. Bugs, each a real bug class of third-party ports
(spec §16.2):
  trailing     a message with trailing bytes decodes (CPP, D20)
  align-value  float64 padding counted from the value's tag instead of the message start (§3.1)
  utf8-lenient strings are not checked for UTF-8 (D11)
Python standard library only.
"""

import json
import struct
import sys

MAX_DEPTH = 128


class DecodeError(Exception):
    def __init__(self, cls, offset):
        super().__init__(cls)
        self.cls, self.offset = cls, offset


class Reader:
    def __init__(self, data, strict, bugs, start=0):
        self.d, self.p, self.strict, self.bugs = data, start, strict, bugs

    def need(self, n):
        if len(self.d) - self.p < n:
            raise DecodeError("truncated", len(self.d))

    def byte(self):
        self.need(1)
        b = self.d[self.p]
        self.p += 1
        return b

    def size(self):
        at = self.p
        b = self.byte()
        if b < 254:
            return b
        width = 2 if b == 254 else 4
        self.need(width)
        n = int.from_bytes(self.d[self.p:self.p + width], "little")
        self.p += width
        if self.strict and n < (254 if width == 2 else 65536):
            raise DecodeError("not_canonical", at)
        return n

    def pad(self, align, tag_at):
        origin = tag_at if "align-value" in self.bugs else 0
        k = (align - (self.p - origin) % align) % align
        self.need(k)
        if self.strict:
            for i in range(k):
                if self.d[self.p + i]:
                    raise DecodeError("not_canonical", self.p + i)
        self.p += k

    def text(self, n):
        start = self.p
        raw = self.d[start:start + n]
        self.p += n
        if "utf8-lenient" in self.bugs:
            return raw.decode("utf-8", "replace")
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise DecodeError("bad_utf8", start + e.start)

    def value(self, depth=0):
        self.need(1)
        at = self.p
        t = self.byte()
        if t in (0x0c, 0x0d) or t >= 0x80:
            if depth + 1 > MAX_DEPTH:
                raise DecodeError("depth_limit", at)
        if (0x0f <= t <= 0x7f) or (t == 5 and self.strict):
            raise DecodeError("unknown_tag", at)
        if t == 0:
            return ["null"]
        if t in (1, 2):
            return ["bool", t == 1]
        if t in (3, 4):
            w = 4 if t == 3 else 8
            self.need(w)
            v = int.from_bytes(self.d[self.p:self.p + w], "little", signed=True)
            self.p += w
            return ["i32", v] if t == 3 else ["i64", str(v)]
        if t == 6:
            self.pad(8, at)
            self.need(8)
            bits = int.from_bytes(self.d[self.p:self.p + 8], "little")
            self.p += 8
            return ["f64", "%016x" % bits]
        if t in (5, 7, 8):
            n = self.size()
            self.need(n)
            if t == 8:
                h = self.d[self.p:self.p + n].hex()
                self.p += n
                return ["u8s", h]
            return ["largeint" if t == 5 else "str", self.text(n)]
        if t in (9, 0x0a, 0x0b, 0x0e):
            n = self.size()
            w = 4 if t in (9, 0x0e) else 8
            k = (w - self.p % w) % w
            if len(self.d) - self.p < k + w * n:
                raise DecodeError("truncated", len(self.d))
            self.pad(w, at)
            raw = [self.d[self.p + i * w:self.p + (i + 1) * w] for i in range(n)]
            self.p += w * n
            if t == 9:
                return ["i32s", [int.from_bytes(x, "little", signed=True) for x in raw]]
            if t == 0x0a:
                return ["i64s", [str(int.from_bytes(x, "little", signed=True)) for x in raw]]
            fmt = "%016x" if w == 8 else "%08x"
            return ["f64s" if t == 0x0b else "f32s", [fmt % int.from_bytes(x, "little") for x in raw]]
        if t == 0x0c:
            n = self.size()
            self.need(n)
            return ["list", [self.value(depth + 1) for _ in range(n)]]
        if t == 0x0d:
            n = self.size()
            self.need(2 * n)
            return ["map", [[self.value(depth + 1), self.value(depth + 1)] for _ in range(n)]]
        return ["custom", t, self.value(depth + 1)]

    def done(self):
        if self.p != len(self.d) and "trailing" not in self.bugs:
            raise DecodeError("trailing_bytes", self.p)


def decode(entry, data, strict, bugs):
    r = Reader(data, strict, bugs)
    if entry == "message":
        v = r.value()
        r.done()
        return v
    if entry == "call":
        r.need(1)
        if data[0] != 7:
            raise DecodeError("bad_envelope", 0)
        name = r.value()[1]
        args = r.value()
        r.done()
        return ["call", name, args]
    flag = r.byte()
    if flag == 0:
        v = r.value()
        r.done()
        return ["success", v]
    if flag != 1:
        raise DecodeError("bad_envelope", 0)
    out = ["error"]
    for allowed in ((7,), (0, 7), None, (0, 7)):
        if allowed is None:
            out.append(r.value())
            continue
        if len(out) == 4 and r.p == len(data):
            break
        r.need(1)
        if data[r.p] not in allowed:
            raise DecodeError("bad_envelope", r.p)
        v = r.value()
        out.append(None if v == ["null"] else v[1])
    r.done()
    return out


def size_bytes(n):
    if n < 254:
        return bytes([n])
    if n <= 0xFFFF:
        return b"\xfe" + n.to_bytes(2, "little")
    return b"\xff" + n.to_bytes(4, "little")


def encode(v, out):
    t = v[0]
    if t == "null":
        out += b"\x00"
    elif t == "bool":
        out += b"\x01" if v[1] else b"\x02"
    elif t == "i32":
        out += b"\x03" + struct.pack("<i", v[1])
    elif t == "i64":
        out += b"\x04" + struct.pack("<q", int(v[1]))
    elif t == "f64":
        out += b"\x06"
        out += b"\x00" * ((8 - len(out) % 8) % 8)
        out += int(v[1], 16).to_bytes(8, "little")
    elif t in ("str", "u8s"):
        raw = v[1].encode("utf-8") if t == "str" else bytes.fromhex(v[1])
        out += (b"\x07" if t == "str" else b"\x08") + size_bytes(len(raw)) + raw
    elif t in ("i32s", "i64s", "f64s", "f32s"):
        tag, w = {"i32s": (9, 4), "i64s": (10, 8), "f64s": (11, 8), "f32s": (14, 4)}[t]
        out += bytes([tag]) + size_bytes(len(v[1]))
        out += b"\x00" * ((w - len(out) % w) % w)
        for x in v[1]:
            if t in ("i32s", "i64s"):
                out += int(x).to_bytes(w, "little", signed=True)
            else:
                out += int(x, 16).to_bytes(w, "little")
    elif t == "list":
        out += b"\x0c" + size_bytes(len(v[1]))
        for x in v[1]:
            encode(x, out)
    elif t == "map":
        out += b"\x0d" + size_bytes(len(v[1]))
        for k, x in v[1]:
            encode(k, out)
            encode(x, out)
    elif t == "custom":
        out += bytes([v[1]])
        encode(v[2], out)
    else:
        raise DecodeError("not_encodable", 0)


def main():
    bugs = set()
    args = sys.argv[1:]
    while args:
        if args[0] == "--bug" and len(args) > 1:
            bugs.add(args[1])
            args = args[2:]
        else:
            sys.exit(f"usage: fake_runner.py [--bug trailing|align-value|utf8-lenient]...")
    caps = ["int32", "int64", "int64-distinct", "float64", "float32list", "typed-lists", "nan-payload",
            "embedded-nul", "custom-types", "largeint", "duplicate-map-keys", "map-order",
            "method-codec", "error-stacktrace", "strict-mode", "depth-limit"]
    for line in sys.stdin:
        req = json.loads(line)
        seq, op = req["seq"], req["op"]
        if op == "hello":
            resp = {"seq": seq, "status": "ok", "protocol": 1,
                    "codec": {"name": "fake-python" + ("+" + "+".join(sorted(bugs)) if bugs else ""),
                              "version": "0", "language": "Python"},
                    "entries": ["message", "call", "envelope"],
                    "capabilities": {"decode": caps, "encode": [c for c in caps if c != "largeint"]},
                    "options": ["error-offsets"]}
        elif op == "bye":
            print(json.dumps({"seq": seq, "status": "ok"}), flush=True)
            return
        elif op == "decode":
            try:
                v = decode(req["entry"], bytes.fromhex(req["hex"]), req.get("mode") == "strict", bugs)
                resp = {"seq": seq, "status": "ok", "value": v}
            except DecodeError as e:
                resp = {"seq": seq, "status": "error", "class": e.cls, "offset": e.offset, "message": e.cls}
        elif op == "encode" and req["entry"] == "message":
            try:
                out = bytearray()
                encode(req["value"], out)
                resp = {"seq": seq, "status": "ok", "hex": out.hex()}
            except DecodeError as e:
                resp = {"seq": seq, "status": "error", "class": e.cls, "message": "not encodable"}
        else:
            resp = {"seq": seq, "status": "skipped", "reason": f"{op} {req.get('entry')} not implemented"}
        print(json.dumps(resp), flush=True)


if __name__ == "__main__":
    main()
