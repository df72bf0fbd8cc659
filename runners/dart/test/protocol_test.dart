// The runner core against runners/PROTOCOL.md: handshake, requests, responses.

import 'dart:convert';
import 'dart:typed_data';

import 'package:smc_dart_runner/smc_runner.dart';

import 'check.dart';

Map<String, Object?> send(RunnerSession session, Map<String, Object?> request) =>
    jsonDecode(session.handleLine(jsonEncode(request))) as Map<String, Object?>;

RunnerSession newSession() => RunnerSession(PureBackend(), pureProfile);

void main() => runTests(() {

  test('hello answers protocol 2 with the profile capabilities (P.1)', () {
    final session = newSession();
    final reply = send(session, {'seq': 0, 'op': 'hello', 'protocol': 1, 'protocols': [1, 2]});
    expectEqual(reply['seq'], 0);
    expectEqual(reply['status'], 'ok');
    expectEqual(reply['protocol'], 2);
    expectEqual(reply['entries'], ['message', 'call', 'envelope']);
    expectEqual(reply['capabilities'], {'decode': allFeatures, 'encode': pureProfile.encode});
    expectEqual(reply['options'], ['error-classes', 'error-offsets', 'shift']);
    expectEqual((reply['codec'] as Map)['language'], 'Dart');
    final noShift = RunnerSession(PureBackend(), pureProfile, placement: false);
    expectEqual(send(noShift, {'seq': 0, 'op': 'hello'})['options'],
        ['error-classes', 'error-offsets'],
        reason: 'a transport that cannot place the input leaves shift out');
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
    expectEqual(bad['status'], 'skipped', reason: 'a request it cannot read is skipped (P.6)');
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

  group('version 2 answers (P.3)', () {
    test('an exception the codec does not document is an unclassified rejection, and the session goes on', () {
      final session = RunnerSession(_FakeBackend(), pureProfile);
      final crash = send(session, {'seq': 1, 'op': 'decode', 'entry': 'message', 'hex': 'ee'});
      // spec §1.4's Dart line: Flutter's messenger catches any throw and goes on.
      expectEqual([crash['status'], crash['kind']], ['rejected', 'RangeError']);
      expectTrue('${crash['message']}'.contains('past the end'), 'the message is kept');
      final next = send(session, {'seq': 2, 'op': 'decode', 'entry': 'message', 'hex': '00'});
      expectEqual(next, {'seq': 2, 'status': 'ok', 'value': ['null']});
    });

    test('no bytes, not implemented, an error without a class', () {
      final session = RunnerSession(_FakeBackend(), pureProfile);
      expectEqual(send(session, {'seq': 3, 'op': 'encode', 'entry': 'message', 'value': ['null']}),
          {'seq': 3, 'status': 'ok', 'hex': null});
      expectEqual(send(session, {'seq': 4, 'op': 'decode', 'entry': 'message', 'hex': ''})['status'],
          'not_implemented');
      final error = send(session, {'seq': 5, 'op': 'decode', 'entry': 'message', 'hex': '0f'});
      expectEqual([error['status'], error['class']], ['error', null]);
    });

    test('a value nested deeper than 500 levels is answered with its summary', () {
      final session = RunnerSession(_FakeBackend(), pureProfile);
      final deep = send(session, {'seq': 6, 'op': 'decode', 'entry': 'message', 'hex': 'dd'});
      expectEqual(deep, {
        'seq': 6,
        'status': 'ok',
        'summary': {'depth': 100000, 'values': 100001, 'bytes': 2}
      });
      final host = summarizeHost([
        'ab',
        {1: Uint8List(3)},
        Int64List(2)
      ]);
      expectEqual(host.toJson(), {'depth': 2, 'values': 6, 'bytes': 2 + 3 + 16});
    });
  });

  group('placement and ownership (P.2)', () {
    test('without shift the input is exactly the bytes; with shift a view before guard bytes', () {
      final backend = _FakeBackend();
      final session = RunnerSession(backend, pureProfile);
      send(session, {'seq': 7, 'op': 'decode', 'entry': 'message', 'hex': '0001'});
      expectEqual([backend.seen!.offsetInBytes, backend.seen!.buffer.lengthInBytes], [0, 2]);
      send(session, {'seq': 8, 'op': 'decode', 'entry': 'message', 'hex': '0001', 'shift': 3});
      expectEqual([backend.seen!.offsetInBytes, backend.seen!.buffer.lengthInBytes],
          [3, 3 + 2 + guardBytes]);
    });

    test('the input is overwritten before the value is read: a borrowing codec shows it', () {
      // _FakeBackend returns `08 ..` payloads as views into its input.
      final session = RunnerSession(_FakeBackend(), pureProfile);
      final reply = send(session, {'seq': 9, 'op': 'decode', 'entry': 'message', 'hex': '0802a0b1'});
      expectEqual(reply['value'], ['u8s', '5f4e'], reason: 'complemented bytes: ownership failed');
      final honest =
          RunnerSession(_FakeBackend(), pureProfile.withOption('borrows-input'));
      expectEqual(
          send(honest, {'seq': 10, 'op': 'decode', 'entry': 'message', 'hex': '0802a0b1'})['value'],
          ['u8s', 'a0b1'],
          reason: 'declared borrows-input: not overwritten');
      // The pure codec copies what it reads, so the check does not touch it.
      final pure = newSession();
      expectEqual(
          send(pure, {'seq': 11, 'op': 'roundtrip', 'entry': 'message', 'hex': '0802a0b1'}),
          {'seq': 11, 'status': 'ok', 'value': ['u8s', 'a0b1'], 'hex': '0802a0b1'});
    });
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
      lacks(flutterVmProfile.options, ['error-classes'], 'flutter-vm options');
      expectTrue(flutterVmProfile.options.contains('borrows-input'),
          "flutter-vm borrows its input (ReadBuffer's typed views)");
      lacks(webProfile.encode, ['int32', 'int64'], 'web encode');
      lacks(webProfile.decode, ['int64'], 'web decode');
    });
  });
});

