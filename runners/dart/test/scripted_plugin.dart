// The Dart kit's scripted plug-in (runners/protocol-cases.json "behaviours", driven by
// scripts/tests/kit_cases.py from build.sh test): what every call does, the options it
// declares and its host hook come from the environment, the same variables in every kit:
// SMC_PLUGIN_BEHAVIOUR, SMC_PLUGIN_OPTIONS, SMC_PLUGIN_HOSTS (empty: no host hook),
// SMC_PLUGIN_HOSTS_WITHOUT ("vocabulary:Type" words) and, for
// `host-bugs`, SMC_HOST_BUGS. `host-bugs` is the pure codec's host layer (by value, as
// Flutter's) with the bug `bytes-twice` (a Uint8List's bytes written twice); Dart's table
// has no Float or Long, the other two bugs of issue 25.

import 'dart:io';
import 'dart:typed_data';

import 'package:smc_dart_runner/smc_runner.dart';

final Map<String, String> _env = Platform.environment;
final String _behaviour = _env['SMC_PLUGIN_BEHAVIOUR'] ?? 'value';

List<String> _words(String name) => [
      for (final w in (_env[name] ?? '').split(','))
        if (w.isNotEmpty) w
    ];

/// The scripted failures; `value`, `no-bytes` and `host-bugs` go on.
void _scriptedFailure() {
  switch (_behaviour) {
    case 'reject':
      throw const BackendFailure('truncated', 1, 'scripted rejection');
    case 'throw-unexpected':
      throw StateError('scripted: not a documented rejection');
    case 'throw-platform-error':
      throw StackOverflowError();
    case 'crash': // a process that dies: the kit can neither catch it nor answer for it
      Process.killPid(pid, ProcessSignal.sigabrt);
      sleep(const Duration(seconds: 10)); // the signal ends the process before this does
      throw StateError('scripted: still alive after SIGABRT');
  }
}

class _NullItem implements DecodedItem {
  @override
  ValueSummary summary() => summarizeValue(const NullValue());

  @override
  Object toNotation() => const ['null'];

  @override
  Uint8List? reencode() => Uint8List.fromList([0]);
}

/// `short-input-range-error`, `short-input-stack-overflow` (scripts/tests/judged_rejections.py):
/// the pure codec, except that an input it finds truncated fails as Flutter's ReadBuffer does
/// past the end of its input (a RangeError), or with a StackOverflowError. Spec §1.4's Dart
/// row calls both unclassified rejections: Flutter's message handler catches anything thrown.
const Set<String> _shortInputThrows = {'short-input-range-error', 'short-input-stack-overflow'};
final PureBackend _pure = PureBackend();

DecodedItem _decodeShortInput(String entry, Uint8List bytes, String mode) {
  try {
    return _pure.decode(entry, bytes, mode);
  } on BackendFailure catch (e) {
    if (e.errorClass != ErrorClass.truncated.wire) rethrow;
    if (_behaviour == 'short-input-range-error') throw RangeError('read past the end of the input');
    throw StackOverflowError();
  }
}

class _ScriptedBackend implements CodecBackend {
  @override
  Map<String, String> get codecInfo => const {'name': 'scripted-plugin', 'version': '0', 'language': 'Dart'};

  @override
  List<String> get entries => const ['message'];

  @override
  DecodedItem decode(String entry, Uint8List bytes, String mode) {
    _scriptedFailure();
    if (_shortInputThrows.contains(_behaviour)) return _decodeShortInput(entry, bytes, mode);
    return _NullItem();
  }

  @override
  Uint8List? encode(String entry, Object? notation) {
    _scriptedFailure();
    if (_shortInputThrows.contains(_behaviour)) return _pure.encode(entry, notation);
    return _behaviour == 'no-bytes' ? null : Uint8List.fromList([0]);
  }
}

/// The host hook: a marker for the scripted behaviours, the buggy host codec for `host-bugs`.
class _ScriptedHostCodec implements HostMessageCodec {
  _ScriptedHostCodec(this.bugs);

  final List<String> bugs;
  static const PigeonHostCodec _real = PigeonHostCodec.byValue();

  Object? _twice(Object? value) {
    if (value is Uint8List) return Uint8List.fromList([...value, ...value]);
    if (value is TypedData) return value; // the other typed lists are no List to walk
    if (value is List) return [for (final e in value) _twice(e)];
    if (value is Map) return {for (final e in value.entries) _twice(e.key): _twice(e.value)};
    return value;
  }

  @override
  Uint8List? encodeMessage(Object? value) {
    _scriptedFailure();
    if (_behaviour == 'no-bytes') return null;
    if (_behaviour != 'host-bugs') return Uint8List.fromList([0xaa]);
    return _real.encodeMessage(bugs.contains('bytes-twice') ? _twice(value) : value);
  }

  @override
  Object? decodeMessage(Uint8List bytes) {
    _scriptedFailure();
    return _behaviour == 'host-bugs' ? _real.decodeMessage(bytes) : 'hook';
  }
}

Future<void> main() {
  final options = _words('SMC_PLUGIN_OPTIONS');
  final hosts = _words('SMC_PLUGIN_HOSTS');
  final profile = Profile(
      name: 'scripted',
      summary: 'the kit conformance cases\' scripted plug-in',
      decode: const ['int32', 'int64', 'float64', 'float32list', 'typed-lists'],
      encode: const ['int32', 'int64', 'float64', 'float32list', 'typed-lists'],
      options: options);
  return serveStdio(RunnerSession(_ScriptedBackend(), profile,
      placement: options.contains('shift'),
      hosts: hosts.isEmpty
          ? null
          : DartHostTypes(_ScriptedHostCodec(_words('SMC_HOST_BUGS')),
              vocabularies: hosts, without: _without())));
}

/// SMC_PLUGIN_HOSTS_WITHOUT: "vocabulary:Type" words (spec §17.1, P.1 hosts_without).
Map<String, List<String>> _without() {
  final out = <String, List<String>>{};
  for (final word in _words('SMC_PLUGIN_HOSTS_WITHOUT')) {
    final at = word.indexOf(':');
    if (at > 0) (out[word.substring(0, at)] ??= []).add(word.substring(at + 1));
  }
  return out;
}
