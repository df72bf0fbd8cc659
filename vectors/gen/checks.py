"""Per-vector completion and suite self-checks (structure, smcpy agreement, disjointness).

Every check here fails generation with a message naming the vector: a suite that
contradicts itself is worse than no suite."""

import os
import re

import caselib
import smcpy

HEX_RE = re.compile(r"^(?:[0-9a-f]{2})*$")


class VectorError(SystemExit):
    pass


def fail(c, msg):
    raise VectorError("vector %s: %s" % (c["id"], msg))


def _decode(c, entry, data, strict):
    try:
        return smcpy.decode(entry, data, strict), None
    except smcpy.SmcError as e:
        return None, e


def _check_value_form(c):
    entry = c.entry
    try:
        if entry == "message":
            smcpy.check_value(c["value"])
        elif entry == "call":
            smcpy.check_call(c["value"])
        else:
            smcpy.check_envelope(c["value"])
    except smcpy.NotationError as e:
        fail(c, "bad notation: %s" % e)
    if c["kind"] == "success_envelope" and c["value"][0] != "success":
        fail(c, "success_envelope kind needs a success value")
    if c["kind"] == "error_envelope" and c["value"][0] != "error":
        fail(c, "error_envelope kind needs an error value")


def _complete_valid(c):
    entry = c.entry
    try:
        encoded = smcpy.encode(entry, c["value"])
    except smcpy.SmcError as e:
        fail(c, "smcpy cannot encode the value: %s" % e)
    c["canonical"] = encoded.hex
    expect = c.pop("_expect_hex", None)
    if expect is not None and expect != encoded.hex:
        fail(c, "smcpy encodes %s but the literal (upstream) bytes are %s" % (encoded.hex, expect))
    # decode -> encode fixpoint through smcpy, in both modes (spec §13: canonical bytes are
    # accepted by a strict decoder).
    for strict in (False, True):
        got, err = _decode(c, entry, encoded.data, strict)
        if err is not None:
            fail(c, "canonical bytes rejected (%s mode): %s" % ("strict" if strict else
                                                                "flutter", err))
        if not smcpy.same(got, c["value"]):
            fail(c, "canonical decodes to %s" % smcpy.notation_text(got))
        if smcpy.encode(entry, got).hex != encoded.hex:
            fail(c, "decode->encode is not a fixpoint")
    for a in c.get("accepted", []):
        if set(a) != {"hex", "why", "strict"} or not HEX_RE.match(a["hex"]):
            fail(c, "malformed accepted entry %r" % a)
        if a["hex"] == encoded.hex:
            fail(c, "accepted encoding equals the canonical one")
        data = bytes.fromhex(a["hex"])
        got, err = _decode(c, entry, data, False)
        if err is not None or not smcpy.same(got, c["value"]):
            fail(c, "accepted %s does not decode to the value in flutter mode (%s)" % (
                a["hex"], err or smcpy.notation_text(got)))
        got, err = _decode(c, entry, data, True)
        if a["strict"] is None:
            if err is not None or not smcpy.same(got, c["value"]):
                fail(c, "accepted %s: strict mode should accept it" % a["hex"])
        elif err is None or err.cls != a["strict"]:
            fail(c, "accepted %s: strict mode should raise %s, got %s" % (
                a["hex"], a["strict"], err or "a value"))
    path = c.pop("_focus_path", None)
    if path is not None:
        mark = encoded.marks.get(path)
        if mark is None or "tag" not in mark:
            fail(c, "focus path %s not found in the encoding" % path)
        c["focus"] = {"path": path, "offset": mark["tag"]}
    c["features"] = sorted(caselib.value_features(c["kind"], c["value"]))


