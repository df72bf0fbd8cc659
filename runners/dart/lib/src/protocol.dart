// The runner side of runners/PROTOCOL.md (version 1), independent of the transport:
// one request object in, one response object out. bin/runner.dart connects it to
// stdin/stdout; the Flutter adapter connects it to a socket.
//
// Kept thin (P.6): parse the request, call the backend, format the answer. It never
// checks the codec's answers.

import 'dart:convert';
import 'dart:typed_data';

import 'backend.dart';
import 'notation.dart';
import 'profiles.dart';

class RunnerSession {
  RunnerSession(this.backend, this.profile);

  final CodecBackend backend;
  final Profile profile;

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
    return jsonEncode(handle(request));
  }

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
    }
    return _skipped(seqNumber, 'unknown op ${jsonEncode(request['op'])}');
  }

  Map<String, Object?> _hello(int seq) => {
        'seq': seq,
        'status': 'ok',
        'protocol': 1,
        'codec': backend.codecInfo,
        'entries': backend.entries,
        'capabilities': {'decode': profile.decode, 'encode': profile.encode},
        'options': profile.options,
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
        return {'seq': seq, 'status': 'ok', 'hex': hexOfBytes(encoded)};
      }
      final mode = request['mode'] ?? 'flutter';
      if (mode != 'flutter' && mode != 'strict') {
        return _skipped(seq, 'unknown mode ${jsonEncode(mode)}');
      }
      final bytes = _requestBytes(request);
      if (op == 'decode') {
        final decoded = backend.decode(entry, bytes, mode as String);
        return {'seq': seq, 'status': 'ok', 'value': decoded};
      }
      final result = backend.roundtrip(entry, bytes, mode as String);
      return {
        'seq': seq,
        'status': 'ok',
        'value': result.decoded,
        'hex': hexOfBytes(result.reencoded),
      };
    } on BackendFailure catch (failure) {
      return {
        'seq': seq,
        'status': 'error',
        'class': failure.errorClass,
        if (failure.offset != null) 'offset': failure.offset,
        'message': failure.message,
      };
    } on BackendSkip catch (skip) {
      return _skipped(seq, skip.reason);
    } on _BadRequest catch (bad) {
      return _skipped(seq, bad.reason);
    }
  }

  /// The request's bytes, placed `shift` bytes past the start of a fresh buffer (P.2).
  ///
  /// Dart has no addresses; the closest observable thing is a view's offsetInBytes in
  /// its ByteBuffer, which is what typed-data views check alignment against. A codec
  /// that aligns by position in the message is unaffected; one that aligns by
  /// `offsetInBytes + position` (or builds aligned views) is caught.
  Uint8List _requestBytes(Map<String, Object?> request) {
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
    if (shift == 0) return bytes;
    final backing = Uint8List(bytes.length + 8);
    backing.setRange(shift, shift + bytes.length, bytes);
    return Uint8List.view(backing.buffer, shift, bytes.length);
  }

  Map<String, Object?> _skipped(int seq, String reason) =>
      {'seq': seq, 'status': 'skipped', 'reason': reason};
}

class _BadRequest implements Exception {
  const _BadRequest(this.reason);
  final String reason;
}
