// The pigeon-dart profile on a plain Dart VM: the value semantics of a Pigeon-generated
// Dart codec (wire-format-notes §2.1, §2.2, §2.6, §4.3), on top of the pure codec, so
// the profile runs where Flutter cannot.
//
// A Pigeon-generated codec is a StandardMessageCodec subclass working on Dart host
// values. What the vectors can observe of that is reproduced here:
// * decode: tag 3 and tag 4 both become `int`; floats become `double`; a map becomes a
//   `Map<Object?, Object?>`, so a duplicate key keeps the first key's position and the
//   last value; typed lists become the dart:typed_data lists; tags 128..255 become
//   [CustomHostValue] (the generated classes in a real app);
// * encode: `value is int` is checked first and every int, at any depth, is written as
//   int64 (tag 4); everything else as the base codec writes it.
// The bytes themselves are read and written by [PureStandardCodec], so errors keep its
// classes and offsets. This is not Flutter's code: the flutter-vm profile
// (flutter_adapter/) runs Flutter's own codec where the Flutter SDK exists.
//
// Envelopes keep the pure codec's framing (code, message, details, optional stacktrace);
// only the values inside go through the host types.

import 'dart:typed_data';

import 'backend.dart';
import 'errors.dart';
import 'host_converter.dart';
import 'notation.dart';
import 'pure_backend.dart' show guardCodec;
import 'pure_codec.dart';
import 'summary.dart';
import 'value.dart';

/// Host values <-> the pure codec's value model, with Pigeon's Dart rules.
///
/// To model a generated codec's own classes, override [toWire] and [fromWire] for them
/// and call super for the rest (as a generated `writeValue`/`readValueOfType` does).
class PigeonHostCodec implements HostMessageCodec {
  const PigeonHostCodec([this.codec = const PureStandardCodec(), this.intsAsInt64 = true]);

  /// The same host layer with Flutter's StandardMessageCodec rule for `int`: int32 when it
  /// fits, else int64 (spec R4.2-4, §17.2), instead of Pigeon's every-int-as-int64.
  const PigeonHostCodec.byValue([this.codec = const PureStandardCodec()]) : intsAsInt64 = false;

  final PureStandardCodec codec;

  /// Pigeon's convention (R12.3-1): every `int` written as int64.
  final bool intsAsInt64;

  @override
  Object? decodeMessage(Uint8List bytes) => fromWire(codec.decodeMessage(bytes));

  @override
  Uint8List encodeMessage(Object? value) => codec.encodeMessage(toWire(value));

  /// The host value for a decoded value (Dart's types, as Flutter's codec returns them).
  Object? fromWire(SmcValue value) {
    if (value is CustomValue) return CustomHostValue(value.tag, fromWire(value.value));
    switch (value.tag) {
      case SmcTag.nullValue:
        return null;
      case SmcTag.trueValue:
        return true;
      case SmcTag.falseValue:
        return false;
      case SmcTag.int32:
        return (value as Int32Value).value;
      case SmcTag.int64:
        return (value as Int64Value).value;
      case SmcTag.largeInt:
        return (value as LargeIntValue).text; // Flutter reads tag 5 like a string
      case SmcTag.float64:
        return _doubleOfBits((value as Float64Value).bits);
      case SmcTag.string:
        return (value as StringValue).value;
      case SmcTag.uint8List:
        return (value as Uint8ListValue).bytes;
      case SmcTag.int32List:
        return Int32List.fromList((value as Int32ListValue).values);
      case SmcTag.int64List:
        return Int64List.fromList((value as Int64ListValue).values);
      case SmcTag.float64List:
        final bits = (value as Float64ListValue).bits;
        final data = ByteData(8 * bits.length);
        for (var i = 0; i < bits.length; i++) {
          data.setInt64(8 * i, bits[i], Endian.host);
        }
        return data.buffer.asFloat64List();
      case SmcTag.float32List:
        final bits = (value as Float32ListValue).bits;
        final data = ByteData(4 * bits.length);
        for (var i = 0; i < bits.length; i++) {
          data.setUint32(4 * i, bits[i], Endian.host);
        }
        return data.buffer.asFloat32List();
      case SmcTag.list:
        return <Object?>[for (final element in (value as ListValue).elements) fromWire(element)];
      case SmcTag.map:
        final map = <Object?, Object?>{};
        for (final entry in (value as MapValue).entries) {
          map[fromWire(entry.key)] = fromWire(entry.value);
        }
        return map;
    }
    throw ArgumentError.value(value, 'value', 'tag ${value.tag} has no host type');
  }

