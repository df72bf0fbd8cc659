"""Decoder profiles the generator decodes every vector under (errors.md §14.2.1, spec §1.1).

* ORDERS: every combination of the permitted orders of errors.md §14.2.1. A reject vector
  must give the same class and offset under each, or list the outcome as
  `error.alternatives` with the order's name.
* RULE_KNOBS: for each implementation-defined rule of spec §1.1, the behaviours it permits.
  A vector that names the rule must change its outcome under one of them; a vector that
  does not name it must not.
* IMPLEMENTATIONS: what each official codec does on those rules and orders (spec §16,
  wire-format-notes.md §2, §5, §8), so the outcome of each `notes` alternative is computed
  by the model, never typed by hand.
* DEVIATIONS: what each official codec does where no rule permits it (spec §16.2 rows), so
  the generator can show that a vector which asks for the spec's behaviour fails the codec
  that does otherwise (bite.py). Never part of a conforming profile.
* EVIDENCE: how each setting of those two tables is known: the spec §16.2 row that states
  it, where it was observed, or unverified; never "inferred" without saying so."""

import itertools

import smcpy

# errors.md §14.2.1: name of each permitted setting, as it appears in order labels.
ORDER_NAMES = {
    ("fixed", "value-first"): "value-first",
    ("fixed", "all-values-first"): "all-values-first",
    ("counts", "elements-first"): "elements-first",
    ("envelope", "three"): "three-element",
}


def _orders():
    out = []
    for fixed, counts, envelope in itertools.product(
        ("tag-first", "value-first", "all-values-first"),
        ("count-first", "elements-first"),
        ("four", "three"),
    ):
        p = smcpy.Profile(fixed=fixed, counts=counts, envelope=envelope)
        label = "+".join(
            ORDER_NAMES[kv]
            for kv in (("fixed", fixed), ("counts", counts), ("envelope", envelope))
            if kv in ORDER_NAMES
        )
        out.append((label or "spec", p))
    return out


# (label, profile): the spec order first, then one change, then combinations; within a
# group the fixed-element orders, then counts, then the envelope reading.
ORDERS = sorted(
    _orders(),
    key=lambda lp: (
        0 if lp[0] == "spec" else 1 + lp[0].count("+"),
        [
            name in lp[0]
            for name in ("value-first", "all-values-first", "elements-first", "three-element")
        ][::-1],
    ),
)
ORDER_LABELS = tuple(label for label, _ in ORDERS)

# spec §1.1 implementation-defined rules -> {profile field: permitted non-spec values}.
RULE_KNOBS = {
    "R4.4-2": {"largeint": ("string", "bigint", "reject")},
    "R5.1-3": {"bom": ("drop",)},
    "R5.3-2": {"utf8": ("keep", "replace", "null")},
    "R7.3-2": {"dupkeys": ("first", "last")},
    "R8.4-3": {},  # a Pigeon decoder's class registry; its alternatives carry explicit outcomes
    "R9.2-1": {"empty_message": ("null",)},
    "R11.3-1": {"envelope": ("three", "ignore")},
    "R11.3-2": {"envelope": ("three", "ignore")},
    "R11.4-2": {"empty_envelope": ("success-null", "other")},
}

# A decoder that lacks a feature (runners/PROTOCOL.md capabilities) never gets a vector that
# needs it; these settings are such decoders.
FEATURE_OF_SETTING = {
    ("largeint", "reject"): "largeint",
    ("custom", False): "custom-types",
}
# For valid vectors a three-element reader lacks error-stacktrace; for reject vectors it is
# a permitted order (errors.md §14.2.1) and in ORDERS.
VALID_FEATURE_OF_SETTING = dict(FEATURE_OF_SETTING)
VALID_FEATURE_OF_SETTING[("envelope", "three")] = "error-stacktrace"
VALID_FEATURE_OF_SETTING[("envelope", "ignore")] = "error-stacktrace"

