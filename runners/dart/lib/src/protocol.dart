// The runner side of runners/PROTOCOL.md (version 2), independent of the transport:
// one request object in, one response object out. bin/runner.dart connects it to
// stdin/stdout; the Flutter adapter connects it to a socket.
//
// Kept thin (P.6): parse the request, place the input (P.2), call the backend, overwrite
// the input (the ownership check), format the answer. It never checks the codec's
// answers. What the codec throws besides its documented rejection ([BackendFailure])
// is an unclassified rejection, `rejected` (P.3, [unexpectedThrow]), never an error class.

import 'dart:convert';
import 'dart:typed_data';

import 'backend.dart';
import 'host_types.dart';
import 'notation.dart';
import 'profiles.dart';
import 'pure_backend.dart' show guardCodec;
import 'summary.dart';

/// Bytes after the input in a shifted placement (P.2): a decoder that reads past the
/// end of its view reads these zeros instead of failing.
const int guardBytes = 64;

class RunnerSession {
  RunnerSession(this.backend, this.profile, {this.placement = true, this.hosts});

  final CodecBackend backend;
  final Profile profile;

  /// The spec §17 host vocabularies the session speaks (P.1 `hosts`), or null for none.
  final DartHostTypes? hosts;

  /// Whether the session offers the `shift` option (P.1). A transport that copies the
  /// bytes before the codec sees them (a socket bridge) turns it off.
  final bool placement;

  /// Set once `bye` has been answered; the transport then stops reading.
  bool finished = false;

  /// Handles one request line and returns the response line (without the newline).
  String handleLine(String line) {
    Object? request;
    try {
      request = jsonDecode(line);
    } on FormatException catch (error) {
      return jsonEncode(_skipped(-1, 'request is not JSON: ${error.message}'));
    }
    if (request is! Map<String, Object?>) {
      return jsonEncode(_skipped(-1, 'request is not a JSON object'));
    }
    _lastSummary = null;
    final response = handle(request);
    final text = jsonEncode(response);
    final summary = _lastSummary;
    if (text.length > printableLineBytes && summary != null) {
      // P.3: too long for the judge's line limit; answer what the value holds instead.
      return jsonEncode({'seq': response['seq'], 'status': 'ok', 'summary': summary.toJson()});
    }
    return text;
  }

  /// The summary of the value the last decode request printed, for [handleLine].
  ValueSummary? _lastSummary;

  Map<String, Object?> handle(Map<String, Object?> request) {
    final seq = request['seq'];
    final seqNumber = seq is int ? seq : -1;
    switch (request['op']) {
      case 'hello':
        return _hello(seqNumber);
      case 'bye':
        finished = true;
        return {'seq': seqNumber, 'status': 'ok'};
      case 'decode':
      case 'encode':
      case 'roundtrip':
        return _codecRequest(seqNumber, request);
      case 'host_encode':
      case 'host_decode':
        return _hostRequest(seqNumber, request);
    }
    return _skipped(seqNumber, 'unknown op ${jsonEncode(request['op'])}');
  }

  Map<String, Object?> _hello(int seq) => {
        'seq': seq,
        'status': 'ok',
        'protocol': 2,
        'codec': backend.codecInfo,
        'entries': backend.entries,
        'capabilities': {'decode': profile.decode, 'encode': profile.encode},
        'options': [
          for (final option in profile.options)
            if (placement || option != 'shift') option
        ],
        if (hosts != null) 'hosts': hosts!.vocabularies,
        if (hosts != null && hosts!.statedWithout.isNotEmpty)
          'hosts_without': hosts!.statedWithout,
      };

  /// spec §17: a host value of exactly its type through the host codec, or the host type
  /// of every node the host codec decoded.
  Map<String, Object?> _hostRequest(int seq, Map<String, Object?> request) {
    final types = hosts;
    final vocab = request['host'];
    if (types == null || !types.vocabularies.contains(vocab)) {
      return _skipped(seq, 'host vocabulary ${jsonEncode(vocab)} is not spoken');
    }
    final absent = request['op'] == 'host_encode'
        ? types.statedAbsent(vocab as String, request['host_value'])
        : null;
    if (absent != null) {
      // P.1 hosts_without: the codec's API cannot be handed it; the judge says n/a
      return _skipped(seq, "the codec's API has no $absent (hosts_without)");
    }
    return _guarded(seq, () {
      if (request['op'] == 'host_encode') {
        final encoded = types.encode(vocab as String, request['host_value']);
        // No bytes (Flutter's encodeMessage(null), D24) is answered as such (P.3).
        return {'seq': seq, 'status': 'ok', 'hex': encoded == null ? null : hexOfBytes(encoded)};
      }
      if (vocab != types.platform) {
        throw BackendSkip('decodes into the ${types.platform} vocabulary only');
      }
      return {'seq': seq, 'status': 'ok', 'host_value': types.decode(_place(request).view)};
    });
  }

  /// [body] with the codec's documented rejection as `error` and anything else as
  /// [unexpectedThrow] (P.3, P.6), as for the other requests.
  Map<String, Object?> _guarded(int seq, Map<String, Object?> Function() body) {
    try {
      return guardCodec(body);
    } on BackendFailure catch (failure) {
      return _failed(seq, failure);
    } on BackendRejected catch (rejected) {
      return _rejected(seq, rejected);
    } on BackendSkip catch (skip) {
      return _skipped(seq, skip.reason);
    } on _BadRequest catch (bad) {
      return _skipped(seq, bad.reason);
    } on FormatException catch (bad) {
      return _skipped(seq, 'a literal this runner cannot read: ${bad.message}');
    } catch (error) {
      return unexpectedThrow(seq, error);
    }
  }

