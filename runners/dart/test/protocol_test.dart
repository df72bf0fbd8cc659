// The runner core against runners/PROTOCOL.md: handshake, requests, responses.

import 'dart:convert';

import 'package:smc_dart_runner/smc_runner.dart';
import 'package:test/test.dart';

Map<String, Object?> send(RunnerSession session, Map<String, Object?> request) =>
    jsonDecode(session.handleLine(jsonEncode(request))) as Map<String, Object?>;

void main() {
  late RunnerSession session;
  setUp(() => session = RunnerSession(PureBackend(), pureProfile));

  test('hello answers protocol 1 with the profile capabilities (P.1)', () {
    final reply = send(session, {'seq': 0, 'op': 'hello', 'protocol': 1});
    expect(reply['seq'], 0);
    expect(reply['status'], 'ok');
    expect(reply['protocol'], 1);
    expect(reply['entries'], ['message', 'call', 'envelope']);
    expect(reply['capabilities'], {'decode': allFeatures, 'encode': pureProfile.encode});
    expect(reply['options'], ['error-offsets', 'shift']);
    expect((reply['codec'] as Map)['language'], 'Dart');
  });

  test('decode, encode and roundtrip (P.2, P.3)', () {
    expect(send(session, {'seq': 1, 'op': 'decode', 'entry': 'message', 'hex': '0305000000'}),
        {'seq': 1, 'status': 'ok', 'value': ['i32', 5]});
    expect(
        send(session, {
          'seq': 2,
          'op': 'encode',
          'entry': 'envelope',
          'value': ['success', ['i64', '5']]
        }),
        {'seq': 2, 'status': 'ok', 'hex': '00040500000000000000'});
    expect(
        send(session, {'seq': 3, 'op': 'roundtrip', 'entry': 'call', 'hex': '07016d00'}),
        {'seq': 3, 'status': 'ok', 'value': ['call', 'm', ['null']], 'hex': '07016d00'});
  });

  test('errors carry class, offset and message', () {
    final reply = send(session,
        {'seq': 4, 'op': 'decode', 'entry': 'message', 'hex': '07fe0200', 'mode': 'strict'});
    expect(reply['status'], 'error');
    expect(reply['class'], 'not_canonical');
    expect(reply['offset'], 1);
    expect(reply['message'], isA<String>());
    final bad = send(session, {
      'seq': 5,
      'op': 'encode',
      'entry': 'message',
      'value': ['i32', 1.5]
    });
    expect([bad['status'], bad['class']], ['error', 'bad_notation']);
    expect(bad.containsKey('offset'), isFalse);
  });

  test('shift copies the bytes to an unaligned view and decodes the same', () {
    const hex = '0c02000b01000000000000000000f03f';
    final plain = send(session, {'seq': 6, 'op': 'decode', 'entry': 'message', 'hex': hex});
    for (var shift = 1; shift < 8; shift++) {
      final shifted = send(session,
          {'seq': 7, 'op': 'decode', 'entry': 'message', 'hex': hex, 'shift': shift});
      expect(shifted['value'], plain['value'], reason: 'shift $shift');
    }
    expect(plain['value'], [
      'list',
      [['null'], ['f64s', ['3ff0000000000000']]]
    ]);
  });

  test('requests the runner cannot run are skipped, not failed', () {
    expect(send(session, {'seq': 8, 'op': 'decode', 'entry': 'stream', 'hex': '00'})['status'],
        'skipped');
    expect(send(session, {'seq': 9, 'op': 'frobnicate'})['status'], 'skipped');
    expect(send(session, {'seq': 10, 'op': 'decode', 'entry': 'message', 'hex': 'ABC'})['status'],
        'skipped');
  });

  test('bye answers ok and ends the session', () {
    expect(session.finished, isFalse);
    expect(send(session, {'seq': 11, 'op': 'bye'}), {'seq': 11, 'status': 'ok'});
    expect(session.finished, isTrue);
  });

  group('profiles (spec/vectors.md V.3)', () {
    test('use only V.3 words, each once', () {
      for (final profile in profilesByName.values) {
        for (final words in [profile.decode, profile.encode]) {
          expect(words.toSet().difference(allFeatures.toSet()), isEmpty, reason: profile.name);
          expect(words.toSet().length, words.length, reason: profile.name);
        }
      }
    });

    test('omit what each codec cannot express', () {
      expect(pureProfile.decode, allFeatures);
      expect(flutterVmProfile.decode,
          isNot(anyOf(contains('int64-distinct'), contains('duplicate-map-keys'),
              contains('strict-mode'), contains('largeint'))));
      expect(flutterVmProfile.encode, isNot(contains('int64-distinct')));
      expect(flutterVmProfile.options, isNot(contains('error-offsets')));
      expect(pigeonDartProfile.encode, isNot(contains('int32')));
      expect(pigeonDartProfile.encode, contains('int64-distinct'));
      expect(webProfile.encode, isNot(anyOf(contains('int32'), contains('int64'))));
      expect(webProfile.decode, isNot(contains('int64')));
    });
  });
}
