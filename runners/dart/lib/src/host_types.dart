// Host values of spec §17 (`{"type": T, "value": X}`) for the vocabularies this runner
// speaks: `dart` (§17.2) on the VM or `dart-web` (§17.3) compiled to JavaScript, and `any`
// (§17.9). [build] makes a Dart object of exactly the type named, and the host codec
// ([PigeonHostCodec] with Flutter's or Pigeon's integer rule, or Flutter's own codec in the
// Flutter adapter) encodes it as it would any such object; [describe] names the type of each
// node the codec decoded. The runner never picks a wire type: that is the codec's job, and
// what the host-type vectors test. An unknown type name is a [BackendSkip].

import 'dart:typed_data';

import 'backend.dart';
import 'notation.dart';
import 'utf8_strict.dart';

class DartHostTypes {
  const DartHostTypes(this.codec, {this.vocabularies = onTheVm, this.without = const {}});

  /// What the runner declares (P.1 `hosts`) on the Dart VM, and compiled to JavaScript.
  static const List<String> onTheVm = ['dart', 'any'];
  static const List<String> onTheWeb = ['dart-web', 'any'];

  /// The codec host values go through.
  final HostMessageCodec codec;

  /// [onTheVm] or [onTheWeb] (P.1 `hosts`).
  final List<String> vocabularies;

  /// spec §17.1, P.1 `hosts_without`: per vocabulary, the host types the codec's API cannot
  /// take or give (`{'dart': ['Uint64List']}`). The hello states them and a host value holding
  /// one is answered `skipped` without being built. Only the types
  /// runners/protocol.schema.json lists may be stated. Default: none.
  final Map<String, List<String>> without;

  /// The hello's `hosts_without`: [without] for the vocabularies spoken, in their order.
  Map<String, List<String>> get statedWithout => {
        for (final vocab in vocabularies)
          if ((without[vocab] ?? const []).isNotEmpty) vocab: without[vocab]!,
      };

  /// The first type of host value [node] of [vocab] stated absent ([without]), or null.
  String? statedAbsent(String vocab, Object? node, [int depth = 0]) {
    final types = without[vocab] ?? const <String>[];
    if (types.isEmpty || depth > 64 || node is! Map<String, Object?>) return null;
    final type = node['type'];
    if (types.contains(type)) return type as String;
    final x = node['value'];
    for (final element in x is List ? x : const []) {
      for (final part in element is List ? element : [element]) {
        final found = statedAbsent(vocab, part, depth + 1);
        if (found != null) return found;
      }
    }
    return null;
  }

  /// `dart` (the VM, §17.2) or `dart-web` (JavaScript numbers, §17.3): the vocabulary
  /// host_decode answers in. Every `dart-web` type is a `dart` type of the same name, so
  /// [build] and [describe] serve both.
  String get platform => vocabularies.first;

  static const Map<String, String> _anyTypes = {
    'null': 'Null',
    'bool': 'bool',
    'int32': 'int',
    'float32': 'float32',
    'float64': 'double',
    'string': 'String',
    'bytes': 'Uint8List',
  };

  Uint8List? encode(String vocab, Object? hostValue) =>
      codec.encodeMessage(build(vocab, hostValue));

  Map<String, Object?> decode(Uint8List bytes) => describe(codec.decodeMessage(bytes));

  Object? build(String vocab, Object? node) {
    if (node is! Map<String, Object?>) throw const BackendSkip('a host value is an object');
    final type = node['type'];
    final x = node['value'];
    final name = vocab == 'any' ? _anyTypes[type] : type;
    switch (name) {
      case 'Null':
        return null;
      case 'bool':
        if (x is bool) return x;
        break;
      case 'int':
        return int.parse(_text(x));
      case 'double':
        return _double64(_text(x));
      case 'float32':
        // A Dart float32 is the double a Float32List element reads as (§17.9).
        return Float32List.fromList([_float32(_text(x))])[0];
      case 'String':
        return _string(x);
      case 'Uint8List':
        return bytesFromHex(_text(x));
      case 'Int32List':
        return Int32List.fromList(_ints(x));
      case 'Int64List':
        return Int64List.fromList(_ints(x));
      case 'Float32List':
        return Float32List.fromList([for (final e in _items(x)) _float32(_text(e))]);
      case 'Float64List':
        return Float64List.fromList([for (final e in _items(x)) _double64(_text(e))]);
      case 'Int8List':
        return Int8List.fromList(_ints(x));
      case 'Int16List':
        return Int16List.fromList(_ints(x));
      case 'Uint16List':
        return Uint16List.fromList(_ints(x));
      case 'Uint32List':
        return Uint32List.fromList(_ints(x));
      case 'Uint8ClampedList':
        return Uint8ClampedList.fromList(_ints(x));
      case 'Uint64List':
        // An element above 2^63-1 is stored as its 64-bit pattern, as Dart does.
        return Uint64List.fromList(
            [for (final e in _items(x)) BigInt.parse(_text(e)).toUnsigned(64).toSigned(64).toInt()]);
      case 'List':
        return <Object?>[for (final e in _items(x)) build(vocab, e)];
      case 'Set':
        return <Object?>{for (final e in _items(x)) build(vocab, e)};
      case 'Map':
        final map = <Object?, Object?>{};
        for (final pair in _items(x)) {
          if (pair is! List || pair.length != 2) break;
          map[build(vocab, pair[0])] = build(vocab, pair[1]);
        }
        return map;
    }
    throw BackendSkip('no $vocab host type $type with literal $x');
  }

