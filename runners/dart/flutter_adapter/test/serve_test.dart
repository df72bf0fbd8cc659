// Serves runners/PROTOCOL.md with Flutter's codec to bin/flutter_bridge.dart over a
// loopback socket. Started by the bridge (run-runner.sh --profile flutter-vm); when
// run on its own it is skipped, with the reason.

import 'dart:convert';
import 'dart:io';

import 'package:flutter_test/flutter_test.dart';
import 'package:smc_dart_runner/smc_runner.dart';
import 'package:smc_flutter_adapter/smc_flutter_adapter.dart';

const String _portDefine = String.fromEnvironment('SMC_BRIDGE_PORT');
const String _profileDefine = String.fromEnvironment('SMC_PROFILE');
const String _noShiftDefine = String.fromEnvironment('SMC_NO_SHIFT');

void main() {
  final port = int.tryParse(
      _portDefine.isNotEmpty ? _portDefine : Platform.environment['SMC_BRIDGE_PORT'] ?? '');
  final profileName = _profileDefine.isNotEmpty
      ? _profileDefine
      : Platform.environment['SMC_PROFILE'] ?? 'flutter-vm';
  // run-runner.sh --no-shift, passed on by the bridge
  final noShift = (_noShiftDefine.isNotEmpty
          ? _noShiftDefine
          : Platform.environment['SMC_NO_SHIFT'] ?? '') ==
      '1';

  test('serves the runner protocol to the bridge', () async {
    final profile = profilesByName[profileName];
    expect(profile, isNotNull, reason: 'unknown profile "$profileName"');
    final session = flutterSession(profile!, placement: !noShift);
    final socket = await Socket.connect(InternetAddress.loopbackIPv4, port!);
    var answered = 0;
    await for (final line in utf8.decoder.bind(socket).transform(const LineSplitter())) {
      if (line.trim().isEmpty) continue;
      socket.add(utf8.encode('${session.handleLine(line)}\n'));
      await socket.flush();
      answered++;
      if (session.finished) break;
    }
    await socket.close();
    expect(answered, greaterThan(0), reason: 'the bridge closed before any request');
  },
      timeout: Timeout.none,
      skip: port == null
          ? 'SMC_BRIDGE_PORT is not set: bin/flutter_bridge.dart starts this test '
              '(runners/dart/run-runner.sh --profile flutter-vm)'
          : false);
}
