"""Per-vector completion and suite self-checks (structure, smcpy agreement, disjointness).

Every check here fails generation with a message naming the vector: a suite that
contradicts itself is worse than no suite."""

import os
import re

import caselib
import profiles
import requirements
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
            fail(
                c,
                "canonical bytes rejected (%s mode): %s" % ("strict" if strict else "flutter", err),
            )
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
            fail(
                c,
                "accepted %s does not decode to the value in flutter mode (%s)"
                % (a["hex"], err or smcpy.notation_text(got)),
            )
        got, err = _decode(c, entry, data, True)
        if a["strict"] is None:
            if err is not None or not smcpy.same(got, c["value"]):
                fail(c, "accepted %s: strict mode should accept it" % a["hex"])
        elif err is None or err.cls != a["strict"]:
            fail(
                c,
                "accepted %s: strict mode should raise %s, got %s"
                % (a["hex"], a["strict"], err or "a value"),
            )
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
            fail(
                c,
                "declared %s at %d but smcpy says %s at %s in %s mode"
                % (err["class"], err["offset"], e.cls, e.offset, mode),
            )
    if err["modes"] == ["strict"]:
        if "value" not in c:
            fail(c, "a strict-only reject carries the value flutter mode decodes")
        _check_value_form(c)
        got, e = _decode(c, entry, data, False)
        if e is not None or not smcpy.same(got, c["value"]):
            fail(
                c,
                "flutter mode should decode it to the value, got %s"
                % (e or smcpy.notation_text(got)),
            )
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


def _derive_tiers(c):
    """spec §1.1: the tier follows from the requirements; a hand-written one must agree."""
    R = requirements.get()

    def derive(ids, what):
        for rid in ids:
            try:
                R.tier_of(rid)
            except KeyError:
                fail(c, "%s names %s, which is not a requirement of the spec" % (what, rid))
            except ValueError as e:
                fail(c, "%s: %s" % (what, e))
        return R.derive(ids)

    reqs = sorted(set(c.pop("_requirements")), key=requirements.sort_key)
    c["requirements"] = reqs
    c["tier"] = derive(reqs, "requirements")
    by = c.pop("_by_mode", None)
    if by:
        c["by_mode"] = {
            m: {
                "requirements": sorted(set(ids), key=requirements.sort_key),
                "tier": derive(ids, "by_mode." + m),
            }
            for m, ids in sorted(by.items())
        }
        if len({b["tier"] for b in c["by_mode"].values()}) < 2:
            fail(c, "by_mode is for modes whose rules have different tiers; here they agree")
    hand = c.pop("_hand_tier", None)
    if hand is not None and hand != c["tier"]:
        fail(
            c,
            "tier written as %s, but its requirements %s make it %s (spec §1.1)"
            % (hand, ", ".join(reqs), c["tier"]),
        )


def mode_tier(c, mode):
    b = c.get("by_mode", {}).get(mode)
    return b["tier"] if b else c["tier"]


def mode_requirements(c, mode):
    b = c.get("by_mode", {}).get(mode)
    return b["requirements"] if b else c["requirements"]


def _outcome(entry, data, strict, profile):
    """("value", notation text, value) or ("error", class, offset) of one decode."""
    try:
        v = smcpy.decode(entry, data, strict, profile=profile)
        return ("value", smcpy.notation_text(v), v)
    except smcpy.SmcError as e:
        return ("error", e.cls, e.offset)


def _same(a, b):
    return a[:3] == b[:3] if a[0] == "error" else a[:2] == b[:2]


def _describe(o):
    if o[0] == "value":
        return "value %s" % o[1][:160]
    return "%s at %s" % (o[1] or "an error (class not assigned by the spec)", o[2])


def _decode_checks(c):
    """(mode, input bytes, expected outcome) of every decode check the judge makes."""
    out = []
    if "error" in c:
        data = bytes.fromhex(c["hex"])
        err = c["error"]
        for mode in err["modes"]:
            out.append((mode, data, ("error", err["class"], err["offset"])))
        if err["modes"] == ["strict"]:
            v = c["value"]
            out.append(("flutter", data, ("value", smcpy.notation_text(v), v)))
    else:
        data = bytes.fromhex(c["canonical"])
        v = c["value"]
        for mode in caselib.BOTH:
            out.append((mode, data, ("value", smcpy.notation_text(v), v)))
    return out


