// Every golden vector (../../vectors/s*.json) against the pure codec, checked the way
// the judge checks a runner (runners/PROTOCOL.md P.5): decode, strict decode, accepted
// encodings, encode, round trip, and rejects with class and offset. The host-type vectors
// of spec §17 are message vectors for their bytes, and those of the vocabularies the
// runner speaks (dart, any) also go through its host layer (the pure profile's: Flutter's
// by-value int): the host value built and encoded, or decoded and named.
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
      const hosts = DartHostTypes(PigeonHostCodec.byValue());
      final notSpoken = <String>[];
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
            final host = vector['host'];
            if (vector['canonical'] == null &&
                host != null &&
                !hosts.vocabularies.contains(host)) {
              notSpoken.add(vector['id'] as String); // a refusal of another language's type
              continue;
            }
            test(vector['id'] as String, () {
              final report = checkVector(vector, backend, pureProfile);
              if (host != null && hosts.vocabularies.contains(host)) {
                _checkHost(vector, hosts, report);
              }
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
      if (notSpoken.isNotEmpty) {
        stdout.writeln('skipped ${notSpoken.length}: host values of vocabularies the runner '
            'does not speak that the spec refuses (no bytes to check): '
            '${notSpoken.take(4).join(', ')}, ...');
      }
    });

/// spec §17 through the runner's host layer: `host_encode` builds the host value and
/// expects the vector's bytes or a `not_encodable` refusal; `host_decode` (dart only)
/// expects the vector's host value, type names included.
void _checkHost(Map<String, Object?> vector, DartHostTypes hosts, VectorReport report) {
  final vocab = vector['host'] as String;
  final canonical = vector['canonical'] as String?;
  report.checks++;
  try {
    if (vector['kind'] == 'host_encode') {
      final bytes = guardCodec(() => hosts.encode(vocab, vector['host_value']));
      final got = bytes == null ? 'no bytes' : hexOfBytes(bytes);
      if (canonical == null) {
        report.failures.add('host encode: wrote $got, the spec refuses the value');
      } else if (got != canonical) {
        report.failures.add('host encode: got $got, expected $canonical');
      }
    } else if (vocab == hosts.platform) {
      final got = hosts.decode(bytesFromHex(canonical!));
      if (!jsonEquals(got, vector['host_value'])) {
        report.failures.add('host decode: got $got, expected ${vector['host_value']}');
      }
    } else {
      report.checks--; // `any` is encode only (spec §17.9)
    }
  } on BackendFailure catch (failure) {
    if (canonical != null || failure.errorClass != 'not_encodable') {
      report.failures.add('host ${vector['kind']}: rejected with $failure');
    }
  }
}
