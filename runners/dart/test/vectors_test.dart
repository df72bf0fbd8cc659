// Every golden vector (../../vectors/s*.json) against the pure codec, checked the way
// the judge checks a runner (runners/PROTOCOL.md P.5): decode, strict decode, accepted
// encodings, encode, round trip, and rejects with class and offset.
//
// Run from runners/dart (`dart test/vectors_test.dart` or `dart test`);
// SMC_VECTORS_DIR overrides the directory.

import 'dart:convert';
import 'dart:io';

import 'package:smc_dart_runner/smc_runner.dart';

import 'check.dart';

void main() => runTests(() {
      final directory = Directory(Platform.environment['SMC_VECTORS_DIR'] ??
          '${Directory.current.path}/../../vectors');
      // sNN-<topic>.json only: schema.json and MANIFEST.json are not vector files.
      final vectorFile = RegExp(r'^s\d+.*\.json$');
      final files = directory.existsSync()
          ? (directory
              .listSync()
              .whereType<File>()
              .where((file) => vectorFile.hasMatch(file.uri.pathSegments.last))
              .toList()
            ..sort((a, b) => a.path.compareTo(b.path)))
          : <File>[];

      test('vector files are present', () {
        expectTrue(
            files.isNotEmpty,
            's*.json under ${directory.absolute.path} '
            '(generate them with vectors/gen/generate.py)');
      });

      final backend = PureBackend();
      for (final file in files) {
        final document = jsonDecode(file.readAsStringSync()) as Map<String, Object?>;
        group(file.uri.pathSegments.last, () {
          test('file header', () {
            expectEqual(document['suite'], 'smc-conformance');
            expectEqual(document['format_version'], 1);
          });
          final vectors =
              (document['vectors'] as List<Object?>).cast<Map<String, Object?>>();
          for (final vector in vectors) {
            test(vector['id'] as String, () {
              final report = checkVector(vector, backend, pureProfile);
              // The pure profile claims every feature word a vector can carry, so a
              // vector with nothing to check means a profile or checker bug.
              expectTrue(report.checks > 0,
                  'something to check for profile pure (not run: ${report.notRun.join('; ')})');
              expectEqual(report.failures, <String>[],
                  reason: '${vector['description']}');
            });
          }
        });
      }
    });