  /// The value to write for a host value; throws not_encodable for other objects, as
  /// Flutter's writeValue throws ArgumentError.
  SmcValue toWire(Object? value) {
    // Pigeon's generated writeValue checks `value is int` before anything else.
    if (value is int) {
      return intsAsInt64 || value < -0x80000000 || value > 0x7fffffff
          ? Int64Value(value)
          : Int32Value(value);
    }
    if (value == null) return const NullValue();
    if (value is bool) return BoolValue(value);
    if (value is double) return Float64Value(_bitsOfDouble(value));
    if (value is String) return StringValue(value);
    // Typed lists before List: they are Lists too.
    if (value is Uint8List) return Uint8ListValue(value);
    if (value is Int32List) return Int32ListValue(value);
    if (value is Int64List) return Int64ListValue(value);
    if (value is Float64List) {
      final data = ByteData.sublistView(value);
      return Float64ListValue(
          [for (var i = 0; i < value.length; i++) data.getInt64(8 * i, Endian.host)]);
    }
    if (value is Float32List) {
      final data = ByteData.sublistView(value);
      return Float32ListValue(
          [for (var i = 0; i < value.length; i++) data.getUint32(4 * i, Endian.host)]);
    }
    // spec R17-3: a Uint64List element above 2^63-1 reads as a negative int; writing the
    // elements would send other numbers, so the list is refused whole.
    if (value is Uint64List) {
      throw SmcCodecException(ErrorClass.notEncodable, null,
          'a Uint64List is not encodable (spec §17.2, R17-3)');
    }
    if (value is List) return ListValue([for (final element in value) toWire(element)]);
    if (value is Map) {
      // forEach, as Flutter's writeValue does: `entries` looks each value up by its key, and
      // a NaN key never equals itself, so its value would come out as null.
      final entries = <MapEntry<SmcValue, SmcValue>>[];
      value.forEach((key, element) => entries.add(MapEntry(toWire(key), toWire(element))));
      return MapValue(entries);
    }
    if (value is CustomHostValue) return CustomValue(value.tag, toWire(value.payload));
    throw SmcCodecException(ErrorClass.notEncodable, null,
        'no wire type for a host value of type ${value.runtimeType}');
  }

  static double _doubleOfBits(int bits) =>
      (ByteData(8)..setInt64(0, bits, Endian.host)).getFloat64(0, Endian.host);

  static int _bitsOfDouble(double value) =>
      (ByteData(8)..setFloat64(0, value, Endian.host)).getInt64(0, Endian.host);
}

/// CodecBackend of the pigeon-dart profile on the VM: notation <-> host values
/// ([HostConverter], shared with the Flutter adapter) <-> bytes ([PigeonHostCodec]).
class PigeonHostBackend implements CodecBackend {
  PigeonHostBackend(
      {this.codec = const PigeonHostCodec(), this.converter = const HostConverter()});

  final PigeonHostCodec codec;
  final HostConverter converter;

  @override
  Map<String, String> get codecInfo =>
      const {'name': 'smc-dart-pigeon-host', 'version': '0.1.0', 'language': 'Dart'};

  @override
  List<String> get entries => const ['message', 'call', 'envelope'];

  @override
  DecodedItem decode(String entry, Uint8List bytes, String mode) =>
      _PigeonItem(this, guardCodec(() => _decodeHost(entry, bytes, mode)));

  @override
  Uint8List encode(String entry, Object? notation) {
    final _HostItem item;
    try {
      item = _itemFromNotation(entry, notation);
    } on NotationException catch (error) {
      throw BackendSkip('the request\'s notation cannot be read: ${error.message}');
    }
    return guardCodec(() => _encodeHost(item));
  }

