// Error classes of spec/errors.md §14.1 and the exception the pure codec throws.

enum ErrorClass {
  truncated('truncated'),
  trailingBytes('trailing_bytes'),
  unknownTag('unknown_tag'),
  badUtf8('bad_utf8'),
  depthLimit('depth_limit'),
  notCanonical('not_canonical'),
  badEnvelope('bad_envelope'),
  notEncodable('not_encodable'),
  badNotation('bad_notation');

  const ErrorClass(this.wire);

  /// The class name as the protocol and the vectors spell it.
  final String wire;
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
