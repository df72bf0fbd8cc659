// Error classes of spec/errors.md §14.1 and the exception the pure codec throws.

/// An error class, as a class with one constant per class: enums with fields need
/// Dart 2.17, and the protocol needs the wire spelling.
class ErrorClass {
  const ErrorClass._(this.wire);

  /// The class name as the protocol and the vectors spell it.
  final String wire;

  static const ErrorClass truncated = ErrorClass._('truncated');
  static const ErrorClass trailingBytes = ErrorClass._('trailing_bytes');
  static const ErrorClass unknownTag = ErrorClass._('unknown_tag');
  static const ErrorClass badUtf8 = ErrorClass._('bad_utf8');
  static const ErrorClass depthLimit = ErrorClass._('depth_limit');
  static const ErrorClass notCanonical = ErrorClass._('not_canonical');
  static const ErrorClass badEnvelope = ErrorClass._('bad_envelope');
  static const ErrorClass notEncodable = ErrorClass._('not_encodable');
  static const ErrorClass badNotation = ErrorClass._('bad_notation');

  static const List<ErrorClass> values = [
    truncated,
    trailingBytes,
    unknownTag,
    badUtf8,
    depthLimit,
    notCanonical,
    badEnvelope,
    notEncodable,
    badNotation,
  ];

  @override
  String toString() => wire;
}

/// Thrown by the pure codec. [offset] is a byte offset into the input of the entry point
/// (spec §14), or null for encoder errors, which have none.
class SmcCodecException implements Exception {
  const SmcCodecException(this.errorClass, this.offset, this.message);

  final ErrorClass errorClass;
  final int? offset;
  final String message;

  @override
  String toString() => 'SmcCodecException(${errorClass.wire} at $offset: $message)';
}
