"""Completion of the host-type vectors (spec §17, kinds host_encode and host_decode): the
notation value and bytes a host value must be written as, or not_encodable; the host value a
decoder must produce for some bytes; requirements, tiers, features. Every vector is also an
ordinary message vector for its bytes, so smccli cross-checks its value and canonical bytes
against the C reference like the rest."""

import caselib
import checks
import hosttypes
import smcpy


def _encode(c):
    vocab, hv = c["host"], c["host_value"]
    tab = hosttypes.table(vocab)
    reqs = {"R17-1"}
    for name in hosttypes.types_in(hv):
        if name not in tab:
            checks.fail(c, "%s is not a %s host type" % (name, vocab))
        reqs.update(tab[name].reqs)
    reqs.update(hosttypes.string_reqs(hv))
    if tab[hv["type"]].enc == "null":
        reqs.add("R9.3-1")  # a null host value at the top level
    try:
        value = hosttypes.to_value(vocab, hv)
    except hosttypes.Refused:
        c["error"] = {"class": "not_encodable"}
        c["features"] = []
        if tab[hv["type"]].name == "SMC_TYPE_LARGEINT":
            c["_refused_value"] = ["largeint", hv["value"]]
        return reqs
    except hosttypes.HostError as e:
        checks.fail(c, "bad host value: %s" % e)
    try:
        smcpy.check_value(value)
    except smcpy.NotationError as e:
        checks.fail(c, "the model wrote bad notation: %s" % e)
    data = smcpy.encode("message", value)
    c["value"] = value
    c["canonical"] = data.hex
    if not smcpy.same(smcpy.decode("message", data.data), value):
        checks.fail(c, "canonical bytes do not decode to the value")
    if hosttypes.unordered(vocab, hv):
        c["map_order"] = "any"
    c["features"] = sorted(caselib.value_features("message", value))
    return reqs


def _decode(c):
    vocab, value = c["host"], c["value"]
    try:
        smcpy.check_value(value)
        c["host_value"] = hosttypes.from_value(vocab, value)
    except (smcpy.NotationError, hosttypes.HostError) as e:
        checks.fail(c, "%s" % e)
    data = smcpy.encode("message", value)
    c["canonical"] = data.hex
    c["features"] = sorted(caselib.value_features("message", value))
    if hosttypes.unordered(vocab, c["host_value"]):
        c["map_order"] = "any"  # a Dictionary / EncodableMap: its order is not pinned
    alts = hosttypes.alternatives_in(vocab, c["host_value"])
    if alts:
        c["host_alternatives"] = alts  # spec §17.1: delivering one of these passes too
    if not c["description"]:
        c["description"] = "%s decodes %s to %s" % (
            vocab,
            smcpy.notation_text(value)[:60],
            c["host_value"]["type"],
        )
    reqs = {"R17-2"}
    names = hosttypes.types_in(c["host_value"])
    words = {w for t in hosttypes.VOCABULARIES[vocab] for w in t.decode}
    two_ints = hosttypes.decode_type(vocab, "i32") is not hosttypes.decode_type(vocab, "i64")
    text = smcpy.notation_text(value)
    if two_ints and "i64" in words and ('"i32"' in text or '"i64"' in text):
        reqs.add("R4.2-3")  # keeping the two integer types apart is a SHOULD
    del names
    return reqs


def complete(c):
    if c["kind"] == "host_encode":
        reqs = _encode(c)
    else:
        reqs = _decode(c)
    c["_requirements"] = sorted(reqs)
    checks._derive_tiers(c)
    notes = c.pop("_notes", None)
    if c["tier"] == "implementation-defined":
        checks.fail(c, "host-type vectors test no implementation-defined rule (spec §17)")
    if notes is not None:
        c["notes"] = {
            "decision": notes["decision"],
            "alternatives": [
                {"behaviour": a["behaviour"], "who": a["who"]} for a in notes["alternatives"]
            ],
        }
