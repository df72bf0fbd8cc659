// The value notation (spec/notation.md) <-> the pure codec's value model.
//
// Input is what jsonDecode produced; output is what jsonEncode accepts. Readers reject
// everything §N.4 lists: unknown type words, wrong element counts, non-integer or
// out-of-range i32, non-canonical i64, hex of the wrong length or case, custom tags
// outside 128..255, lone surrogates.
//
// 64-bit quantities are built from two 32-bit halves, never from one int.parse of 16
// hex digits: a pattern >= 2^63 does not fit a signed Dart int, and halves avoid BigInt.

import 'dart:typed_data';

import 'utf8_strict.dart';
import 'value.dart';

class NotationException implements Exception {
  const NotationException(this.message);
  final String message;

  @override
  String toString() => 'NotationException: $message';
}

// ---------------------------------------------------------------- reading

SmcValue valueFromNotation(Object? json) {
  if (json is! List<Object?> || json.isEmpty || json[0] is! String) {
    throw NotationException('a value is a JSON array starting with a type word, '
        'got ${_show(json)}');
  }
  final word = json[0] as String;
  void expectLength(int length) {
    if (json.length != length) {
      throw NotationException('"$word" takes ${length - 1} element(s), '
          'got ${json.length - 1}');
    }
  }

  switch (word) {
    case 'null':
      expectLength(1);
      return const NullValue();
    case 'bool':
      expectLength(2);
      final flag = json[1];
      if (flag is! bool) throw NotationException('bool needs true or false');
      return BoolValue(flag);
    case 'i32':
      expectLength(2);
      return Int32Value(int32FromNotation(json[1]));
    case 'i64':
      expectLength(2);
      return Int64Value(int64FromNotation(json[1]));
    case 'largeint':
      expectLength(2);
      return LargeIntValue(stringFromNotation(json[1]));
    case 'f64':
      expectLength(2);
      return Float64Value(bits64FromHex(json[1]));
    case 'str':
      expectLength(2);
      return StringValue(stringFromNotation(json[1]));
    case 'u8s':
      expectLength(2);
      return Uint8ListValue(bytesFromHex(json[1]));
    case 'i32s':
      expectLength(2);
      return Int32ListValue(_array(json[1], word).map(int32FromNotation).toList());
    case 'i64s':
      expectLength(2);
      return Int64ListValue(_array(json[1], word).map(int64FromNotation).toList());
    case 'f64s':
      expectLength(2);
      return Float64ListValue(_array(json[1], word).map(bits64FromHex).toList());
    case 'f32s':
      expectLength(2);
      return Float32ListValue(_array(json[1], word).map(bits32FromHex).toList());
    case 'list':
      expectLength(2);
      return ListValue(_array(json[1], word).map(valueFromNotation).toList());
    case 'map':
      expectLength(2);
      return MapValue(_array(json[1], word).map(_pairFromNotation).toList());
    case 'custom':
      expectLength(3);
      final tag = json[1];
      if (tag is! int || tag < 128 || tag > 255) {
        throw NotationException('custom tag must be an integer in 128..255, '
            'got ${_show(tag)}');
      }
      return CustomValue(tag, valueFromNotation(json[2]));
  }
  throw NotationException('unknown type word "$word"');
}

MethodCallValue callFromNotation(Object? json) {
  if (json is! List<Object?> || json.length != 3 || json[0] != 'call') {
    throw NotationException('a method call is ["call", NAME, VALUE], got ${_show(json)}');
  }
  return MethodCallValue(stringFromNotation(json[1]), valueFromNotation(json[2]));
}

EnvelopeValue envelopeFromNotation(Object? json) {
  if (json is List<Object?> && json.length == 2 && json[0] == 'success') {
    return SuccessEnvelope(valueFromNotation(json[1]));
  }
  if (json is List<Object?> &&
      (json.length == 4 || json.length == 5) &&
      json[0] == 'error') {
    return ErrorEnvelope(
      stringFromNotation(json[1]),
      _nullableString(json[2]),
      valueFromNotation(json[3]),
      hasStacktrace: json.length == 5,
      stacktrace: json.length == 5 ? _nullableString(json[4]) : null,
    );
  }
  throw NotationException('an envelope is ["success", V] or '
      '["error", CODE, MESSAGE, DETAILS(, STACKTRACE)], got ${_show(json)}');
}

/// A JSON integer in the int32 range; 1.0 and 1e2 are doubles after jsonDecode and are
/// rejected (§N.4).
int int32FromNotation(Object? json) {
  if (json is! int || json < -0x80000000 || json > 0x7fffffff) {
    throw NotationException('i32 needs a JSON integer in [-2^31, 2^31-1], got ${_show(json)}');
  }
  return json;
}

final RegExp _canonicalDecimal = RegExp(r'^-?(0|[1-9][0-9]*)$');

/// A canonical decimal string in the int64 range; "-0" is invalid (§N.1).
int int64FromNotation(Object? json) {
  if (json is! String || !_canonicalDecimal.hasMatch(json) || json == '-0') {
    throw NotationException('i64 needs a canonical decimal string, got ${_show(json)}');
  }
  // On the VM int.tryParse returns null outside [-2^63, 2^63-1].
  final value = int.tryParse(json);
  if (value == null) throw NotationException('i64 "$json" is outside the int64 range');
  return value;
}

