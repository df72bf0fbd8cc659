// Notation (spec/notation.md) <-> the host values Flutter's codec reads and writes:
// null, bool, int, double, String, Uint8List, Int32List, Int64List, Float32List,
// Float64List, List<Object?>, Map<Object?, Object?>.
//
// Float bits go through ByteData with two 32-bit halves, never through a 64-bit int, so
// the same code is exact under dart2js (where ints are doubles) as on the VM.
//
// Used by the Flutter adapter (flutter_adapter/) and, on a plain Dart VM, by the
// pigeon-dart profile's host layer (pigeon_host.dart). Needs nothing from Flutter.

import 'dart:typed_data';

import 'backend.dart';
import 'notation.dart';

/// True when compiled to JavaScript, where 0 and 0.0 are the same object.
const bool isWeb = identical(0, 0.0);

/// The host form of a custom value (tag 128..255 + one nested value) when no generated
/// Pigeon class is involved; the Pigeon-shaped codecs (PigeonHostCodec here,
/// PigeonShapedCodec in the Flutter adapter) read and write it.
class CustomHostValue {
  const CustomHostValue(this.tag, this.payload);
  final int tag;
  final Object? payload;
}

/// Override [customToNotation] / [customFromNotation] to map the classes of a
/// Pigeon-generated codec (AllTypes, AnEnum, ...) to and from `["custom", T, V]`.
class HostConverter {
  const HostConverter();

  /// A decoded host value in notation. Throws [BackendSkip] for a host type that has
  /// no notation (e.g. a generated class without a [customToNotation] mapping).
  List<Object?> toNotation(Object? host) {
    if (host == null) return const ['null'];
    if (host is bool) return ['bool', host];
    if (host is String) return ['str', host];
    // Typed lists before List: they are Lists too.
    if (host is Uint8List) return ['u8s', hexOfBytes(host)];
    if (host is Int32List) return ['i32s', List<Object?>.of(host)];
    if (host is Int64List) return ['i64s', [for (final element in host) '$element']];
    if (host is Float32List) {
      final data = ByteData.sublistView(host);
      return [
        'f32s',
        [for (var i = 0; i < host.length; i++) hexOfBits32(data.getUint32(4 * i, Endian.little))]
      ];
    }
    if (host is Float64List) {
      final data = ByteData.sublistView(host);
      return ['f64s', [for (var i = 0; i < host.length; i++) _hex64At(data, 8 * i)]];
    }
    if (host is num) return _numberToNotation(host);
    if (host is List) return ['list', [for (final element in host) toNotation(element)]];
    if (host is Map) {
      // forEach, not `entries`: `entries` looks each value up by its key, and a NaN key
      // never equals itself, so its value would come out as null (vector s07.4-key-f64-nan).
      final pairs = <Object?>[];
      host.forEach((key, value) => pairs.add([toNotation(key), toNotation(value)]));
      return ['map', pairs];
    }
    if (host is CustomHostValue) return ['custom', host.tag, toNotation(host.payload)];
    final custom = customToNotation(host);
    if (custom != null) return custom;
    throw BackendSkip('decoded host value of type ${host.runtimeType} has no notation; '
        'give the adapter a HostConverter whose customToNotation maps it');
  }

  /// Notation for a host object of a generated type, or null if unknown.
  List<Object?>? customToNotation(Object host) => null;

  /// The host value to hand to the codec for `["custom", tag, payload]`.
  Object? customFromNotation(int tag, Object? payload) => CustomHostValue(tag, payload);

