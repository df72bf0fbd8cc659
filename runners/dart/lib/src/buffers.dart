// Byte buffers for the pure codec: little-endian (spec §2.1), positions counted from the
// first byte of the entry point's input (spec §3.1), never from a memory address.
//
// Every read goes through a ByteData view with an explicit offset, so the input may be
// a view at any offsetInBytes (the protocol's `shift`) without changing the result.

import 'dart:typed_data';

import 'errors.dart';

/// Input side. Holds the decoder mode and the current nesting depth because the
/// overridable `readValueOfType` hook receives only the type and this buffer.
class SmcReadBuffer {
  SmcReadBuffer(this.bytes, {this.strict = false})
      : _data = ByteData.sublistView(bytes);

  /// The input; indexes are message offsets.
  final Uint8List bytes;
  final ByteData _data;

  /// Strict mode (spec §1.2): canonical bytes only.
  final bool strict;

  int position = 0;

  /// Containers currently open (spec §15.1: a top-level container is level 1).
  int depth = 0;

  int get length => bytes.length;
  int get remaining => bytes.length - position;
  bool get hasRemaining => position < bytes.length;

  /// errors.md §14.1: a truncated input is reported at the input length.
  Never truncated(String what) => throw SmcCodecException(
      ErrorClass.truncated, length, 'input ends inside $what');

  void require(int count, String what) {
    if (remaining < count) truncated(what);
  }

  int getUint8(String what) {
    require(1, what);
    return bytes[position++];
  }

  int getUint16(String what) {
    require(2, what);
    final value = _data.getUint16(position, Endian.little);
    position += 2;
    return value;
  }

  int getUint32(String what) {
    require(4, what);
    final value = _data.getUint32(position, Endian.little);
    position += 4;
    return value;
  }

  int getInt32(String what) {
    require(4, what);
    final value = _data.getInt32(position, Endian.little);
    position += 4;
    return value;
  }

  /// Also used for float64 bits: the signed 64-bit int carries the exact pattern.
  int getInt64(String what) {
    require(8, what);
    final value = _data.getInt64(position, Endian.little);
    position += 8;
    return value;
  }

  /// Number of padding bytes needed at the current position for [alignment].
  int paddingFor(int alignment) => (alignment - position % alignment) % alignment;

  /// Skips padding to [alignment] (spec §3.3): the bytes must be present; strict mode
  /// requires them to be zero and reports the first non-zero one.
  void skipPadding(int alignment) {
    final padding = paddingFor(alignment);
    require(padding, 'padding');
    if (strict) {
      for (var i = position; i < position + padding; i++) {
        if (bytes[i] != 0) {
          throw SmcCodecException(ErrorClass.notCanonical, i,
              'padding byte is 0x${bytes[i].toRadixString(16)}, not 0');
        }
      }
    }
    position += padding;
  }

  /// Takes [count] bytes as a copy, so the result does not alias the input.
  Uint8List takeBytes(int count, String what) {
    require(count, what);
    final copy = Uint8List.fromList(
        Uint8List.sublistView(bytes, position, position + count));
    position += count;
    return copy;
  }
}

/// Output side: a growable byte array; padding is computed from its length, which is
/// the offset from the first byte of the encode call (spec §3.1).
class SmcWriteBuffer {
  SmcWriteBuffer() : this._(Uint8List(64));

  SmcWriteBuffer._(Uint8List initial)
      : _bytes = initial,
        _data = ByteData.sublistView(initial);

  Uint8List _bytes;
  ByteData _data;
  int _length = 0;

  int get length => _length;

  void _reserve(int extra) {
    final needed = _length + extra;
    if (needed <= _bytes.length) return;
    var capacity = _bytes.length * 2;
    while (capacity < needed) {
      capacity *= 2;
    }
    final grown = Uint8List(capacity)..setRange(0, _length, _bytes);
    _bytes = grown;
    _data = ByteData.sublistView(grown);
  }

  void putUint8(int value) {
    _reserve(1);
    _bytes[_length++] = value;
  }

  void putUint16(int value) {
    _reserve(2);
    _data.setUint16(_length, value, Endian.little);
    _length += 2;
  }

  void putUint32(int value) {
    _reserve(4);
    _data.setUint32(_length, value, Endian.little);
    _length += 4;
  }

  void putInt32(int value) {
    _reserve(4);
    _data.setInt32(_length, value, Endian.little);
    _length += 4;
  }

  void putInt64(int value) {
    _reserve(8);
    _data.setInt64(_length, value, Endian.little);
    _length += 8;
  }

  void putBytes(List<int> bytes) {
    _reserve(bytes.length);
    _bytes.setRange(_length, _length + bytes.length, bytes);
    _length += bytes.length;
  }

  /// Zero padding to [alignment], also before empty typed lists (spec §3.2, §6.6).
  void padTo(int alignment) {
    final padding = (alignment - _length % alignment) % alignment;
    for (var i = 0; i < padding; i++) {
      putUint8(0);
    }
  }

  Uint8List toBytes() => Uint8List.fromList(Uint8List.sublistView(_bytes, 0, _length));
}
