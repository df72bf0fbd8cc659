// CodecBackend over Flutter's own codecs (package:flutter/services.dart):
// StandardMessageCodec.encodeMessage/decodeMessage and StandardMethodCodec's
// encodeMethodCall/decodeMethodCall/encodeSuccessEnvelope/encodeErrorEnvelope/
// decodeEnvelope.
//
// Plugging in another codec (e.g. one Pigeon generated): pass any
// MessageCodec<Object?> as `messageCodec`. Pigeon's generated Dart codec class is
// private, but every generated API class exposes it as `pigeonChannelCodec`:
//
//   FlutterBackend(profile: pigeonDartProfile,
//                  messageCodec: MyHostApi.pigeonChannelCodec,
//                  converter: MyConverter());  // maps the generated classes
//
// If the codec is a StandardMessageCodec, the method-call and envelope entries use
// StandardMethodCodec(codec); otherwise only the message entry is offered.
//
// Flutter's errors carry no class and no offset. They are mapped to a class as well as
// the exception allows, and `message` says when the class is a guess.

import 'dart:typed_data';

import 'package:flutter/services.dart'
    show MessageCodec, MethodCall, PlatformException, StandardMessageCodec, StandardMethodCodec;
import 'package:smc_dart_runner/smc_runner.dart';

import 'pigeon_shaped_codec.dart';

class FlutterBackend implements CodecBackend {
  FlutterBackend({
    required this.profile,
    this.messageCodec = const StandardMessageCodec(),
    this.converter = const HostConverter(),
  }) : methodCodec = _methodCodecFor(messageCodec);

  /// The codec each profile means: the framework codec for flutter-vm and web, a
  /// Pigeon-shaped subclass for pigeon-dart.
  factory FlutterBackend.forProfile(Profile profile) => FlutterBackend(
        profile: profile,
        messageCodec: profile.name == 'pigeon-dart'
            ? const PigeonShapedCodec()
            : const StandardMessageCodec(),
      );

  final Profile profile;
  final MessageCodec<Object?> messageCodec;
  final StandardMethodCodec? methodCodec;
  final HostConverter converter;

  static StandardMethodCodec? _methodCodecFor(MessageCodec<Object?> codec) =>
      codec is StandardMessageCodec ? StandardMethodCodec(codec) : null;

  @override
  Map<String, String> get codecInfo => {
        'name': 'flutter-${profile.name}',
        // Set by the bridge if it knows; Flutter exposes no version at run time.
        'version': const String.fromEnvironment('SMC_FLUTTER_VERSION',
            defaultValue: 'unknown'),
        'language': 'Dart',
      };

  @override
  List<String> get entries =>
      methodCodec == null ? const ['message'] : const ['message', 'call', 'envelope'];

  @override
  Object decode(String entry, Uint8List bytes, String mode) {
    _requireFlutterMode(mode);
    return _hostToNotation(entry, _decodeHost(entry, bytes));
  }

  @override
  Uint8List encode(String entry, Object? notation) {
    // Validate with the pure package's reader first: invalid notation is bad_notation,
    // and the converter below can then cast without checks.
    try {
      if (entry == 'message') {
        valueFromNotation(notation);
      } else if (entry == 'call') {
        callFromNotation(notation);
      } else {
        envelopeFromNotation(notation);
      }
    } on NotationException catch (error) {
      throw BackendFailure('bad_notation', null, error.message);
    }
    final json = notation as List<Object?>;
    final Object? item;
    if (entry == 'message') {
      item = converter.fromNotation(json);
    } else if (entry == 'call') {
      item = MethodCall(json[1] as String, converter.fromNotation(json[2]));
    } else {
      item = json[0] == 'success'
          ? _Success(converter.fromNotation(json[1]))
          : _errorFromNotation(json);
    }
    return _encodeHost(entry, item);
  }

  @override
  RoundTrip roundtrip(String entry, Uint8List bytes, String mode) {
    _requireFlutterMode(mode);
    final item = _decodeHost(entry, bytes);
    return RoundTrip(_hostToNotation(entry, item), _encodeHost(entry, item));
  }

  void _requireFlutterMode(String mode) {
    if (mode != 'flutter') {
      throw const BackendSkip("Flutter's codec has no strict mode");
    }
  }

  /// Decodes to host objects: the message's value, a MethodCall, or for envelopes a
  /// [_Success] or the PlatformException that decodeEnvelope throws for an error
  /// envelope (that exception is the decoded value, not a failure).
  Object? _decodeHost(String entry, Uint8List bytes) {
    // A view on the same bytes: with the protocol's `shift` its offsetInBytes is
    // non-zero, which is what exposes alignment by address.
    final data = ByteData.sublistView(bytes);
    try {
      switch (entry) {
        case 'message':
          return messageCodec.decodeMessage(data);
        case 'call':
          return methodCodec!.decodeMethodCall(data);
        default:
          try {
            return _Success(methodCodec!.decodeEnvelope(data));
          } on PlatformException catch (error) {
            return error;
          }
      }
    } catch (error) {
      throw mapFlutterError(error, decoding: true, inputLength: bytes.length);
    }
  }

