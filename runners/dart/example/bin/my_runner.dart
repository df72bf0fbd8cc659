// A runner for an outside codec: everything a codec author writes to be judged through the
// Dart protocol core (package smc_dart_runner). `ExampleCodec` stands in for your codec,
// with its own API and its own exception; replace it with yours.
//
//   dart bin/my_runner.dart      (smc conformance --runner 'mine=dart bin/my_runner.dart')

import 'dart:typed_data';

import 'package:smc_dart_runner/smc_runner.dart';

/// Stand-in for your codec: like Flutter's, it rejects malformed input with
/// FormatException('Message corrupted') and gives no error class or offset.
class ExampleCodec {
  const ExampleCodec();

  static const PureStandardCodec _inner = PureStandardCodec(customTypes: false);

  SmcValue decode(Uint8List message) {
    try {
      return _inner.decodeMessage(message);
    } on SmcCodecException {
      throw const FormatException('Message corrupted');
    }
  }

  Uint8List encode(SmcValue value) {
    try {
      final bytes = _inner.encodeMessage(value);
      // It reads no custom values (customTypes: false), so it refuses to write bytes it
      // cannot read back (spec R1.4-18), as a codec without custom types does.
      _inner.decodeMessage(bytes);
      return bytes;
    } on SmcCodecException catch (error) {
      throw ArgumentError.value(value, 'value', error.message);
    }
  }
}

/// The adapter: the codec's calls and which of its exceptions are its documented ones.
/// FormatException (decode) and ArgumentError (encode) are; anything else the codec throws
/// propagates and is answered as a crash.
class ExampleBackend implements CodecBackend {
  const ExampleBackend([this.codec = const ExampleCodec()]);

  final ExampleCodec codec;

  @override
  Map<String, String> get codecInfo => const {'name': 'dart-kit-example', 'version': '1.0.0', 'language': 'Dart'};

  @override
  List<String> get entries => const ['message'];

  @override
  DecodedItem decode(String entry, Uint8List bytes, String mode) =>
      _ExampleItem(codec, _rejections(() => codec.decode(bytes)));

  @override
  Uint8List encode(String entry, Object? notation) {
    final SmcValue value;
    try {
      value = valueFromNotation(notation);
    } on NotationException catch (error) {
      throw BackendSkip('the notation cannot be read: ${error.message}');
    }
    return _rejections(() => codec.encode(value));
  }
}

class _ExampleItem implements DecodedItem {
  _ExampleItem(this.codec, this.value);

  final ExampleCodec codec;
  final SmcValue value;

  @override
  ValueSummary summary() => summarizeValue(value);

  @override
  Object toNotation() => valueToNotation(value);

  @override
  Uint8List reencode() => _rejections(() => codec.encode(value));
}

T _rejections<T>(T Function() body) {
  try {
    return body();
  } on FormatException catch (error) {
    throw BackendFailure(null, null, error.message);
  } on ArgumentError catch (error) {
    throw BackendFailure(null, null, '${error.message}');
  }
}

/// What the codec and its host express (runners/PROTOCOL.md P.1, P.7) and the options its
/// author chooses: messages only, no custom types, no strict mode, no error classes.
final Profile exampleProfile = Profile(
  name: 'example',
  summary: 'the Dart kit example (runners/dart/example)',
  decode: [
    for (final word in allFeatures)
      if (!const {'custom-types', 'method-codec', 'error-stacktrace', 'strict-mode'}.contains(word)) word
  ],
  encode: [
    for (final word in allFeatures)
      if (!const {'custom-types', 'method-codec', 'error-stacktrace', 'strict-mode', 'largeint'}.contains(word))
        word
  ],
  options: const ['shift'],
);

Future<void> main() => serveStdio(RunnerSession(const ExampleBackend(), exampleProfile));