def _check_orders(c):
    """errors.md §14.2.2: one fault, the same outcome under every permitted order, or the
    outcome is listed in error.alternatives (exactly the computed ones)."""
    entry = c.entry
    err = c["error"]
    data = bytes.fromhex(c["hex"])
    found = {}  # (class, offset) -> [first order label, modes]
    for mode in err["modes"]:
        for label, prof in profiles.ORDERS:
            o = _outcome(entry, data, mode == "strict", prof)
            if o[0] == "value":
                fail(
                    c,
                    "the permitted order %s accepts it in %s mode as %s: the input has no "
                    "fault for it (errors.md §14.2.2)" % (label, mode, o[1][:200]),
                )
            if (o[1], o[2]) == (err["class"], err["offset"]):
                continue
            slot = found.setdefault((o[1], o[2]), [label, []])
            if mode not in slot[1]:
                slot[1].append(mode)
    computed = []
    for (cls, off), (label, modes) in found.items():
        a = {"class": cls, "offset": off, "order": label}
        if sorted(modes) != sorted(err["modes"]):
            a["modes"] = sorted(modes)
        computed.append(a)
    rank = {label: i for i, label in enumerate(profiles.ORDER_LABELS)}
    computed.sort(key=lambda a: (rank[a["order"]], a["offset"], a["class"]))
    declared = c.pop("_alternatives", [])
    key = lambda a: (a["class"], a["offset"], a["order"], tuple(a.get("modes", ())))  # noqa
    if sorted(map(key, declared)) != sorted(map(key, computed)):
        fail(
            c,
            "error.alternatives must list exactly the outcomes of the permitted orders "
            "(errors.md §14.2.1): declared %s, computed %s"
            % ([key(a) for a in declared] or "none", [key(a) for a in computed] or "none"),
        )
    if computed:
        err["alternatives"] = computed


def _knob_applicable(c, field, value):
    table = profiles.FEATURE_OF_SETTING if "error" in c else profiles.VALID_FEATURE_OF_SETTING
    feature = table.get((field, value))
    return feature is None or feature not in c["features"]


def _relevant(field, data, entry):
    """Cheap filter: can this setting change the decode of `data` at all?"""
    if field == "utf8":
        return any(b >= 0x80 for b in data)
    if field == "bom":
        return b"\xef\xbb\xbf" in data
    if field == "largeint":
        return 0x05 in data
    if field == "dupkeys":
        return 0x0D in data
    if field == "empty_message":
        return not data and entry == "message"
    if field == "empty_envelope":
        return not data and entry == "envelope"
    if field == "envelope":
        return entry == "envelope"
    return True


def _check_rules(c):
    """spec §1.1: each implementation-defined rule a vector names changes its outcome under a
    behaviour the rule permits (alone or with another named rule, in some permitted order);
    no rule it does not name does, in any permitted order (for the decoders the vector
    applies to)."""
    import itertools

    entry = c.entry
    reject = "error" in c

    def settings(rid):
        for field, values in profiles.RULE_KNOBS[rid].items():
            if reject and field == "envelope":
                continue  # a permitted order for reject vectors (_check_orders)
            for value in values:
                if value != "ignore":  # CPP's reading, never conforming: named in notes only
                    yield field, value

    orders = profiles.ORDERS if reject else profiles.ORDERS[:1]
    seen = set()
    for mode, data, _ in _decode_checks(c):
        strict = mode == "strict"
        cited = [r for r in mode_requirements(c, mode) if r in profiles.RULE_KNOBS]
        uncited = [
            (rid, f, v)
            for rid in profiles.RULE_KNOBS
            if rid not in cited
            for f, v in settings(rid)
            if _relevant(f, data, entry) and _knob_applicable(c, f, v)
        ]
        choices = [
            [None] + [(rid, f, v) for f, v in settings(rid) if _relevant(f, data, entry)]
            for rid in cited
        ]
        combos = []
        for combo in itertools.product(*choices):
            picked = [x for x in combo if x is not None]
            fields = {}
            for _, f, v in picked:
                fields.setdefault(f, v)
            if picked and len(fields) == len(picked):
                combos.append((picked, fields))
        for label, prof in orders:
            base = _outcome(entry, data, strict, prof)
            for rid, field, value in uncited:
                o = _outcome(entry, data, strict, prof.with_(**{field: value}))
                if not _same(o, base):
                    fail(
                        c,
                        "with %s=%s (permitted by %s, which the vector does not name) and "
                        "the %s order, %s mode gives %s instead of %s: name %s or change the "
                        "input"
                        % (field, value, rid, label, mode, _describe(o), _describe(base), rid),
                    )
            for picked, fields in combos:
                if all(r in seen for r, _, _ in picked):
                    continue
                o = _outcome(entry, data, strict, prof.with_(**fields))
                if not _same(o, base):
                    seen.update(r for r, _, _ in picked)
    for rid in sorted(set(c["requirements"]) & set(profiles.RULE_KNOBS)):
        if list(settings(rid)) and rid not in seen:
            fail(c, "names %s, but no behaviour %s permits changes its outcome" % (rid, rid))


def _outcome_json(o):
    if o[0] == "value":
        return {"value": o[2]}
    if o[1] is None:
        return {"error": {}}
    return {"error": {"class": o[1], "offset": o[2]}}