  Uint8List _encodeHost(String entry, Object? item) {
    ByteData? data;
    try {
      switch (entry) {
        case 'message':
          data = messageCodec.encodeMessage(item);
          break;
        case 'call':
          data = methodCodec!.encodeMethodCall(item as MethodCall);
          break;
        default:
          if (item is _Success) {
            data = methodCodec!.encodeSuccessEnvelope(item.result);
          } else {
            final error = item as PlatformException;
            // encodeErrorEnvelope has no stacktrace parameter (notes §5.2): a decoded
            // 4th element is dropped here, as Flutter itself would drop it.
            data = methodCodec!.encodeErrorEnvelope(
                code: error.code, message: error.message, details: error.details);
          }
      }
    } on BackendSkip {
      rethrow;
    } catch (error) {
      throw mapFlutterError(error, decoding: false, inputLength: 0);
    }
    // encodeMessage(null) returns null, i.e. no bytes (notes §2.7); reported as it is,
    // an empty encoding, so the divergence from spec §9.3 shows up in the report.
    if (data == null) return Uint8List(0);
    return Uint8List.sublistView(data);
  }

  List<Object?> _hostToNotation(String entry, Object? item) {
    switch (entry) {
      case 'message':
        return converter.toNotation(item);
      case 'call':
        final call = item as MethodCall;
        return ['call', call.method, converter.toNotation(call.arguments)];
      default:
        if (item is _Success) return ['success', converter.toNotation(item.result)];
        final error = item as PlatformException;
        // PlatformException cannot tell "no 4th element" from "4th element null".
        return [
          'error',
          error.code,
          error.message,
          converter.toNotation(error.details),
          if (error.stacktrace != null) error.stacktrace,
        ];
    }
  }

  PlatformException _errorFromNotation(List<Object?> json) {
    if (json.length == 5) {
      throw const BackendSkip(
          'StandardMethodCodec.encodeErrorEnvelope cannot write a stacktrace');
    }
    return PlatformException(
      code: json[1] as String,
      message: json[2] as String?,
      details: converter.fromNotation(json[3]),
    );
  }
}

class _Success {
  const _Success(this.result);
  final Object? result;
}

/// Maps an exception from Flutter's codec to an error class (spec/errors.md §14.1).
/// Flutter gives no offsets, so none are reported. Returns a [BackendSkip] for
/// exceptions that mean "this platform cannot do it" rather than "bad input".
Exception mapFlutterError(Object error, {required bool decoding, required int inputLength}) {
  String guess(String why) => '$error — class guessed: $why';
  if (!decoding) {
    if (error is ArgumentError && error is! RangeError) {
      // writeValue throws ArgumentError.value for a value it cannot write.
      return BackendFailure('not_encodable', null, '$error');
    }
    return BackendFailure('not_encodable', null, guess('unexpected ${error.runtimeType}'));
  }
  if (error is UnsupportedError) {
    return BackendSkip('the codec cannot run here: $error (dart2js has no int64 support)');
  }
  if (error is FormatException) {
    switch (error.message) {
      case 'Message corrupted':
        if (inputLength == 0) return BackendFailure('truncated', null, '$error (empty input)');
        return BackendFailure('unknown_tag', null,
            guess('Flutter uses this text for an unknown tag, for trailing bytes and '
                'for a missing value tag'));
      case 'Invalid method call':
        return BackendFailure('bad_envelope', null,
            guess('Flutter uses this text for a non-string name and for trailing bytes'));
      case 'Invalid envelope':
        return BackendFailure('bad_envelope', null,
            guess('Flutter uses this text for a bad code/message and for trailing bytes'));
      case 'Expected envelope, got nothing':
        return BackendFailure('truncated', null, '$error');
    }
    return BackendFailure('bad_utf8', null,
        guess("other FormatExceptions come from dart:convert's UTF-8 decoder"));
  }
  if (error is RangeError) {
    return BackendFailure('truncated', null,
        guess('a read went past the end of the input (also thrown for a typed-data '
            'view that is not aligned in its buffer)'));
  }
  if (error is ArgumentError) {
    return BackendFailure('truncated', null,
        guess('typed-data view out of range or misaligned'));
  }
  if (error is TypeError) {
    return BackendFailure('bad_envelope', null,
        guess('a cast in decodeMethodCall/decodeEnvelope failed'));
  }
  return BackendFailure('truncated', null, guess('unmapped ${error.runtimeType}'));
}
