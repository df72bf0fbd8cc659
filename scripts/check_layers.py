#!/usr/bin/env python3
"""Prints the dependency picture of the C tree and fails on any arrow that points up.

Each layer (a folder) may use only the layers listed for it in LAYERS: what its C files
include ("#include" of a header that lives in another layer) and what its CMake targets link.
A use that is not listed is an upward or sideways arrow and fails the check, naming the file
and line. The picture printed is the one README.md's directory table describes.

The judge is split into rooms by its pipeline (judge/README.md, "Sources"): each folder of
judge/ is a room, a layer of its own, and JUDGE_ROOMS says which rooms each may use. A folder
of judge/ that JUDGE_ROOMS does not name fails the check (a new room says what it may use),
and so does a circle of uses between any layers, named with the arrows that make it.

The Python packages are checked the same way (PY_PACKAGES): which package's modules a
module imports ("import X" / "from X import", X a module of another package of this
repository; a package's own modules and the standard library's are not arrows). A Python
file of no package, an import PY_PACKAGES does not allow and a circle fail the check.

judge/README.md's map ("## Sources") has a row for every file of the judge (its C sources
and templates, room by room, and its tools): a file missing from its room's table, or a row
naming a file the room does not have, fails the check. Each room has one header,
ROOM_room.h, that says what it offers: it includes every header of the room that another
layer includes, and only its room's.

    python3 scripts/check_layers.py          # picture + check (exit 1 on a violation)
"""

import ast
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The judge's rooms, bottom first: room -> rooms it may use. judge/ itself (judge_main.c,
# options.c, setup.c, the tests) is the top and may use every room. Folders of judge/ that are
# not code: tests and tools belong to the top, expected-failures holds data.
JUDGE_ROOMS = {
    "base": [],
    "vectors": ["base"],
    "run": ["vectors", "base"],
    "verdict": ["run", "vectors", "base"],
    "complexity": ["run", "vectors", "base"],
    "diagnosis": ["verdict", "run", "vectors", "base"],
    "report": ["diagnosis", "complexity", "verdict", "run", "vectors", "base"],
}
JUDGE_NOT_ROOMS = {"tests", "tools", "expected-failures"}
# What every room may use outside the judge.
JUDGE_BELOW = ["mutants", "notation", "ref-decoder"]
# "judge" in a layer's list below means the whole judge: its top and every room.
JUDGE = ["judge"] + ["judge/" + r for r in JUDGE_ROOMS]

# layer -> (folders, layers it may use). Order: bottom first.
LAYERS = {
    "ref-decoder": (["ref-decoder"], []),
    "notation": (["notation"], ["ref-decoder"]),
    "mutants": (["mutants"], ["notation", "ref-decoder"]),
    "judge": (["judge"], ["mutants", "notation", "ref-decoder"]),
    "runners/c": (["runners/c"], ["mutants", "notation", "ref-decoder"]),
    # Flutter's Linux engine behind the C kit (runners/flutter-linux/README.md)
    "runners/flutter-linux": (["runners/flutter-linux"], ["runners/c", "notation", "ref-decoder"]),
    "bench": (["bench"], ["notation", "ref-decoder"]),
    "cli": (["cli"], ["judge", "bench", "notation", "ref-decoder"]),
    "tests": (["tests"], ["judge", "notation", "ref-decoder"]),
    "fuzz": (["fuzz"], ["judge", "notation", "ref-decoder"]),  # a target for the vector loader
}
for _room, _below in JUDGE_ROOMS.items():
    LAYERS["judge/" + _room] = (["judge/" + _room], ["judge/" + b for b in _below] + JUDGE_BELOW)
LAYERS["judge"] = (["judge"], JUDGE[1:] + JUDGE_BELOW)
for _layer, (_folders, _uses) in LAYERS.items():
    if "judge" in _uses and _layer != "judge":
        _uses[_uses.index("judge") : _uses.index("judge") + 1] = JUDGE