  /// The host value for a value in notation, which the caller has already validated
  /// with the pure package's reader (so the casts below cannot fail).
  Object? fromNotation(Object? json) {
    final list = json as List<Object?>;
    final word = list[0] as String;
    switch (word) {
      case 'null':
        return null;
      case 'bool':
        return list[1] as bool;
      case 'i32':
        return list[1] as int;
      case 'i64':
        // Exact on the VM; under dart2js only up to 2^53, which is why the web profile
        // does not claim int64 on encode.
        return int.parse(list[1] as String);
      case 'largeint':
        throw const BackendFailure('not_encodable', null,
            'Dart has no host type for largeInt; tag 5 is never written (spec §4.4)');
      case 'f64':
        return (ByteData(8).._setHex64(0, list[1] as String)).getFloat64(0, Endian.little);
      case 'str':
        return list[1] as String;
      case 'u8s':
        return bytesFromHex(list[1]);
      case 'i32s':
        return Int32List.fromList((list[1] as List<Object?>).cast<int>());
      case 'i64s':
        try {
          return Int64List.fromList(
              [for (final text in list[1] as List<Object?>) int.parse(text as String)]);
        } on UnsupportedError {
          throw const BackendSkip('Int64List is not supported on this platform (dart2js)');
        }
      case 'f64s':
        final hexes = (list[1] as List<Object?>).cast<String>();
        final data = ByteData(8 * hexes.length);
        for (var i = 0; i < hexes.length; i++) {
          data._setHex64(8 * i, hexes[i]);
        }
        return data.buffer.asFloat64List();
      case 'f32s':
        final hexes = (list[1] as List<Object?>).cast<String>();
        final data = ByteData(4 * hexes.length);
        for (var i = 0; i < hexes.length; i++) {
          data.setUint32(4 * i, int.parse(hexes[i], radix: 16), Endian.little);
        }
        return data.buffer.asFloat32List();
      case 'list':
        return <Object?>[for (final element in list[1] as List<Object?>) fromNotation(element)];
      case 'map':
        // A Dart map holds one entry per key (==): the profiles do not claim
        // duplicate-map-keys, and a value whose keys a Dart map would merge (two equal
        // keys, i32 1 and i64 1, 0.0 and -0.0) cannot be built, so it is skipped, never
        // approximated (PROTOCOL.md P.6).
        final pairs = (list[1] as List<Object?>).cast<List<Object?>>();
        final map = <Object?, Object?>{};
        for (final pair in pairs) {
          map[fromNotation(pair[0])] = fromNotation(pair[1]);
        }
        if (map.length != pairs.length) {
          throw BackendSkip('a Dart map cannot hold this value: ${pairs.length} entries, '
              'of which ${pairs.length - map.length} have a key equal (==) to another');
        }
        return map;
      case 'custom':
        return customFromNotation(list[1] as int, fromNotation(list[2]));
    }
    throw ArgumentError.value(word, 'type word', 'not validated notation');
  }

  List<Object?> _numberToNotation(num number) {
    if (!isWeb && number is int) {
      // One Dart int type (notes §2.2): report it at the smallest width, as the codec
      // itself would write it. The profiles do not claim int64-distinct.
      final fitsInt32 = number >= -0x80000000 && number <= 0x7fffffff;
      return fitsInt32 ? ['i32', number] : ['i64', '$number'];
    }
    if (isWeb && _looksLikeInt32(number)) {
      // dart2js cannot tell a decoded int32 from an integral double: guess int32.
      return ['i32', number.toInt()];
    }
    final data = ByteData(8)..setFloat64(0, number.toDouble(), Endian.little);
    return ['f64', _hex64At(data, 0)];
  }

  static bool _looksLikeInt32(num number) =>
      number.isFinite &&
      number == number.truncateToDouble() &&
      !(number == 0 && number.isNegative) &&
      number >= -0x80000000 &&
      number <= 0x7fffffff;

  static String _hex64At(ByteData data, int offset) =>
      hexOfBits32(data.getUint32(offset + 4, Endian.little)) +
      hexOfBits32(data.getUint32(offset, Endian.little));
}

extension on ByteData {
  /// Stores a 16-digit bit pattern little-endian at [offset], as two 32-bit halves.
  void _setHex64(int offset, String hex) {
    setUint32(offset, int.parse(hex.substring(8), radix: 16), Endian.little);
    setUint32(offset + 4, int.parse(hex.substring(0, 8), radix: 16), Endian.little);
  }
}