/// A JSON string without lone surrogates (they have no UTF-8 form, §N.1).
String stringFromNotation(Object? json) {
  if (json is! String) throw NotationException('expected a JSON string, got ${_show(json)}');
  final bad = firstLoneSurrogate(json);
  if (bad >= 0) {
    throw NotationException('string has a lone surrogate at UTF-16 index $bad');
  }
  return json;
}

final RegExp _lowerHex = RegExp(r'^[0-9a-f]*$');

void _checkHex(Object? json, int? length, String what) {
  if (json is! String ||
      !_lowerHex.hasMatch(json) ||
      (length != null && json.length != length) ||
      json.length.isOdd) {
    throw NotationException('$what needs ${length ?? 'an even number of'} lower-case hex '
        'digits, got ${_show(json)}');
  }
}

/// 16 hex digits -> the bit pattern as a signed 64-bit int (two 32-bit halves, so
/// patterns >= 2^63 such as fff8000000000000 come out as the matching negative int).
int bits64FromHex(Object? json) {
  _checkHex(json, 16, 'f64');
  final hex = json as String;
  final high = int.parse(hex.substring(0, 8), radix: 16);
  final low = int.parse(hex.substring(8), radix: 16);
  return (high << 32) | low; // wraps to the two's-complement value on the VM
}

int bits32FromHex(Object? json) {
  _checkHex(json, 8, 'f32');
  return int.parse(json as String, radix: 16);
}

Uint8List bytesFromHex(Object? json) {
  _checkHex(json, null, 'hex bytes');
  final hex = json as String;
  final bytes = Uint8List(hex.length ~/ 2);
  for (var i = 0; i < bytes.length; i++) {
    bytes[i] = int.parse(hex.substring(2 * i, 2 * i + 2), radix: 16);
  }
  return bytes;
}

List<Object?> _array(Object? json, String word) {
  if (json is! List<Object?>) throw NotationException('"$word" needs a JSON array');
  return json;
}

MapEntry<SmcValue, SmcValue> _pairFromNotation(Object? json) {
  if (json is! List<Object?> || json.length != 2) {
    throw NotationException('a map entry is [KEY, VALUE], got ${_show(json)}');
  }
  return MapEntry(valueFromNotation(json[0]), valueFromNotation(json[1]));
}

String? _nullableString(Object? json) => json == null ? null : stringFromNotation(json);

String _show(Object? json) {
  final text = '$json';
  return text.length <= 60 ? text : '${text.substring(0, 57)}...';
}

// ---------------------------------------------------------------- writing

List<Object?> valueToNotation(SmcValue value) {
  if (value is CustomValue) return ['custom', value.tag, valueToNotation(value.value)];
  switch (value.tag) {
    case SmcTag.nullValue:
      return ['null'];
    case SmcTag.trueValue:
      return ['bool', true];
    case SmcTag.falseValue:
      return ['bool', false];
    case SmcTag.int32:
      return ['i32', (value as Int32Value).value];
    case SmcTag.int64:
      return ['i64', '${(value as Int64Value).value}'];
    case SmcTag.largeInt:
      return ['largeint', (value as LargeIntValue).text];
    case SmcTag.float64:
      return ['f64', hexOfBits64((value as Float64Value).bits)];
    case SmcTag.string:
      return ['str', (value as StringValue).value];
    case SmcTag.uint8List:
      return ['u8s', hexOfBytes((value as Uint8ListValue).bytes)];
    case SmcTag.int32List:
      return ['i32s', List<Object?>.of((value as Int32ListValue).values)];
    case SmcTag.int64List:
      return [
        'i64s',
        [for (final element in (value as Int64ListValue).values) '$element']
      ];
    case SmcTag.float64List:
      return [
        'f64s',
        [for (final bits in (value as Float64ListValue).bits) hexOfBits64(bits)]
      ];
    case SmcTag.float32List:
      return [
        'f32s',
        [for (final bits in (value as Float32ListValue).bits) hexOfBits32(bits)]
      ];
    case SmcTag.list:
      return [
        'list',
        [for (final element in (value as ListValue).elements) valueToNotation(element)]
      ];
    case SmcTag.map:
      return [
        'map',
        [
          for (final entry in (value as MapValue).entries)
            [valueToNotation(entry.key), valueToNotation(entry.value)]
        ]
      ];
  }
  throw ArgumentError.value(value, 'value', 'tag ${value.tag} has no notation');
}

List<Object?> callToNotation(MethodCallValue call) =>
    ['call', call.name, valueToNotation(call.arguments)];

List<Object?> envelopeToNotation(EnvelopeValue envelope) {
  if (envelope is SuccessEnvelope) return ['success', valueToNotation(envelope.result)];
  final error = envelope as ErrorEnvelope;
  return [
    'error',
    error.code,
    error.message,
    valueToNotation(error.details),
    if (error.hasStacktrace) error.stacktrace,
  ];
}

String hexOfBits64(int bits) =>
    hexOfBits32((bits >> 32) & 0xffffffff) + hexOfBits32(bits & 0xffffffff);

String hexOfBits32(int bits) => bits.toRadixString(16).padLeft(8, '0');

String hexOfBytes(List<int> bytes) {
  final out = StringBuffer();
  for (final byte in bytes) {
    out.write(byte.toRadixString(16).padLeft(2, '0'));
  }
  return out.toString();
}
