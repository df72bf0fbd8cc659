#!/usr/bin/env python3
"""Prints the dependency picture of the C tree and fails on any arrow that points up.

Each layer (a folder) may use only the layers listed for it in LAYERS: what its C files
include ("#include" of a header that lives in another layer) and what its CMake targets link.
A use that is not listed is an upward or sideways arrow and fails the check, naming the file
and line. The picture printed is the one README.md's directory table describes.

    python3 scripts/check_layers.py          # picture + check (exit 1 on a violation)
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# layer -> (folders, layers it may use). Order: bottom first.
LAYERS = {
    "ref-decoder": (["ref-decoder"], []),
    "notation": (["notation"], ["ref-decoder"]),
    "mutants": (["mutants"], ["notation", "ref-decoder"]),
    "judge": (["judge"], ["mutants", "notation", "ref-decoder"]),
    "runners/c": (["runners/c"], ["mutants", "notation", "ref-decoder"]),
    "bench": (["bench"], ["notation", "ref-decoder"]),
    "cli": (["cli"], ["judge", "bench", "notation", "ref-decoder"]),
    "tests": (["tests"], ["judge", "notation", "ref-decoder"]),
    "fuzz": (["fuzz"], ["judge", "notation", "ref-decoder"]),  # a target for the vector loader
}

# CMake targets defined by each layer (what target_link_libraries may name).
TARGET_RE = re.compile(r"^\s*add_(?:library|executable)\(\s*([A-Za-z0-9_:.-]+)", re.M)
LINK_RE = re.compile(r"target_link_libraries\(\s*([A-Za-z0-9_:.${}-]+)([^)]*)\)", re.S)
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_files(folders, exts):
    for folder in folders:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, folder)):
            dirnames[:] = [d for d in dirnames if not d.startswith(".") and d != "corpus"]
            for name in filenames:
                if name.endswith(exts):
                    yield os.path.join(dirpath, name)


def owner_of(path):
    rel = os.path.relpath(path, ROOT)
    best = None
    for layer, (folders, _) in LAYERS.items():
        for f in folders:
            if rel == f or rel.startswith(f + os.sep):
                if best is None or len(f) > len(best[1]):
                    best = (layer, f)
    return best[0] if best else None


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
    problems = []
    for layer, (folders, allowed) in LAYERS.items():
        for path in layer_files(folders, (".c", ".h", ".cc", ".cpp")):
            me = owner_of(path)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for m in INCLUDE_RE.finditer(text):
                owners = headers.get(m.group(1), set())
                if not owners or me in owners:
                    continue  # system-like or local header
                line = text.count("\n", 0, m.start()) + 1
                for o in sorted(owners):
                    uses[me].add(o)
                    if o not in LAYERS[me][1]:
                        problems.append("%s:%d: %s includes %s from %s" % (
                            os.path.relpath(path, ROOT), line, me, m.group(1), o))
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
                    if o not in LAYERS[me][1]:
                        line = text.count("\n", 0, m.start()) + 1
                        problems.append("%s:%d: %s links %s from %s" % (
                            os.path.relpath(path, ROOT), line, me, word, o))

    print("dependency picture (layer -> layers it uses):")
    for layer in LAYERS:
        print("  %-12s -> %s" % (layer, ", ".join(sorted(uses[layer])) or "(nothing)"))
    if problems:
        print("\nlayering violations (a layer uses one it may not):")
        for p in problems:
            print("  " + p)
        return 1
    print("no arrow from a lower layer to a higher one")
    return 0


if __name__ == "__main__":
    sys.exit(main())
