// A small StandardMessageCodec / StandardMethodCodec in pure Dart (dart:typed_data and
// dart:convert only), written from spec/standard-message-codec.md and spec/errors.md.
//
// It is the codec the `pure` runner profile tests, and a reference for what a Dart port
// must do beyond Flutter's own codec: error classes and offsets, a depth limit, strict
// UTF-8, a strict mode, int32/int64 kept apart, float bits kept exactly.
//
// Extension works as in Flutter and Pigeon: subclass and override `writeValue` and
// `readValueOfType`, handle your tags, and call `super` for the rest.
//
// Runs on the Dart VM (and AOT). It is not meant for dart2js: it reads and writes int64
// through ByteData.getInt64/setInt64, which dart2js does not support.

import 'dart:typed_data';

import 'buffers.dart';
import 'errors.dart';
import 'utf8_strict.dart';
import 'value.dart';

/// Decoder modes (spec §1.2).
enum DecodeMode { flutter, strict }

class PureStandardCodec {
  const PureStandardCodec({this.maxDepth = 128, this.customTypes = true});

  /// Deepest allowed nesting of lists, maps and custom values (spec §15.1).
  final int maxDepth;

  /// When false, tags 128..255 are `unknown_tag` (like `smc --no-custom`).
  final bool customTypes;

  // Wire tags (spec §4..§8), as Flutter's codec names its constants.
  static const int tagNull = SmcTag.nullValue;
  static const int tagTrue = SmcTag.trueValue;
  static const int tagFalse = SmcTag.falseValue;
  static const int tagInt32 = SmcTag.int32;
  static const int tagInt64 = SmcTag.int64;
  static const int tagLargeInt = SmcTag.largeInt;
  static const int tagFloat64 = SmcTag.float64;
  static const int tagString = SmcTag.string;
  static const int tagUint8List = SmcTag.uint8List;
  static const int tagInt32List = SmcTag.int32List;
  static const int tagInt64List = SmcTag.int64List;
  static const int tagFloat64List = SmcTag.float64List;
  static const int tagList = SmcTag.list;
  static const int tagMap = SmcTag.map;
  static const int tagFloat32List = SmcTag.float32List;
  static const int firstCustomTag = SmcTag.firstCustom;

  // ---------------------------------------------------------------- entry points

  /// Message entry point (spec §9): exactly one value.
  SmcValue decodeMessage(Uint8List input, {DecodeMode mode = DecodeMode.flutter}) {
    final buffer = SmcReadBuffer(input, strict: mode == DecodeMode.strict);
    final value = readValue(buffer);
    _expectEnd(buffer);
    return value;
  }

  /// Spec §9.3: a top-level null is `00`, never "no bytes".
  Uint8List encodeMessage(SmcValue value) {
    final buffer = SmcWriteBuffer();
    writeValue(buffer, value);
    return buffer.toBytes();
  }

  /// Method-call entry point (spec §10.1): name (tag 7) then one arguments value.
  MethodCallValue decodeMethodCall(Uint8List input,
      {DecodeMode mode = DecodeMode.flutter}) {
    final buffer = SmcReadBuffer(input, strict: mode == DecodeMode.strict);
    final name = _readEnvelopeString(buffer, 'the method name', nullable: false)!;
    final arguments = readValue(buffer);
    _expectEnd(buffer);
    return MethodCallValue(name, arguments);
  }

  Uint8List encodeMethodCall(MethodCallValue call) {
    final buffer = SmcWriteBuffer();
    _writeString(buffer, call.name);
    writeValue(buffer, call.arguments);
    return buffer.toBytes();
  }

  /// Envelope entry point (spec §11): flag 00 + result, or flag 01 + code, message,
  /// details and an optional stacktrace.
  EnvelopeValue decodeEnvelope(Uint8List input, {DecodeMode mode = DecodeMode.flutter}) {
    final buffer = SmcReadBuffer(input, strict: mode == DecodeMode.strict);
    final flag = buffer.getUint8('the envelope flag');
    if (flag == 0) {
      final result = readValue(buffer);
      _expectEnd(buffer);
      return SuccessEnvelope(result);
    }
    if (flag != 1) {
      throw SmcCodecException(ErrorClass.badEnvelope, 0,
          'envelope flag is 0x${flag.toRadixString(16)}, not 0x00 or 0x01');
    }
    final code = _readEnvelopeString(buffer, 'the error code', nullable: false)!;
    final message = _readEnvelopeString(buffer, 'the error message', nullable: true);
    final details = readValue(buffer);
    if (!buffer.hasRemaining) return ErrorEnvelope(code, message, details);
    // Spec §11.3: bytes after the details are the optional 4th element.
    final stacktrace = _readEnvelopeString(buffer, 'the stacktrace', nullable: true);
    _expectEnd(buffer);
    return ErrorEnvelope(code, message, details,
        hasStacktrace: true, stacktrace: stacktrace);
  }

