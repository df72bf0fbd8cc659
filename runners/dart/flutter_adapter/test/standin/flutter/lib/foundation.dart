// Stand-in for package:flutter's foundation library, test-only: the ReadBuffer and
// WriteBuffer that StandardMessageCodec uses, written from spec/standard-message-codec.md
// (little-endian, padding counted from the first byte of the message, §3) so the adapter
// (runners/dart/flutter_adapter) runs on a Dart VM without Flutter. It is not Flutter: it
// has the API shape the adapter calls and the behaviour the spec gives, and, as the facts
// about Flutter's ReadBuffer say (wire-format-notes), it reads past the end with ByteData
// getters, which throw RangeError, and returns typed lists as views into the input, whose
// element alignment is checked by address.

import 'dart:typed_data';

class WriteBuffer {
  WriteBuffer({int startCapacity = 8});

  final BytesBuilder _bytes = BytesBuilder();
  final ByteData _scratch = ByteData(8);

  void putUint8(int byte) => _bytes.addByte(byte);

  void _put(int n) => _bytes.add(Uint8List.sublistView(_scratch, 0, n));

  void putUint16(int value, {Endian? endian}) {
    _scratch.setUint16(0, value, endian ?? Endian.little);
    _put(2);
  }

  void putUint32(int value, {Endian? endian}) {
    _scratch.setUint32(0, value, endian ?? Endian.little);
    _put(4);
  }

  void putInt32(int value, {Endian? endian}) {
    _scratch.setInt32(0, value, endian ?? Endian.little);
    _put(4);
  }

  void putInt64(int value, {Endian? endian}) {
    _scratch.setInt64(0, value, endian ?? Endian.little);
    _put(8);
  }

  void putFloat64(double value, {Endian? endian}) {
    _alignTo(8);
    _scratch.setFloat64(0, value, endian ?? Endian.little);
    _put(8);
  }

  void putUint8List(Uint8List list) => _bytes.add(list);

  void putInt32List(Int32List list) {
    _alignTo(4);
    _bytes.add(Uint8List.sublistView(list));
  }

  void putInt64List(Int64List list) {
    _alignTo(8);
    _bytes.add(Uint8List.sublistView(list));
  }

  void putFloat32List(Float32List list) {
    _alignTo(4);
    _bytes.add(Uint8List.sublistView(list));
  }

  void putFloat64List(Float64List list) {
    _alignTo(8);
    _bytes.add(Uint8List.sublistView(list));
  }

  // spec §3.1: zero bytes up to a multiple of n, counted from the message's first byte
  void _alignTo(int n) {
    final mod = _bytes.length % n;
    if (mod != 0) _bytes.add(Uint8List(n - mod));
  }

  ByteData done() => ByteData.sublistView(_bytes.takeBytes());
}

class ReadBuffer {
  ReadBuffer(this.data);

  final ByteData data;
  int _position = 0;

  bool get hasRemaining => _position < data.lengthInBytes;

  int getUint8() => data.getUint8(_position++);

  int getUint16({Endian? endian}) {
    final v = data.getUint16(_position, endian ?? Endian.little);
    _position += 2;
    return v;
  }

  int getUint32({Endian? endian}) {
    final v = data.getUint32(_position, endian ?? Endian.little);
    _position += 4;
    return v;
  }

  int getInt32({Endian? endian}) {
    final v = data.getInt32(_position, endian ?? Endian.little);
    _position += 4;
    return v;
  }

  int getInt64({Endian? endian}) {
    final v = data.getInt64(_position, endian ?? Endian.little);
    _position += 8;
    return v;
  }

  double getFloat64({Endian? endian}) {
    _alignTo(8);
    final v = data.getFloat64(_position, endian ?? Endian.little);
    _position += 8;
    return v;
  }

  Uint8List getUint8List(int length) {
    final v = data.buffer.asUint8List(data.offsetInBytes + _position, length);
    _position += length;
    return v;
  }

  Int32List getInt32List(int length) {
    _alignTo(4);
    final v = data.buffer.asInt32List(data.offsetInBytes + _position, length);
    _position += 4 * length;
    return v;
  }

  Int64List getInt64List(int length) {
    _alignTo(8);
    final v = data.buffer.asInt64List(data.offsetInBytes + _position, length);
    _position += 8 * length;
    return v;
  }

  Float32List getFloat32List(int length) {
    _alignTo(4);
    final v = data.buffer.asFloat32List(data.offsetInBytes + _position, length);
    _position += 4 * length;
    return v;
  }

  Float64List getFloat64List(int length) {
    _alignTo(8);
    final v = data.buffer.asFloat64List(data.offsetInBytes + _position, length);
    _position += 8 * length;
    return v;
  }

  void _alignTo(int n) {
    final mod = _position % n;
    if (mod != 0) _position += n - mod;
  }
}
