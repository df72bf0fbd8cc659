"""What the tests of scripts/tests/ share: one line per check, and a verdict at the end."""

import json
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAILS = []


def check(cond, what, detail=""):
    """Print `ok: what` or `FAIL: what` (with the detail, cut to 3,000 characters); return cond."""
    print("%s: %s" % ("ok" if cond else "FAIL", what))
    if not cond:
        FAILS.append(what)
        if detail:
            print("    " + str(detail).replace("\n", "\n    ")[-3000:])
    return cond


def verdict(name):
    """Print the test's summary line; the exit status (0 all passed, 1 some failed)."""
    print("%s: %s" % (name, "%d failed" % len(FAILS) if FAILS else "all passed"))
    return 1 if FAILS else 0


def no_duplicate_keys(pairs):
    """object_pairs_hook for vector files: a key twice in one object is refused (spec/vectors.md
    V.1), as the judge refuses it; Python's json would keep the last silently."""
    seen = set()
    for k, _ in pairs:
        if k in seen:
            raise ValueError("the key %r appears twice in one object (V.1: no duplicate keys)" % k)
        seen.add(k)
    return dict(pairs)


def foreign_host_vectors(vectors_dir, hosts):
    """How many host-type vectors (spec §17) in vectors_dir name a vocabulary not in `hosts`:
    the judge plans them n/a for a runner that declared `hosts` (runners/PROTOCOL.md P.1)."""
    n = 0
    for name in os.listdir(vectors_dir):
        if re.match(r"s[0-9][0-9]-.*\.json$", name):
            with open(os.path.join(vectors_dir, name), encoding="utf-8") as f:
                n += sum(
                    1
                    for v in json.load(f, object_pairs_hook=no_duplicate_keys)["vectors"]
                    if v["kind"] in ("host_encode", "host_decode") and v["host"] not in hosts
                )
    return n
