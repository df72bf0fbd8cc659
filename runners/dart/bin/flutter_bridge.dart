// Bridge for the Flutter profiles: Flutter's codec needs dart:ui, so it can only run
// inside `flutter test`, which does not hand its stdin/stdout to us. This program
// speaks to the judge on stdin/stdout and relays every line, unchanged, to
// flutter_adapter/test/serve_test.dart over a loopback TCP socket. It never answers a
// request itself, so everything the judge sees comes from the Flutter codec.
//
// Usage: dart bin/flutter_bridge.dart --profile flutter-vm|pigeon-dart
//            [--adapter-dir DIR] [--no-shift]
// (a plain program: only dart: libraries, so a stand-alone Dart VM runs it; run-runner.sh
// passes --packages). --no-shift reaches the test as SMC_NO_SHIFT=1; the Flutter version
// (SMC_FLUTTER_VERSION, else `flutter --version --machine`) as SMC_FLUTTER_VERSION, which
// the hello answer names.
//
// `flutter test` takes seconds to start, and the handshake waits for it: run the judge
// with a longer timeout (e.g. --timeout 120) for these profiles.

import 'dart:async';
import 'dart:io';

Future<void> main(List<String> arguments) async {
  final profile = _option(arguments, '--profile') ?? 'flutter-vm';
  final adapterDir = _option(arguments, '--adapter-dir') ??
      '${File.fromUri(Platform.script).parent.parent.path}/flutter_adapter';
  if (profile != 'flutter-vm' && profile != 'pigeon-dart') {
    stderr.writeln('flutter_bridge: profile "$profile" has no harness here '
        '(the web profile needs a browser test harness; see README.md)');
    exit(2);
  }

  final noShift = arguments.contains('--no-shift') ? '1' : '0';
  final version = await _flutterVersion();
  final server = await ServerSocket.bind(InternetAddress.loopbackIPv4, 0);
  final flutter = await Process.start(
    'flutter',
    [
      'test',
      '--reporter',
      'expanded',
      // Passed both ways: --dart-define is read with String.fromEnvironment, the
      // environment with Platform.environment, whichever reaches the test process.
      '--dart-define=SMC_BRIDGE_PORT=${server.port}',
      '--dart-define=SMC_PROFILE=$profile',
      '--dart-define=SMC_NO_SHIFT=$noShift',
      '--dart-define=SMC_FLUTTER_VERSION=$version',
      'test/serve_test.dart',
    ],
    workingDirectory: adapterDir,
    environment: {
      'SMC_BRIDGE_PORT': '${server.port}',
      'SMC_PROFILE': profile,
      'SMC_NO_SHIFT': noShift,
      'SMC_FLUTTER_VERSION': version,
    },
  );
  // The test runner's own output must never reach the judge: send it to stderr.
  final flutterOut = flutter.stdout.listen(stderr.add);
  final flutterErr = flutter.stderr.listen(stderr.add);

  final connection = Completer<Socket?>();
  server.first.then((socket) {
    if (connection.isCompleted) {
      socket.destroy();
    } else {
      connection.complete(socket);
    }
  }, onError: (Object _) {
    if (!connection.isCompleted) connection.complete(null);
  });
  unawaited(flutter.exitCode.then((code) {
    if (!connection.isCompleted) {
      stderr.writeln('flutter_bridge: flutter test exited with $code before connecting');
      connection.complete(null);
    }
  }));
  final socket = await connection.future;
  await server.close();
  if (socket == null) exit(1);

  // Judge -> Flutter. When the judge closes stdin, close our side so the test ends.
  unawaited(socket.addStream(stdin).then((_) => socket.close(), onError: (_) {}));
  // Flutter -> judge, flushed as it arrives (stdout.addStream forwards each chunk).
  await stdout.addStream(socket).catchError((Object _) {});
  await stdout.flush();

  final code = await flutter.exitCode.timeout(const Duration(seconds: 30), onTimeout: () {
    flutter.kill();
    return -1;
  });
  await flutterOut.cancel();
  await flutterErr.cancel();
  exit(code == 0 ? 0 : 1);
}

/// SMC_FLUTTER_VERSION when set, else the framework version `flutter --version
/// --machine` reports, else "unknown" (said, never guessed).
Future<String> _flutterVersion() async {
  final given = Platform.environment['SMC_FLUTTER_VERSION'];
  if (given != null && given.isNotEmpty) return given;
  try {
    final result = await Process.run('flutter', ['--version', '--machine']);
    final text = '${result.stdout}';
    final match = RegExp(r'"frameworkVersion"\s*:\s*"([^"]+)"').firstMatch(text);
    if (result.exitCode == 0 && match != null) return match.group(1)!;
  } on ProcessException {
    // no flutter on PATH: the bridge fails below, with its own message
  }
  return 'unknown';
}

String? _option(List<String> arguments, String name) {
  for (var i = 0; i < arguments.length; i++) {
    if (arguments[i] == name && i + 1 < arguments.length) return arguments[i + 1];
    if (arguments[i].startsWith('$name=')) return arguments[i].substring(name.length + 1);
  }
  return null;
}
