// Stand-in for package:flutter's services library, test-only (see foundation.dart): the
// message and method codecs the adapter calls, with the API shape it uses and the wire
// format of spec/standard-message-codec.md. Rejections are a FormatException, the way
// Flutter's codecs document theirs; a read past the end of the input is the RangeError of
// ReadBuffer, which nothing here turns into a FormatException.

import 'dart:convert';
import 'dart:typed_data';

import 'foundation.dart';

export 'foundation.dart' show ReadBuffer, WriteBuffer;

abstract class MessageCodec<T> {
  ByteData? encodeMessage(T message);
  T? decodeMessage(ByteData? message);
}

class MethodCall {
  const MethodCall(this.method, [this.arguments]);
  final String method;
  final dynamic arguments;
}

class PlatformException implements Exception {
  PlatformException({required this.code, this.message, this.details, this.stacktrace});
  final String code;
  final String? message;
  final dynamic details;
  final String? stacktrace;

  @override
  String toString() => 'PlatformException($code, $message, $details, $stacktrace)';
}

class StandardMessageCodec implements MessageCodec<Object?> {
  const StandardMessageCodec();

  // spec §1 tag table
  static const int _null = 0, _true = 1, _false = 2, _int32 = 3, _int64 = 4;
  static const int _largeInt = 5, _float64 = 6, _string = 7, _uint8List = 8;
  static const int _int32List = 9, _int64List = 10, _float64List = 11, _list = 12;
  static const int _map = 13, _float32List = 14;

  @override
  ByteData? encodeMessage(Object? message) {
    if (message == null) return null; // no bytes for a top-level null, as Flutter does (D24)
    final buffer = WriteBuffer();
    writeValue(buffer, message);
    return buffer.done();
  }

  @override
  Object? decodeMessage(ByteData? message) {
    if (message == null) return null;
    final buffer = ReadBuffer(message);
    final result = readValue(buffer);
    if (buffer.hasRemaining) throw const FormatException('Message corrupted');
    return result;
  }

  void writeValue(WriteBuffer buffer, Object? value) {
    if (value == null) {
      buffer.putUint8(_null);
    } else if (value is bool) {
      buffer.putUint8(value ? _true : _false);
    } else if (value is double) {
      buffer.putUint8(_float64);
      buffer.putFloat64(value);
    } else if (value is int) {
      // spec §4.2: the smallest of int32 and int64 that holds the value
      if (value >= -0x80000000 && value <= 0x7fffffff) {
        buffer.putUint8(_int32);
        buffer.putInt32(value);
      } else {
        buffer.putUint8(_int64);
        buffer.putInt64(value);
      }
    } else if (value is String) {
      buffer.putUint8(_string);
      final bytes = utf8.encoder.convert(value);
      writeSize(buffer, bytes.length);
      buffer.putUint8List(bytes);
    } else if (value is Uint8List) {
      buffer.putUint8(_uint8List);
      writeSize(buffer, value.length);
      buffer.putUint8List(value);
    } else if (value is Int32List) {
      buffer.putUint8(_int32List);
      writeSize(buffer, value.length);
      buffer.putInt32List(value);
    } else if (value is Int64List) {
      buffer.putUint8(_int64List);
      writeSize(buffer, value.length);
      buffer.putInt64List(value);
    } else if (value is Float32List) {
      buffer.putUint8(_float32List);
      writeSize(buffer, value.length);
      buffer.putFloat32List(value);
    } else if (value is Float64List) {
      buffer.putUint8(_float64List);
      writeSize(buffer, value.length);
      buffer.putFloat64List(value);
    } else if (value is List) {
      buffer.putUint8(_list);
      writeSize(buffer, value.length);
      for (final item in value) {
        writeValue(buffer, item);
      }
    } else if (value is Map) {
      buffer.putUint8(_map);
      writeSize(buffer, value.length);
      value.forEach((Object? key, Object? item) {
        writeValue(buffer, key);
        writeValue(buffer, item);
      });
    } else {
      throw ArgumentError.value(value);
    }
  }

  Object? readValue(ReadBuffer buffer) {
    if (!buffer.hasRemaining) throw const FormatException('Message corrupted');
    return readValueOfType(buffer.getUint8(), buffer);
  }

