// CodecBackend over the pure codec: notation <-> value model <-> bytes.

import 'dart:typed_data';

import 'backend.dart';
import 'errors.dart';
import 'notation.dart';
import 'pure_codec.dart';
import 'summary.dart';
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
  DecodedItem decode(String entry, Uint8List bytes, String mode) {
    final decodeMode = mode == 'strict' ? DecodeMode.strict : DecodeMode.flutter;
    return _PureItem(
        this,
        guardCodec(() {
          if (entry == 'message') return codec.decodeMessage(bytes, mode: decodeMode);
          if (entry == 'call') return codec.decodeMethodCall(bytes, mode: decodeMode);
          return codec.decodeEnvelope(bytes, mode: decodeMode);
        }));
  }

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
      throw BackendSkip('the request\'s notation cannot be read: ${error.message}');
    }
    return guardCodec(() => _encode(item));
  }

  Uint8List _encode(Object item) {
    if (item is SmcValue) return codec.encodeMessage(item);
    if (item is MethodCallValue) return codec.encodeMethodCall(item);
    if (item is EnvelopeValue) return codec.encodeEnvelope(item);
    throw ArgumentError.value(item, 'item', 'not a value, call or envelope');
  }
}

/// A decoded value, call or envelope of the pure codec's value model.
class _PureItem implements DecodedItem {
  _PureItem(this.backend, this.item);

  final PureBackend backend;
  final Object item;

  @override
  ValueSummary summary() {
    final item = this.item;
    if (item is SmcValue) return summarizeValue(item);
    if (item is MethodCallValue) return summarizeValue(item.arguments);
    if (item is SuccessEnvelope) return summarizeValue(item.result);
    return summarizeValue((item as ErrorEnvelope).details);
  }

  @override
  Object toNotation() {
    final item = this.item;
    if (item is SmcValue) return valueToNotation(item);
    if (item is MethodCallValue) return callToNotation(item);
    return envelopeToNotation(item as EnvelopeValue);
  }

  @override
  Uint8List reencode() => guardCodec(() => backend._encode(item));
}

/// Runs [body], turning the pure codec's own exception (its documented rejection, with
/// a class and an offset) into the protocol core's failure. Anything else propagates
/// and is answered as an unclassified rejection (protocol.dart, unexpectedThrow).
T guardCodec<T>(T Function() body) {
  try {
    return body();
  } on SmcCodecException catch (error) {
    throw BackendFailure(error.errorClass.wire, error.offset, error.message);
  }
}
