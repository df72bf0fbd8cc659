#!/usr/bin/env python3
"""A runner with a bug that is in no catalogue, for the diagnosis tests.

It passes every request to another runner (the C reference runner, argument 1) and bends
the answer with one rewrite (argument 2), a bug class no entry of
spec/bugs-in-the-wild.md describes, so the judge's diagnosis must call the failures
unexplained rather than pin them on the nearest catalogued bug:

  errors-truncated   every decode error becomes `truncated` at the input length
  f64-byte-order     decoded float64 scalars come back with their 8 bytes reversed
  lists-reversed     decoded lists of two or more elements come back in reverse order
  offsets-plus-one   every decode error offset is one too high

usage: rewrite_runner.py RUNNER REWRITE
"""

import json
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the tests

import protocol_lines  # noqa: E402


def walk(v, fn):
    """Apply fn to every value of a notation tree (children first)."""
    if isinstance(v, list) and v and isinstance(v[0], str):
        t = v[0]
        if t == "list":
            v = ["list", [walk(x, fn) for x in v[1]]]
        elif t == "map":
            v = ["map", [[walk(k, fn), walk(x, fn)] for k, x in v[1]]]
        elif t == "custom":
            v = ["custom", v[1], walk(v[2], fn)]
        return fn(v)
    return v


def on_values(item, fn):
    """fn over the values of a message, call or envelope item."""
    if not isinstance(item, list) or not item:
        return item
    if item[0] == "call":
        return ["call", item[1], walk(item[2], fn)]
    if item[0] == "success":
        return ["success", walk(item[1], fn)]
    if item[0] == "error":
        return item[:3] + [walk(item[3], fn)] + item[4:]
    return walk(item, fn)


def f64_byte_order(v):
    if v[0] == "f64":
        return ["f64", bytes.fromhex(v[1])[::-1].hex()]
    return v


def lists_reversed(v):
    if v[0] == "list" and len(v[1]) >= 2:
        return ["list", v[1][::-1]]
    return v


def rewrite(kind, req, resp):
    if req.get("op") not in ("decode", "roundtrip"):
        return resp
    if resp.get("status") == "error":
        if kind == "errors-truncated":
            resp["class"] = "truncated"
            resp["offset"] = len(req.get("hex", "")) // 2
        elif kind == "offsets-plus-one" and isinstance(resp.get("offset"), int):
            resp["offset"] += 1
        return resp
    if resp.get("status") == "ok" and "value" in resp and req.get("op") == "decode":
        if kind == "f64-byte-order":
            resp["value"] = on_values(resp["value"], f64_byte_order)
        elif kind == "lists-reversed":
            resp["value"] = on_values(resp["value"], lists_reversed)
    return resp


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    inner = subprocess.Popen(
        [sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    kind = sys.argv[2]
    for line, req in protocol_lines.request_lines():
        inner.stdin.write(line if line.endswith("\n") else line + "\n")
        inner.stdin.flush()
        resp = json.loads(inner.stdout.readline())
        if req.get("op") == "hello":
            resp["codec"]["name"] = "rewrite[%s]" % kind
        else:
            resp = rewrite(kind, req, resp)
        protocol_lines.reply(resp, compact=True)
        if req.get("op") == "bye":
            break
    inner.stdin.close()
    inner.wait()


if __name__ == "__main__":
    main()
