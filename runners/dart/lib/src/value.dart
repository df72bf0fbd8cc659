// The value model of the pure codec: one Dart class per wire type.
//
// It is closer to the wire than Flutter's host values on purpose:
// * `Int32Value` and `Int64Value` stay distinct after decode, and choosing one on encode
//   picks the tag, so the runner can express `int64-distinct` (spec §4.2).
// * Floats are kept as raw IEEE-754 bits so NaN payloads and -0.0 survive (spec §4.3).
// * Maps are ordered lists of pairs and keep duplicates (spec §7.2, §7.3).
//
// The model is sealed so converters can switch over it exhaustively; `CustomValue` is
// the one open class, so a Pigeon-style codec subclass can return its own types for
// tags 128..255 (spec §8).

import 'dart:typed_data';

sealed class SmcValue {
  const SmcValue();
}

final class NullValue extends SmcValue {
  const NullValue();
}

final class BoolValue extends SmcValue {
  const BoolValue(this.value);
  final bool value;
}

/// Tag 0x03. [value] must lie in [-2^31, 2^31-1]; the writer checks.
final class Int32Value extends SmcValue {
  const Int32Value(this.value);
  final int value;
}

/// Tag 0x04, whatever the magnitude: `Int64Value(5)` is written as `04 05 00 .. 00`.
final class Int64Value extends SmcValue {
  const Int64Value(this.value);
  final int value;
}

/// Tag 0x05 (spec §4.4): decode-only, kept as the payload text after the UTF-8 check.
final class LargeIntValue extends SmcValue {
  const LargeIntValue(this.text);
  final String text;
}

/// Tag 0x06. [bits] is the binary64 bit pattern as a signed 64-bit Dart int.
final class Float64Value extends SmcValue {
  const Float64Value(this.bits);
  final int bits;
}

final class StringValue extends SmcValue {
  const StringValue(this.value);
  final String value;
}

final class Uint8ListValue extends SmcValue {
  const Uint8ListValue(this.bytes);
  final Uint8List bytes;
}

final class Int32ListValue extends SmcValue {
  const Int32ListValue(this.values);
  final List<int> values;
}

final class Int64ListValue extends SmcValue {
  const Int64ListValue(this.values);
  final List<int> values;
}

/// Tag 0x0b; each element is a binary64 bit pattern (signed 64-bit int).
final class Float64ListValue extends SmcValue {
  const Float64ListValue(this.bits);
  final List<int> bits;
}

/// Tag 0x0e; each element is a binary32 bit pattern in [0, 2^32-1].
final class Float32ListValue extends SmcValue {
  const Float32ListValue(this.bits);
  final List<int> bits;
}

final class ListValue extends SmcValue {
  const ListValue(this.elements);
  final List<SmcValue> elements;
}

/// Tag 0x0d: entries in wire order, duplicates kept (spec §7.2, §7.3).
final class MapValue extends SmcValue {
  const MapValue(this.entries);
  final List<MapEntry<SmcValue, SmcValue>> entries;
}

/// A tag in 128..255 followed by exactly one nested value (spec §8.1).
///
/// Not final: a Pigeon-style codec may subclass it (e.g. `class Point extends
/// CustomValue`) and return the subclass from `readValueOfType`; the default writer
/// still writes [tag] and [value].
class CustomValue extends SmcValue {
  const CustomValue(this.tag, this.value);
  final int tag;
  final SmcValue value;
}

/// A decoded or to-be-encoded method call (spec §10).
final class MethodCallValue {
  const MethodCallValue(this.name, this.arguments);
  final String name;
  final SmcValue arguments;
}

/// A decoded or to-be-encoded result envelope (spec §11).
sealed class EnvelopeValue {
  const EnvelopeValue();
}

final class SuccessEnvelope extends EnvelopeValue {
  const SuccessEnvelope(this.result);
  final SmcValue result;
}

/// An error envelope. [hasStacktrace] tells the 3-element form from a 4-element form
/// whose stacktrace is null (spec §11.3, notation §N.2): they are different bytes.
final class ErrorEnvelope extends EnvelopeValue {
  const ErrorEnvelope(this.code, this.message, this.details,
      {this.hasStacktrace = false, this.stacktrace});
  final String code;
  final String? message;
  final SmcValue details;
  final bool hasStacktrace;
  final String? stacktrace;
}