  Uint8List encodeEnvelope(EnvelopeValue envelope) {
    final buffer = SmcWriteBuffer();
    if (envelope is SuccessEnvelope) {
      buffer.putUint8(0);
      writeValue(buffer, envelope.result);
    } else if (envelope is ErrorEnvelope) {
      buffer.putUint8(1);
      _writeString(buffer, envelope.code);
      _writeNullableString(buffer, envelope.message);
      writeValue(buffer, envelope.details);
      if (envelope.hasStacktrace) _writeNullableString(buffer, envelope.stacktrace);
    } else {
      throw ArgumentError.value(envelope, 'envelope', 'not a SuccessEnvelope or ErrorEnvelope');
    }
    return buffer.toBytes();
  }

  // ---------------------------------------------------------------- reading

  /// Reads one value: the tag, then the checks of errors.md §14.2 step 1 in order
  /// (truncated, depth_limit, unknown_tag), then the payload via [readValueOfType].
  ///
  /// Not meant to be overridden: the depth bookkeeping lives here so a subclass that
  /// overrides only [readValueOfType] keeps the limit.
  SmcValue readValue(SmcReadBuffer buffer) {
    final tagOffset = buffer.position;
    final tag = buffer.getUint8('a value tag');
    final isContainer = tag == tagList || tag == tagMap || tag >= firstCustomTag;
    if (!isContainer) return readValueOfType(tag, buffer);
    if (buffer.depth >= maxDepth) {
      throw SmcCodecException(ErrorClass.depthLimit, tagOffset,
          'container would be at nesting level ${buffer.depth + 1}, limit $maxDepth');
    }
    buffer.depth++;
    try {
      return readValueOfType(tag, buffer);
    } finally {
      buffer.depth--;
    }
  }

  /// Reads the payload of a value whose tag [type] was just consumed (so the tag is at
  /// `buffer.position - 1`). Override to decode custom tags; call super for the rest.
  SmcValue readValueOfType(int type, SmcReadBuffer buffer) {
    final tagOffset = buffer.position - 1;
    switch (type) {
      case tagNull:
        return const NullValue();
      case tagTrue:
        return const BoolValue(true);
      case tagFalse:
        return const BoolValue(false);
      case tagInt32:
        return Int32Value(buffer.getInt32('an int32'));
      case tagInt64:
        return Int64Value(buffer.getInt64('an int64'));
      case tagLargeInt:
        if (buffer.strict) {
          throw SmcCodecException(ErrorClass.unknownTag, tagOffset,
              'largeInt (tag 0x05) is not accepted in strict mode (spec §4.4)');
        }
        return LargeIntValue(_readUtf8Payload(buffer, 'a largeInt'));
      case tagFloat64:
        buffer.skipPadding(8);
        return Float64Value(buffer.getInt64('a float64'));
      case tagString:
        return StringValue(_readUtf8Payload(buffer, 'a string'));
      case tagUint8List:
        final count = readSize(buffer);
        return Uint8ListValue(buffer.takeBytes(count, 'a Uint8List'));
      case tagInt32List:
        final count = _readTypedListHeader(buffer, 4, 'an Int32List');
        return Int32ListValue(
            [for (var i = 0; i < count; i++) buffer.getInt32('an Int32List')]);
      case tagInt64List:
        final count = _readTypedListHeader(buffer, 8, 'an Int64List');
        return Int64ListValue(
            [for (var i = 0; i < count; i++) buffer.getInt64('an Int64List')]);
      case tagFloat64List:
        final count = _readTypedListHeader(buffer, 8, 'a Float64List');
        return Float64ListValue(
            [for (var i = 0; i < count; i++) buffer.getInt64('a Float64List')]);
      case tagFloat32List:
        final count = _readTypedListHeader(buffer, 4, 'a Float32List');
        return Float32ListValue(
            [for (var i = 0; i < count; i++) buffer.getUint32('a Float32List')]);
      case tagList:
        final count = readSize(buffer);
        // errors.md §14.3: every element is at least one tag byte.
        buffer.require(count, 'a List of $count elements');
        return ListValue([for (var i = 0; i < count; i++) readValue(buffer)]);
      case tagMap:
        final count = readSize(buffer);
        // errors.md §14.3: every entry is at least two tag bytes.
        buffer.require(2 * count, 'a Map of $count entries');
        final entries = <MapEntry<SmcValue, SmcValue>>[];
        for (var i = 0; i < count; i++) {
          final key = readValue(buffer);
          entries.add(MapEntry(key, readValue(buffer)));
        }
        return MapValue(entries);
    }
    if (type >= firstCustomTag && customTypes) {
      return CustomValue(type, readValue(buffer));
    }
    throw SmcCodecException(ErrorClass.unknownTag, tagOffset,
        'tag 0x${type.toRadixString(16).padLeft(2, '0')} is not a known type');
  }

