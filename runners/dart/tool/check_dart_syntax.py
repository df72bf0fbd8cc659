#!/usr/bin/env python3
"""Syntax check for the Dart runner: the strongest check that runs without a Dart SDK.

What it does
  * Parses every ``*.dart`` file under the given root (default: ``runners/dart``) with
    tree-sitter's Dart grammar and fails a file on any ERROR or MISSING node, printing
    ``file:line:col`` for each (1-based line and column).
  * Parses every ``pubspec.yaml`` under the root with PyYAML, if PyYAML is installed
    (otherwise prints that the YAML check was skipped), and checks that it is a mapping
    with a ``name``.
  * Runs a self-test first: a deliberately broken snippet must be reported and a correct
    one must not, so a grammar that silently accepts everything cannot make this pass.
  * Prints a last line ``N passed, N failed`` (files) and exits 1 if any file failed,
    2 if the parser is not available.

What it does NOT prove
  * Nothing about types: wrong types, missing members, unresolved names, wrong
    argument counts, null-safety errors and non-exhaustive switches all pass.
  * Nothing about imports: a missing file, package or symbol passes.
  * Nothing about semantics or behaviour: the code has never been compiled or run.
  * tree-sitter's Dart grammar is not the Dart language specification. It lags behind
    some Dart 3 syntax (it rejects empty object patterns such as ``case Foo():``), and it
    may accept some code the real Dart parser rejects. A pass means "tree-sitter found no
    syntax error", not "dart analyze is clean".

Usage: python3 check_dart_syntax.py [ROOT]
Requires: pip install -r runners/dart/tool/requirements.txt
(tree-sitter-language-pack 0.13.0 bundles the grammars; 1.x downloads them at run time.)
"""

import pathlib
import sys

REPO = pathlib.Path(__file__).resolve().parents[3]
DEFAULT_ROOT = REPO / "runners" / "dart"

BROKEN_SNIPPET = b"void main( {\n  final x = ;\n"
GOOD_SNIPPET = b"int twice(int x) => x * 2;\nvoid main() { print(twice(2)); }\n"


def load_parser():
    try:
        from tree_sitter_language_pack import get_parser
    except ImportError as error:
        sys.exit(
            f"error: cannot import tree_sitter_language_pack ({error}); "
            "run: pip install -r runners/dart/tool/requirements.txt"
        )
    try:
        return get_parser("dart")
    except Exception as error:  # 1.x raises DownloadError when offline
        print(
            f"error: no Dart grammar available ({type(error).__name__}: {error}); "
            "pin tree-sitter-language-pack==0.13.0, which bundles it",
            file=sys.stderr,
        )
        sys.exit(2)


def syntax_problems(parser, source):
    """Return (line, col, what) for every ERROR or MISSING node, 1-based."""
    problems = []
    stack = [parser.parse(source).root_node]
    while stack:
        node = stack.pop()
        if node.is_missing:
            row, col = node.start_point
            problems.append((row + 1, col + 1, f"missing {node.type}"))
        elif node.type == "ERROR":
            row, col = node.start_point
            problems.append((row + 1, col + 1, "syntax error"))
        # An ERROR's children are usually noise, but a MISSING node may sit inside one.
        stack.extend(reversed(node.children))
    return sorted(set(problems))


def self_test(parser):
    broken = syntax_problems(parser, BROKEN_SNIPPET)
    good = syntax_problems(parser, GOOD_SNIPPET)
    if not broken or good:
        print(f"self-test FAILED: broken snippet gave {broken}, good snippet gave {good}")
        return False
    print(
        f"self-test ok: broken snippet rejected at {broken[0][0]}:{broken[0][1]}, "
        "good snippet accepted"
    )
    return True


def check_pubspecs(root, results):
    try:
        import yaml
    except ImportError:
        print("pubspec.yaml check skipped: PyYAML is not installed")
        return
    for path in sorted(root.rglob("pubspec.yaml")):
        if any(part.startswith(".") for part in path.relative_to(root).parts):
            continue
        try:
            doc = yaml.safe_load(path.read_text(encoding="utf-8"))
            ok = isinstance(doc, dict) and isinstance(doc.get("name"), str)
            why = "" if ok else "not a mapping with a 'name'"
        except yaml.YAMLError as error:
            ok, why = False, str(error).replace("\n", " ")
        if not ok:
            print(f"{path}: {why}")
        results.append(ok)


def main(argv):
    root = pathlib.Path(argv[1]).resolve() if len(argv) > 1 else DEFAULT_ROOT
    parser = load_parser()
    if not self_test(parser):
        return 1
    results = []
    files = sorted(
        p
        for p in root.rglob("*.dart")
        if not any(part.startswith(".") for part in p.relative_to(root).parts)
    )
    if not files:
        print(f"error: no .dart files under {root}")
        return 1
    for path in files:
        problems = syntax_problems(parser, path.read_bytes())
        for line, col, what in problems:
            print(f"{path}:{line}:{col}: {what}")
        results.append(not problems)
    check_pubspecs(root, results)
    passed = sum(results)
    failed = len(results) - passed
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
