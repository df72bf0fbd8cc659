"""A tiny JSON Schema 2020-12 validator for the keywords vectors/schema.json uses (standard
library only, so the generator can validate its own output without extra packages)."""

import re

SUPPORTED = {
    "$schema",
    "$id",
    "$defs",
    "$ref",
    "title",
    "description",
    "type",
    "const",
    "enum",
    "pattern",
    "required",
    "additionalProperties",
    "properties",
    "items",
    "prefixItems",
    "minItems",
    "minLength",
    "uniqueItems",
    "minimum",
    "oneOf",
    "anyOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
}


def _type_ok(x, t):
    if t == "object":
        return isinstance(x, dict)
    if t == "array":
        return isinstance(x, list)
    if t == "string":
        return isinstance(x, str)
    if t == "integer":
        return isinstance(x, int) and not isinstance(x, bool)
    if t == "null":
        return x is None
    if t == "boolean":
        return isinstance(x, bool)
    raise ValueError("unsupported type %s" % t)


class Validator:
    def __init__(self, schema):
        self.root = schema
        self._check_keywords(schema)

    def _check_keywords(self, s):
        if isinstance(s, dict):
            for k, v in s.items():
                if k in ("properties", "$defs"):
                    for sub in v.values():
                        self._check_keywords(sub)
                elif k not in SUPPORTED:
                    raise ValueError("schemalite does not support keyword %r" % k)
                elif isinstance(v, (dict, list)):
                    self._check_keywords(v)
        elif isinstance(s, list):
            for sub in s:
                self._check_keywords(sub)

    def errors(self, x, s=None, path="$"):
        s = self.root if s is None else s
        if s is True:
            return []
        out = []
        if "$ref" in s:
            ref = s["$ref"]
            assert ref.startswith("#/$defs/")
            out += self.errors(x, self.root["$defs"][ref[len("#/$defs/") :]], path)
        if "type" in s and not _type_ok(x, s["type"]):
            return out + ["%s: not of type %s" % (path, s["type"])]
        if "const" in s and x != s["const"]:
            out.append("%s: must be %r" % (path, s["const"]))
        if "enum" in s and x not in s["enum"]:
            out.append("%s: %r not in enum" % (path, x))
        if isinstance(x, str):
            if "pattern" in s and not re.search(s["pattern"], x):
                out.append("%s: %r does not match %s" % (path, x[:40], s["pattern"]))
            if len(x) < s.get("minLength", 0):
                out.append("%s: too short" % path)
        if isinstance(x, int) and not isinstance(x, bool) and "minimum" in s and x < s["minimum"]:
            out.append("%s: below minimum" % path)
        if isinstance(x, dict):
            for k in s.get("required", []):
                if k not in x:
                    out.append("%s: missing %s" % (path, k))
            props = s.get("properties", {})
            for k, v in x.items():
                if k in props:
                    out += self.errors(v, props[k], "%s.%s" % (path, k))
                elif s.get("additionalProperties", True) is False:
                    out.append("%s: unexpected property %s" % (path, k))
        if isinstance(x, list):
            if len(x) < s.get("minItems", 0):
                out.append("%s: fewer than %d items" % (path, s["minItems"]))
            pre = s.get("prefixItems", [])
            for i, v in enumerate(x):
                if i < len(pre):
                    out += self.errors(v, pre[i], "%s[%d]" % (path, i))
                elif "items" in s:
                    out += self.errors(v, s["items"], "%s[%d]" % (path, i))
            if s.get("uniqueItems"):
                reprs = [repr(v) for v in x]
                if len(set(reprs)) != len(reprs):
                    out.append("%s: items not unique" % path)
        for sub in s.get("allOf", []):
            out += self.errors(x, sub, path)
        if "anyOf" in s and not any(not self.errors(x, sub, path) for sub in s["anyOf"]):
            out.append("%s: matches none of anyOf" % path)
        if "oneOf" in s:
            n = sum(1 for sub in s["oneOf"] if not self.errors(x, sub, path))
            if n != 1:
                out.append("%s: matches %d of oneOf (want 1)" % (path, n))
        if "not" in s and not self.errors(x, s["not"], path):
            out.append("%s: matches a forbidden schema" % path)
        if "if" in s:
            branch = "else" if self.errors(x, s["if"], path) else "then"
            if branch in s:
                out += self.errors(x, s[branch], path)
        return out