/// A backend standing in for codecs with the faults version 2 can report: `ee` throws a
/// RangeError, `dd` returns 100,000 nested lists, `0f` an error without a class, the empty
/// input "not implemented", `08 n ..` a byte array that is a view into the input, and a
/// top-level null encodes to no bytes. Everything else goes to the pure codec.
class _FakeBackend implements CodecBackend {
  final PureBackend pure = PureBackend();
  Uint8List? seen;

  @override
  Map<String, String> get codecInfo => const {'name': 'fake', 'version': '0', 'language': 'Dart'};

  @override
  List<String> get entries => const ['message'];

  @override
  DecodedItem decode(String entry, Uint8List bytes, String mode) {
    seen = bytes;
    if (bytes.isEmpty) throw const BackendNotImplemented('an empty reply');
    switch (bytes[0]) {
      case 0xee:
        throw RangeError('read past the end of the input');
      case 0x0f:
        throw const BackendFailure(null, null, 'Message corrupted');
      case 0xdd:
        SmcValue value = Uint8ListValue(Uint8List(2));
        for (var i = 0; i < 100000; i++) {
          value = ListValue([value]);
        }
        return _Item(value);
      case 0x08:
        return _Item(Uint8ListValue(Uint8List.sublistView(bytes, 2, 2 + bytes[1])));
    }
    return pure.decode(entry, Uint8List.fromList(bytes), mode);
  }

  @override
  Uint8List? encode(String entry, Object? notation) =>
      jsonEncode(notation) == '["null"]' ? null : pure.encode(entry, notation);
}

class _Item implements DecodedItem {
  _Item(this.value);
  final SmcValue value;

  @override
  ValueSummary summary() => summarizeValue(value);

  @override
  Object toNotation() => valueToNotation(value);

  @override
  Uint8List? reencode() => null;
}
