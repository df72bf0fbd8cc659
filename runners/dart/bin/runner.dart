// The pure-Dart runner: runners/PROTOCOL.md over stdin/stdout, one JSON object a line.
//
// Usage: dart out/runner.dill [--profile pure|pigeon-dart] [--no-shift]   (see run-runner.sh)
// --no-shift   do not offer the placement option `shift` (runners/PROTOCOL.md P.1)
// pure         the pure codec (lib/src/pure_codec.dart)
// pigeon-dart  Pigeon's Dart host semantics over the pure codec (lib/src/pigeon_host.dart)
// The Flutter profiles need the Flutter SDK and go through bin/flutter_bridge.dart.

import 'dart:io';

import 'package:smc_dart_runner/smc_runner.dart';

Future<void> main(List<String> arguments) async {
  final profileName = _option(arguments, '--profile') ?? 'pure';
  final RunnerSession session;
  final placement = !arguments.contains('--no-shift');
  if (profileName == 'pure') {
    session = RunnerSession(PureBackend(), pureProfile,
        placement: placement, hosts: const DartHostTypes(PigeonHostCodec.byValue()));
  } else if (profileName == 'pigeon-dart') {
    session = RunnerSession(PigeonHostBackend(), pigeonDartProfile,
        placement: placement, hosts: const DartHostTypes(PigeonHostCodec()));
  } else {
    stderr.writeln('runner.dart: profile "$profileName" needs the Flutter adapter; '
        'use run-runner.sh --profile $profileName');
    exit(2);
  }
  await serveStdio(session);
}

/// Value of `--name value` or `--name=value`.
String? _option(List<String> arguments, String name) {
  for (var i = 0; i < arguments.length; i++) {
    if (arguments[i] == name && i + 1 < arguments.length) return arguments[i + 1];
    if (arguments[i].startsWith('$name=')) return arguments[i].substring(name.length + 1);
  }
  return null;
}
