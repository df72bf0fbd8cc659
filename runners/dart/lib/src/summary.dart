// The `summary` answer of runners/PROTOCOL.md P.3: a decoded value too large to print
// (nested deeper than 500 containers, or a response longer than 16 MiB) is answered with
// its depth, value count and bytes instead of its notation.
//
// Both walkers keep their own stack, so a value a codec without a depth limit built
// 100,000 levels deep is measured without the runner overflowing its stack where the
// codec did not.

import 'dart:convert';
import 'dart:typed_data';

import 'host_converter.dart' show CustomHostValue;
import 'value.dart';

/// The deepest value the runner prints; deeper ones are answered with a summary.
const int printableDepth = 500;

/// The longest response line the runner writes; longer ones become a summary.
const int printableLineBytes = 16 << 20;

class ValueSummary {
  const ValueSummary(this.depth, this.values, this.bytes);

  /// Container depth of spec §15.1: a top-level list is 1, a scalar 0.
  final int depth;

  /// Values in the tree: itself, every element, map key, map value and custom payload.
  final int values;

  /// Bytes of its strings (UTF-8), byte arrays, largeInt texts and typed-list elements.
  final int bytes;

  Map<String, Object?> toJson() => {'depth': depth, 'values': values, 'bytes': bytes};
}

/// Accumulates one walk: [visit] is called once per value with the number of containers
/// that enclose it.
class _Walk {
  int depth = 0;
  int values = 0;
  int bytes = 0;
  final List<Object?> _pending = [];
  final List<int> _levels = [];

  void push(Object? value, int level) {
    _pending.add(value);
    _levels.add(level);
  }

  /// Opens a container at [level]; returns the level of its children.
  int container(int level) {
    final own = level + 1;
    if (own > depth) depth = own;
    return own;
  }

  ValueSummary run(Object? root, void Function(_Walk walk, Object? value, int level) visit) {
    push(root, 0);
    while (_pending.isNotEmpty) {
      final value = _pending.removeLast();
      final level = _levels.removeLast();
      values++;
      visit(this, value, level);
    }
    return ValueSummary(depth, values, bytes);
  }
}

/// The summary of a value of the pure codec's model.
ValueSummary summarizeValue(SmcValue root) => _Walk().run(root, (walk, value, level) {
      final v = value as SmcValue;
      if (v is ListValue) {
        final inner = walk.container(level);
        for (final element in v.elements) {
          walk.push(element, inner);
        }
      } else if (v is MapValue) {
        final inner = walk.container(level);
        for (final entry in v.entries) {
          walk.push(entry.key, inner);
          walk.push(entry.value, inner);
        }
      } else if (v is CustomValue) {
        walk.push(v.value, walk.container(level));
      } else if (v is StringValue) {
        walk.bytes += utf8.encode(v.value).length;
      } else if (v is LargeIntValue) {
        walk.bytes += utf8.encode(v.text).length;
      } else if (v is Uint8ListValue) {
        walk.bytes += v.bytes.length;
      } else if (v is Int32ListValue) {
        walk.bytes += 4 * v.values.length;
      } else if (v is Float32ListValue) {
        walk.bytes += 4 * v.bits.length;
      } else if (v is Int64ListValue) {
        walk.bytes += 8 * v.values.length;
      } else if (v is Float64ListValue) {
        walk.bytes += 8 * v.bits.length;
      }
    });

/// The summary of a Dart host value as Flutter's codec returns them (List, Map, typed
/// data, String, num, bool, null, [CustomHostValue]); any other object counts as one
/// value without bytes.
ValueSummary summarizeHost(Object? root) => _Walk().run(root, (walk, value, level) {
      if (value is String) {
        walk.bytes += utf8.encode(value).length;
      } else if (value is TypedData) {
        walk.bytes += value.lengthInBytes;
      } else if (value is List) {
        final inner = walk.container(level);
        for (final element in value) {
          walk.push(element, inner);
        }
      } else if (value is Map) {
        final inner = walk.container(level);
        value.forEach((key, element) {
          walk.push(key, inner);
          walk.push(element, inner);
        });
      } else if (value is CustomHostValue) {
        walk.push(value.payload, walk.container(level));
      }
    });