def _complete_notes(c):
    """The machine-readable outcome of each alternative (spec §1.1), computed per vector
    from the implementations' profiles; explicit outcomes are checked for shape."""
    notes = c.pop("_notes", None)
    if notes is None:
        return
    entry = c.entry
    reject = "error" in c
    checks = [
        (m, d, b) for m, d, b in _decode_checks(c) if mode_tier(c, m) == "implementation-defined"
    ]
    order_alts = {(a["class"], a["offset"]) for a in c.get("error", {}).get("alternatives", [])}
    alts = []
    any_outcome = False
    computed_any = False
    for a in notes["alternatives"]:
        entry_out = {"behaviour": a["behaviour"], "who": list(a["who"])}
        explicit = a.get("_outcome")
        if explicit is not None:
            if not checks:
                fail(c, "an explicit outcome on a vector with no implementation-defined check")
            if set(explicit) == {"value"}:
                try:
                    (
                        smcpy.check_value
                        if c.entry == "message"
                        else smcpy.check_call
                        if c.entry == "call"
                        else smcpy.check_envelope
                    )(explicit["value"])
                except smcpy.NotationError as e:
                    fail(c, "explicit outcome is not notation: %s" % e)
            elif set(explicit) != {"error"} or set(explicit["error"]) - {"class", "offset"}:
                fail(c, 'an outcome is {"value": V} or {"error": {class?, offset?}}')
            entry_out["outcome"] = explicit
            any_outcome = True
        elif checks:
            groups = []  # [outcome, [who]] in the order of `who`
            for w in a["who"]:
                per_mode = []
                for mode, data, _base in checks:
                    profs = profiles.implementation_profiles(
                        w, mode_requirements(c, mode), reject, entry
                    )
                    outs = [_outcome(entry, data, mode == "strict", p) for p in profs]
                    if not outs or any(not _same(o, outs[0]) for o in outs):
                        per_mode = []
                        break
                    per_mode.append(outs[0])
                if not per_mode:
                    continue
                first = per_mode[0]
                if any(not _same(o, first) for o in per_mode):
                    fail(
                        c,
                        "%s's outcome differs between modes: %s"
                        % (w, [_describe(o) for o in per_mode]),
                    )
                for g in groups:
                    if _same(g[0], first):
                        g[1].append(w)
                        break
                else:
                    groups.append([first, [w]])
            base = checks[0][2]
            split = []
            for o, who in groups:
                coincides = _same(o, base) or (o[0] == "error" and (o[1], o[2]) in order_alts)
                computed_any = True
                if not coincides:
                    split.append(dict(entry_out, who=who, outcome=_outcome_json(o)))
                    any_outcome = True
            rest = [w for w in a["who"] if not any(w in x["who"] for x in split)]
            if rest or not split:
                alts.append(dict(entry_out, who=rest or entry_out["who"]))
            alts.extend(split)
            continue
        alts.append(entry_out)
    c["notes"] = {"decision": notes["decision"], "alternatives": alts}
    if checks and not any_outcome and not computed_any:
        fail(
            c,
            "an implementation-defined vector needs an alternative with a machine-readable "
            "outcome (spec §1.1), or implementations whose outcome the model computes (and "
            "which then coincide with the decision or a permitted order)",
        )


def _no_strbytes(c):
    if "value" in c and "strbytes" in smcpy.notation_text(c["value"]):
        if '"strbytes"' in smcpy.notation_text(c["value"]):
            fail(c, "a vector's value never holds strbytes (decode-only outcome form)")


def complete_with_smcpy(c):
    if "value" in c and json_depth(c["value"]) + 2 >= MAX_JSON_DEPTH:
        fail(
            c,
            "value nests %d JSON levels (limit %d with the file's own 2)"
            % (json_depth(c["value"]), MAX_JSON_DEPTH),
        )
    _derive_tiers(c)
    tiers = {c["tier"]} | {b["tier"] for b in c.get("by_mode", {}).values()}
    if "implementation-defined" in tiers and "_notes" not in c:
        fail(c, "implementation-defined vectors need notes")
    _no_strbytes(c)
    if "error" in c:
        _complete_reject(c)
        _check_orders(c)
    else:
        _check_value_form(c)
        _complete_valid(c)
    _check_rules(c)
    _complete_notes(c)


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
            raise VectorError(
                "contradiction on %s/%s input %s: %s expects %s, %s expects %s"
                % (entry, mode, hx[:64], prev[1], prev[0], cid, expectation)
            )
        outcome.setdefault(key, (expectation, cid))

    for cid, c in registry.items():
        entry = c.entry
        if "canonical" in c:
            val = ("value", smcpy.notation_text(c["value"]))
            for mode in caselib.BOTH:
                claim(entry, mode, c["canonical"], val, cid)
            for a in c.get("accepted", []):
                claim(entry, "flutter", a["hex"], val, cid)
                claim(
                    entry,
                    "strict",
                    a["hex"],
                    val if a["strict"] is None else ("error", a["strict"], None),
                    cid,
                )
        elif "modes" in c["error"]:
            err = c["error"]
            for mode in err["modes"]:
                claim(entry, mode, c["hex"], ("error", err["class"], err["offset"]), cid)
            if err["modes"] == ["strict"]:
                claim(entry, "flutter", c["hex"], ("value", smcpy.notation_text(c["value"])), cid)
