// The Flutter adapter's own code (lib/), run on a plain Dart VM against the stand-in
// package:flutter of this folder, so it runs in CI without Flutter (README.md here). Run by
// run.sh: dart --packages=package_config.json -DSMC_FLUTTER_VERSION=... run_adapter.dart
//
// What it pins: the answers of the session the bridge serves (flutterSession), by the
// crash / rejection line of spec §1.4 for Flutter: a FormatException is an error without a
// class, anything else thrown is `rejected` with its runtime type; --no-shift leaves
// `shift` out; the Flutter version reaches the hello answer.

import 'dart:convert';

import 'package:smc_dart_runner/smc_runner.dart';
import 'package:smc_flutter_adapter/smc_flutter_adapter.dart';

import '../../../test/check.dart';

const String _version = String.fromEnvironment('SMC_FLUTTER_VERSION');

Map<String, Object?> send(RunnerSession session, Map<String, Object?> request) =>
    jsonDecode(session.handleLine(jsonEncode(request))) as Map<String, Object?>;

Map<String, Object?> decode(RunnerSession session, String hex, {String entry = 'message'}) =>
    send(session, {'seq': 1, 'op': 'decode', 'entry': entry, 'hex': hex});

void main() => runTests(() {
      final session = flutterSession(flutterVmProfile);

      test('hello: the Flutter version passed through, shift unless --no-shift', () {
        final hello = send(session, {'seq': 0, 'op': 'hello', 'protocols': [1, 2]});
        expectEqual(hello['status'], 'ok');
        expectTrue(_version.isNotEmpty, 'run.sh passes -DSMC_FLUTTER_VERSION');
        expectEqual((hello['codec'] as Map)['version'], _version);
        expectEqual((hello['codec'] as Map)['name'], 'flutter-flutter-vm');
        expectTrue((hello['options'] as List).contains('shift'), 'shift offered by default');
        expectTrue((hello['options'] as List).contains('borrows-input'), 'borrows-input');
        final noShift = flutterSession(flutterVmProfile, placement: false);
        final bare = send(noShift, {'seq': 0, 'op': 'hello', 'protocols': [1, 2]});
        expectTrue(!(bare['options'] as List).contains('shift'), '--no-shift: no shift');
      });

      test('a valid message decodes and round-trips through the codec', () {
        expectEqual(decode(session, '0c0203010000000701 61'.replaceAll(' ', '')), {
          'seq': 1,
          'status': 'ok',
          'value': [
            'list',
            [
              ['i32', 1],
              ['str', 'a']
            ]
          ]
        });
        expectEqual(
            send(session, {'seq': 2, 'op': 'encode', 'entry': 'message', 'value': ['f64', '3ff0000000000000']}),
            {'seq': 2, 'status': 'ok', 'hex': '0600000000000000000000000000f03f'});
      });

      test('FormatException, the documented rejection: an error without a class', () {
        for (final hex in ['0f', '0301000000ff', '']) {
          final answer = decode(session, hex);
          expectEqual(answer['status'], 'error', reason: hex);
          expectEqual(answer['class'], null, reason: 'no class guessed for $hex: $answer');
        }
        final call = decode(session, '0c00 0c00'.replaceAll(' ', ''), entry: 'call');
        expectEqual(call['status'], 'error', reason: 'a call whose name is not a string');
      });

      test('anything else thrown (RangeError past the end): rejected, with its type', () {
        for (final hex in ['0301', '0c01030100', '07fe0200', '0b0100000000000000']) {
          final answer = decode(session, hex);
          expectEqual(answer['status'], 'rejected', reason: '$hex: $answer');
          expectEqual(answer['kind'], 'RangeError', reason: hex);
          expectTrue(answer['message'] is String, 'a message');
        }
        final envelope = decode(session, '01 0701 61'.replaceAll(' ', ''), entry: 'envelope');
        expectEqual(envelope['status'], 'error',
            reason: 'an envelope that ends before its message: readValue checks hasRemaining '
                'first, a FormatException');
      });

      test('the named rule itself, for every kind of throw', () {
        final format = flutterFailure(const FormatException('Message corrupted'));
        expectTrue(format is BackendFailure && format.errorClass == null, 'FormatException');
        for (final thrown in <Object>[RangeError('x'), StateError('x'), StackOverflowError(),
          ArgumentError('x'), 'a string']) {
          final r = flutterFailure(thrown);
          expectTrue(r is BackendRejected && r.kind == '${thrown.runtimeType}',
              '${thrown.runtimeType} is rejected with its type: $r');
        }
      });
    });
