// The value model of the pure codec: one Dart class per wire type.
//
// It is closer to the wire than Flutter's host values on purpose:
// * `Int32Value` and `Int64Value` stay distinct after decode, and choosing one on encode
//   picks the tag, so the runner can express `int64-distinct` (spec §4.2).
// * Floats are kept as raw IEEE-754 bits so NaN payloads and -0.0 survive (spec §4.3).
// * Maps are ordered lists of pairs and keep duplicates (spec §7.2, §7.3).
//
// Every value carries its wire [SmcValue.tag], so the codec and the converters dispatch
// with one `switch` on an int (Dart 2.16 has no sealed classes to switch over). The
// classes are meant to be used as they are; `CustomValue` is the one class meant to be
// extended, so a Pigeon-style codec subclass can return its own types for tags 128..255
// (spec §8).

import 'dart:typed_data';

/// Wire tags (spec §4..§8).
abstract class SmcTag {
  static const int nullValue = 0x00;
  static const int trueValue = 0x01;
  static const int falseValue = 0x02;
  static const int int32 = 0x03;
  static const int int64 = 0x04;
  static const int largeInt = 0x05;
  static const int float64 = 0x06;
  static const int string = 0x07;
  static const int uint8List = 0x08;
  static const int int32List = 0x09;
  static const int int64List = 0x0a;
  static const int float64List = 0x0b;
  static const int list = 0x0c;
  static const int map = 0x0d;
  static const int float32List = 0x0e;
  static const int firstCustom = 0x80;
}

abstract class SmcValue {
  const SmcValue(this.tag);

  /// The tag this value is written with; for [BoolValue] the one of its value.
  final int tag;
}

class NullValue extends SmcValue {
  const NullValue() : super(SmcTag.nullValue);
}

class BoolValue extends SmcValue {
  const BoolValue(this.value)
      : super(value ? SmcTag.trueValue : SmcTag.falseValue);
  final bool value;
}

/// Tag 0x03. [value] must lie in [-2^31, 2^31-1]; the writer checks.
class Int32Value extends SmcValue {
  const Int32Value(this.value) : super(SmcTag.int32);
  final int value;
}

/// Tag 0x04, whatever the magnitude: `Int64Value(5)` is written as `04 05 00 .. 00`.
class Int64Value extends SmcValue {
  const Int64Value(this.value) : super(SmcTag.int64);
  final int value;
}

/// Tag 0x05 (spec §4.4): decode-only, kept as the payload text after the UTF-8 check.
class LargeIntValue extends SmcValue {
  const LargeIntValue(this.text) : super(SmcTag.largeInt);
  final String text;
}

/// Tag 0x06. [bits] is the binary64 bit pattern as a signed 64-bit Dart int.
class Float64Value extends SmcValue {
  const Float64Value(this.bits) : super(SmcTag.float64);
  final int bits;
}

class StringValue extends SmcValue {
  const StringValue(this.value) : super(SmcTag.string);
  final String value;
}

class Uint8ListValue extends SmcValue {
  const Uint8ListValue(this.bytes) : super(SmcTag.uint8List);
  final Uint8List bytes;
}

class Int32ListValue extends SmcValue {
  const Int32ListValue(this.values) : super(SmcTag.int32List);
  final List<int> values;
}

class Int64ListValue extends SmcValue {
  const Int64ListValue(this.values) : super(SmcTag.int64List);
  final List<int> values;
}

/// Tag 0x0b; each element is a binary64 bit pattern (signed 64-bit int).
class Float64ListValue extends SmcValue {
  const Float64ListValue(this.bits) : super(SmcTag.float64List);
  final List<int> bits;
}

/// Tag 0x0e; each element is a binary32 bit pattern in [0, 2^32-1].
class Float32ListValue extends SmcValue {
  const Float32ListValue(this.bits) : super(SmcTag.float32List);
  final List<int> bits;
}

class ListValue extends SmcValue {
  const ListValue(this.elements) : super(SmcTag.list);
  final List<SmcValue> elements;
}

/// Tag 0x0d: entries in wire order, duplicates kept (spec §7.2, §7.3).
class MapValue extends SmcValue {
  const MapValue(this.entries) : super(SmcTag.map);
  final List<MapEntry<SmcValue, SmcValue>> entries;
}

/// A tag in 128..255 followed by exactly one nested value (spec §8.1).
///
/// Not final: a Pigeon-style codec may subclass it (e.g. `class Point extends
/// CustomValue`) and return the subclass from `readValueOfType`; the default writer
/// still writes [tag] and [value].
class CustomValue extends SmcValue {
  const CustomValue(int tag, this.value) : super(tag);
  final SmcValue value;
}

/// A decoded or to-be-encoded method call (spec §10).
class MethodCallValue {
  const MethodCallValue(this.name, this.arguments);
  final String name;
  final SmcValue arguments;
}

/// A decoded or to-be-encoded result envelope (spec §11).
abstract class EnvelopeValue {
  const EnvelopeValue();
}

class SuccessEnvelope extends EnvelopeValue {
  const SuccessEnvelope(this.result);
  final SmcValue result;
}

/// An error envelope. [hasStacktrace] tells the 3-element form from a 4-element form
/// whose stacktrace is null (spec §11.3, notation §N.2): they are different bytes.
class ErrorEnvelope extends EnvelopeValue {
  const ErrorEnvelope(this.code, this.message, this.details,
      {this.hasStacktrace = false, this.stacktrace});
  final String code;
  final String? message;
  final SmcValue details;
  final bool hasStacktrace;
  final String? stacktrace;
}
