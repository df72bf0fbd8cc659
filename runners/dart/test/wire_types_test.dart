// The pure codec's wire-type table against spec/wire-types.json, the one list every codec
// here checks its own against: each SmcTag constant, the tag and length the writer gives
// each scalar and typed list (three elements after the padding of the listed alignment), and
// the widths the reader uses (a typed list of exactly that length decodes, one byte less is
// truncated).
//
//   dart test/wire_types_test.dart   (from runners/dart; SMC_WIRE_TYPES overrides the file)

import 'dart:convert';
import 'dart:io';
import 'dart:typed_data';

import 'package:smc_dart_runner/smc_runner.dart';

import 'check.dart';

/// The codec's constant for the first tag of each type word.
const firstTag = {
  'null': SmcTag.nullValue, 'bool': SmcTag.trueValue, 'i32': SmcTag.int32,
  'i64': SmcTag.int64, 'largeint': SmcTag.largeInt, 'f64': SmcTag.float64,
  'str': SmcTag.string, 'u8s': SmcTag.uint8List, 'i32s': SmcTag.int32List,
  'i64s': SmcTag.int64List, 'f64s': SmcTag.float64List, 'list': SmcTag.list,
  'map': SmcTag.map, 'f32s': SmcTag.float32List, 'custom': SmcTag.firstCustom,
};

/// A value of each scalar and typed list type: three elements for the lists.
final samples = <String, SmcValue>{
  'i32': const Int32Value(7), 'i64': const Int64Value(7),
  'f64': const Float64Value(0x3ff0000000000000),
  'i32s': const Int32ListValue([1, 2, 3]), 'i64s': const Int64ListValue([1, 2, 3]),
  'f64s': const Float64ListValue([0, 0, 0]), 'f32s': const Float32ListValue([0, 0, 0]),
};

int padded(int offset, int alignment) => (offset + alignment - 1) ~/ alignment * alignment;

String? errorOf(PureStandardCodec codec, Uint8List bytes) {
  try {
    codec.decodeMessage(bytes);
    return null;
  } on SmcCodecException catch (e) {
    return e.errorClass.wire;
  }
}

void main() => runTests(() {
      final file = File(Platform.environment['SMC_WIRE_TYPES'] ??
          '${Directory.current.path}/../../spec/wire-types.json');
      final types = ((jsonDecode(file.readAsStringSync()) as Map<String, Object?>)['types']
              as List<Object?>)
          .cast<Map<String, Object?>>();
      const codec = PureStandardCodec();

      test('every type word has a constant', () {
        expectEqual(types.map((t) => t['word']).toSet(), firstTag.keys.toSet());
      });
      group('wire type', () {
        for (final t in types) {
          final word = t['word'] as String, payload = t['payload'] as String;
          final tag = t['tag'] as int, alignment = t['alignment'] as int;
          test('$word: tag', () => expectEqual(firstTag[word], tag));
          if (payload == 'scalar' || payload == 'typed_list') {
            test('$word: the writer\'s tag and length', () {
              final sample = samples[word];
              expectTrue(sample != null, 'a sample value for $word');
              final bytes = codec.encodeMessage(sample!);
              final length = payload == 'scalar'
                  ? padded(1, alignment) + (t['scalar_width'] as int)
                  : padded(2, alignment) + 3 * (t['element_width'] as int);
              expectEqual(bytes[0], tag);
              expectEqual(bytes.length, length);
            });
          }
          if (payload == 'typed_list') {
            test('$word: the reader\'s width', () {
              final exact =
                  Uint8List(padded(2, alignment) + 3 * (t['element_width'] as int));
              exact[0] = tag;
              exact[1] = 3;
              expectEqual(errorOf(codec, exact), null);
              expectEqual(errorOf(codec, Uint8List.sublistView(exact, 0, exact.length - 1)),
                  'truncated');
            });
          }
        }
      });
      test('bool: last tag', () {
        final boolType = types.firstWhere((t) => t['word'] == 'bool');
        expectEqual(SmcTag.falseValue, boolType['tag_last']);
      });
      test('custom: first and last tag written', () {
        final custom = types.firstWhere((t) => t['word'] == 'custom');
        for (final tag in [custom['tag'] as int, custom['tag_last'] as int]) {
          expectEqual(codec.encodeMessage(CustomValue(tag, const NullValue()))[0], tag);
        }
      });
    });
