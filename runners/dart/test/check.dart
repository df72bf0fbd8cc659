// A small test helper, so the tests run as plain programs on a Dart VM without pub or
// package:test (`dart test/codec_test.dart`), and still under `dart test` where a full
// SDK has package:test. One body of tests serves both.
//
// A test file's main is `void main() => runTests(() { group(...); test(...); });`.
//
// * Plain program: each `test` body runs when it is declared; a failure prints the test
//   name and why, and the run ends with the line `N passed, N failed` and exit code 1
//   if anything failed.
// * Under `dart test`: package:test runs main() inside a zone that holds its test
//   declarer under `#test.declarer`; `test` and `group` hand their bodies to it, so each
//   test is reported by package:test, and a failed check (a thrown [CheckFailure]) fails
//   that test there. This file does not import package:test, so the plain VM never needs
//   it. (Not exercised on the project's machine, which has no package:test.)
//
// All tests here are synchronous; a body returning a Future is reported as a failure
// in the plain mode rather than silently not awaited.

import 'dart:async';
import 'dart:io';

import 'package:smc_dart_runner/smc_runner.dart' show jsonEquals;

/// Thrown by the `expect…` functions below.
class CheckFailure implements Exception {
  CheckFailure(this.message);
  final String message;

  @override
  String toString() => message;
}

final List<String> _groups = [];
var _passed = 0;
var _failed = 0;

dynamic get _declarer => Zone.current[#test.declarer];

/// Runs [declare], which declares the file's groups and tests, and reports.
void runTests(void Function() declare) {
  if (_declarer != null) {
    declare(); // package:test collects the tests and runs them itself
    return;
  }
  declare();
  stdout.writeln('$_passed passed, $_failed failed');
  if (_failed > 0) exitCode = 1;
}

void group(String name, void Function() body) {
  final declarer = _declarer;
  if (declarer != null) {
    declarer.group(name, body);
    return;
  }
  _groups.add(name);
  try {
    body();
  } finally {
    _groups.removeLast();
  }
}

void test(String name, void Function() body) {
  final declarer = _declarer;
  if (declarer != null) {
    declarer.test(name, body);
    return;
  }
  final fullName = [..._groups, name].join(' ');
  try {
    final Object? result = (body as dynamic)();
    if (result is Future) throw CheckFailure('asynchronous test bodies are not supported');
    _passed++;
  } catch (error, stack) {
    _failed++;
    stdout.writeln('FAIL $fullName');
    stdout.writeln('  $error');
    if (error is! CheckFailure) stdout.writeln(_indent('$stack'));
  }
}

void expectEqual(Object? actual, Object? expected, {String? reason}) {
  if (!deepEquals(actual, expected)) {
    throw CheckFailure('expected ${_show(expected)}\n  got      ${_show(actual)}'
        '${reason == null ? '' : '\n  ($reason)'}');
  }
}

void expectTrue(bool condition, String what) {
  if (!condition) throw CheckFailure('expected: $what');
}

/// Expects [body] to throw a [T] for which [where] (if given) holds; returns it.
T expectThrows<T extends Object>(Object? Function() body,
    {bool Function(T error)? where, String? what}) {
  Object? result;
  try {
    result = body();
  } on T catch (error) {
    if (where != null && !where(error)) {
      throw CheckFailure('threw $error, which is not ${what ?? 'what was expected'}');
    }
    return error;
  } on CheckFailure {
    rethrow;
  } catch (error) {
    throw CheckFailure('expected a $T${what == null ? '' : ' ($what)'}, got $error');
  }
  throw CheckFailure('expected a $T${what == null ? '' : ' ($what)'}, '
      'returned ${_show(result)}');
}

/// Structural equality: sets by membership, else the package's [jsonEquals] (lists,
/// typed lists included, element by element; maps by key).
bool deepEquals(Object? a, Object? b) =>
    a is Set && b is Set ? a.length == b.length && a.containsAll(b) : jsonEquals(a, b);

String _show(Object? value) {
  final text = value is String ? "'$value'" : '$value';
  return text.length <= 300 ? text : '${text.substring(0, 297)}...';
}

String _indent(String text) =>
    text.trimRight().split('\n').take(8).map((line) => '    $line').join('\n');
