#!/usr/bin/env python3
"""Generate the golden vectors (vectors/sNN-*.json, vectors/MANIFEST.json).

Every vector is computed by smcpy (the independent Python model in this folder) and, unless
--no-smc is given, also by the C reference through its runner (runners/PROTOCOL.md);
generation fails on any disagreement in a byte, a value, an error class or an offset. See
vectors/README.md.

    python3 vectors/gen/generate.py                 # write vectors/ (needs smc-c-runner)
    python3 vectors/gen/generate.py --no-smc        # Python only (loud warning)
    python3 vectors/gen/generate.py --check         # regenerate to a temp dir and compare
    python3 vectors/gen/generate.py --stats         # counts per section and tier

Each vector's `catches` (the catalogued bugs of spec/bugs-in-the-wild.md it catches) is
computed by running the judge with the mutant runner (build/runners/c/smc-c-mutant-runner)
once per bug over the freshly generated vectors; with --no-smc the committed values are
kept.
"""

import argparse
import glob
import hashlib
import importlib.util
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # keep the source tree clean

import bite  # noqa: E402
import caselib  # noqa: E402
import catches  # noqa: E402
import checks  # noqa: E402
import checks_host  # noqa: E402
import complexity  # noqa: E402
import crosscheck  # noqa: E402
import hosttypes  # noqa: E402
import profiles  # noqa: E402
import schemalite  # noqa: E402

VECTORS_DIR = os.path.dirname(HERE)
REPO = os.path.dirname(VECTORS_DIR)
DEFAULT_RUNNER = os.path.join(REPO, "build", "runners", "c", "smc-c-runner")
KEY_ORDER = (
    "id",
    "description",
    "section",
    "tier",
    "requirements",
    "by_mode",
    "kind",
    "since",
    "features",
    "host",
    "host_value",
    "host_alternatives",
    "value",
    "canonical",
    "map_order",
    "accepted",
    "hex",
    "error",
    "focus",
    "origin",
    "notes",
    "catches",
)
SPEC_VERSION = "0.1"


