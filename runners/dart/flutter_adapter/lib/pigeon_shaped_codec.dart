// A codec with the shape Pigeon generates for Dart (wire-format-notes §4.1, §4.3),
// written from those facts, for the pigeon-dart profile when no generated codec is
// plugged in:
// * every Dart int, at any depth, is written as int64 (tag 4), checked before anything
//   else, as Pigeon's generated writeValue does;
// * tags 128..255 carry one nested value; here they map to [CustomHostValue] instead of
//   generated classes, so any custom tag can be expressed.

import 'package:flutter/foundation.dart' show ReadBuffer, WriteBuffer;
import 'package:flutter/services.dart' show StandardMessageCodec;

import 'package:smc_dart_runner/smc_runner.dart' show CustomHostValue;

class PigeonShapedCodec extends StandardMessageCodec {
  const PigeonShapedCodec();

  static const int _int64Tag = 4;

  @override
  void writeValue(WriteBuffer buffer, Object? value) {
    if (value is int) {
      buffer.putUint8(_int64Tag);
      buffer.putInt64(value);
    } else if (value is CustomHostValue) {
      buffer.putUint8(value.tag);
      writeValue(buffer, value.payload);
    } else {
      super.writeValue(buffer, value);
    }
  }

  @override
  Object? readValueOfType(int type, ReadBuffer buffer) {
    if (type >= 128) return CustomHostValue(type, readValue(buffer));
    return super.readValueOfType(type, buffer);
  }
}
