#!/usr/bin/env bash
# Runs the Flutter adapter (runners/dart/flutter_adapter/lib) against the stand-in
# package:flutter of this folder on the Dart that tool/dart-vm.sh finds: the adapter code
# itself runs in CI on the Dart 2.16 VM, no Flutter needed (README.md here). Then the bridge
# (bin/flutter_bridge.dart) on the same VM, through run-runner.sh, with a stand-in `flutter`
# command that prints what it was asked: --no-shift and the Flutter version must reach it.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dart_dir=$(cd "$here/../../.." && pwd)
dart=$(bash "$dart_dir/tool/dart-vm.sh" path)
cd "$here"
"$dart" --enable-asserts --packages="$here/package_config.json" \
  -DSMC_FLUTTER_VERSION=0.0.0-standin "$here/run_adapter.dart"

fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
cat > "$fake/flutter" <<'SH'
#!/bin/sh
# stand-in `flutter`: a version for --version --machine; for `test`, its arguments, then exit 1
case "$1" in
  --version) echo '{"frameworkVersion": "9.8.7-standin"}' ;;
  test) echo "flutter-standin: $*" >&2; exit 1 ;;
  pub) exit 0 ;;
esac
SH
chmod +x "$fake/flutter"
status=0
err=$(PATH="$fake:$PATH" bash "$dart_dir/run-runner.sh" --profile flutter-vm --no-shift \
  </dev/null 2>&1 >/dev/null) || status=$?
ok=1
for want in "--dart-define=SMC_NO_SHIFT=1" "--dart-define=SMC_FLUTTER_VERSION=9.8.7-standin" \
  "flutter test exited with 1 before connecting"; do
  if [[ $err != *"$want"* ]]; then echo "FAIL bridge: no '$want' in: $err"; ok=0; fi
done
if [ "$status" -ne 1 ]; then echo "FAIL bridge: exit $status, want 1"; ok=0; fi
[ "$ok" -eq 1 ] && echo "ok: the bridge runs on this VM and passes --no-shift and the version on"
[ "$ok" -eq 1 ]
