// What the protocol core needs from a codec: decode bytes to notation, encode notation
// to bytes, and a host round trip. The pure codec and the Flutter adapter implement it.

import 'dart:typed_data';

/// The codec rejected the input (decode) or the value (encode).
class BackendFailure implements Exception {
  const BackendFailure(this.errorClass, this.offset, this.message);

  /// An error class of spec/errors.md §14.1, as spelled on the wire.
  final String errorClass;
  final int? offset;
  final String message;

  @override
  String toString() => 'BackendFailure($errorClass at $offset: $message)';
}

/// The runner cannot run this request (an entry or mode it lacks, a value its host
/// types cannot hold). Reported as `skipped`, never as a pass.
class BackendSkip implements Exception {
  const BackendSkip(this.reason);
  final String reason;

  @override
  String toString() => 'BackendSkip($reason)';
}

/// Entries are `message`, `call`, `envelope`; modes `flutter`, `strict`.
/// Implemented, never extended: every member is abstract.
abstract class CodecBackend {
  /// `{"name": ..., "version": ..., "language": ...}` for the handshake.
  Map<String, String> get codecInfo;

  List<String> get entries;

  /// Returns the decoded item in notation (a value, a `call` or an envelope form).
  Object decode(String entry, Uint8List bytes, String mode);

  Uint8List encode(String entry, Object? notation);

  /// Decodes, then encodes the decoded host value again with the same codec.
  RoundTrip roundtrip(String entry, Uint8List bytes, String mode);
}

/// What [CodecBackend.roundtrip] returns: the decoded item in notation and the bytes
/// the codec wrote for it again.
class RoundTrip {
  const RoundTrip(this.decoded, this.reencoded);
  final Object decoded;
  final Uint8List reencoded;
}