# What official codecs do on the implementation-defined rules and the orders (facts: spec
# §16.2 rows named in the comments; wire-format-notes.md §2.5-§2.7, §5.3, §8).
IMPLEMENTATIONS = {
    "DART": dict(
        fixed="all-values-first",
        counts="elements-first",
        envelope="four",
        largeint="string",
        utf8="reject",
        bom="drop",
        dupkeys="last",
        empty_message="reject",
        empty_envelope="reject",
    ),
    "JAVA": dict(
        fixed="all-values-first",
        counts="elements-first",
        envelope="three",
        largeint="bigint",
        utf8="replace",
        bom="keep",
        dupkeys="last",
        empty_message="reject",
        empty_envelope="reject",
    ),
    "GLIB": dict(
        fixed="value-first",
        counts="elements-first",
        envelope="three",
        largeint="reject",
        utf8="keep",
        bom="keep",
        dupkeys="last",
        empty_message="null",
        empty_envelope="other",
    ),
    "CPP": dict(
        fixed="value-first",
        counts="count-first",
        envelope="ignore",
        largeint="string",
        utf8="keep",
        bom="keep",
        dupkeys="first",
        empty_message="null",
        empty_envelope="success-null",
    ),
    "OBJC": dict(
        fixed="value-first",
        counts="count-first",
        envelope="three",
        largeint="string",
        utf8="null",
        bom="keep",
        dupkeys="first",
        empty_message="null",
        empty_envelope="other",
    ),
}
ORDER_FIELDS = ("fixed", "counts")


def implementation_profiles(name, cited, reject, entry):
    """The profiles of implementation `name` for a vector naming the rules `cited`: its orders
    (and, for reject vectors, its envelope reading, a permitted order), plus its behaviour on
    the cited implementation-defined rules; the spec's decision elsewhere. Empty if the
    implementation has no profile. Where what it does on a reject vector is not a permitted
    order (CPP does not look at the bytes after an error envelope's details), two profiles:
    its outcome counts only where both agree, i.e. where that reading changes nothing."""
    impl = IMPLEMENTATIONS.get(name)
    if impl is None:
        return []
    settings = {k: impl[k] for k in ORDER_FIELDS}
    for rid in cited:
        for field in RULE_KNOBS.get(rid, {}):
            settings[field] = impl[field]
    if reject and entry == "envelope":
        if impl["envelope"] == "ignore":
            return [
                smcpy.Profile(**dict(settings, envelope="ignore")),
                smcpy.Profile(**dict(settings, envelope="four")),
            ]
        settings["envelope"] = impl["envelope"]
    return [smcpy.Profile(**settings)]


# Where official codecs break a rule (spec §16.2, the D row in the comment). Merged over
# IMPLEMENTATIONS only by full_profile(), which bite.py uses.
DEVIATIONS = {
    "DART": dict(flags="nonzero-error", keyeq="dart"),  # D28, D17
    "JAVA": dict(keyeq="java"),  # D17
    "GLIB": dict(keyeq="glib"),  # D17
    "CPP": dict(keyeq="cpp"),  # D17
    "OBJC": dict(keyeq="objc"),  # D17
}

# D22 (observed on default stacks): no official decoder limits nesting; each recurses until
# its stack overflows at about this many levels. The depth ladder (s15.1-ladder-*) is
# rejected at level 129 by the spec, so every one of them fails each rung.
STACK_DEPTH = {"JAVA": 2260, "DART": 10000, "CPP": 14100, "GLIB": 74650}
STACK_EVIDENCE = (
    "observed (spec D22); Android's codec decodes 2,000 levels and overflows at "
    "2,500 (issue 31); OBJC unverified"
)

