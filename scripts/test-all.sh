#!/usr/bin/env bash
# Runs every test of the project, in order, and ends with one summary line
# ("test-all: N passed, N failed, N skipped"). Each step prints its own output; a step whose
# toolchain is missing is skipped with the reason, never counted as passed.
# Usage: bash scripts/test-all.sh [STEP...]   (default: all steps; names as listed below)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$SMC_ROOT"

passed=0; failed=0; skipped=0; failures=()
step() {  # step NAME COMMAND...
  local name="$1"; shift
  if [ ${#only[@]} -gt 0 ] && [[ ! " ${only[*]} " == *" $name "* ]]; then return; fi
  echo "=== $name"
  local t0=$SECONDS
  if "$@"; then
    passed=$((passed + 1)); echo "=== $name: ok ($((SECONDS - t0)) s)"
  else
    failed=$((failed + 1)); failures+=("$name"); echo "=== $name: FAILED ($((SECONDS - t0)) s)"
  fi
}
skip() {  # skip NAME REASON
  if [ ${#only[@]} -gt 0 ] && [[ ! " ${only[*]} " == *" $1 "* ]]; then return; fi
  skipped=$((skipped + 1)); echo "=== $1: skipped: $2"
}
only=("$@")

deps()        { bash scripts/install-deps.sh; }
c_build()     { smc_configure_build "$SMC_BUILD"; }
# No arrow from a lower layer to a higher one, and libsmc builds and installs on its own.
layers()      { python3 scripts/check_layers.py && python3 scripts/tests/test_check_layers.py &&
                bash scripts/libsmc-standalone.sh; }
# Every C file laid out by .clang-format (Debian 12's clang-format 14: scripts/check_format.sh).
# The file list is every file a commit could add (tracked, and untracked not ignored):
# scripts/tests/test_format_checks.py proves both checks in a repository of its own.
fmt_check()   { bash scripts/check_format.sh && python3 scripts/tests/test_format_checks.py; }
# libsmc's wire-type header is the one scripts/gen_wire_types.py makes from spec/wire-types.json.
wire_types()  { python3 scripts/gen_wire_types.py --check; }
# Every Python file linted and laid out as ruff.toml says (ruff pinned in requirements.txt).
python_lint() { python3 -m ruff check --no-cache . && python3 -m ruff format --no-cache --check .; }
c_tests()     { ctest --test-dir "$SMC_BUILD" --output-on-failure -j "$SMC_JOBS"; }
# The suite used from elsewhere (docs/versioning.md, docs/ci.md): an install prefix alone, the
# release archives, the CI action's own steps.
install_test(){ python3 scripts/tests/test_install.py --build "$SMC_BUILD"; }
release_test(){ python3 scripts/tests/test_release.py; }
gate_test()   { python3 scripts/tests/test_gate.py --build "$SMC_BUILD"; }
# The runner kits as libraries: an outside example per kit, built and judged from a prefix.
kit_test()    { python3 scripts/tests/test_kits.py --build "$SMC_BUILD" --kit "$1"; }
# The sanitizer build runs the same tests without the valgrind variants (ASan and valgrind
# cannot share a process). It uses Debian's clang: its UBSan also flags `NULL + 0`, which
# gcc's does not (fuzz/regressions/20261130-*). /opt/swift's clang is earlier on PATH.
c_sanitize()  { CC=/usr/bin/clang smc_configure_build "$SMC_ROOT/build-asan" -DSMC_SANITIZE=ON &&
                ctest --test-dir "$SMC_ROOT/build-asan" --output-on-failure -j "$SMC_JOBS" -LE valgrind; }
vectors()     { python3 -m unittest discover -s vectors/gen -p 'test_*.py' &&
                python3 vectors/gen/generate.py --check --c-runner "$SMC_BUILD/runners/c/smc-c-runner"; }
# warning-free COMMAND...: runs it, and fails when it printed a compiler warning (issue 27).
# An incremental build repeats only the warnings of what it recompiles; a fresh clone (CI)
# compiles everything.
warning_free() {
  local log rc
  log=$(mktemp)
  "$@" 2>&1 | tee "$log"; rc=${PIPESTATUS[0]}
  if grep -q ': warning:' "$log"; then
    echo "test-all: $* printed $(grep -c ': warning:' "$log") compiler warnings:"; grep ': warning:' "$log" | sort -u
    rc=1
  fi
  rm -f "$log"
  return "$rc"
}
swift_tests() { (cd runners/swift && warning_free swift build -c release -j "$SMC_JOBS" &&
                 warning_free swift test -j "$SMC_JOBS") &&
  python3 scripts/tests/kit_cases.py --kit swift -- runners/swift/.build/release/smc-swift-scripted-plugin; }
kotlin_tests(){ bash runners/kotlin/build.sh test; }
dart_tests()  { bash runners/dart/build.sh test; }
# The Flutter adapter needs Flutter, so no VM here compiles it: tree-sitter parses it.
dart_syntax() { python3 runners/dart/tool/check_dart_syntax.py runners/dart/flutter_adapter; }
# The adapter's code itself, on the Dart 2.16 VM, against a stand-in package:flutter.
flutter_adapter_test() { bash runners/dart/flutter_adapter/test/standin/run.sh; }
# The main job as README.md shows it: exit 0, and a GATE PASSED line naming each list applied.
conformance() {
  local log rc
  log=$(mktemp)
  bash scripts/conformance.sh | tee "$log"; rc=${PIPESTATUS[0]}
  if [ "$rc" -eq 0 ]; then python3 scripts/tests/check_main_gate.py "$log" || rc=1; fi
  rm -f "$log"
  return "$rc"
}
# Every count the READMEs state, checked against the vectors; their recipes run as written.
docs_test()   { python3 scripts/tests/test_docs.py --smc "$SMC_BUILD/cli/smc" &&
                python3 scripts/tests/test_conformance_script.py; }
fuzz_smoke()  { bash fuzz/smoke.sh; }
# The HTML report driven in headless Chromium (judge/tests/test_html_browser.py).
html_browser(){ python3 judge/tests/test_html_browser.py --judge "$SMC_BUILD/judge/smc-judge" \
                  --mutant-runner "$SMC_BUILD/runners/c/smc-c-mutant-runner" --vectors vectors; }
bench_smoke() { bash bench/run.sh --smoke; }

step deps deps
step c-build c_build
step layers layers
if bash scripts/check_format.sh --have-tool; then step format fmt_check
else skip format "clang-format 14 not found, or not a git checkout (the file list is git's)"; fi
step wire-types wire_types
if bash scripts/check_swift_format.sh --have-tool; then step swift-format bash scripts/check_swift_format.sh
else skip swift-format "swift-format 6.3 not found (Swift 6.3 toolchain), or not a git checkout"; fi
if python3 -m ruff --version >/dev/null 2>&1; then step python-lint python_lint
else skip python-lint "ruff not found (scripts/install-deps.sh installs it from scripts/requirements.txt)"; fi
step c-tests c_tests
step install install_test
if git -C "$SMC_ROOT" rev-parse --git-dir >/dev/null 2>&1; then step release release_test
else skip release "not a git checkout (release archives are made from commits)"; fi
step gate gate_test
step kit-c kit_test c
step c-sanitize c_sanitize
step vectors vectors
step docs docs_test
if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
  step html html_browser
else skip html "chromium not installed (scripts/install-deps.sh installs it): the HTML report is not checked in a browser"; fi
if command -v swift >/dev/null; then step swift swift_tests; else skip swift "swift toolchain not found"; fi
if command -v swift >/dev/null; then step kit-swift kit_test swift; else skip kit-swift "swift toolchain not found"; fi
if command -v kotlinc >/dev/null; then step kotlin kotlin_tests; else skip kotlin "kotlinc not found"; fi
if command -v kotlinc >/dev/null && command -v javac >/dev/null; then step kit-jvm kit_test jvm
else skip kit-jvm "kotlinc or javac not found (the kit jar and the Java example need both)"; fi
if bash runners/dart/tool/dart-vm.sh path >/dev/null; then step dart dart_tests; step kit-dart kit_test dart
     step flutter-adapter flutter_adapter_test
else skip dart "no Dart >= 2.16 (scripts/install-deps.sh installs one)"
     skip kit-dart "no Dart >= 2.16 (scripts/install-deps.sh installs one)"
     skip flutter-adapter "no Dart >= 2.16 (scripts/install-deps.sh installs one)"; fi
step dart-syntax dart_syntax
step conformance conformance
# The flutter-linux tools that need no engine (the §16.3 reader, the expected-result check).
step flutter-linux-tools python3 -m unittest discover -s runners/flutter-linux/tool -p 'test_*.py'
# Flutter's own Linux engine, judged; its verdicts compared with the committed expected result.
if python3 runners/flutter-linux/tool/engine.py path --pinned >/dev/null 2>&1; then
  step flutter-linux bash runners/flutter-linux/judge.sh --check
else skip flutter-linux "no Flutter Linux engine (scripts/install-deps.sh installs the pinned wheel)"; fi
if [ -f fuzz/smoke.sh ]; then step fuzz-smoke fuzz_smoke; else skip fuzz-smoke "fuzz/smoke.sh not present"; fi
if [ -f bench/run.sh ]; then step bench-smoke bench_smoke; else skip bench-smoke "bench/run.sh not present"; fi

[ ${#failures[@]} -gt 0 ] && echo "failed steps: ${failures[*]}"
echo "test-all: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
