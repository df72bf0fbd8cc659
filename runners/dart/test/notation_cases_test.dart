// The shared notation cases (spec/notation-cases.json) read by the runner's notation reader
// (jsonDecode + valueFromNotation / callFromNotation / envelopeFromNotation): every text
// reads and writes back (jsonEncode of the notation) as its `canonical` text, or is
// rejected with a FormatException or NotationException (anything else fails the case).
// The reader reports no offsets, so only the rejection is checked; the C suite checks the
// offsets of the same cases. Cases that need the decode-only `strbytes` form are left out
// and counted: a runner never receives it (runners/PROTOCOL.md P.2).
//
// Run from runners/dart (`dart test/notation_cases_test.dart` or `dart test`);
// SMC_NOTATION_CASES overrides the file.

import 'dart:convert';
import 'dart:io';

import 'package:smc_dart_runner/smc_runner.dart';

import 'check.dart';

/// The canonical text of [text] read as notation of [entry].
String readAndWrite(String text, String entry) {
  final Object? json = jsonDecode(text);
  switch (entry) {
    case 'message':
      return jsonEncode(valueToNotation(valueFromNotation(json)));
    case 'call':
      return jsonEncode(callToNotation(callFromNotation(json)));
    case 'envelope':
      return jsonEncode(envelopeToNotation(envelopeFromNotation(json)));
  }
  throw ArgumentError('unknown entry $entry');
}

void main() => runTests(() {
      final file = File(Platform.environment['SMC_NOTATION_CASES'] ??
          '${Directory.current.path}/../../spec/notation-cases.json');
      final cases = ((jsonDecode(file.readAsStringSync()) as Map<String, Object?>)['cases']
              as List<Object?>)
          .cast<Map<String, Object?>>();
      var leftOut = 0;

      test('the file holds the cases', () {
        expectTrue(cases.length > 100, 'over 100 cases in ${file.path}');
      });
      group('notation case', () {
        for (final c in cases) {
          final needs = (c['needs'] as List<Object?>?) ?? const [];
          if (needs.contains('strbytes')) {
            leftOut++;
            continue;
          }
          final text = c['text'] as String, entry = c['entry'] as String;
          final canonical = c['canonical'] as String?;
          test('${c['id']} $text', () {
            if (canonical != null) {
              expectEqual(readAndWrite(text, entry), canonical);
            } else {
              expectThrows<Exception>(() => readAndWrite(text, entry),
                  where: (e) => e is FormatException || e is NotationException,
                  what: 'a FormatException or NotationException');
            }
          });
        }
      });
      stdout.writeln('notation cases: $leftOut left out (strbytes: never sent to a runner)');
    });