  /// Reads a size field (spec §2.2, errors.md §14.2 step 2).
  int readSize(SmcReadBuffer buffer) {
    final escapeOffset = buffer.position;
    final first = buffer.getUint8('a size');
    if (first < 254) return first;
    final int size;
    final int shortestLongForm;
    if (first == 254) {
      size = buffer.getUint16('a 2-byte size');
      shortestLongForm = 254;
    } else {
      size = buffer.getUint32('a 4-byte size');
      shortestLongForm = 0x10000;
    }
    if (buffer.strict && size < shortestLongForm) {
      throw SmcCodecException(ErrorClass.notCanonical, escapeOffset,
          'size $size written in a longer form than needed');
    }
    return size;
  }

  /// Count, then the size check of errors.md §14.3 (padding + count * width, before
  /// anything is allocated), then the padding itself (step 4).
  int _readTypedListHeader(SmcReadBuffer buffer, int width, String what) {
    final count = readSize(buffer);
    // count <= 2^32-1, so count * 8 < 2^35: exact in a Dart int on every platform.
    buffer.require(buffer.paddingFor(width) + count * width, '$what of $count elements');
    buffer.skipPadding(width);
    return count;
  }

  String _readUtf8Payload(SmcReadBuffer buffer, String what) {
    final size = readSize(buffer);
    buffer.require(size, what);
    final start = buffer.position;
    final bad = firstIllFormedUtf8(buffer.bytes, start, start + size);
    if (bad >= 0) {
      throw SmcCodecException(ErrorClass.badUtf8, bad,
          '$what is not well-formed UTF-8 (byte 0x${buffer.bytes[bad].toRadixString(16)})');
    }
    buffer.position += size;
    return decodeWellFormedUtf8(buffer.bytes, start, start + size);
  }

  /// Envelope and call elements of fixed type: the tag is checked before the element is
  /// decoded (errors.md §14.2), so a wrong tag is `bad_envelope`, never `unknown_tag`.
  String? _readEnvelopeString(SmcReadBuffer buffer, String what,
      {required bool nullable}) {
    final tagOffset = buffer.position;
    final tag = buffer.getUint8(what);
    if (tag == tagString) return _readUtf8Payload(buffer, what);
    if (tag == tagNull && nullable) return null;
    throw SmcCodecException(ErrorClass.badEnvelope, tagOffset,
        '$what has tag 0x${tag.toRadixString(16).padLeft(2, '0')}, '
        'expected ${nullable ? '0x00 or 0x07' : '0x07'}');
  }

  void _expectEnd(SmcReadBuffer buffer) {
    if (buffer.hasRemaining) {
      throw SmcCodecException(ErrorClass.trailingBytes, buffer.position,
          '${buffer.remaining} byte(s) after the complete item');
    }
  }

  // ---------------------------------------------------------------- writing

