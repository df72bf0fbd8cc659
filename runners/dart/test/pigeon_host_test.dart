// The pigeon-dart profile's host layer (lib/src/pigeon_host.dart): Pigeon's Dart value
// semantics over the pure codec. Expected bytes are the derived ones of
// wire-format-notes §4.3, §4.4, or follow from the spec section cited.

import 'dart:typed_data';

import 'package:smc_dart_runner/smc_runner.dart';

import 'check.dart';

final backend = PigeonHostBackend();
String encode(Object? notation, [String entry = 'message']) =>
    hexOfBytes(backend.encode(entry, notation));
Object decode(String hex, [String entry = 'message']) =>
    backend.decode(entry, bytesFromHex(hex), 'flutter').toNotation();

void main() => runTests(() {
      group('encode (wire-format-notes §4.3)', () {
        test('every int is written as int64, at any depth', () {
          expectEqual(encode(['i32', 5]), '040500000000000000');
          expectEqual(encode(['list', [['i32', 1]]]), '0c01040100000000000000');
          expectEqual(
              encode([
                'map',
                [
                  [['i32', 1], ['custom', 129, ['i32', 2]]]
                ]
              ]),
              '0d01' '040100000000000000' '81' '040200000000000000');
          // Typed lists keep their own tags: only scalar ints change.
          expectEqual(encode(['i32s', [1]]), '0901' '0000' '01000000');
        });

        test('enum index 1 with tag 129, and a class with tag 130 (§4.4)', () {
          expectEqual(encode(['custom', 129, ['i64', '1']]), '81040100000000000000');
          expectEqual(
              encode([
                'custom',
                130,
                ['list', [['i32', 1], ['str', 'x']]]
              ]),
              '820c02040100000000000000070178');
        });

        test('a NaN map key keeps its value (spec §7.4: writeValue walks the map with forEach)', () {
          expectEqual(
              encode([
                'map',
                [
                  [['f64', '7ff8000000000000'], ['str', 'v']]
                ]
              ]),
              '0d01' '06' '0000000000' '000000000000f87f' '070176');
        });

        test('floats keep their bits through double (spec §4.3)', () {
          for (final bits in ['8000000000000000', '7ff0000000000001', 'fff8000000000000']) {
            final hex = encode(['f64', bits]);
            expectEqual(decode(hex), ['f64', bits]);
          }
        });

        test('method calls and envelopes carry host values', () {
          expectEqual(encode(['call', 'm', ['i32', 1]], 'call'), '07016d' '040100000000000000');
          expectEqual(encode(['success', ['i32', 1]], 'envelope'), '00' '040100000000000000');
          expectEqual(
              encode(['error', 'e', null, ['i32', 1], 'st'], 'envelope'),
              '01' '070165' '00' '040100000000000000' '07027374');
        });

        test('largeint has no host type', () {
          expectThrows<BackendFailure>(() => encode(['largeint', 'ff']),
              where: (f) => f.errorClass == 'not_encodable', what: 'not_encodable');
        });
      });

      group('decode (wire-format-notes §2.2, §2.6)', () {
        test('tag 3 and tag 4 are both int, reported at the smallest width', () {
          expectEqual(decode('040500000000000000'), ['i32', 5]);
          expectEqual(decode('0305000000'), ['i32', 5]);
          expectEqual(decode('040000008000000000'), ['i64', '2147483648']);
        });

        test('a duplicate key keeps the first position and the last value', () {
          // {"a": 1, "b": 2, "a": 3}
          const hex = '0d03' '070161' '0301000000' '070162' '0302000000' '070161' '0303000000';
          expectEqual(decode(hex), [
            'map',
            [
              [['str', 'a'], ['i32', 3]],
              [['str', 'b'], ['i32', 2]],
            ]
          ]);
        });

        test("a NaN key keeps its value (s07.4-key-f64-nan)", () {
          const hex = '0d01' '060000000000000000000000f87f' '070176';
          expectEqual(decode(hex), [
            'map',
            [
              [['f64', '7ff8000000000000'], ['str', 'v']]
            ]
          ]);
        });

        test('host types are the dart:typed_data lists and Dart collections', () {
          const codec = PigeonHostCodec();
          final value = codec.decodeMessage(bytesFromHex(
              '0c03' '0b01' '00000000' '000000000000f03f' '0d00' '8100'));
          expectTrue(value is List<Object?> && value.length == 3, 'a List of 3');
          final list = value as List<Object?>;
          expectTrue(list[0] is Float64List && (list[0] as Float64List)[0] == 1.0,
              'a Float64List [1.0], got ${list[0].runtimeType}');
          expectTrue(list[1] is Map<Object?, Object?>, 'a Map, got ${list[1].runtimeType}');
          expectTrue(list[2] is CustomHostValue && (list[2] as CustomHostValue).tag == 129,
              'CustomHostValue(129), got ${list[2]}');
        });

        test('errors keep the pure codec class and offset; strict mode is skipped', () {
          expectThrows<BackendFailure>(() => decode('0c0203'),
              where: (f) => f.errorClass == 'truncated' && f.offset == 3,
              what: 'truncated at 3');
          expectThrows<BackendSkip>(
              () => backend.decode('message', bytesFromHex('00'), 'strict'));
        });
      });

      group('the utf16 literal of a String (spec §17.1)', () {
        const hosts = DartHostTypes(PigeonHostCodec.byValue());
        Object? build(Object? literal) => hosts.build('dart', {'type': 'String', 'value': literal});

        test('code units as they are: a lone surrogate stays one, a pair is a pair', () {
          expectEqual((build({'utf16': '0061d8000062'}) as String).codeUnits, [0x61, 0xd800, 0x62]);
          expectEqual(build({'utf16': '0068d83dde000077'}), 'h\u{1f600}w');
        });

        test('malformed forms and JSON lone-surrogate escapes are no literal', () {
          for (final bad in [
            {'utf16': '0061D800'},
            {'utf16': '006'},
            {'utf16': '0061', 'x': 1},
            {'utf8': '61'},
            'a\ud800b',
          ]) {
            expectThrows<BackendSkip>(() => build(bad), what: '$bad refused');
          }
        });

        test('a decoded String is written in the form only with a lone surrogate', () {
          expectEqual(DartHostTypes.stringLiteral('\udc00\ud800'), {'utf16': 'dc00d800'});
          expectEqual(DartHostTypes.stringLiteral('h\u{1f600}w'), 'h\u{1f600}w');
        });

        test('the codec refuses a lone surrogate and writes a pair as one scalar', () {
          expectThrows<BackendFailure>(
              () => guardCodec(() => hosts.encode('dart', {'type': 'String', 'value': {'utf16': 'dc00'}})),
              where: (f) => f.errorClass == 'not_encodable',
              what: 'not_encodable');
          expectEqual(
              hexOfBytes(hosts.encode('dart', {'type': 'String', 'value': {'utf16': '0068d83dde000077'}})!),
              '070668f09f988077');
        });
      });
    });
