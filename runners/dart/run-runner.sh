#!/usr/bin/env bash
# Launch the Dart conformance runner (runners/PROTOCOL.md on stdin/stdout).
#
#   run-runner.sh [--profile pure|flutter-vm|pigeon-dart|web]
#
# pure                    dart bin/runner.dart (needs the Dart SDK >= 3.0)
# flutter-vm, pigeon-dart dart bin/flutter_bridge.dart, which starts
#                         `flutter test flutter_adapter/test/serve_test.dart`
#                         (needs the Flutter SDK; start the judge with --timeout 120)
# web                     no harness yet: exits 2 (see README.md)
#
# Exits 3 with a message on stderr when `dart` (or `flutter`) is not on PATH.
# Nothing but protocol lines may reach stdout, so every tool's output goes to stderr.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
profile=pure
while [ $# -gt 0 ]; do
  case $1 in
    --profile) profile=${2:?--profile needs a value}; shift 2 ;;
    --profile=*) profile=${1#--profile=}; shift ;;
    *) echo "run-runner.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

need() {
  if ! command -v "$1" >/dev/null 2>&1; then
    echo "run-runner.sh: '$1' is not on PATH. The Dart runner needs $2;" \
         "install it and put '$1' on PATH (see runners/dart/README.md)." >&2
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
  pure)
    need dart "the Dart SDK (>= 3.0)"
    pub_get "$here" dart
    cd "$here"
    exec dart run bin/runner.dart --profile pure
    ;;
  flutter-vm|pigeon-dart)
    need dart "the Dart SDK (>= 3.0)"
    need flutter "the Flutter SDK"
    pub_get "$here" dart
    pub_get "$here/flutter_adapter" flutter
    cd "$here"
    exec dart run bin/flutter_bridge.dart --profile "$profile" \
      --adapter-dir "$here/flutter_adapter"
    ;;
  web)
    echo "run-runner.sh: the web profile has no protocol harness yet (a browser test" \
         "cannot open the bridge socket); see runners/dart/README.md" >&2
    exit 2
    ;;
  *)
    echo "run-runner.sh: unknown profile '$profile' (pure, flutter-vm, pigeon-dart, web)" >&2
    exit 2
    ;;
esac