  /// The §17.2 decode table: the host type of each node the codec returned.
  static Map<String, Object?> describe(Object? value) {
    if (value == null) return _hv('Null', null);
    if (value is bool) return _hv('bool', value);
    if (value is int) return _hv('int', '$value');
    if (value is double) return _hv('double', _bitsOf64(value));
    if (value is String) return _hv('String', stringLiteral(value));
    if (value is Uint8List) return _hv('Uint8List', hexOfBytes(value));
    if (value is Int32List) return _hv('Int32List', [for (final e in value) '$e']);
    if (value is Int64List) return _hv('Int64List', [for (final e in value) '$e']);
    if (value is Float32List) {
      final data = ByteData.sublistView(value);
      return _hv('Float32List', [
        for (var i = 0; i < value.length; i++) hexOfBits32(data.getUint32(4 * i, Endian.host))
      ]);
    }
    if (value is Float64List) return _hv('Float64List', [for (final e in value) _bitsOf64(e)]);
    if (value is List) return _hv('List', [for (final e in value) describe(e)]);
    if (value is Map) {
      final pairs = <Object?>[];
      value.forEach((key, element) => pairs.add([describe(key), describe(element)]));
      return _hv('Map', pairs);
    }
    return _hv('${value.runtimeType}', null); // outside the table: shown as it is
  }

  static Map<String, Object?> _hv(String type, Object? value) => {'type': type, 'value': value};

  static String _text(Object? x) {
    if (x is String) return x;
    throw BackendSkip('a literal is a string, not $x');
  }

  /// A `String` literal (spec §17.1): a JSON string of Unicode scalars, refused if it holds
  /// a lone surrogate (jsonDecode lets `\ud800` through; every reader refuses it), or
  /// `{"utf16": H}`, 4 lower-case hex digits per code unit: the code units as they are, the
  /// one way a lone surrogate reaches the codec (a Dart String is UTF-16).
  static String _string(Object? x) {
    if (x is Map) {
      final h = x['utf16'];
      if (x.length != 1 || h is! String || !_utf16Hex.hasMatch(h)) {
        throw BackendSkip('a utf16 literal is {"utf16": H}, 4 lower-case hex digits per code unit, not $x');
      }
      return String.fromCharCodes(
          [for (var i = 0; i < h.length; i += 4) int.parse(h.substring(i, i + 4), radix: 16)]);
    }
    final text = _text(x);
    if (firstLoneSurrogate(text) >= 0) {
      throw const BackendSkip('a JSON string literal holds no lone surrogate: {"utf16": H} does (spec §17.1)');
    }
    return text;
  }

  static final RegExp _utf16Hex = RegExp(r'^([0-9a-f]{4})*$');

  /// The literal of a decoded String: `{"utf16": H}` only if it holds a lone surrogate
  /// (spec §17.1: one literal per value), else the string.
  static Object stringLiteral(String value) => firstLoneSurrogate(value) < 0
      ? value
      : {'utf16': [for (final u in value.codeUnits) u.toRadixString(16).padLeft(4, '0')].join()};

  static List<Object?> _items(Object? x) {
    if (x is List) return x;
    throw BackendSkip('a literal is an array, not $x');
  }

  static List<int> _ints(Object? x) => [for (final e in _items(x)) int.parse(_text(e))];

  static double _float32(String hex) =>
      (ByteData(4)..setUint32(0, int.parse(hex, radix: 16))).getFloat32(0);

  // Two 32-bit halves, never one 64-bit parse: 16 hex digits overflow a Dart int.
  static double _double64(String hex) => (ByteData(8)
        ..setUint32(0, int.parse(hex.substring(0, 8), radix: 16))
        ..setUint32(4, int.parse(hex.substring(8), radix: 16)))
      .getFloat64(0);

  static String _bitsOf64(double d) {
    final data = ByteData(8)..setFloat64(0, d);
    return hexOfBits32(data.getUint32(0)) + hexOfBits32(data.getUint32(4));
  }
}
