// What the protocol core needs from a codec (runners/PROTOCOL.md, version 2): decode
// bytes into the codec's own host value, convert that to notation, encode it again, and
// encode notation. The pure codec, the Pigeon host layer and the Flutter adapter
// implement it.

import 'dart:typed_data';

import 'summary.dart';

/// The codec rejected the input (decode) or refused the value (encode) in the way it
/// documents (P.6). Anything else a codec throws is an unclassified rejection (P.3
/// `rejected`: Flutter's channel plumbing catches it and goes on).
class BackendFailure implements Exception {
  const BackendFailure(this.errorClass, this.offset, this.message);

  /// An error class of spec/errors.md §14.1, as spelled on the wire; null when the
  /// codec's errors carry none (a profile without the `error-classes` option).
  final String? errorClass;
  final int? offset;
  final String message;

  @override
  String toString() => 'BackendFailure($errorClass at $offset: $message)';
}

/// An unclassified rejection (P.3 `rejected`): the codec failed with something other than
/// its documented rejection, which the platform's own channel plumbing catches and
/// survives (spec §1.4). [kind] is the host's name for it, the exception's type.
class BackendRejected implements Exception {
  const BackendRejected(this.kind, this.message);
  final String kind;
  final String message;

  @override
  String toString() => 'BackendRejected($kind: $message)';
}

/// The runner cannot run this request (an entry or mode it lacks, a value its host
/// types cannot hold). Reported as `skipped`, never as a pass.
class BackendSkip implements Exception {
  const BackendSkip(this.reason);
  final String reason;

  @override
  String toString() => 'BackendSkip($reason)';
}

/// The codec read the input as "not implemented" (P.3 `not_implemented`; GLib's reading
/// of an empty envelope). Neither a value nor an error class.
class BackendNotImplemented implements Exception {
  const BackendNotImplemented(this.message);
  final String message;

  @override
  String toString() => 'BackendNotImplemented($message)';
}

/// Entries are `message`, `call`, `envelope`; modes `flutter`, `strict`.
/// Implemented, never extended: every member is abstract.
abstract class CodecBackend {
  /// `{"name": ..., "version": ..., "language": ...}` for the handshake.
  Map<String, String> get codecInfo;

  List<String> get entries;

  /// Decodes [bytes] with the codec. The result holds the codec's own decoded host
  /// value: the session overwrites [bytes] (P.2, the ownership check) before it asks
  /// the result for its notation or its re-encoding, so a codec whose values are views
  /// into [bytes] shows other values.
  DecodedItem decode(String entry, Uint8List bytes, String mode);

  /// Encodes the item in notation; null when the codec wrote no message at all (a
  /// top-level null in Flutter's codec), which is not an empty byte string.
  Uint8List? encode(String entry, Object? notation);
}

/// One decoded item (a message's value, a method call or an envelope) as the codec
/// returned it.
abstract class DecodedItem {
  /// The depth, value count and bytes of the item's value (P.3 `summary`), measured
  /// without recursion so a value of any depth can be answered.
  ValueSummary summary();

  /// The item in notation (a value, a `call` or an envelope form). Called only when
  /// [summary] shows a value shallow enough to print.
  Object toNotation();

  /// The same host value encoded again with the same codec (a round trip); null for no
  /// bytes.
  Uint8List? reencode();
}

/// A codec that writes Dart host objects as a message and reads a message into them, for
/// the host-type requests of spec §17 ([DartHostTypes]). Its documented refusal is a
/// [BackendFailure] (`not_encodable` for a value it cannot write); `null` from
/// [encodeMessage] means no bytes (Flutter's encodeMessage(null), D24).
abstract class HostMessageCodec {
  Uint8List? encodeMessage(Object? value);
  Object? decodeMessage(Uint8List bytes);
}
