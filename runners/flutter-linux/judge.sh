#!/usr/bin/env bash
# Judges Flutter's own Linux engine (the libflutter_linux_gtk.so that tool/engine.py finds:
# $SMC_FLUTTER_ENGINE, a Flutter SDK on PATH, or the pinned CI wheel) with the vectors, in a
# judge run of its own, and writes out/flutter-linux.{json,html}. Informational: the judge's
# verdict on Flutter is printed, never returned, so Flutter's divergences (spec §16) cannot
# turn the project's gate red.
#   judge.sh            the main job's row (scripts/conformance.sh); exit 0 unless the judge
#                       could not run at all
#   judge.sh --check    also compare the verdicts with expected.json, and the CI engine's
#                       lines of docs/flutter-codecs.md with this run (test-all step
#                       flutter-linux): exit 1 when any differs
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../../scripts/lib.sh"
cd "$SMC_ROOT"

# --check compares with expected.json, which is the pinned CI wheel's result: judge that one
pinned=()
if [ "${1:-}" = "--check" ]; then pinned=(--pinned); fi
if ! lib="$(python3 "$here/tool/engine.py" path "${pinned[@]}")"; then
  echo "flutter-linux: skipped: no engine library (scripts/install-deps.sh installs the pinned wheel; or set SMC_FLUTTER_ENGINE)"
  exit 0
fi
ci="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ci"])' "$here/engines.json")"
case "$lib" in
  */flutter-linux/"$ci"/libflutter_linux_gtk.so) from="the pinned wheel flet-desktop-light $ci" ;;
  *) from="$lib" ;;
esac
echo
echo "flutter-linux (engine with Dart $(python3 "$here/tool/engine.py" dart "$lib"), from $from):" \
     "Flutter's own codecs, informational (never gates this job; spec §16 names each divergence)"
mkdir -p out
SMC_FLUTTER_ENGINE="$lib" "$SMC_BUILD/cli/smc" conformance --vectors "$SMC_ROOT/vectors" \
  --runner "flutter-linux=$SMC_BUILD/runners/flutter-linux/smc-flutter-linux-runner" \
  --max-details 1 --json out/flutter-linux.json --html out/flutter-linux.html
status=$?
# one failure per cause on stdout (the reports hold all); the judge exits 1 for failing verdicts (Flutter has some, by design) and 2 when it could not run
if [ "$status" -ge 2 ] || [ ! -s out/flutter-linux.json ]; then
  echo "flutter-linux: the judge did not run (status $status)" >&2
  exit 1
fi
python3 "$here/tool/expected.py" rows out/flutter-linux.json
echo "flutter-linux: informational: a GATE line above is the judge's verdict on Flutter's engine, not on this project"
if [ "${1:-}" = "--check" ]; then
  rc=0
  python3 "$here/tool/expected.py" check out/flutter-linux.json || rc=1
  # docs/flutter-codecs.md's lines of this engine, as this judge gives them (the whole page
  # needs every pinned engine: tool/matrix.py, by hand)
  python3 "$here/tool/matrix.py" --check-ci out/flutter-linux.json || rc=1
  exit "$rc"
fi