  /// The pure package's readers validate the notation (bad_notation); the converter then
  /// builds the host values from it, as in the Flutter adapter.
  _HostItem _itemFromNotation(String entry, Object? notation) {
    if (entry == 'message') {
      valueFromNotation(notation);
      return _HostItem.message(converter.fromNotation(notation));
    }
    if (entry == 'call') {
      final call = callFromNotation(notation);
      return _HostItem.call(call.name, converter.fromNotation((notation as List<Object?>)[2]));
    }
    final envelope = envelopeFromNotation(notation);
    final json = notation as List<Object?>;
    if (envelope is SuccessEnvelope) return _HostItem.success(converter.fromNotation(json[1]));
    return _HostItem.error(envelope as ErrorEnvelope, converter.fromNotation(json[3]));
  }

  /// The decoded item with host values inside.
  _HostItem _decodeHost(String entry, Uint8List bytes, String mode) {
    if (mode != 'flutter') {
      throw const BackendSkip('a Pigeon-generated Dart codec has no strict mode');
    }
    final pure = codec.codec;
    if (entry == 'message') return _HostItem.message(codec.decodeMessage(bytes));
    if (entry == 'call') {
      final call = pure.decodeMethodCall(bytes);
      return _HostItem.call(call.name, codec.fromWire(call.arguments));
    }
    final envelope = pure.decodeEnvelope(bytes);
    if (envelope is SuccessEnvelope) return _HostItem.success(codec.fromWire(envelope.result));
    final error = envelope as ErrorEnvelope;
    return _HostItem.error(error, codec.fromWire(error.details));
  }

  Object _hostToNotation(_HostItem item) {
    final value = converter.toNotation(item.value);
    switch (item.kind) {
      case _Kind.message:
        return value;
      case _Kind.call:
        return ['call', item.name, value];
      case _Kind.success:
        return ['success', value];
      case _Kind.error:
        final error = item.error!;
        return [
          'error',
          error.code,
          error.message,
          value,
          if (error.hasStacktrace) error.stacktrace,
        ];
    }
  }

  Uint8List _encodeHost(_HostItem item) {
    final pure = codec.codec;
    final wire = codec.toWire(item.value);
    switch (item.kind) {
      case _Kind.message:
        return pure.encodeMessage(wire);
      case _Kind.call:
        return pure.encodeMethodCall(MethodCallValue(item.name!, wire));
      case _Kind.success:
        return pure.encodeEnvelope(SuccessEnvelope(wire));
      case _Kind.error:
        final error = item.error!;
        return pure.encodeEnvelope(ErrorEnvelope(error.code, error.message, wire,
            hasStacktrace: error.hasStacktrace, stacktrace: error.stacktrace));
    }
  }
}

/// A decoded item of the Pigeon host layer: its value slot holds Dart host values.
class _PigeonItem implements DecodedItem {
  _PigeonItem(this.backend, this.item);

  final PigeonHostBackend backend;
  final _HostItem item;

  @override
  ValueSummary summary() => summarizeHost(item.value);

  @override
  Object toNotation() => backend._hostToNotation(item);

  @override
  Uint8List reencode() => guardCodec(() => backend._encodeHost(item));
}

enum _Kind { message, call, success, error }

/// A decoded item whose one value slot (the message, the arguments, the result or the
/// details) holds a host value.
class _HostItem {
  _HostItem.message(this.value)
      : kind = _Kind.message,
        name = null,
        error = null;
  _HostItem.call(String this.name, this.value)
      : kind = _Kind.call,
        error = null;
  _HostItem.success(this.value)
      : kind = _Kind.success,
        name = null,
        error = null;

  /// [error]'s details are replaced by [value].
  _HostItem.error(ErrorEnvelope this.error, this.value)
      : kind = _Kind.error,
        name = null;

  final _Kind kind;
  final Object? value;
  final String? name;
  final ErrorEnvelope? error;
}
