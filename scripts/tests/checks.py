"""What the tests of scripts/tests/ share: one line per check, and a verdict at the end."""
import os

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
