"""Every vector added in this release bites (issue 31): it fails at least one catalogued bug
(its computed `catches`) or one official codec's full profile (profiles.full_profile: its
orders, its implementation-defined choices and its deviations, spec §16.2), so no vector is
added that every known codec passes for the wrong reason (the D28 flag vectors of 0.2 were
malformed after the flag, so a codec that takes any non-zero flag as an error rejected them
anyway).

A depth_limit vector bites every codec of profiles.STACK_DEPTH: none of them limits nesting
(D22), so each decodes the input or overflows its stack instead. Host-type vectors are not
checked: the model has no host-side profiles (their notes name who writes something
else)."""

import caselib
import checks
import profiles
import smcpy

NEW = caselib.V03


def biters(c):
    """The official codecs whose full profile gives, in some decode check the judge makes,
    another outcome than the vector's (or a permitted order's)."""
    alts = {(a["class"], a["offset"]) for a in c.get("error", {}).get("alternatives", [])}
    out = []
    for name in profiles.IMPLEMENTATIONS:
        if c.get("error", {}).get("class") == "depth_limit" and name in profiles.STACK_DEPTH:
            out.append(name)
            continue
        prof = profiles.full_profile(name)
        for mode, data, want in checks._decode_checks(c):
            got = checks._outcome(c.entry, data, mode == "strict", prof)
            if not checks._same(got, want) and not (got[0] == "error" and got[1:3] in alts):
                out.append(name)
                break
    return out


def check(registry):
    """Fail unless every vector with `since` NEW bites; returns {id: [who]} for the rest."""
    toothless, found = [], {}
    for vid, c in registry.items():
        if c.get("since") != NEW:
            continue
        if c["kind"] in caselib.HOST_KINDS:
            continue
        who = biters(c)
        found[vid] = who
        if not who and not c.get("catches"):
            toothless.append(vid)
    if toothless:
        raise SystemExit(
            "%d vectors new in %s catch no catalogued bug and fail no official "
            "codec's profile (bite.py): %s" % (len(toothless), NEW, ", ".join(toothless[:20]))
        )
    return found


def _self_test():
    """The check can fail: a flag vector is bitten by DART only through its deviation."""
    c = caselib.reject(
        "s11.4-bite-self-test",
        "",
        "02 070165 00 00",
        "bad_envelope",
        0,
        kind="envelope",
        requirements=("R11.4-1",),
        since=NEW,
    )
    assert biters(c) == ["DART"], biters(c)
    saved = profiles.DEVIATIONS["DART"]
    profiles.DEVIATIONS["DART"] = {}
    try:
        assert biters(c) == [], "without the deviation nobody fails it"
    finally:
        profiles.DEVIATIONS["DART"] = saved
    assert smcpy.decode(
        "envelope", bytes.fromhex("020701650000"), profile=profiles.full_profile("DART")
    ) == ["error", "e", None, ["null"]]