# The spec §16.2 row (or errors.md section) that states each setting.
ROW_OF_FIELD = {
    "fixed": "errors.md §14.2.1",
    "counts": "errors.md §14.2.1",
    "largeint": "D1",
    "utf8": "D11",
    "bom": "D14",
    "dupkeys": "D15",
    "empty_message": "D25",
    "envelope": "D29",
    "empty_envelope": "D32",
    "flags": "D28",
    "keyeq": "D17",
}
ROW = "as its spec §16.2 row (ROW_OF_FIELD) states it"
# (implementation, setting) -> how it is known. A setting not listed is the spec's and
# needs none; every listed one cites its row, says where it was observed, or is unverified.
EVIDENCE = {
    ("DART", "fixed"): ROW,
    ("DART", "counts"): ROW,
    ("DART", "largeint"): ROW,
    ("DART", "utf8"): ROW,
    ("DART", "bom"): ROW,
    ("DART", "dupkeys"): ROW,
    ("DART", "flags"): "observed: 020701650000, ff0701650000 and 800701650000 decode as an "
    "error envelope (issue 31)",
    ("DART", "keyeq"): "observed: 1 and 1.0 are one key (issue 31)",
    ("JAVA", "fixed"): ROW,
    ("JAVA", "counts"): ROW,
    ("JAVA", "envelope"): ROW,
    ("JAVA", "largeint"): "observed on OpenJDK 17: BigInteger(text, 16).toString(16) "
    '("00FF" -> "ff", "+1f" -> "1f", "zz", "0x1f" '
    'and "" throw); ART unverified',
    ("JAVA", "utf8"): "observed on OpenJDK 17: new String(bytes, UTF_8) replaces as "
    "smcpy.jdk_replace does (one U+FFFD per encoded surrogate, 3,000 random "
    "inputs compared); ART unverified",
    ("JAVA", "dupkeys"): ROW,
    ("JAVA", "keyeq"): "observed: NaN keys with different payloads are one key (issue 13)",
    ("GLIB", "fixed"): ROW,
    ("GLIB", "counts"): ROW,
    ("GLIB", "envelope"): ROW,
    ("GLIB", "largeint"): ROW,
    ("GLIB", "utf8"): ROW,
    ("GLIB", "dupkeys"): ROW,
    ("GLIB", "empty_message"): ROW,
    ("GLIB", "empty_envelope"): ROW,
    ("GLIB", "keyeq"): "observed: i32 1 and i64 1, 0.0 and -0.0 are one key",
    ("CPP", "fixed"): ROW,
    ("CPP", "envelope"): ROW,
    ("CPP", "largeint"): ROW,
    ("CPP", "utf8"): ROW,
    ("CPP", "dupkeys"): ROW,
    ("CPP", "empty_message"): ROW,
    ("CPP", "empty_envelope"): ROW,
    ("CPP", "keyeq"): "unverified: std::map compares doubles with <, so 0.0 and -0.0 are one key",
    ("OBJC", "fixed"): ROW,
    ("OBJC", "envelope"): ROW,
    ("OBJC", "largeint"): ROW,
    ("OBJC", "utf8"): ROW,
    ("OBJC", "dupkeys"): ROW,
    ("OBJC", "empty_message"): ROW,
    ("OBJC", "empty_envelope"): ROW,
    ("OBJC", "keyeq"): "unverified: NSNumber isEqual: compares numbers and booleans by value",
}


def full_profile(name):
    """Everything implementation `name` does: its orders, its choice on every
    implementation-defined rule and its deviations (a non-conforming profile)."""
    return smcpy.Profile(**dict(IMPLEMENTATIONS[name], **DEVIATIONS.get(name, {})))


def check_evidence():
    """Every non-spec setting of IMPLEMENTATIONS and DEVIATIONS says how it is known."""
    missing = []
    for name, impl in IMPLEMENTATIONS.items():
        for field, value in dict(impl, **DEVIATIONS.get(name, {})).items():
            if value != smcpy.PROFILE_FIELDS[field][0] and (name, field) not in EVIDENCE:
                missing.append("%s.%s=%s" % (name, field, value))
    if missing:
        raise SystemExit("profiles.py: settings without EVIDENCE: %s" % ", ".join(missing))
