// Decode / encode / round-trip timings of the pure codec per payload, one JSON object
// per payload and operation on stdout, with the field names of the Swift and Kotlin
// benches (bench/README.md "Output fields"), codec "smc-dart".
//
// Usage: dart out/bench.dill [--samples N] [--warmup-ms N] [--min-sample-us N]
//            [--entry message|call|envelope] FILE_OR_DIR...
// Default input: every .bin file in bench/payloads (relative to the working directory,
// or $SMC_BENCH_DIR). "values" counts tagged values plus typed-list and Uint8List
// elements, as the other benches do.
//
// On this project's machine the VM is the 32-bit JIT of Dart 2.16.2, where every
// 64-bit int outside the 31-bit small-integer range is boxed: these figures say nothing
// about Dart AOT on a 64-bit device.

import 'dart:convert';
import 'dart:io';
import 'dart:typed_data';

import 'package:smc_dart_runner/smc_runner.dart';

class _Options {
  int samples = 200;
  int warmupMs = 300;
  int minSampleUs = 50;
  String entry = 'message';
  final List<String> inputs = [];
}

_Options _parse(List<String> arguments) {
  final options = _Options();
  for (var i = 0; i < arguments.length; i++) {
    final argument = arguments[i];
    String value() {
      if (i + 1 >= arguments.length) throw FormatException('$argument needs a value');
      return arguments[++i];
    }

    switch (argument) {
      case '--samples':
        options.samples = int.parse(value());
        break;
      case '--warmup-ms':
        options.warmupMs = int.parse(value());
        break;
      case '--min-sample-us':
        options.minSampleUs = int.parse(value());
        break;
      case '--entry':
        options.entry = value();
        if (!const ['message', 'call', 'envelope'].contains(options.entry)) {
          throw FormatException('bad --entry ${options.entry}');
        }
        break;
      default:
        options.inputs.add(argument);
    }
  }
  if (options.inputs.isEmpty) {
    options.inputs.add(Platform.environment['SMC_BENCH_DIR'] ?? 'bench/payloads');
  }
  return options;
}

List<File> _payloads(List<String> inputs) => [
      for (final input in inputs)
        if (FileSystemEntity.isDirectorySync(input))
          ...(Directory(input)
              .listSync()
              .whereType<File>()
              .where((file) => file.path.endsWith('.bin'))
              .toList()
            ..sort((a, b) => a.path.compareTo(b.path)))
        else
          File(input)
    ];

int _countValues(SmcValue value) {
  if (value is ListValue) {
    return value.elements.fold(1, (sum, element) => sum + _countValues(element));
  }
  if (value is MapValue) {
    return value.entries.fold(
        1, (sum, entry) => sum + _countValues(entry.key) + _countValues(entry.value));
  }
  if (value is CustomValue) return 1 + _countValues(value.value);
  if (value is Uint8ListValue) return 1 + value.bytes.length;
  if (value is Int32ListValue) return 1 + value.values.length;
  if (value is Int64ListValue) return 1 + value.values.length;
  if (value is Float64ListValue) return 1 + value.bits.length;
  if (value is Float32ListValue) return 1 + value.bits.length;
  return 1;
}

int _countItem(Object item) {
  if (item is SmcValue) return _countValues(item);
  if (item is MethodCallValue) return 1 + _countValues(item.arguments);
  if (item is SuccessEnvelope) return _countValues(item.result);
  final error = item as ErrorEnvelope;
  return 2 + _countValues(error.details) + (error.hasStacktrace ? 1 : 0);
}

var _sink = 0;

/// Nanoseconds per operation for each sample, sorted; each sample is a batch of calls
/// that lasts at least minSampleUs, after a warm-up that lets the JIT settle.
List<int> _measure(_Options options, int Function() op) {
  final watch = Stopwatch()..start();
  final frequency = watch.frequency;
  int nanos() => watch.elapsedTicks * 1000000000 ~/ frequency;
  var batch = 1;
  final warmEnd = nanos() + options.warmupMs * 1000000;
  while (true) {
    final start = nanos();
    for (var i = 0; i < batch; i++) {
      _sink += op();
    }
    final elapsed = nanos() - start;
    if (elapsed < options.minSampleUs * 1000 && batch < (1 << 24)) {
      batch *= 2;
    } else if (nanos() >= warmEnd) {
      break;
    }
  }
  final perOp = <int>[];
  for (var s = 0; s < options.samples; s++) {
    final start = nanos();
    for (var i = 0; i < batch; i++) {
      _sink += op();
    }
    perOp.add((nanos() - start) ~/ batch);
  }
  return perOp..sort();
}

int _percentile(List<int> sorted, int p) => sorted[(sorted.length - 1) * p ~/ 100];

void main(List<String> arguments) {
  final options = _parse(arguments);
  const codec = PureStandardCodec();
  Object decode(Uint8List bytes) {
    switch (options.entry) {
      case 'call':
        return codec.decodeMethodCall(bytes);
      case 'envelope':
        return codec.decodeEnvelope(bytes);
    }
    return codec.decodeMessage(bytes);
  }

  Uint8List encode(Object item) {
    if (item is MethodCallValue) return codec.encodeMethodCall(item);
    if (item is EnvelopeValue) return codec.encodeEnvelope(item);
    return codec.encodeMessage(item as SmcValue);
  }

  for (final file in _payloads(options.inputs)) {
    final name = file.uri.pathSegments.last;
    final bytes = file.readAsBytesSync();
    final Object item;
    try {
      item = decode(bytes);
    } on SmcCodecException catch (error) {
      stdout.writeln(jsonEncode({'payload': name, 'error': '$error'}));
      continue;
    }
    if (hexOfBytes(encode(item)) != hexOfBytes(bytes)) {
      stdout.writeln(jsonEncode({'payload': name, 'error': 're-encoding differs from the input'}));
      continue;
    }
    final values = _countItem(item);
    final ops = <String, int Function()>{
      'decode': () => decode(bytes).hashCode & 1,
      'encode': () => encode(item).length,
      'roundtrip': () => encode(decode(bytes)).length,
    };
    ops.forEach((op, body) {
      final times = _measure(options, body);
      final median = _percentile(times, 50);
      stdout.writeln(jsonEncode({
        'codec': 'smc-dart',
        'payload': name,
        'op': op,
        'bytes': bytes.length,
        'values': values,
        'samples': options.samples,
        'median_ns': median,
        'p10_ns': _percentile(times, 10),
        'p90_ns': _percentile(times, 90),
        'mb_per_s': double.parse((bytes.length * 1000.0 / (median < 1 ? 1 : median)).toStringAsFixed(1)),
        'ns_per_value': double.parse((median / values).toStringAsFixed(2)),
      }));
    });
  }
  if (_sink == 42) stderr.writeln(''); // keeps _sink observable
}
