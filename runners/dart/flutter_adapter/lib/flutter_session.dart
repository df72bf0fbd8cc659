// The runner session over Flutter's codec, as serve_test.dart serves it to the bridge and
// test/standin/run_adapter.dart runs it against the stand-in package:flutter: one place
// that says which options and host vocabularies the Flutter profiles declare.

import 'package:smc_dart_runner/smc_runner.dart';

import 'flutter_backend.dart';

/// A session for [profile]. [placement] false (run-runner.sh --no-shift) leaves the
/// placement option `shift` out of the hello (PROTOCOL.md P.1).
RunnerSession flutterSession(Profile profile, {bool placement = true}) {
  // Flutter's ReadBuffer returns typed data as views into the message: every Flutter
  // codec borrows its input (runners/PROTOCOL.md P.1 `borrows-input`).
  final backend = FlutterBackend.forProfile(profile);
  // The host-type vectors of spec §17 go through the same codec: `dart` on the VM,
  // `dart-web` (JavaScript numbers, §17.3) for the web profile.
  return RunnerSession(backend, profile.withOption('borrows-input'),
      placement: placement,
      hosts: DartHostTypes(backend.hostCodec,
          vocabularies:
              profile.name == 'web' ? DartHostTypes.onTheWeb : DartHostTypes.onTheVm));
}
