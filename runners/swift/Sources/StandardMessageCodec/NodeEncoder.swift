/// Writes the canonical encoding (spec §13) of a flat subtree, nodes `[first, end)` of a
/// tree in pre-order, which is also the order of the bytes: one linear pass, into a buffer
/// of the tree's bound (`SMCNodeTree.encodeBound`); padding is counted from the message
/// offset (spec §3.2).
/// Sizes, padding and payload bytes are recomputed, never copied from the input, which a
/// flutter-mode decode may have accepted in a non-canonical form.
enum NodeEncoder {
    /// Writes nodes `[first, end)` into `out`: one reservation of the tree's bound, then
    /// every byte stored through a local pointer (no capacity check per value).
    static func write(_ tree: SMCNodeTree, _ first: Int, _ end: Int, to out: OutputBuffer) throws {
        try out.appendRaw(tree.encodeBound) { base, start in
            try write(tree, first, end, into: base, at: start)
        }
    }

    /// The raw writer: `base` is message offset `start`; returns the bytes written.
    private static func write(
        _ tree: SMCNodeTree, _ first: Int, _ end: Int,
        into base: UnsafeMutableRawPointer, at start: Int
    ) throws -> Int {
        let nodes = tree.nodes
        let bytes = tree.bytes
        var q = 0  // bytes written; the message offset is start + q
        @inline(__always) func byte(_ b: UInt8) {
            base.storeBytes(of: b, toByteOffset: q, as: UInt8.self)
            q &+= 1
        }
        @inline(__always) func sizeField(_ n: UInt32) {
            if n < 254 {
                byte(UInt8(truncatingIfNeeded: n))
            } else if n <= 0xFFFF {
                byte(254)
                base.storeBytes(
                    of: UInt16(truncatingIfNeeded: n).littleEndian, toByteOffset: q, as: UInt16.self
                )
                q &+= 2
            } else {
                byte(255)
                base.storeBytes(of: n.littleEndian, toByteOffset: q, as: UInt32.self)
                q &+= 4
            }
        }
        @inline(__always) func pad(_ alignment: Int) {
            let n = (alignment &- ((start &+ q) & (alignment &- 1))) & (alignment &- 1)
            for _ in 0..<n { byte(0) }
        }
        @inline(__always) func copy(_ offset: UInt64, _ count: Int) {
            if count > 0 {
                (base + q).copyMemory(from: bytes.baseAddress! + Int(offset), byteCount: count)
                q &+= count
            }
        }
        for i in first..<end {
            let n = nodes[i]
            switch n.tag {
            case WireTag.int32:
                byte(n.tag)
                base.storeBytes(
                    of: UInt32(truncatingIfNeeded: n.payload).littleEndian, toByteOffset: q,
                    as: UInt32.self)
                q &+= 4
            case WireTag.int64:
                byte(n.tag)
                base.storeBytes(of: n.payload.littleEndian, toByteOffset: q, as: UInt64.self)
                q &+= 8
            case WireTag.float64:
                byte(n.tag)
                pad(8)
                base.storeBytes(of: n.payload.littleEndian, toByteOffset: q, as: UInt64.self)
                q &+= 8
            case WireTag.largeInt:
                throw SMCEncodingError("largeInt (tag 5) is never written (spec §4.4)")
            case WireTag.string, WireTag.uint8List:
                byte(n.tag)
                sizeField(n.count)
                copy(n.payload, Int(n.count))
            case WireTag.int32List, WireTag.float32List:
                byte(n.tag)
                sizeField(n.count)
                pad(4)
                copy(n.payload, Int(n.count) &* 4)  // the wire's little-endian bytes (spec §6)
            case WireTag.int64List, WireTag.float64List:
                byte(n.tag)
                sizeField(n.count)
                pad(8)
                copy(n.payload, Int(n.count) &* 8)
            case WireTag.list, WireTag.map:
                byte(n.tag)
                sizeField(n.count)
            default:
                byte(n.tag)  // null, true, false, or a custom tag (its payload node follows)
            }
        }
        return q
    }
}