def _complete_reject(c):
    entry = c.entry
    if not HEX_RE.match(c["hex"]):
        fail(c, "hex is not lower-case byte hex")
    err = c["error"]
    if err["class"] not in smcpy.ERROR_CLASSES:
        fail(c, "unknown error class %s" % err["class"])
    if not err["modes"] or any(m not in caselib.BOTH for m in err["modes"]):
        fail(c, "bad modes %s" % err["modes"])
    data = bytes.fromhex(c["hex"])
    for mode in err["modes"]:
        got, e = _decode(c, entry, data, mode == "strict")
        if e is None:
            fail(c, "smcpy accepts it in %s mode as %s" % (mode, smcpy.notation_text(got)))
        if (e.cls, e.offset) != (err["class"], err["offset"]):
            fail(c, "declared %s at %d but smcpy says %s at %s in %s mode" % (
                err["class"], err["offset"], e.cls, e.offset, mode))
    if err["modes"] == ["strict"]:
        if "value" not in c:
            fail(c, "a strict-only reject carries the value flutter mode decodes")
        _check_value_form(c)
        got, e = _decode(c, entry, data, False)
        if e is not None or not smcpy.same(got, c["value"]):
            fail(c, "flutter mode should decode it to the value, got %s" % (
                e or smcpy.notation_text(got)))
    elif "value" in c:
        fail(c, "only strict-only rejects carry a value")
    if err["modes"] == ["flutter"]:
        # Used only where strict mode fails earlier with another class (largeInt inputs:
        # strict rejects tag 5 itself, spec §4.4); that strict behaviour has its own vectors.
        got, e = _decode(c, entry, data, True)
        if e is None or (e.cls, e.offset) == (err["class"], err["offset"]):
            fail(c, "flutter-only reject must fail differently in strict mode")
    c["features"] = sorted(caselib.reject_features(c))


MAX_JSON_DEPTH = 400  # notation.md N.4: every runner's JSON reader must accept this


def json_depth(x):
    """Array nesting depth, iteratively (values can be deep)."""
    best, stack = 0, [(x, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, list):
            best = max(best, d)
            stack.extend((e, d + 1) for e in v)
    return best


def complete_with_smcpy(c):
    if "value" in c and json_depth(c["value"]) + 2 >= MAX_JSON_DEPTH:
        fail(c, "value nests %d JSON levels (limit %d with the file's own 2)" % (
            json_depth(c["value"]), MAX_JSON_DEPTH))
    if c["tier"] == "implementation-defined" and "notes" not in c:
        fail(c, "implementation-defined vectors need notes")
    if "error" in c:
        _complete_reject(c)
    else:
        _check_value_form(c)
        _complete_valid(c)


def global_checks(registry, retired_path):
    retired = set()
    if os.path.exists(retired_path):
        with open(retired_path, encoding="utf-8") as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if line:
                    retired.add(line)
    for cid in registry:
        if cid in retired:
            raise VectorError("vector id %s is retired (vectors/retired.txt)" % cid)
    # Valid and reject sets must be disjoint per entry point and mode, and one input must
    # never carry two different expectations.
    outcome = {}  # (entry, mode, hex) -> (expectation, vector id)

    def compatible(a, b):
        # ("value", text) or ("error", class, offset-or-None); an accepted entry's strict
        # class has no offset, so offsets are compared only when both are known.
        if a[0] != b[0] or a[1] != b[1]:
            return False
        return a[0] == "value" or a[2] is None or b[2] is None or a[2] == b[2]

    def claim(entry, mode, hx, expectation, cid):
        key = (entry, mode, hx)
        prev = outcome.get(key)
        if prev is not None and not compatible(prev[0], expectation):
            raise VectorError("contradiction on %s/%s input %s: %s expects %s, %s expects %s"
                              % (entry, mode, hx[:64], prev[1], prev[0], cid, expectation))
        outcome.setdefault(key, (expectation, cid))

    for cid, c in registry.items():
        entry = c.entry
        if "canonical" in c:
            val = ("value", smcpy.notation_text(c["value"]))
            for mode in caselib.BOTH:
                claim(entry, mode, c["canonical"], val, cid)
            for a in c.get("accepted", []):
                claim(entry, "flutter", a["hex"], val, cid)
                claim(entry, "strict", a["hex"],
                      val if a["strict"] is None else ("error", a["strict"], None), cid)
        else:
            err = c["error"]
            for mode in err["modes"]:
                claim(entry, mode, c["hex"], ("error", err["class"], err["offset"]), cid)
            if err["modes"] == ["strict"]:
                claim(entry, "flutter", c["hex"],
                      ("value", smcpy.notation_text(c["value"])), cid)
