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
// Flutter's errors carry no class and no offset, so the profiles declare no
// `error-classes` (runners/PROTOCOL.md P.1, P.7) and no class is guessed: a
// FormatException, the codec's documented rejection, is an error without a class, and
// anything else it throws (RangeError past the end of the input, TypeError from a cast,
// StackOverflowError) is an unclassified rejection, `rejected` with its runtime type
// (flutterFailure below).

import 'dart:typed_data';

import 'package:flutter/services.dart'
    show MessageCodec, MethodCall, PlatformException, StandardMessageCodec, StandardMethodCodec;
import 'package:smc_dart_runner/smc_runner.dart';

import 'pigeon_shaped_codec.dart';

/// What a throw out of Flutter's codec is, by the crash / rejection line (spec §1.4):
/// Flutter's binary messenger wraps every channel handler in a catch-all, reports what it
/// caught through FlutterError.reportError and goes on, so nothing thrown is a crash. A
/// FormatException is the codec's documented rejection (an error without a class); any
/// other throw, an Error included (RangeError, StackOverflowError), is an unclassified
/// rejection named by its runtime type. Only a process that dies is a crash, which the
/// judge sees for itself.
Exception flutterFailure(Object thrown) => thrown is FormatException
    ? BackendFailure(null, null, '$thrown')
    : BackendRejected('${thrown.runtimeType}', '$thrown');

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

  /// The message codec on Dart host objects, for the host-type requests of spec §17
  /// (`DartHostTypes`): the same encode and decode paths, and the same refusals, as the
  /// message entry.
  HostMessageCodec get hostCodec => _FlutterHostCodec(this);

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
  DecodedItem decode(String entry, Uint8List bytes, String mode) {
    _requireFlutterMode(mode);
    return _FlutterItem(this, entry, _decodeHost(entry, bytes));
  }

  @override
  Uint8List? encode(String entry, Object? notation) {
    // Validate with the pure package's reader first: notation it cannot read is skipped
    // (P.6), and the converter below can then cast without checks.
    try {
      if (entry == 'message') {
        valueFromNotation(notation);
      } else if (entry == 'call') {
        callFromNotation(notation);
      } else {
        envelopeFromNotation(notation);
      }
    } on NotationException catch (error) {
      throw BackendSkip("the request's notation cannot be read: ${error.message}");
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
    } on UnsupportedError catch (error) {
      // dart2js has no ByteData.getInt64 or Int64List: this platform cannot read it.
      throw BackendSkip('the codec cannot run here: $error');
    } catch (error) {
      throw flutterFailure(error);
    }
  }

  Uint8List? _encodeHost(String entry, Object? item) {
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
    } on UnsupportedError catch (error) {
      // dart2js has no int64 support: this platform cannot write the value.
      throw BackendSkip('the codec cannot run here: $error');
    } on ArgumentError catch (error) {
      // writeValue's documented refusal of a value it cannot write; a RangeError (an
      // ArgumentError too) is not one: an unclassified rejection.
      if (error is RangeError) throw flutterFailure(error);
      throw BackendFailure('not_encodable', null, '$error');
    } catch (error) {
      throw flutterFailure(error);
    }
    // encodeMessage(null) returns null: no bytes (notes §2.7, D24), answered as such
    // (P.3 `"hex": null`) so the divergence from spec §9.3 shows in the report.
    if (data == null) return null;
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

class _FlutterHostCodec implements HostMessageCodec {
  _FlutterHostCodec(this.backend);

  final FlutterBackend backend;

  @override
  Uint8List? encodeMessage(Object? value) => backend._encodeHost('message', value);

  @override
  Object? decodeMessage(Uint8List bytes) => backend._decodeHost('message', bytes);
}

class _Success {
  const _Success(this.result);
  final Object? result;
}

/// A decoded item: host objects as Flutter's codec returned them.
class _FlutterItem implements DecodedItem {
  _FlutterItem(this.backend, this.entry, this.item);

  final FlutterBackend backend;
  final String entry;
  final Object? item;

  @override
  ValueSummary summary() {
    final item = this.item;
    if (item is MethodCall) return summarizeHost(item.arguments);
    if (item is _Success) return summarizeHost(item.result);
    if (item is PlatformException) return summarizeHost(item.details);
    return summarizeHost(item);
  }

  @override
  Object toNotation() => backend._hostToNotation(entry, item);

  @override
  Uint8List? reencode() => backend._encodeHost(entry, item);
}
