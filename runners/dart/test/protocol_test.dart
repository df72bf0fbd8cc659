// The runner core against runners/PROTOCOL.md: handshake, requests, responses.

import 'dart:convert';

import 'package:smc_dart_runner/smc_runner.dart';

import 'check.dart';

Map<String, Object?> send(RunnerSession session, Map<String, Object?> request) =>
    jsonDecode(session.handleLine(jsonEncode(request))) as Map<String, Object?>;

RunnerSession newSession() => RunnerSession(PureBackend(), pureProfile);

void main() => runTests(() {

  test('hello answers protocol 1 with the profile capabilities (P.1)', () {
    final session = newSession();
    final reply = send(session, {'seq': 0, 'op': 'hello', 'protocol': 1});
    expectEqual(reply['seq'], 0);
    expectEqual(reply['status'], 'ok');
    expectEqual(reply['protocol'], 1);
    expectEqual(reply['entries'], ['message', 'call', 'envelope']);
    expectEqual(reply['capabilities'], {'decode': allFeatures, 'encode': pureProfile.encode});
    expectEqual(reply['options'], ['error-offsets', 'shift']);
    expectEqual((reply['codec'] as Map)['language'], 'Dart');
  });

  test('decode, encode and roundtrip (P.2, P.3)', () {
    final session = newSession();
    expectEqual(send(session, {'seq': 1, 'op': 'decode', 'entry': 'message', 'hex': '0305000000'}),
        {'seq': 1, 'status': 'ok', 'value': ['i32', 5]});
    expectEqual(
        send(session, {
          'seq': 2,
          'op': 'encode',
          'entry': 'envelope',
          'value': ['success', ['i64', '5']]
        }),
        {'seq': 2, 'status': 'ok', 'hex': '00040500000000000000'});
    expectEqual(
        send(session, {'seq': 3, 'op': 'roundtrip', 'entry': 'call', 'hex': '07016d00'}),
        {'seq': 3, 'status': 'ok', 'value': ['call', 'm', ['null']], 'hex': '07016d00'});
  });

  test('errors carry class, offset and message', () {
    final session = newSession();
    final reply = send(session,
        {'seq': 4, 'op': 'decode', 'entry': 'message', 'hex': '07fe0200', 'mode': 'strict'});
    expectEqual(reply['status'], 'error');
    expectEqual(reply['class'], 'not_canonical');
    expectEqual(reply['offset'], 1);
    expectTrue(reply['message'] is String, 'a message');
    final bad = send(session, {
      'seq': 5,
      'op': 'encode',
      'entry': 'message',
      'value': ['i32', 1.5]
    });
    expectEqual([bad['status'], bad['class']], ['error', 'bad_notation']);
    expectTrue(!bad.containsKey('offset'), 'no offset for an encoder error');
  });

  test('shift copies the bytes to an unaligned view and decodes the same', () {
    final session = newSession();
    const hex = '0c02000b01000000000000000000f03f';
    final plain = send(session, {'seq': 6, 'op': 'decode', 'entry': 'message', 'hex': hex});
    for (var shift = 1; shift < 8; shift++) {
      final shifted = send(session,
          {'seq': 7, 'op': 'decode', 'entry': 'message', 'hex': hex, 'shift': shift});
      expectEqual(shifted['value'], plain['value'], reason: 'shift $shift');
    }
    expectEqual(plain['value'], [
      'list',
      [['null'], ['f64s', ['3ff0000000000000']]]
    ]);
  });

  test('requests the runner cannot run are skipped, not failed', () {
    final session = newSession();
    expectEqual(send(session, {'seq': 8, 'op': 'decode', 'entry': 'stream', 'hex': '00'})['status'],
        'skipped');
    expectEqual(send(session, {'seq': 9, 'op': 'frobnicate'})['status'], 'skipped');
    expectEqual(send(session, {'seq': 10, 'op': 'decode', 'entry': 'message', 'hex': 'ABC'})['status'],
        'skipped');
  });

  test('bye answers ok and ends the session', () {
    final session = newSession();
    expectEqual(session.finished, false);
    expectEqual(send(session, {'seq': 11, 'op': 'bye'}), {'seq': 11, 'status': 'ok'});
    expectEqual(session.finished, true);
  });

  group('profiles (spec/vectors.md V.3)', () {
    test('use only V.3 words, each once', () {
      for (final profile in profilesByName.values) {
        for (final words in [profile.decode, profile.encode]) {
          expectEqual(words.toSet().difference(allFeatures.toSet()), <String>{},
              reason: profile.name);
          expectEqual(words.toSet().length, words.length, reason: profile.name);
        }
      }
    });

    test('omit what each codec cannot express', () {
      void lacks(List<String> words, List<String> omitted, String what) {
        for (final word in omitted) {
          expectTrue(!words.contains(word), '$what without $word');
        }
      }

      expectEqual(pureProfile.decode, allFeatures);
      lacks(flutterVmProfile.decode,
          ['int64-distinct', 'duplicate-map-keys', 'strict-mode', 'largeint'],
          'flutter-vm decode');
      lacks(flutterVmProfile.encode, ['int64-distinct'], 'flutter-vm encode');
      lacks(flutterVmProfile.options, ['error-offsets'], 'flutter-vm options');
      expectTrue(pigeonDartProfile.options.contains('pigeon-int64'),
          'pigeon-dart writes every int as int64 (pigeon-int64)');
      expectTrue(pigeonDartProfile.encode.contains('int32'), 'pigeon-dart encode with int32');
      lacks(webProfile.encode, ['int32', 'int64'], 'web encode');
      lacks(webProfile.decode, ['int64'], 'web decode');
    });
  });
});