# Python: package (a folder, its subfolders included unless they are packages themselves) ->
# packages it may import. vectors/gen (the generator, its model codec smcpy, the catalogue
# and the profiles) is the bottom: the judge's Python runners, the fuzzers' differential
# driver and the benchmark payloads reuse its codec; nothing imports the tests or the tools.
PY_PACKAGES = {
    "vectors/gen": [],
    "scripts": [],
    "scripts/tests": [],
    "judge/tests": ["vectors/gen"],
    "judge/tools": [],
    "fuzz": ["vectors/gen"],
    "bench": ["vectors/gen"],
    "cli/tests": [],
    "runners/dart/tool": [],
    "runners/flutter-linux/tool": [],
}

# CMake targets defined by each layer (what target_link_libraries may name).
TARGET_RE = re.compile(r"^\s*add_(?:library|executable)\(\s*([A-Za-z0-9_:.-]+)", re.M)
LINK_RE = re.compile(r"target_link_libraries\(\s*([A-Za-z0-9_:.${}-]+)([^)]*)\)", re.S)
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_files(folders, exts):
    """The files of a layer's folders, less those of a layer inside them (judge/'s rooms)."""
    for folder in folders:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, folder)):
            dirnames[:] = [d for d in dirnames if not d.startswith(".") and d != "corpus"]
            for name in filenames:
                path = os.path.join(dirpath, name)
                if name.endswith(exts) and owner_of(path) == owner_of(os.path.join(ROOT, folder)):
                    yield path


def owner_of(path):
    rel = os.path.relpath(path, ROOT)
    best = None
    for layer, (folders, _) in LAYERS.items():
        for f in folders:
            if rel == f or rel.startswith(f + os.sep):
                if best is None or len(f) > len(best[1]):
                    best = (layer, f)
    return best[0] if best else None


def unnamed_rooms():
    """Folders of judge/ with no entry in JUDGE_ROOMS: each must say what it may use."""
    out = []
    for name in sorted(os.listdir(os.path.join(ROOT, "judge"))):
        if os.path.isdir(os.path.join(ROOT, "judge", name)) and not name.startswith("."):
            if name not in JUDGE_ROOMS and name not in JUDGE_NOT_ROOMS:
                out.append("judge/%s: a folder of the judge that JUDGE_ROOMS does not name" % name)
    return out


def circles(arrows):
    """Every circle of `arrows` (layer -> {layer: "file:line" of one use}): the strongly
    connected groups of more than one layer, each with the arrows inside it."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):  # Tarjan's algorithm; the graph is a few dozen layers
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in arrows.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                inside = sorted(
                    "%s -> %s (%s)" % (a, b, arrows[a][b])
                    for a in group
                    for b in arrows.get(a, {})
                    if b in group
                )
                out.append("circle between %s: %s" % (", ".join(sorted(group)), "; ".join(inside)))

    for v in sorted(arrows):
        if v not in index:
            visit(v)
    return out


def py_package_of(rel):
    best = None
    for pkg in PY_PACKAGES:
        if rel.startswith(pkg + "/") and (best is None or len(pkg) > len(best)):
            best = pkg
    return best


def py_imports(path):
    """(module, line) of every absolute import of a Python file."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.split(".")[0], node.lineno
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0], node.lineno


