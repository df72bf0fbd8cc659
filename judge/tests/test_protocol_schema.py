#!/usr/bin/env python3
"""runners/protocol.schema.json against runners/PROTOCOL.md, so that prose and schema cannot
drift: every request and response line PROTOCOL.md shows (its JSON blocks, the P.7 hello
fragments, and the templates of the P.2 and P.3 tables with their placeholders filled in)
must validate against the schema definition of its kind; and lines that break a rule of the
protocol must not. A statement of P.3 that names a status the schema lacks fails too."""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROTOCOL_MD = os.path.join(ROOT, "runners", "PROTOCOL.md")
SCHEMA = os.path.join(ROOT, "runners", "protocol.schema.json")

# What a placeholder of the tables stands for, by the field it fills.
FILL = {
    "seq": 1,
    "entry": "message",
    "hex": "0100",
    "mode": "flutter",
    "shift": 3,
    "value": ["null"],
    "host": "dart",
    "type": "int",
    "kind": "RangeError",
    "class": "truncated",
    "offset": 0,
    "depth": 0,
    "values": 1,
    "bytes": 0,
}


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def validator(defs, name):
    import jsonschema

    root = dict(defs)
    root["$ref"] = "#/$defs/" + name
    return jsonschema.Draft202012Validator(root)


def fill(template):
    """A table's `{"seq": N, "op": "decode", "hex": H, ...}` with each placeholder replaced."""

    def sub(m):
        return m.group(1) + json.dumps(FILL.get(m.group(2), "X"))

    text = re.sub(r'("(\w+)"\s*:\s*)[A-Z]\b', sub, template)
    text = text.replace(
        '"host_value": {"type": "int", "value": "X"}', '"host_value": {"type": "int", "value": "1"}'
    )
    return json.loads(text)


def examples(md):
    """(where, line) for every protocol line PROTOCOL.md shows."""
    out = []
    for m in re.finditer(r"```json\n(.*?)```", md, re.S):
        block = m.group(1).strip()
        where = "PROTOCOL.md line %d" % (md[: m.start()].count("\n") + 1)
        if block.startswith("{"):
            out.append((where, json.loads(block)))
        else:  # a P.7 fragment of a hello answer
            hello = {
                "seq": 0,
                "status": "ok",
                "protocol": 2,
                "entries": ["message"],
                "capabilities": {"decode": [], "encode": []},
            }
            hello.update(json.loads("{" + block + "}"))
            out.append((where + " (a hello fragment)", hello))
    for m in re.finditer(r"^\| `(\{\"seq\": N.*?\})` \|", md, re.M):
        out.append(
            ("PROTOCOL.md line %d (table)" % (md[: m.start()].count("\n") + 1), fill(m.group(1)))
        )
    return out


def kind_of(line):
    if "op" in line:
        return "request"
    if line.get("seq") == 0 and "protocol" in line:
        return "hello_reply"
    return "response"


def main():
    try:
        import jsonschema  # noqa: F401
    except ImportError:
        print("skip: python jsonschema not importable (pip install -r scripts/requirements.txt)")
        return
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    with open(PROTOCOL_MD, encoding="utf-8") as f:
        md = f.read()
    import jsonschema

    jsonschema.Draft202012Validator.check_schema(schema)
    checks = {k: validator(schema, k) for k in ("request", "hello_reply", "response")}
    lines = examples(md)
    seen = {}
    for where, line in lines:
        k = kind_of(line)
        errs = list(checks[k].iter_errors(line))
        if errs:
            fail(
                "%s: %s breaks $defs/%s: %s at %s"
                % (where, json.dumps(line), k, errs[0].message, list(errs[0].absolute_path))
            )
        seen.setdefault(k, set()).add(line.get("op") or line.get("status"))
    # every status of P.3 and every op of P.2 is shown, and the schema knows each
    statuses = set(re.findall(r'^\| `\{"seq": N, "status": "(\w+)"', md, re.M))
    ops = set(re.findall(r'^\| `\{"seq": N, "op": "(\w+)"', md, re.M))
    enum = set(schema["$defs"]["response"]["properties"]["status"]["enum"])
    if statuses != enum:
        fail("P.3's statuses %s and the schema's %s differ" % (sorted(statuses), sorted(enum)))
    if not {"decode", "encode", "roundtrip", "host_encode", "host_decode", "bye"} <= ops | {
        "hello"
    }:
        fail("P.2 lacks a request: %s" % sorted(ops))
    # lines that break the protocol must be refused
    bad = [
        ("response", {"seq": 1, "status": "rejected", "message": "no kind"}),
        ("response", {"seq": 1, "status": "maybe"}),
        ("response", {"seq": -1, "status": "ok", "value": ["null"]}),
        ("response", {"seq": 1, "status": "ok", "summary": {"depth": 1, "values": 1}}),
        ("response", {"seq": 1, "status": "error", "class": 3}),
        (
            "hello_reply",
            {
                "seq": 0,
                "status": "ok",
                "protocol": 2,
                "entries": "message",
                "capabilities": {"decode": [], "encode": []},
            },
        ),
        (
            "hello_reply",
            {
                "seq": 0,
                "status": "ok",
                "protocol": 2,
                "entries": ["message"],
                "capabilities": {"decode": []},
            },
        ),
        ("request", {"seq": 1, "op": "decode", "entry": "message", "hex": "ABC"}),
    ]
    for k, line in bad:
        if checks[k].is_valid(line):
            fail("$defs/%s accepts a broken line: %s" % (k, json.dumps(line)))
    print(
        "ok: %d lines of PROTOCOL.md valid (%s); %d broken lines refused"
        % (len(lines), ", ".join("%s %d" % (k, len(v)) for k, v in sorted(seen.items())), len(bad))
    )


if __name__ == "__main__":
    main()
