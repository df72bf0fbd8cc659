// The adapter against Flutter's codec on the VM. Expected bytes and behaviours are
// facts from wire-format-notes (§3.1 upstream literals, §2 and §4 code facts); the
// tests pin what the adapter reports, including where Flutter diverges from the spec.

import 'package:flutter_test/flutter_test.dart';
import 'package:smc_dart_runner/smc_runner.dart';
import 'package:smc_flutter_adapter/smc_flutter_adapter.dart';

void main() {
  final flutter = FlutterBackend.forProfile(flutterVmProfile);
  final pigeon = FlutterBackend.forProfile(pigeonDartProfile);

  String encode(FlutterBackend backend, String entry, Object? notation) {
    final bytes = backend.encode(entry, notation);
    return bytes == null ? '(no bytes)' : hexOfBytes(bytes);
  }

  Object decode(FlutterBackend backend, String entry, String hex) =>
      backend.decode(entry, bytesFromHex(hex), 'flutter').toNotation();

  test('float64 aligned to 8 (notes §3.1 "should align doubles to 8 bytes")', () {
    expect(encode(flutter, 'message', ['f64', '3ff0000000000000']),
        '0600000000000000000000000000f03f');
  });

  test('ints are written by value, smallest width (notes §2.2, §3.1)', () {
    expect(encode(flutter, 'message', ['i32', 0x7fffffff]), '03ffffff7f');
    expect(encode(flutter, 'message', ['i64', '2147483648']), '040000008000000000');
    expect(encode(flutter, 'message', ['i64', '5']), '0305000000');
  });

  test('tag 3 and tag 4 both decode to int: int64-distinct is lost (notes §2.2)', () {
    expect(decode(flutter, 'message', '040500000000000000'), ['i32', 5]);
    expect(decode(flutter, 'message', '0305000000'), ['i32', 5]);
  });

  test('typed-list float bits are read from the bytes, NaN payload included', () {
    // Float64List [NaN with payload 1] at offset 0: tag, count, 6 padding bytes, data.
    const message = '0b01000000000000' '010000000000f07f';
    expect(decode(flutter, 'message', message), [
      'f64s',
      ['7ff0000000000001']
    ]);
  });

  test('error envelope with a stacktrace is read (notes §3.1, §5.3)', () {
    expect(decode(flutter, 'envelope', '0107056572726f720704626f6f6d0007027374'),
        ['error', 'error', 'boom', ['null'], 'st']);
  });

  test('a top-level null encodes to no bytes (notes §2.7; spec §9.3 wants 00)', () {
    expect(encode(flutter, 'message', ['null']), '(no bytes)');
  });

  test('a FormatException is a rejection without a class; nothing is guessed', () {
    expect(
        () => decode(flutter, 'message', ''),
        throwsA(isA<BackendFailure>()
            .having((f) => f.errorClass, 'class', isNull)
            .having((f) => f.offset, 'offset', isNull)));
    expect(
        () => decode(flutter, 'message', '0f'),
        throwsA(isA<BackendFailure>().having((f) => f.errorClass, 'class', isNull)));
    // A read past the end is a RangeError, not the codec's rejection: it propagates,
    // and the session answers it as a crash (PROTOCOL.md P.3).
    expect(() => decode(flutter, 'message', '0301'), throwsA(isA<RangeError>()));
    // Flutter has no strict mode: the request is skipped, never answered wrongly.
    expect(
        () => flutter.decode('message', bytesFromHex('00'), 'strict'),
        throwsA(isA<BackendSkip>().having((s) => s.reason, 'reason', contains('strict'))));
  });

  test('invalid notation is skipped, never sent to the codec', () {
    expect(() => encode(flutter, 'message', ['i32', 1.5]), throwsA(isA<BackendSkip>()));
  });

  group('pigeon-dart (notes §4.3, §4.4)', () {
    test('every int is written as int64', () {
      expect(encode(pigeon, 'message', ['i32', 5]), '040500000000000000');
      expect(encode(pigeon, 'message', ['list', [['i32', 1]]]), '0c01040100000000000000');
    });

    test('enum index 1 with tag 129 is 81 + int64 1', () {
      expect(encode(pigeon, 'message', ['custom', 129, ['i64', '1']]),
          '81040100000000000000');
      expect(decode(pigeon, 'message', '81040100000000000000'), [
        'custom',
        129,
        ['i32', 1]
      ]);
    });
  });
}
