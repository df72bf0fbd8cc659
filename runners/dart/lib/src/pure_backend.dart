// CodecBackend over the pure codec: notation <-> value model <-> bytes.

import 'dart:typed_data';

import 'backend.dart';
import 'errors.dart';
import 'notation.dart';
import 'pure_codec.dart';
import 'value.dart';

class PureBackend implements CodecBackend {
  PureBackend([this.codec = const PureStandardCodec()]);

  final PureStandardCodec codec;

  @override
  Map<String, String> get codecInfo =>
      const {'name': 'smc-dart-pure', 'version': '0.1.0', 'language': 'Dart'};

  @override
  List<String> get entries => const ['message', 'call', 'envelope'];

  @override
  Object decode(String entry, Uint8List bytes, String mode) =>
      guardCodec(() => _toNotation(_decode(entry, bytes, mode)));

  @override
  Uint8List encode(String entry, Object? notation) {
    final Object item;
    try {
      if (entry == 'message') {
        item = valueFromNotation(notation);
      } else if (entry == 'call') {
        item = callFromNotation(notation);
      } else {
        item = envelopeFromNotation(notation);
      }
    } on NotationException catch (error) {
      throw BackendFailure(ErrorClass.badNotation.wire, null, error.message);
    }
    return guardCodec(() => _encode(item));
  }

  @override
  RoundTrip roundtrip(String entry, Uint8List bytes, String mode) => guardCodec(() {
        final item = _decode(entry, bytes, mode);
        return RoundTrip(_toNotation(item), _encode(item));
      });

  Object _decode(String entry, Uint8List bytes, String mode) {
    final decodeMode = mode == 'strict' ? DecodeMode.strict : DecodeMode.flutter;
    if (entry == 'message') return codec.decodeMessage(bytes, mode: decodeMode);
    if (entry == 'call') return codec.decodeMethodCall(bytes, mode: decodeMode);
    return codec.decodeEnvelope(bytes, mode: decodeMode);
  }

  Uint8List _encode(Object item) {
    if (item is SmcValue) return codec.encodeMessage(item);
    if (item is MethodCallValue) return codec.encodeMethodCall(item);
    if (item is EnvelopeValue) return codec.encodeEnvelope(item);
    throw ArgumentError.value(item, 'item', 'not a value, call or envelope');
  }

  Object _toNotation(Object item) {
    if (item is SmcValue) return valueToNotation(item);
    if (item is MethodCallValue) return callToNotation(item);
    if (item is EnvelopeValue) return envelopeToNotation(item);
    throw ArgumentError.value(item, 'item', 'not a value, call or envelope');
  }
}

/// Runs [body], turning the pure codec's exception into the protocol core's failure.
T guardCodec<T>(T Function() body) {
  try {
    return body();
  } on SmcCodecException catch (error) {
    throw BackendFailure(error.errorClass.wire, error.offset, error.message);
  }
}
