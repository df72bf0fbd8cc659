#!/usr/bin/env bash
# The main job: build what is needed, then run the judge over every runner present on this
# machine (C reference, Swift, Kotlin, Dart) against vectors/, printing one summary line per
# runner and the runners x sections matrix. A runner whose toolchain is missing is listed as
# skipped with the reason. Reports land in out/ (conformance.html, .json, .xml).
# The expected-failure lists of judge/expected-failures/ are applied to the runners that run
# (the GATE line says how many failures they excused and which file lists them), so a fresh
# clone ends green for this repository's own runners; --strict-expectations applies none.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$SMC_ROOT"

usage() {
  cat <<'USAGE'
usage: bash scripts/conformance.sh [--strict-expectations] [smc conformance options...]

Builds the runners whose toolchains are on this machine (installing the project's
dependencies first), runs `smc conformance` over all of them against vectors/, and writes
out/conformance.html, out/conformance.json and out/conformance.xml.

  --strict-expectations  apply no expected-failure list: every failure of every runner
                         fails the run (the lists in judge/expected-failures/ are applied
                         by default, and the GATE line names them)
  --gate                 accepted for old command lines; applying the lists is the default
  -h, --help             this text (nothing is installed or built)

Any other argument goes to `smc conformance` (for example --section 6, --only 's09.*',
--gate all); `smc conformance --help` lists them once the build exists
(build/cli/smc conformance --help).
USAGE
}

strict=0
judge_args=()
# The old first-argument --gate (lists now apply by default), not the judge's --gate TIER.
case "${2:-}" in required | recommended | all) ;; *) if [ "${1:-}" = "--gate" ]; then shift; fi ;; esac
for a in "$@"; do
  case "$a" in
  -h | --help) usage; exit 0 ;;
  --strict-expectations) strict=1 ;;
  *) judge_args+=("$a") ;;
  esac
done

bash scripts/install-deps.sh >&2
smc_configure_build "$SMC_BUILD" >&2
smc="$SMC_BUILD/cli/smc"

args=(--vectors "$SMC_ROOT/vectors" --runner "c=$SMC_BUILD/runners/c/smc-c-runner")

if command -v swift >/dev/null 2>&1; then
  echo "building the Swift runner..." >&2
  (cd runners/swift && swift build -c release -j "$SMC_JOBS" --product smc-swift-runner >&2)
  args+=(--runner "swift=$SMC_ROOT/runners/swift/.build/release/smc-swift-runner")
else
  args+=(--skip-runner "swift=no Swift toolchain on this machine")
fi

if command -v kotlinc >/dev/null 2>&1 && command -v java >/dev/null 2>&1; then
  echo "building the Kotlin runner..." >&2
  bash runners/kotlin/build.sh >&2
  args+=(--runner "kotlin=$SMC_ROOT/runners/kotlin/out/smc-kotlin-runner")
else
  args+=(--skip-runner "kotlin=kotlinc or java not found")
fi

# Dart: a Dart SDK >= 2.16 on PATH, else the project's 2.16.2 VM (scripts/install-deps.sh).
# pure is the pure-Dart codec; dart-pigeon is Pigeon's Dart value semantics over it. The
# Flutter profiles run Flutter's own codec and need the Flutter SDK (runners/dart/README.md).
if bash runners/dart/tool/dart-vm.sh path >/dev/null; then
  echo "building the Dart runner..." >&2
  bash runners/dart/build.sh >&2
  args+=(--runner "dart=$SMC_ROOT/runners/dart/run-runner.sh --profile pure")
  args+=(--runner "dart-pigeon=$SMC_ROOT/runners/dart/run-runner.sh --profile pigeon-dart")
else
  args+=(--skip-runner "dart=no Dart >= 2.16 found (run scripts/install-deps.sh)")
fi
if ! command -v flutter >/dev/null 2>&1; then
  args+=(--skip-runner "dart-flutter=Flutter's own codec needs the Flutter SDK (runners/dart/run-runner.sh --profile flutter-vm)")
fi

# Expected-failure lists apply only to runners that actually run (a list for a skipped
# runner would otherwise be reported as stale). Paths stay relative to the repository, as the
# GATE line shows them.
if [ "$strict" -eq 0 ]; then
  for f in judge/expected-failures/*.txt; do
    [ -e "$f" ] || continue
    name="$(basename "$f" .txt)"
    if [[ " ${args[*]} " == *" $name="* ]] && [[ ! " ${args[*]} " == *"--skip-runner $name="* ]]; then
      args+=(--xfail "$name=$f")
    fi
  done
fi

mkdir -p out
status=0
"$smc" conformance "${args[@]}" \
  --html out/conformance.html --json out/conformance.json --junit out/conformance.xml \
  ${judge_args[@]+"${judge_args[@]}"} || status=$?

# Flutter's own Linux engine (runners/flutter-linux): its row, judged after the project's
# runners in a run of its own, informational: it never changes this job's exit status.
bash runners/flutter-linux/judge.sh || true
exit "$status"