  /// An unclassified rejection (P.3 `rejected`), with the host's name for it.
  Map<String, Object?> _rejected(int seq, BackendRejected rejected) => {
        'seq': seq,
        'status': 'rejected',
        'kind': rejected.kind,
        'message': _excerpt(rejected.message),
      };

  /// The codec's documented rejection (P.3 `error`).
  static Map<String, Object?> _failed(int seq, BackendFailure failure) => {
        'seq': seq,
        'status': 'error',
        'class': failure.errorClass,
        if (failure.offset != null) 'offset': failure.offset,
        'message': failure.message,
      };

  Map<String, Object?> _codecRequest(int seq, Map<String, Object?> request) {
    final op = request['op'] as String;
    final entry = request['entry'];
    if (entry is! String || !backend.entries.contains(entry)) {
      return _skipped(seq, 'entry ${jsonEncode(entry)} is not implemented');
    }
    try {
      if (op == 'encode') {
        final encoded = backend.encode(entry, request['value']);
        return {'seq': seq, 'status': 'ok', 'hex': encoded == null ? null : hexOfBytes(encoded)};
      }
      final mode = request['mode'] ?? 'flutter';
      if (mode != 'flutter' && mode != 'strict') {
        return _skipped(seq, 'unknown mode ${jsonEncode(mode)}');
      }
      final placed = _place(request);
      final decoded = backend.decode(entry, placed.view, mode as String);
      if (!profile.options.contains('borrows-input')) placed.overwrite();
      final summary = decoded.summary();
      final Map<String, Object?> answer = {'seq': seq, 'status': 'ok'};
      if (summary.depth > printableDepth) {
        answer['summary'] = summary.toJson();
      } else {
        answer['value'] = decoded.toNotation();
        _lastSummary = summary;
      }
      if (op == 'roundtrip') {
        final again = decoded.reencode();
        answer['hex'] = again == null ? null : hexOfBytes(again);
      }
      return answer;
    } on BackendFailure catch (failure) {
      return _failed(seq, failure);
    } on BackendRejected catch (rejected) {
      return _rejected(seq, rejected);
    } on BackendNotImplemented catch (answer) {
      return {'seq': seq, 'status': 'not_implemented', 'message': answer.message};
    } on BackendSkip catch (skip) {
      return _skipped(seq, skip.reason);
    } on _BadRequest catch (bad) {
      return _skipped(seq, bad.reason);
    } catch (error) {
      // P.3, P.6: anything but the documented rejection (RangeError, TypeError,
      // StackOverflowError, ...). The session lives on.
      return unexpectedThrow(seq, error);
    }
  }

  /// The request's bytes, placed as P.2 says. Without `shift`: a buffer of exactly the
  /// input, so a read past its end fails. With `shift` K: a view of the input at offset
  /// K of a larger buffer followed by [guardBytes] zero bytes, so a codec that aligns by
  /// the view's offsetInBytes (Dart's closest thing to an address), or reads past the
  /// end of its view, decodes another value.
  _Placed _place(Map<String, Object?> request) {
    final hex = request['hex'];
    final Uint8List bytes;
    try {
      bytes = bytesFromHex(hex);
    } on NotationException {
      throw _BadRequest('request "hex" is not lower-case hex');
    }
    final shift = request['shift'] ?? 0;
    if (shift is! int || shift < 0 || shift > 7) {
      throw _BadRequest('shift ${jsonEncode(shift)} is not in 0..7');
    }
    if (shift == 0) return _Placed(bytes, bytes);
    final backing = Uint8List(shift + bytes.length + guardBytes);
    backing.setRange(shift, shift + bytes.length, bytes);
    return _Placed(backing, Uint8List.view(backing.buffer, shift, bytes.length));
  }

  Map<String, Object?> _skipped(int seq, String reason) =>
      {'seq': seq, 'status': 'skipped', 'reason': reason};
}

/// The answer to anything the codec throws that is not its documented rejection (P.3,
/// spec §1.4's Dart line): Flutter's binary messenger calls a channel's handler inside a
/// catch-all that reports the error (FlutterError.reportError) and goes on, and Dart lets a
/// StackOverflowError or OutOfMemoryError be caught like any other throw, so every one of
/// them is an unclassified rejection with its runtime type as the kind. A process that
/// dies is still a crash, which the judge sees for itself.
Map<String, Object?> unexpectedThrow(int seq, Object error) => {
      'seq': seq,
      'status': 'rejected',
      'kind': '${error.runtimeType}',
      'message': _excerpt('$error'),
    };

String _excerpt(String text) => text.length <= 500 ? text : '${text.substring(0, 500)}...';

/// Where the codec's input lies: [view] is what it gets, [backing] every byte around it.
class _Placed {
  _Placed(this.backing, this.view);
  final Uint8List backing;
  final Uint8List view;

  /// P.2 ownership: every byte handed to the codec, guard bytes included, complemented.
  void overwrite() {
    for (var i = 0; i < backing.length; i++) {
      backing[i] ^= 0xff;
    }
  }
}

class _BadRequest implements Exception {
  const _BadRequest(this.reason);
  final String reason;
}
