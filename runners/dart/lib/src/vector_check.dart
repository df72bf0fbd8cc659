// Checks one golden vector (spec/vectors.md) against a CodecBackend the way the judge
// does (runners/PROTOCOL.md P.5), so the package tests can run every vector file
// without the judge. Shared by test/vectors_test.dart and the Flutter adapter.
//
// No dart:io here: callers load the files.

import 'backend.dart';
import 'notation.dart';
import 'profiles.dart';

/// The entry point for a vector's `kind` (V.2).
String entryForKind(String kind) {
  switch (kind) {
    case 'message':
    case 'pigeon_request':
    case 'pigeon_reply':
      return 'message';
    case 'method_call':
      return 'call';
    case 'success_envelope':
    case 'error_envelope':
    case 'envelope':
      return 'envelope';
    case 'host_encode':
    case 'host_decode':
      // spec §17: the bytes of a host-type vector are a message vector of their own; its
      // host value is for a host layer to build or report (test/vectors_test.dart).
      return 'message';
  }
  throw ArgumentError.value(kind, 'kind', 'unknown vector kind');
}

class VectorReport {
  final List<String> failures = [];
  final List<String> notRun = [];
  int checks = 0;

  bool get passed => failures.isEmpty;
}

/// Runs every check of P.5 that [profile] makes applicable to [vector].
VectorReport checkVector(
    Map<String, Object?> vector, CodecBackend backend, Profile profile) {
  final report = VectorReport();
  final entry = entryForKind(vector['kind'] as String);
  final features = (vector['features'] as List<Object?>).cast<String>();
  final missingDecode = features.where((f) => !profile.decode.contains(f)).toList();
  final missingEncode = features.where((f) => !profile.encode.contains(f)).toList();
  final hasStrict = profile.decode.contains('strict-mode');
  final hasOffsets = profile.options.contains('error-offsets');

  void expectValue(String what, String hex, String mode, Object? expected) {
    report.checks++;
    try {
      final got = backend.decode(entry, bytesFromHex(hex), mode).toNotation();
      if (!jsonEquals(got, expected)) {
        report.failures.add('$what: decoded ${_json(got)}, expected ${_json(expected)}');
      }
    } on BackendFailure catch (failure) {
      report.failures.add('$what: rejected with $failure, expected ${_json(expected)}');
    } on BackendSkip catch (skip) {
      report.checks--;
      report.notRun.add('$what: ${skip.reason}');
    }
  }

  void expectError(String what, String hex, String mode, String errorClass, int? offset) {
    report.checks++;
    try {
      final got = backend.decode(entry, bytesFromHex(hex), mode).toNotation();
      report.failures.add('$what: decoded ${_json(got)}, expected $errorClass');
    } on BackendFailure catch (failure) {
      final offsetWrong = hasOffsets && offset != null && failure.offset != offset;
      if (failure.errorClass != errorClass || offsetWrong) {
        report.failures.add('$what: got ${failure.errorClass} at ${failure.offset}, '
            'expected $errorClass at $offset (${failure.message})');
      }
    } on BackendSkip catch (skip) {
      report.checks--;
      report.notRun.add('$what: ${skip.reason}');
    }
  }

  final value = vector['value'];
  final canonical = vector['canonical'] as String?;
  final error = vector['error'] as Map<String, Object?>?;

  if (canonical != null) {
    if (missingDecode.isEmpty) {
      expectValue('decode canonical', canonical, 'flutter', value);
      if (hasStrict) expectValue('strict decode canonical', canonical, 'strict', value);
      final accepted = (vector['accepted'] as List<Object?>?) ?? const [];
      for (final alternative in accepted.cast<Map<String, Object?>>()) {
        final hex = alternative['hex'] as String;
        expectValue('decode accepted $hex', hex, 'flutter', value);
        if (!hasStrict) continue;
        final strictClass = alternative['strict'] as String?;
        if (strictClass == null) {
          expectValue('strict decode accepted $hex', hex, 'strict', value);
        } else {
          // `accepted` gives no offset for the strict error, so only the class counts.
          expectError('strict decode accepted $hex', hex, 'strict', strictClass, null);
        }
      }
    } else {
      report.notRun.add('decode: lacks ${missingDecode.join(', ')}');
    }
    if (missingEncode.isEmpty) {
      report.checks++;
      try {
        final encoded = backend.encode(entry, value);
        final got = encoded == null ? '(no bytes)' : hexOfBytes(encoded);
        if (got != canonical) report.failures.add('encode: got $got, expected $canonical');
      } on BackendFailure catch (failure) {
        report.failures.add('encode: rejected with $failure');
      } on BackendSkip catch (skip) {
        report.checks--;
        report.notRun.add('encode: ${skip.reason}');
      }
    } else {
      report.notRun.add('encode: lacks ${missingEncode.join(', ')}');
    }
    if (missingDecode.isEmpty && missingEncode.isEmpty) {
      report.checks++;
      try {
        // P.2: the codec's own decoded host value is encoded again.
        final decoded = backend.decode(entry, bytesFromHex(canonical), 'flutter');
        final notation = decoded.toNotation();
        final again = decoded.reencode();
        final hex = again == null ? '(no bytes)' : hexOfBytes(again);
        if (!jsonEquals(notation, value) || hex != canonical) {
          report.failures.add('roundtrip: got ${_json(notation)} / $hex');
        }
      } on BackendFailure catch (failure) {
        report.failures.add('roundtrip: rejected with $failure');
      } on BackendSkip catch (skip) {
        report.checks--;
        report.notRun.add('roundtrip: ${skip.reason}');
      }
    }
  } else if (error != null && vector['hex'] == null) {
    // A host value the spec refuses (spec §17): no bytes, nothing for a codec backend.
    report.notRun.add('host value refused (not_encodable): no bytes to decode or encode');
  } else if (error != null) {
    if (missingDecode.isNotEmpty) {
      report.notRun.add('decode: lacks ${missingDecode.join(', ')}');
      return report;
    }
    final hex = vector['hex'] as String;
    final errorClass = error['class'] as String;
    final offset = error['offset'] as int?;
    final modes = (error['modes'] as List<Object?>).cast<String>();
    for (final mode in modes) {
      if (mode == 'strict' && !hasStrict) {
        report.notRun.add('strict reject: no strict-mode');
        continue;
      }
      expectError('$mode reject', hex, mode, errorClass, offset);
    }
    // V.2: a strict-only reject decodes to `value` in the other mode.
    if (!modes.contains('flutter') && value != null) {
      expectValue('flutter decode of strict-only reject', hex, 'flutter', value);
    }
  }
  return report;
}

/// Structural JSON equality (notation §N.4): arrays in order, numbers by value.
bool jsonEquals(Object? a, Object? b) {
  if (a is List && b is List) {
    if (a.length != b.length) return false;
    for (var i = 0; i < a.length; i++) {
      if (!jsonEquals(a[i], b[i])) return false;
    }
    return true;
  }
  if (a is Map && b is Map) {
    if (a.length != b.length) return false;
    for (final key in a.keys) {
      if (!b.containsKey(key) || !jsonEquals(a[key], b[key])) return false;
    }
    return true;
  }
  return a == b;
}

String _json(Object? value) {
  final text = '$value';
  return text.length <= 200 ? text : '${text.substring(0, 197)}...';
}