  /// Writes one value in canonical form (spec §13). Override to write custom types;
  /// call super for the rest.
  void writeValue(SmcWriteBuffer buffer, SmcValue value) {
    if (value is CustomValue) {
      _writeCustom(buffer, value);
      return;
    }
    final tag = value.tag;
    switch (tag) {
      case tagNull:
      case tagTrue:
      case tagFalse:
        buffer.putUint8(tag);
        return;
      case tagInt32:
        final number = (value as Int32Value).value;
        if (number < -0x80000000 || number > 0x7fffffff) {
          throw SmcCodecException(ErrorClass.notEncodable, null,
              'Int32Value($number) is outside the int32 range');
        }
        buffer.putUint8(tagInt32);
        buffer.putInt32(number);
        return;
      case tagInt64:
        buffer.putUint8(tagInt64);
        buffer.putInt64((value as Int64Value).value);
        return;
      case tagLargeInt:
        throw const SmcCodecException(ErrorClass.notEncodable, null,
            'largeInt (tag 0x05) is never written (spec §4.4)');
      case tagFloat64:
        buffer.putUint8(tagFloat64);
        buffer.padTo(8);
        buffer.putInt64((value as Float64Value).bits);
        return;
      case tagString:
        _writeString(buffer, (value as StringValue).value);
        return;
      case tagUint8List:
        final bytes = (value as Uint8ListValue).bytes;
        buffer.putUint8(tagUint8List);
        writeSize(buffer, bytes.length);
        buffer.putBytes(bytes);
        return;
      case tagInt32List:
        final elements = (value as Int32ListValue).values;
        _writeTypedListHeader(buffer, tagInt32List, elements.length, 4);
        for (final element in elements) {
          buffer.putInt32(element);
        }
        return;
      case tagInt64List:
        final elements = (value as Int64ListValue).values;
        _writeTypedListHeader(buffer, tagInt64List, elements.length, 8);
        for (final element in elements) {
          buffer.putInt64(element);
        }
        return;
      case tagFloat64List:
        final elements = (value as Float64ListValue).bits;
        _writeTypedListHeader(buffer, tagFloat64List, elements.length, 8);
        for (final element in elements) {
          buffer.putInt64(element);
        }
        return;
      case tagFloat32List:
        final elements = (value as Float32ListValue).bits;
        _writeTypedListHeader(buffer, tagFloat32List, elements.length, 4);
        for (final element in elements) {
          buffer.putUint32(element);
        }
        return;
      case tagList:
        final elements = (value as ListValue).elements;
        buffer.putUint8(tagList);
        writeSize(buffer, elements.length);
        for (final element in elements) {
          writeValue(buffer, element);
        }
        return;
      case tagMap:
        final entries = (value as MapValue).entries;
        buffer.putUint8(tagMap);
        writeSize(buffer, entries.length);
        for (final entry in entries) {
          writeValue(buffer, entry.key);
          writeValue(buffer, entry.value);
        }
        return;
    }
    throw SmcCodecException(ErrorClass.notEncodable, null,
        '${value.runtimeType} with tag $tag is not a value this codec writes');
  }

  void _writeCustom(SmcWriteBuffer buffer, CustomValue value) {
    if (value.tag < firstCustomTag || value.tag > 0xff) {
      throw SmcCodecException(ErrorClass.notEncodable, null,
          'custom tag ${value.tag} is outside 128..255');
    }
    buffer.putUint8(value.tag);
    writeValue(buffer, value.value);
  }

  /// Shortest size form (spec §2.2).
  void writeSize(SmcWriteBuffer buffer, int size) {
    if (size < 0 || size > 0xffffffff) {
      throw SmcCodecException(
          ErrorClass.notEncodable, null, 'size $size does not fit in 32 bits');
    }
    if (size < 254) {
      buffer.putUint8(size);
    } else if (size <= 0xffff) {
      buffer.putUint8(254);
      buffer.putUint16(size);
    } else {
      buffer.putUint8(255);
      buffer.putUint32(size);
    }
  }

  void _writeTypedListHeader(SmcWriteBuffer buffer, int tag, int count, int width) {
    buffer.putUint8(tag);
    writeSize(buffer, count);
    buffer.padTo(width); // also when count == 0 (spec §6.6)
  }

  void _writeString(SmcWriteBuffer buffer, String text) {
    final bytes = encodeUtf8Strict(text);
    if (bytes == null) {
      throw const SmcCodecException(ErrorClass.notEncodable, null,
          'string contains a lone surrogate, which has no UTF-8 form (spec §5.3)');
    }
    buffer.putUint8(tagString);
    writeSize(buffer, bytes.length);
    buffer.putBytes(bytes);
  }

  void _writeNullableString(SmcWriteBuffer buffer, String? text) {
    if (text == null) {
      buffer.putUint8(tagNull);
    } else {
      _writeString(buffer, text);
    }
  }
}
