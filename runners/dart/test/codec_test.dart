// Unit tests of the pure codec. Expected bytes are the upstream literals collected in
// wire-format-notes §3 or follow directly from the spec section cited.

import 'dart:typed_data';

import 'package:smc_dart_runner/smc_runner.dart';

import 'check.dart';

const codec = PureStandardCodec();

Uint8List bytes(String hex) => bytesFromHex(hex);
String encode(SmcValue value) => hexOfBytes(codec.encodeMessage(value));
Object decode(String hex, {DecodeMode mode = DecodeMode.flutter}) =>
    valueToNotation(codec.decodeMessage(bytes(hex), mode: mode));
String zeros(int count) => '00' * count;

/// Expects [body] to throw SmcCodecException with [errorClass] at [offset].
void expectError(Object? Function() body, ErrorClass errorClass, int? offset) {
  expectThrows<SmcCodecException>(body,
      where: (e) => e.errorClass == errorClass && e.offset == offset,
      what: '$errorClass at $offset');
}

void expectDecodeError(String hex, ErrorClass errorClass, int offset,
    {DecodeMode mode = DecodeMode.flutter}) {
  expectError(() => codec.decodeMessage(bytes(hex), mode: mode), errorClass, offset);
}

/// A Pigeon-shaped extension: tag 129 is a data class with two int64 fields (spec §8.4).
class Point extends CustomValue {
  Point(this.x, this.y) : super(129, ListValue([Int64Value(x), Int64Value(y)]));
  final int x;
  final int y;
}

class PointCodec extends PureStandardCodec {
  const PointCodec();

  @override
  SmcValue readValueOfType(int type, SmcReadBuffer buffer) {
    if (type != 129) return super.readValueOfType(type, buffer);
    final fields = (readValue(buffer) as ListValue).elements;
    return Point((fields[0] as Int64Value).value, (fields[1] as Int64Value).value);
  }

  @override
  void writeValue(SmcWriteBuffer buffer, SmcValue value) {
    if (value is Point) {
      buffer.putUint8(129);
      writeValue(buffer, ListValue([Int64Value(value.x), Int64Value(value.y)]));
    } else {
      super.writeValue(buffer, value);
    }
  }
}

