#!/usr/bin/env python3
"""The JSON report's member names and judge/report.schema.json's property names are one set.

Every member of the JSON report is written by a call of smct_json_writer with its name as a
string literal (smct_jw_key*, or one of the report's own key helpers), so the names the
writers can emit are read from their sources. Each must be a property somewhere in the
schema (else a report using it fails validation), and each schema property must be written
by some writer (else the schema promises a field no report has). The check runs once on a
copy of the schema with one property removed, and must fail there: proof that it can fail.

    python3 judge/tests/test_report_schema_fields.py
"""

import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMA = os.path.join(ROOT, "judge", "report.schema.json")
# The files whose functions write the JSON report (report_json.c calls the others).
WRITERS = [
    "report/report_json.c",
    "report/report_causes.c",
    "complexity/complexity_report.c",
    "report/report_kinds.c",
]
# A member written through the writer: the key is the second argument, a string literal.
KEY_CALL = re.compile(
    r"\b(?:smct_jw_key\w*|key_text|key_seconds|cx_key_real|cx_probe_json)"
    r"\(\s*&?\w+\s*,\s*\"([^\"]+)\""
)


def schema_properties(node, out):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                out.update(value.keys())
            schema_properties(value, out)
    elif isinstance(node, list):
        for value in node:
            schema_properties(value, out)
    return out


def written_keys():
    keys = set()
    for name in WRITERS:
        with open(os.path.join(ROOT, "judge", name), encoding="utf-8") as f:
            keys.update(KEY_CALL.findall(f.read()))
    return keys


def differences(schema, keys):
    props = schema_properties(schema, set())
    return sorted(keys - props), sorted(props - keys)


def main():
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    keys = written_keys()
    if len(keys) < 100:
        print("FAIL: only %d member names found in the writers: the pattern is stale" % len(keys))
        return 1
    unknown, unwritten = differences(schema, keys)
    ok = True
    if unknown:
        print("FAIL: written by the JSON report but not in report.schema.json: %s" % unknown)
        ok = False
    if unwritten:
        print("FAIL: in report.schema.json but written by no report writer: %s" % unwritten)
        ok = False
    # The proof: without one property (of the runner's counts), the check must name it.
    broken = json.loads(json.dumps(schema))
    removed = []

    def drop(node):
        if isinstance(node, dict):
            props = node.get("properties")
            if isinstance(props, dict) and "bombs_accepted" in props and not removed:
                del props["bombs_accepted"]
                removed.append("bombs_accepted")
            for value in node.values():
                drop(value)
        elif isinstance(node, list):
            for value in node:
                drop(value)

    drop(broken)
    if not removed or removed[0] not in differences(broken, keys)[0]:
        print("FAIL: the check did not notice a property removed from the schema")
        ok = False
    if ok:
        print("ok: %d member names, written and in the schema alike" % len(keys))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