def load_modules():
    mods = []
    for path in sorted(glob.glob(os.path.join(HERE, "cases", "s[0-9][0-9]_*.py"))):
        name = os.path.splitext(os.path.basename(path))[0]
        spec = importlib.util.spec_from_file_location("cases." + name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        for attr in ("SECTION", "TITLE", "FILE", "cases"):
            if not hasattr(mod, attr):
                raise SystemExit("%s: missing %s" % (path, attr))
        mods.append(mod)
    return mods


def build_all(mods):
    """Build every module's cases; modules with LATE = True (truncations) see the others."""
    registry = {}
    per_module = {}
    for late in (False, True):
        for mod in mods:
            if getattr(mod, "LATE", False) != late:
                continue
            cases = mod.cases(registry)
            for c in cases:
                if c["id"] in registry:
                    raise SystemExit("duplicate vector id %s" % c["id"])
                major = c["section"].split(".")[0]
                if major != str(int(mod.SECTION)):
                    raise SystemExit(
                        "%s: section %s does not belong in file %s"
                        % (c["id"], c["section"], mod.FILE)
                    )
                if c["kind"] in caselib.HOST_KINDS:
                    checks_host.complete(c)
                else:
                    checks.complete_with_smcpy(c)
                registry[c["id"]] = c
            per_module[mod.FILE] = (mod, cases)
    # spec §17: the generator's host tables are the spec's and the schema's, and none of
    # their types is left without a vector in a direction it has.
    hosttypes.check_spec_tables()
    hosttypes.check_schema()
    hosttypes.check_coverage([c for c in registry.values() if c["kind"] in caselib.HOST_KINDS])
    hosttypes.check_alternatives()
    hosttypes.check_protocol_schema()
    hosttypes.check_empty_coverage(
        [c for c in registry.values() if c["kind"] in caselib.HOST_KINDS]
    )
    return registry, per_module


def ordered(c):
    out = {}
    for k in KEY_ORDER:
        if k in c:
            out[k] = c[k]
    extra = [k for k in c if k not in KEY_ORDER and not k.startswith("_")]
    if extra:
        raise SystemExit("%s: unexpected keys %s" % (c["id"], extra))
    return out


def vector_line(c):
    return json.dumps(ordered(c), ensure_ascii=False, separators=(",", ":"))


def file_text(mod, cases):
    head = [
        "{",
        ' "suite": "smc-conformance",',
        ' "format_version": 1,',
        ' "spec_version": %s,' % json.dumps(SPEC_VERSION),
        ' "vectors_version": %s,' % json.dumps(caselib.VERSION),
        ' "section": %s,' % json.dumps(str(int(mod.SECTION))),
        ' "title": %s,' % json.dumps(mod.TITLE, ensure_ascii=False),
        ' "vectors": [',
    ]
    body = [" " + vector_line(c) + ("," if i + 1 < len(cases) else "") for i, c in enumerate(cases)]
    return "\n".join(head + body + [" ]", "}"]) + "\n"


def tier_counts(cases):
    counts = {t: 0 for t in caselib.TIERS}
    for c in cases:
        counts[c["tier"]] += 1
    return counts


def write_outputs(outdir, per_module):
    manifest = {
        "suite": "smc-conformance",
        "format_version": 1,
        "spec_version": SPEC_VERSION,
        "vectors_version": caselib.VERSION,
        "files": {},
    }
    total = {"vectors": 0, "tiers": {t: 0 for t in caselib.TIERS}}
    for fname in sorted(per_module):
        mod, cases = per_module[fname]
        text = file_text(mod, cases).encode("utf-8")
        with open(os.path.join(outdir, fname + ".json"), "wb") as f:
            f.write(text)
        tiers = tier_counts(cases)
        manifest["files"][fname + ".json"] = {
            "section": str(int(mod.SECTION)),
            "vectors": len(cases),
            "tiers": tiers,
            "valid": sum(1 for c in cases if "canonical" in c),
            "reject": sum(1 for c in cases if "error" in c),
            "sha256": hashlib.sha256(text).hexdigest(),
        }
        total["vectors"] += len(cases)
        for t, n in tiers.items():
            total["tiers"][t] += n
    manifest["total"] = total
    # spec §15.4, V.8: the complexity families, one file of rules (never the bytes)
    text = complexity.file_text()
    with open(os.path.join(outdir, complexity.FILE_NAME), "wb") as f:
        f.write(text)
    manifest["complexity"] = {
        "file": complexity.FILE_NAME,
        "families": len(complexity.FAMILIES),
        "sha256": hashlib.sha256(text).hexdigest(),
    }
    with open(os.path.join(outdir, "MANIFEST.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")


def validate_outputs(outdir):
    """Parse every written file back and validate it against vectors/schema.json."""
    with open(os.path.join(VECTORS_DIR, "schema.json"), encoding="utf-8") as f:
        validator = schemalite.Validator(json.load(f))
    count = 0
    for path in sorted(glob.glob(os.path.join(outdir, "s[0-9][0-9]-*.json"))):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        errs = validator.errors(doc)
        if errs:
            raise SystemExit(
                "%s does not match schema.json:\n  %s" % (path, "\n  ".join(errs[:20]))
            )
        count += len(doc["vectors"])
    cx = schemalite.Validator({"$ref": "#/$defs/complexityFile", "$defs": validator.root["$defs"]})
    with open(os.path.join(outdir, complexity.FILE_NAME), encoding="utf-8") as f:
        errs = cx.errors(json.load(f))
    if errs:
        raise SystemExit(
            "%s does not match schema.json's complexityFile:\n  %s"
            % (complexity.FILE_NAME, "\n  ".join(errs[:20]))
        )
    return count


def first_difference(path_a, path_b):
    try:
        with open(path_a, encoding="utf-8") as f:
            a = json.load(f)
        with open(path_b, encoding="utf-8") as f:
            b = json.load(f)
    except (OSError, ValueError) as e:
        return "(cannot parse: %s)" % e
    va, vb = a.get("vectors", []), b.get("vectors", [])
    for x, y in zip(va, vb, strict=False):  # the counts are compared below
        if json.dumps(x, sort_keys=True) != json.dumps(y, sort_keys=True):
            return "first differing vector: %s (committed) vs %s (regenerated)" % (
                x.get("id"),
                y.get("id"),
            )
    if len(va) != len(vb):
        return "vector counts differ: %d committed, %d regenerated" % (len(va), len(vb))
    return "header or formatting differs"


def check_against(outdir):
    bad = 0
    new_files = sorted(os.listdir(outdir))
    old_files = sorted(
        os.path.basename(p) for p in glob.glob(os.path.join(VECTORS_DIR, "s[0-9][0-9]-*.json"))
    )
    old_files.append("MANIFEST.json")
    old_files.append(complexity.FILE_NAME)
    for name in sorted(set(new_files) | set(old_files)):
        committed = os.path.join(VECTORS_DIR, name)
        fresh = os.path.join(outdir, name)
        if not os.path.exists(committed):
            print("CHECK FAIL: %s would be created" % name)
            bad += 1
        elif not os.path.exists(fresh):
            print("CHECK FAIL: %s is committed but no longer generated" % name)
            bad += 1
        else:
            with open(committed, "rb") as f:
                x = f.read()
            with open(fresh, "rb") as f:
                y = f.read()
            if x != y:
                print("CHECK FAIL: %s differs; %s" % (name, first_difference(committed, fresh)))
                bad += 1
    return bad


def print_stats(per_module):
    rows = []
    for fname in sorted(per_module):
        _, cases = per_module[fname]
        by_section = {}
        for c in cases:
            by_section.setdefault(c["section"], []).append(c)
        for sec in sorted(by_section, key=lambda s: tuple(int(p) for p in s.split("."))):
            cs = by_section[sec]
            t = tier_counts(cs)
            rows.append(
                (
                    fname,
                    sec,
                    len(cs),
                    sum(1 for c in cs if "canonical" in c),
                    sum(1 for c in cs if "error" in c),
                    t["required"],
                    t["recommended"],
                    t["implementation-defined"],
                )
            )
    print(
        "%-22s %-6s %6s %6s %6s %6s %6s %6s"
        % ("file", "sect", "total", "valid", "reject", "req", "rec", "impl")
    )
    tot = [0] * 6
    for r in rows:
        print("%-22s %-6s %6d %6d %6d %6d %6d %6d" % r)
        for i in range(6):
            tot[i] += r[2 + i]
    print("%-22s %-6s %6d %6d %6d %6d %6d %6d" % tuple(["TOTAL", ""] + tot))


def add_catches(args, runner_path, registry, per_module):
    """Set each vector's `catches`: run the bug catalogue over the vectors just generated, with
    the judge, the mutant runner and smc-mutants of the C runner's build."""
    if runner_path is None:
        found = catches.from_committed(VECTORS_DIR)
        print(
            "!! --no-smc: `catches` copied from the committed vectors, not recomputed",
            file=sys.stderr,
        )
    else:
        runners_c = os.path.dirname(os.path.abspath(runner_path))
        build = os.path.dirname(os.path.dirname(runners_c))
        judge = args.judge or os.path.join(build, "cli", "smc")
        mutant = args.mutant_runner or os.path.join(runners_c, "smc-c-mutant-runner")
        tool = args.mutants_tool or os.path.join(build, "mutants", "smc-mutants")
        for path in (judge, mutant, tool):
            if not os.path.exists(path):
                raise SystemExit(
                    "%s not found: `catches` needs the smc CLI, the mutant runner and smc-mutants "
                    "of the C runner's build (or --judge / --mutant-runner / --mutants-tool)" % path
                )
        with tempfile.TemporaryDirectory() as tmp:
            write_outputs(tmp, per_module)
            found = catches.compute(tmp, judge, mutant, tool)
        print(
            "catches: %d of %d vectors catch at least one catalogued bug"
            % (len(found), len(registry)),
            file=sys.stderr,
        )
    for vid, c in registry.items():
        c.pop("catches", None)
        if found.get(vid):
            c["catches"] = found[vid]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--c-runner",
        default=None,
        metavar="PATH",
        help="the C reference's runner (default: %s)" % DEFAULT_RUNNER,
    )
    ap.add_argument("--no-smc", action="store_true", help="Python only, no C cross-check")
    ap.add_argument("--check", action="store_true", help="regenerate to a temp dir and compare")
    ap.add_argument("--stats", action="store_true", help="print counts per section and tier")
    ap.add_argument("--out", default=None, help="output directory (default: vectors/)")
    ap.add_argument(
        "--only",
        default=None,
        metavar="PREFIX",
        help="cross-check only vectors whose id starts with PREFIX; writes nothing",
    )
    ap.add_argument("--jobs", type=int, default=2, help="parallel runner processes (default 2)")
    ap.add_argument(
        "--judge",
        default=None,
        metavar="PATH",
        help="the smc CLI that runs the mutant runners for `catches` (default: the C "
        "runner's build)",
    )
    ap.add_argument(
        "--mutant-runner",
        default=None,
        metavar="PATH",
        help="smc-c-mutant-runner for `catches` (default: beside the C runner)",
    )
    ap.add_argument(
        "--mutants-tool",
        default=None,
        metavar="PATH",
        help="smc-mutants for `catches` (default: the C runner's build)",
    )
    args = ap.parse_args()

    mods = load_modules()
    registry, per_module = build_all(mods)
    runner_path = None
    checks.global_checks(registry, os.path.join(VECTORS_DIR, "retired.txt"))

    if args.no_smc:
        bar = "!" * 78
        print(bar, file=sys.stderr)
        print(
            "!! WARNING: --no-smc: vectors were NOT cross-checked against the C reference.",
            file=sys.stderr,
        )
        print(
            "!! Only the Python model (smcpy) vouches for them. Do not commit them as final.",
            file=sys.stderr,
        )
        print(bar, file=sys.stderr)
    else:
        runner_path = args.c_runner or DEFAULT_RUNNER
        if args.c_runner is None and not os.path.exists(runner_path):
            # Helpers and CI build in build-*/ too; take the newest runner found there.
            found = sorted(
                glob.glob(os.path.join(REPO, "build*", "runners", "c", "smc-c-runner")),
                key=os.path.getmtime,
            )
            if found:
                runner_path = found[-1]
        if not os.path.exists(runner_path):
            raise SystemExit(
                "smc-c-runner not found at %s (build it, pass --c-runner PATH, or "
                "use --no-smc)" % runner_path
            )
        runner = crosscheck.CRunner(runner_path, jobs=args.jobs)
        print("cross-checking against %s" % runner_path, file=sys.stderr)
        subset = registry
        if args.only:
            subset = {k: v for k, v in registry.items() if k.startswith(args.only)}
        failures = crosscheck.cross_check(runner, subset)
        if failures:
            for line in failures[:200]:
                print("DISAGREE: " + line, file=sys.stderr)
            raise SystemExit("%d disagreements between smcpy and %s" % (len(failures), runner_path))
        print(
            "cross-check: smcpy and %s agree on all %d vectors (%d requests)"
            % (runner_path, len(subset), runner.calls),
            file=sys.stderr,
        )
        cx_failures = complexity.cross_check(runner)
        if cx_failures:
            for line in cx_failures:
                print("DISAGREE: " + line, file=sys.stderr)
            raise SystemExit(
                "%d complexity members the C reference decodes otherwise" % len(cx_failures)
            )
        print(
            "cross-check: the C reference decodes the two smallest members of all %d "
            "complexity families as smcpy does" % len(complexity.FAMILIES),
            file=sys.stderr,
        )
        if args.only:
            return

    add_catches(args, runner_path, registry, per_module)
    # issue 31: every vector new in this release fails a catalogued bug or an official
    # codec's profile; every setting of those profiles says how it is known.
    profiles.check_evidence()
    bite._self_test()
    bitten = bite.check(registry)
    print(
        "bite: %d vectors new in %s, each fails a catalogued bug or an official codec's "
        "profile" % (len(bitten), bite.NEW),
        file=sys.stderr,
    )

    if args.stats:
        print_stats(per_module)

    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            write_outputs(tmp, per_module)
            validate_outputs(tmp)
            bad = check_against(tmp)
        if bad:
            raise SystemExit("--check: %d file(s) differ from what is committed" % bad)
        print("--check: all %d files identical" % (len(per_module) + 1), file=sys.stderr)
        return
    outdir = args.out or VECTORS_DIR
    os.makedirs(outdir, exist_ok=True)
    write_outputs(outdir, per_module)
    n = validate_outputs(outdir)
    assert n == len(registry), "files hold %d vectors, generated %d" % (n, len(registry))
    print(
        "wrote %d vectors in %d files to %s" % (len(registry), len(per_module), outdir),
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