void main() => runTests(() {
  group('scalars (spec §4)', () {
    test('null, true, false', () {
      expectEqual(encode(const NullValue()), '00'); // spec §9.3: a top-level null is 00
      expectEqual(encode(const BoolValue(true)), '01');
      expectEqual(encode(const BoolValue(false)), '02');
    });

    test('int32 and int64 at their boundaries (notes §3.1)', () {
      expectEqual(encode(const Int32Value(-0x80000000)), '0300000080');
      expectEqual(encode(const Int32Value(0x7fffffff)), '03ffffff7f');
      expectEqual(encode(const Int64Value(-0x80000001)), '04ffffff7fffffffff');
      expectEqual(encode(const Int64Value(0x80000000)), '040000008000000000');
      expectEqual(encode(const Int64Value(0x7fffffffffffffff)), '04ffffffffffffff7f');
      expectEqual(encode(const Int64Value(-0x7fffffffffffffff - 1)), '040000000000000080');
    });

    test('int32 and int64 stay distinct for the same number (spec §4.2)', () {
      expectEqual(encode(const Int64Value(5)), '040500000000000000');
      expectEqual(decode('040500000000000000'), ['i64', '5']);
      expectEqual(decode('0305000000'), ['i32', 5]);
    });

    test('float64 is aligned to 8 from the message start (notes §3.1)', () {
      expectEqual(encode(const Float64Value(0x3ff0000000000000)),
          '06${zeros(7)}000000000000f03f');
    });

    test('float64 bits survive: -0.0 and NaN payloads (spec §4.3)', () {
      for (final hex in ['8000000000000000', '7ff0000000000001', 'fff8000000000000']) {
        final value = valueFromNotation(['f64', hex]);
        expectEqual(decode(hexOfBytes(codec.encodeMessage(value))), ['f64', hex]);
      }
    });

    test('largeInt: accepted in flutter mode, unknown_tag in strict (spec §4.4)', () {
      expectEqual(decode('05026166'), ['largeint', 'af']);
      expectDecodeError('05026166', ErrorClass.unknownTag, 0, mode: DecodeMode.strict);
      expectError(() => codec.encodeMessage(const LargeIntValue('af')),
          ErrorClass.notEncodable, null);
    });
  });

  group('sizes (spec §2.2)', () {
    test('shortest form at the boundaries (notes §3.1)', () {
      expectEqual(encode(Uint8ListValue(Uint8List(253))), '08fd${zeros(253)}');
      expectEqual(encode(Uint8ListValue(Uint8List(254))), '08fefe00${zeros(254)}');
      expectEqual(encode(Uint8ListValue(Uint8List(0xffff))), '08feffff${zeros(0xffff)}');
      expectEqual(encode(Uint8ListValue(Uint8List(0x10000))), '08ff00000100${zeros(0x10000)}');
    });

    test('longer forms: accepted in flutter mode, not_canonical in strict', () {
      expectEqual(decode('07fe02006162'), ['str', 'ab']);
      expectEqual(decode('07ff020000006162'), ['str', 'ab']);
      expectDecodeError('07fe02006162', ErrorClass.notCanonical, 1,
          mode: DecodeMode.strict);
      expectDecodeError('07ff020000006162', ErrorClass.notCanonical, 1,
          mode: DecodeMode.strict);
    });

    test('declared sizes are checked before allocation (errors.md §14.3)', () {
      expectDecodeError('0cffffffffff', ErrorClass.truncated, 6); // List of 2^32-1
      expectDecodeError('0bff00000001', ErrorClass.truncated, 6); // Float64List 2^24
      expectDecodeError('0dfe000100', ErrorClass.truncated, 5); // Map of 256: 512 bytes
      expectDecodeError('0901', ErrorClass.truncated, 2); // padding + 4 bytes missing
      expectDecodeError('07fe', ErrorClass.truncated, 2); // 2-byte size cut short
    });
  });

  group('alignment and typed lists (spec §3, §6)', () {
    test('empty typed lists keep their padding (notes §3.6)', () {
      expectEqual(
          encode(ListValue([const NullValue(), Int32ListValue(Int32List(0))])),
          '0c02000900000000');
      expectEqual(encode(const Float32ListValue([])), '0e000000');
    });

    test('non-zero padding: ignored in flutter mode, not_canonical in strict', () {
      const hex = '0601000000000000000000000000f03f';
      expectEqual(decode(hex), ['f64', '3ff0000000000000']);
      expectDecodeError(hex, ErrorClass.notCanonical, 1, mode: DecodeMode.strict);
    });

    test('decoding does not depend on where the bytes sit in memory', () {
      // [null, Int32List[1], Float64List[1.0], Float32List[1.0]]: every kind of padding.
      const hex = '0c0400' '0901' '000000' '01000000' '0b01' '0000' '000000000000f03f'
          '0e01' '0000' '0000803f';
      final expected = decode(hex);
      final input = bytes(hex);
      for (var shift = 1; shift < 8; shift++) {
        final backing = Uint8List(input.length + 8)..setRange(shift, shift + input.length, input);
        final view = Uint8List.view(backing.buffer, shift, input.length);
        expectEqual(valueToNotation(codec.decodeMessage(view)), expected, reason: 'shift $shift');
      }
    });
  });

  group('strings (spec §5)', () {
    test('UTF-8 and embedded NUL round trip', () {
      expectEqual(encode(const StringValue('h\u263aw')), '0705' '68e298ba77');
      expectEqual(decode('0703610062'), ['str', 'a\u0000b']);
      expectEqual(decode('0704f09f9882'), ['str', '\u{1F602}']);
      expectEqual(decode('0703efbbbf'), ['str', '\ufeff']); // a BOM is a character
    });

    test('ill-formed UTF-8 is bad_utf8 at the first bad subsequence (spec §5.3)', () {
      expectDecodeError('070361e282', ErrorClass.badUtf8, 3); // cut-short sequence
      expectDecodeError('0702c080', ErrorClass.badUtf8, 2); // overlong
      expectDecodeError('0703eda080', ErrorClass.badUtf8, 2); // encoded surrogate
      expectDecodeError('0704f4908080', ErrorClass.badUtf8, 2); // above U+10FFFF
      expectDecodeError('07024180', ErrorClass.badUtf8, 3); // lone continuation
      expectDecodeError('0701ff', ErrorClass.badUtf8, 2);
    });

    test('a lone surrogate is not encodable', () {
      expectError(() => codec.encodeMessage(const StringValue('a\ud800')),
          ErrorClass.notEncodable, null);
    });
  });

  group('lists, maps and depth (spec §7, §15.1)', () {
    test('duplicate map keys are kept in wire order (spec §7.3)', () {
      expectEqual(decode('0d0207016103010000000701610302000000'), [
        'map',
        [
          [['str', 'a'], ['i32', 1]],
          [['str', 'a'], ['i32', 2]],
        ]
      ]);
    });

    test('128 levels decode, the 129th is depth_limit at its tag', () {
      codec.decodeMessage(bytes('${'0c01' * 127}0c00')); // must not throw
      expectDecodeError('${'0c01' * 128}0c00', ErrorClass.depthLimit, 256);
      expectDecodeError('${'80' * 129}00', ErrorClass.depthLimit, 128);
    });
  });

  group('errors at the message level (errors.md §14)', () {
    test('truncated, trailing bytes, unknown tags', () {
      expectDecodeError('', ErrorClass.truncated, 0);
      expectDecodeError('030102', ErrorClass.truncated, 3);
      expectDecodeError('0000', ErrorClass.trailingBytes, 1);
      expectDecodeError('0f', ErrorClass.unknownTag, 0);
      expectDecodeError('0c01' '7f', ErrorClass.unknownTag, 2);
      expectError(() => const PureStandardCodec(customTypes: false).decodeMessage(bytes('8100')),
          ErrorClass.unknownTag, 0);
    });
  });

  group('custom values (spec §8)', () {
    test('default codec keeps tag and payload', () {
      expectEqual(decode('810300000000'), ['custom', 129, ['i32', 0]]);
      expectEqual(encode(CustomValue(130, ListValue(const []))), '820c00');
      expectError(() => codec.encodeMessage(const CustomValue(127, NullValue())),
          ErrorClass.notEncodable, null);
    });

    test('a Pigeon-shaped subclass overrides readValueOfType/writeValue', () {
      const pointCodec = PointCodec();
      const hex = '810c02' '040100000000000000' '040200000000000000';
      final point = pointCodec.decodeMessage(bytes(hex));
      expectTrue(point is Point && point.x == 1 && point.y == 2, 'Point(1, 2), got $point');
      expectEqual(hexOfBytes(pointCodec.encodeMessage(Point(1, 2))), hex);
    });
  });

  group('method calls and envelopes (spec §10, §11)', () {
    test('alignment counts from the first byte of the name / the flag (notes §3.6)', () {
      expectEqual(
          hexOfBytes(codec.encodeMethodCall(
              const MethodCallValue('m', Float64Value(0x3ff8000000000000)))),
          '07016d' '06' '00000000' '000000000000f83f');
      expectEqual(
          hexOfBytes(codec.encodeEnvelope(
              const SuccessEnvelope(Float64Value(0x3ff0000000000000)))),
          '00' '06' '000000000000' '000000000000f03f');
    });

    test('error envelope with a stacktrace (notes §3.6)', () {
      const hex = '0107056572726f720704626f6f6d0007027374';
      final envelope = codec.decodeEnvelope(bytes(hex));
      expectEqual(envelopeToNotation(envelope), ['error', 'error', 'boom', ['null'], 'st']);
      expectEqual(hexOfBytes(codec.encodeEnvelope(envelope)), hex);
    });

    test('null message, empty message and null stacktrace are distinct (§N.2)', () {
      const threeElements = ErrorEnvelope('e', null, NullValue());
      const emptyMessage = ErrorEnvelope('e', '', NullValue());
      const nullStacktrace = ErrorEnvelope('e', null, NullValue(), hasStacktrace: true);
      expectEqual(hexOfBytes(codec.encodeEnvelope(threeElements)), '0107016500' '00');
      expectEqual(hexOfBytes(codec.encodeEnvelope(emptyMessage)), '010701650700' '00');
      expectEqual(hexOfBytes(codec.encodeEnvelope(nullStacktrace)), '0107016500' '00' '00');
      expectEqual(envelopeToNotation(codec.decodeEnvelope(bytes('01070165000000'))),
          ['error', 'e', null, ['null'], null]);
    });

    test('entry-point errors', () {
      void methodCall(String hex, ErrorClass errorClass, int offset) => expectError(
          () => codec.decodeMethodCall(bytes(hex)), errorClass, offset);
      void envelope(String hex, ErrorClass errorClass, int offset) => expectError(
          () => codec.decodeEnvelope(bytes(hex)), errorClass, offset);
      methodCall('', ErrorClass.truncated, 0);
      methodCall('030100000000', ErrorClass.badEnvelope, 0);
      methodCall('0f', ErrorClass.badEnvelope, 0); // tag checked before it is decoded
      methodCall('07016d', ErrorClass.truncated, 3);
      methodCall('07016d0000', ErrorClass.trailingBytes, 4);
      envelope('', ErrorClass.truncated, 0);
      envelope('0200', ErrorClass.badEnvelope, 0);
      envelope('000000', ErrorClass.trailingBytes, 2);
      envelope('01000000', ErrorClass.badEnvelope, 1);
      envelope('0107016103', ErrorClass.badEnvelope, 4);
      envelope('010701610000' '03', ErrorClass.badEnvelope, 6);
      envelope('010701610000' '00' '00', ErrorClass.trailingBytes, 7);
    });
  });

  group('notation (spec/notation.md §N.4)', () {
    test('rejects what §N.4 lists', () {
      final invalid = <Object?>[
        ['i32', 1.0],
        ['i32', 2147483648],
        ['i64', '-0'],
        ['i64', '01'],
        ['i64', '9223372036854775808'],
        ['i64', 5],
        ['f64', '3FF0000000000000'],
        ['f64', '3ff'],
        ['f32s', ['3f80000']],
        ['u8s', 'abc'],
        ['custom', 127, ['null']],
        ['custom', 256, ['null']],
        ['null', 1],
        ['bool'],
        ['str', 'a\ud800'],
        ['map', [[['null']]]],
        ['nope'],
        'null',
        <Object?>[],
      ];
      for (final json in invalid) {
        expectThrows<NotationException>(() => valueFromNotation(json), what: '$json');
      }
    });

    test('64-bit bit patterns above 2^63 survive hex -> int -> hex', () {
      for (final hex in ['ffffffffffffffff', '8000000000000000', 'fff8000000000001']) {
        expectEqual(hexOfBits64(bits64FromHex(hex)), hex);
      }
      expectEqual(bits64FromHex('ffffffffffffffff'), -1);
    });

    test('i64 extremes', () {
      expectEqual(int64FromNotation('-9223372036854775808'), -0x7fffffffffffffff - 1);
      expectEqual(int64FromNotation('9223372036854775807'), 0x7fffffffffffffff);
    });

    test('composite value survives notation -> bytes -> notation', () {
      final json = [
        'list',
        [
          ['u8s', '0102'],
          ['i32s', [1, -2]],
          ['null'],
          ['i64s', ['-9223372036854775808', '9223372036854775807']],
          ['f64s', ['fff0000000000000', '8000000000000000']],
          ['f32s', ['7fc00001']],
          ['map', [[['null'], ['bool', true]]]],
          ['custom', 255, ['list', [['i64', '0'], ['i32', 2]]]],
        ]
      ];
      final encoded = codec.encodeMessage(valueFromNotation(json));
      expectEqual(valueToNotation(codec.decodeMessage(encoded)), json);
      expectEqual(valueToNotation(codec.decodeMessage(encoded, mode: DecodeMode.strict)), json);
    });
  });
});
