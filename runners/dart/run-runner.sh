#!/usr/bin/env bash
# Launch the Dart conformance runner (runners/PROTOCOL.md on stdin/stdout).
#
#   run-runner.sh [--profile pure|pigeon-dart|flutter-vm|web] [--no-shift]
#
# --no-shift              do not offer the placement option `shift` (PROTOCOL.md P.1)
#
# pure, pigeon-dart       the kernel snapshot out/runner.dill (build.sh builds it when the
#                         sources changed), on the Dart that tool/dart-vm.sh finds: a Dart
#                         SDK >= 2.16 on PATH, else the project's 2.16.2 VM in .tools/
# flutter-vm              bin/flutter_bridge.dart as a plain program (any Dart >= 2.16,
#                         the stand-alone VM too: --packages, no `dart run`), which starts
#                         `flutter test flutter_adapter/test/serve_test.dart` with
#                         --no-shift and SMC_FLUTTER_VERSION passed on
#                         (needs the Flutter SDK; start the judge with --timeout 120)
# web                     no harness: exits 2 (see README.md)
#
# Exits 3 with a message on stderr when no Dart (or, for flutter-vm, no `flutter`) is found.
# Nothing but protocol lines may reach stdout, so every tool's output goes to stderr.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
profile=pure
extra=()
while [ $# -gt 0 ]; do
  case $1 in
    --no-shift) extra+=(--no-shift); shift ;;
    --profile) profile=${2:?--profile needs a value}; shift 2 ;;
    --profile=*) profile=${1#--profile=}; shift ;;
    *) echo "run-runner.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

dart_or_exit() {
  dart=$(bash "$here/tool/dart-vm.sh" path) || exit 3
}

need_flutter() {
  if ! command -v flutter >/dev/null 2>&1; then
    echo "run-runner.sh: 'flutter' is not on PATH. The $profile profile runs Flutter's own" \
         "codec and needs the Flutter SDK (see runners/dart/README.md)." >&2
    exit 3
  fi
}

# pub get only when needed, with its output on stderr: `dart run` would otherwise
# resolve on its own and print "Resolving dependencies..." to stdout.
pub_get() { # $1 = package dir, $2 = dart|flutter
  if [ ! -f "$1/.dart_tool/package_config.json" ] ||
     [ "$1/pubspec.yaml" -nt "$1/.dart_tool/package_config.json" ]; then
    (cd "$1" && "$2" pub get) >&2
  fi
}

case $profile in
  pure|pigeon-dart)
    dart_or_exit
    bash "$here/build.sh" >&2
    exec "$dart" "$here/out/runner.dill" --profile "$profile" ${extra[@]+"${extra[@]}"}
    ;;
  flutter-vm)
    dart_or_exit
    need_flutter
    bash "$here/build.sh" >&2 # writes .dart_tool/package_config.json without pub
    pub_get "$here/flutter_adapter" flutter
    exec "$dart" --packages="$here/.dart_tool/package_config.json" \
      "$here/bin/flutter_bridge.dart" --profile "$profile" \
      --adapter-dir "$here/flutter_adapter" ${extra[@]+"${extra[@]}"}
    ;;
  web)
    echo "run-runner.sh: the web profile has no protocol harness (it needs dart2js in a" \
         "browser, which cannot open the bridge socket); see runners/dart/README.md" >&2
    exit 2
    ;;
  *)
    echo "run-runner.sh: unknown profile '$profile' (pure, pigeon-dart, flutter-vm, web)" >&2
    exit 2
    ;;
esac