  Object? readValueOfType(int type, ReadBuffer buffer) {
    switch (type) {
      case _null:
        return null;
      case _true:
        return true;
      case _false:
        return false;
      case _int32:
        return buffer.getInt32();
      case _int64:
        return buffer.getInt64();
      case _float64:
        return buffer.getFloat64();
      case _largeInt: // spec §4.4, flutter mode: its text, as a String (runners/dart/README.md)
      case _string:
        final length = readSize(buffer);
        return utf8.decoder.convert(buffer.getUint8List(length));
      case _uint8List:
        return buffer.getUint8List(readSize(buffer));
      case _int32List:
        return buffer.getInt32List(readSize(buffer));
      case _int64List:
        return buffer.getInt64List(readSize(buffer));
      case _float32List:
        return buffer.getFloat32List(readSize(buffer));
      case _float64List:
        return buffer.getFloat64List(readSize(buffer));
      case _list:
        final length = readSize(buffer);
        final result = List<Object?>.filled(length, null, growable: false);
        for (var i = 0; i < length; i++) {
          result[i] = readValue(buffer);
        }
        return result;
      case _map:
        final length = readSize(buffer);
        final result = <Object?, Object?>{};
        for (var i = 0; i < length; i++) {
          final key = readValue(buffer);
          result[key] = readValue(buffer);
        }
        return result;
      default:
        throw const FormatException('Message corrupted');
    }
  }

  // spec §2: one byte below 254, else fe + u16, else ff + u32
  void writeSize(WriteBuffer buffer, int value) {
    if (value < 254) {
      buffer.putUint8(value);
    } else if (value <= 0xffff) {
      buffer.putUint8(254);
      buffer.putUint16(value);
    } else {
      buffer.putUint8(255);
      buffer.putUint32(value);
    }
  }

  int readSize(ReadBuffer buffer) {
    final value = buffer.getUint8();
    if (value < 254) return value;
    return value == 254 ? buffer.getUint16() : buffer.getUint32();
  }
}

class StandardMethodCodec {
  const StandardMethodCodec([this.messageCodec = const StandardMessageCodec()]);

  final StandardMessageCodec messageCodec;

  // spec §10: the name, then the arguments, one message
  ByteData encodeMethodCall(MethodCall methodCall) {
    final buffer = WriteBuffer();
    messageCodec.writeValue(buffer, methodCall.method);
    messageCodec.writeValue(buffer, methodCall.arguments);
    return buffer.done();
  }

  MethodCall decodeMethodCall(ByteData? methodCall) {
    final buffer = ReadBuffer(methodCall!);
    final Object? method = messageCodec.readValue(buffer);
    final Object? arguments = messageCodec.readValue(buffer);
    if (method is String && !buffer.hasRemaining) return MethodCall(method, arguments);
    throw const FormatException('Invalid method call');
  }

  // spec §11: flag 0 then the result; flag 1 then code, message, details
  ByteData encodeSuccessEnvelope(Object? result) {
    final buffer = WriteBuffer();
    buffer.putUint8(0);
    messageCodec.writeValue(buffer, result);
    return buffer.done();
  }

  ByteData encodeErrorEnvelope({required String code, String? message, Object? details}) {
    final buffer = WriteBuffer();
    buffer.putUint8(1);
    messageCodec.writeValue(buffer, code);
    messageCodec.writeValue(buffer, message);
    messageCodec.writeValue(buffer, details);
    return buffer.done();
  }

  Object? decodeEnvelope(ByteData envelope) {
    if (envelope.lengthInBytes == 0) throw const FormatException('Expected envelope, got nothing');
    final buffer = ReadBuffer(envelope);
    final flag = buffer.getUint8();
    if (flag == 0) {
      final result = messageCodec.readValue(buffer);
      if (!buffer.hasRemaining) return result;
      throw const FormatException('Invalid envelope');
    }
    if (flag != 1) throw const FormatException('Invalid envelope');
    final Object? code = messageCodec.readValue(buffer);
    final Object? message = messageCodec.readValue(buffer);
    final Object? details = messageCodec.readValue(buffer);
    // spec §11.3: an optional fourth element, the stacktrace
    final Object? stacktrace = buffer.hasRemaining ? messageCodec.readValue(buffer) : null;
    if (code is String &&
        (message == null || message is String) &&
        (stacktrace == null || stacktrace is String) &&
        !buffer.hasRemaining) {
      throw PlatformException(
          code: code, message: message as String?, details: details, stacktrace: stacktrace as String?);
    }
    throw const FormatException('Invalid envelope');
  }
}