def check_python(problems):
    """The Python packages' import picture; problems appended. A module name resolves to
    the importer's own package first (its folder is sys.path[0]), then to the one other
    package that has a module of that name."""
    files = subprocess.run(
        ["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.split()
    if not files:  # outside a git checkout: every .py file under the root
        files = [
            os.path.relpath(p, ROOT)
            for p in layer_files(["."], (".py",))
            if "/build" not in p and "/." not in os.path.relpath(p, ROOT)
        ]
    modules = {}  # module name -> packages that define it
    for rel in files:
        pkg = py_package_of(rel)
        if pkg is None:
            problems.append("%s: a Python file of no package in PY_PACKAGES" % rel)
            continue
        base = os.path.basename(rel)
        name = os.path.basename(os.path.dirname(rel)) if base == "__init__.py" else base[:-3]
        modules.setdefault(name, set()).add(pkg)
    arrows = {pkg: {} for pkg in PY_PACKAGES}
    stdlib = getattr(sys, "stdlib_module_names", frozenset())
    for rel in files:
        me = py_package_of(rel)
        if me is None:
            continue
        for name, line in py_imports(os.path.join(ROOT, rel)):
            owners = modules.get(name, set())
            if not owners or me in owners or name in stdlib:
                continue
            if len(owners) > 1:
                problems.append(
                    "%s:%d: %s imports %s, a module of several packages (%s)"
                    % (rel, line, me, name, ", ".join(sorted(owners)))
                )
                continue
            (o,) = owners
            arrows[me].setdefault(o, "%s:%d" % (rel, line))
            if o not in PY_PACKAGES[me]:
                problems.append("%s:%d: %s imports %s from %s" % (rel, line, me, name, o))
    allowed = {pkg: {u: "allowed" for u in PY_PACKAGES[pkg]} for pkg in PY_PACKAGES}
    problems += ["allowed Python imports: " + c for c in circles(allowed)]
    problems += ["Python: " + c for c in circles(arrows)]
    return arrows


def room_header_problems(offered):
    """Each room of the judge has one header, ROOM_room.h, that says what the room offers: it
    includes every header of the room that a file of another layer includes (`offered`:
    header -> where), and only headers of its own room."""
    out = []
    for room in JUDGE_ROOMS:
        folder = os.path.join(ROOT, "judge", room)
        own = (
            {n for n in os.listdir(folder) if n.endswith(".h")} if os.path.isdir(folder) else set()
        )
        name = room + "_room.h"
        if name not in own:
            out.append("judge/%s: no %s, the header that says what the room offers" % (room, name))
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            includes = set(INCLUDE_RE.findall(f.read()))
        for h in sorted(includes - own):
            out.append("judge/%s/%s includes %s, not a header of its room" % (room, name, h))
        for h in sorted(own - includes - {name}):
            if h in offered:
                out.append(
                    "%s includes %s, which judge/%s/%s does not offer" % (offered[h], h, room, name)
                )
    return out


JUDGE_MAP_EXTS = (".c", ".h", ".c.in")


def judge_map_problems():
    """Files of the judge missing from judge/README.md's map, and rows of files not there."""
    readme = os.path.join(ROOT, "judge", "README.md")
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    at = text.find("\n## Sources\n")
    if at < 0:
        return ['judge/README.md: no "## Sources" section (the map of the judge\'s files)']
    end = text.find("\n## ", at + 1)
    listed = {}  # (folder, name) -> line
    folder = None
    for n, line in enumerate(text[at : end if end >= 0 else len(text)].splitlines()):
        line_no = text.count("\n", 0, at) + 1 + n
        m = re.match(r"\*\*(?:Top|`([a-z_]+)/`)\*\*", line)
        if m:
            folder = "judge" + ("/" + m.group(1) if m.group(1) else "")
        elif folder and line.startswith("| `"):
            for name in re.findall(r"`([^`]+)`", line.split("|")[1]):
                listed[(folder, name)] = line_no
    have = set()
    for folder_ in ["judge"] + ["judge/" + r for r in JUDGE_ROOMS]:
        for path in layer_files([folder_], JUDGE_MAP_EXTS):
            rel = os.path.relpath(path, ROOT)
            if os.path.dirname(rel) == folder_:  # judge/tests is described by subject
                have.add((folder_, os.path.basename(rel)))
    for path in layer_files(["judge/tools"], (".py",)):
        have.add(("judge/tools", os.path.basename(path)))
    out = [
        "%s/%s: not in judge/README.md's map (\"## Sources\", its room's table)" % key
        for key in sorted(have - set(listed))
    ]
    out += [
        "judge/README.md:%d: the map lists %s under %s/, which has no such file"
        % (listed[key], key[1], key[0])
        for key in sorted(set(listed) - have)
    ]
    return out


# issue 32, "one report model, four writers": the writers print the report model
# (judge/report/report_model.h), built once after the run, and never read the run. A line of a
# writer that names a run structure (the run, a runner, a result, a check), follows a model's
# pointer into one, or includes a header of the run's pipeline reads the run, and fails the
# check, named with its line.
REPORT_WRITERS = [
    "judge/report/report_text.c",
    "judge/report/report_json.c",
    "judge/report/report_junit.c",
    "judge/report/report_html.c",
    "judge/report/report_html_failures.c",
]
RUN_READ_RE = re.compile(
    r"\bsmcj_(?:run|runner|result|check)_t\b|->(?:run|runner|results|checks)\b|\brun->"
    r'|#include "(?:plan|results|session|self_check|expect)\.h"'
)


def run_reads(path):
    """The lines of a C file (comments blanked) that read the run: [(line, text)]."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return [
        (n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if RUN_READ_RE.search(line)
    ]


def writer_problems():
    problems = []
    for rel in REPORT_WRITERS:
        for n, line in run_reads(os.path.join(ROOT, rel)):
            problems.append(
                "%s:%d: a report writer reads the run, not the report model: %s" % (rel, n, line)
            )
    return problems


def main():
    # Where each header lives: a quoted include names a file by its path relative to an
    # include directory; index every header by its basename and by "smc/<name>".
    headers = {}
    for layer, (folders, _) in LAYERS.items():
        for path in layer_files(folders, (".h",)):
            headers.setdefault(os.path.basename(path), set()).add(layer)
            parent = os.path.basename(os.path.dirname(path))
            headers.setdefault(parent + "/" + os.path.basename(path), set()).add(layer)
    # Generated public headers of libsmc.
    for gen in ("smc/smc_export.h", "smc/smc_version.h"):
        headers.setdefault(gen, set()).add("ref-decoder")
    headers.setdefault("smct_vocab.h", set()).add("notation")  # generated from vectors/schema.json

    targets = {}
    for layer, (folders, _) in LAYERS.items():
        for path in layer_files(folders, ("CMakeLists.txt",)):
            with open(path, encoding="utf-8") as f:
                for m in TARGET_RE.finditer(f.read()):
                    targets[m.group(1)] = layer
    targets["smc::smc"] = "ref-decoder"

    uses = {layer: set() for layer in LAYERS}
    arrows = {layer: {} for layer in LAYERS}  # layer -> {layer used: where, the first use}
    problems = unnamed_rooms()
    offered = {}  # header -> where a file of another layer includes it (the first place)
    for folders, _ in LAYERS.values():
        for path in layer_files(folders, (".c", ".h", ".cc", ".cpp")):
            me = owner_of(path)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for m in INCLUDE_RE.finditer(text):
                owners = headers.get(m.group(1), set())
                if not owners or me in owners:
                    continue  # system-like or local header
                line = text.count("\n", 0, m.start()) + 1
                offered.setdefault(m.group(1), "%s:%d" % (os.path.relpath(path, ROOT), line))
                for o in sorted(owners):
                    uses[me].add(o)
                    arrows[me].setdefault(o, "%s:%d" % (os.path.relpath(path, ROOT), line))
                    if o not in LAYERS[me][1]:
                        problems.append(
                            "%s:%d: %s includes %s from %s"
                            % (os.path.relpath(path, ROOT), line, me, m.group(1), o)
                        )
        for path in layer_files(folders, ("CMakeLists.txt",)):
            me = owner_of(path)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for m in LINK_RE.finditer(text):
                for word in re.findall(r"[A-Za-z0-9_:.-]+", m.group(2)):
                    o = targets.get(word)
                    if o is None or o == me:
                        continue
                    uses[me].add(o)
                    line = text.count("\n", 0, m.start()) + 1
                    arrows[me].setdefault(o, "%s:%d" % (os.path.relpath(path, ROOT), line))
                    if o not in LAYERS[me][1]:
                        problems.append(
                            "%s:%d: %s links %s from %s"
                            % (os.path.relpath(path, ROOT), line, me, word, o)
                        )

    allowed = {layer: {u: "allowed" for u in LAYERS[layer][1]} for layer in LAYERS}
    problems += ["allowed arrows: " + c for c in circles(allowed)]
    problems += circles(arrows)

    problems += room_header_problems(offered)
    py_arrows = check_python(problems)
    problems += judge_map_problems()
    problems += writer_problems()

    print("dependency picture (layer -> layers it uses; judge/ROOM: the judge's rooms):")
    for layer in LAYERS:
        print("  %-17s -> %s" % (layer, ", ".join(sorted(uses[layer])) or "(nothing)"))
    print("Python packages (package -> packages it imports):")
    for pkg in PY_PACKAGES:
        print("  %-26s -> %s" % (pkg, ", ".join(sorted(py_arrows[pkg])) or "(nothing)"))
    if problems:
        print("\nviolations (a layer uses one it may not, a circle, a file missing from a map):")
        for p in problems:
            print("  " + p)
        return 1
    print("no arrow from a lower layer to a higher one, no circle between layers or packages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
