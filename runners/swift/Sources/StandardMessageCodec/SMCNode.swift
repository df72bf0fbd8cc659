import Foundation

/// One value of a message decoded into the flat form (`SMCCodec.decodeMessageNode`).
///
/// `SMCValue` gives every string, byte array, typed list and container its own heap object,
/// and Swift frees each with an atomic release: decoding 1,000 Pigeon-style records makes
/// about 17,000 allocations, and on glibc each allocation and free costs more than C's whole
/// decode of the value. The flat form is the arena tree of the C reference in Swift terms:
/// every node of the message in one array (pre-order, 16 bytes each) and the payload bytes in
/// one copy of the input, so a decode costs two allocations whatever the message holds, and
/// a walk over it retains nothing. Nodes are views: `stringValue`, `bytes`, `int32s`, …
/// build Swift values on access, and `value` the whole `SMCValue`. Everything a node refers
/// to is owned by the tree (never by the caller's input), immutable, and freed with its
/// last node.
public struct SMCNode: @unchecked Sendable {
    @usableFromInline let tree: SMCNodeTree
    @usableFromInline let index: Int

    init(_ tree: SMCNodeTree, _ index: Int) {
        self.tree = tree
        self.index = index
    }

    var node: NodeRecord { tree.nodes[index] }

    public enum Kind: Sendable {
        case null, bool, int32, int64, largeInt, float64, string, uint8List
        case int32List, int64List, float64List, float32List, list, map, custom
    }

    public var kind: Kind {
        switch node.tag {
        case WireTag.null: return .null
        case WireTag.true, WireTag.false: return .bool
        case WireTag.int32: return .int32
        case WireTag.int64: return .int64
        case WireTag.largeInt: return .largeInt
        case WireTag.float64: return .float64
        case WireTag.string: return .string
        case WireTag.uint8List: return .uint8List
        case WireTag.int32List: return .int32List
        case WireTag.int64List: return .int64List
        case WireTag.float64List: return .float64List
        case WireTag.float32List: return .float32List
        case WireTag.list: return .list
        case WireTag.map: return .map
        default: return .custom
        }
    }

    public var boolValue: Bool? {
        switch node.tag {
        case WireTag.true: return true
        case WireTag.false: return false
        default: return nil
        }
    }

    public var int32Value: Int32? {
        node.tag == WireTag.int32 ? Int32(truncatingIfNeeded: node.payload) : nil
    }

    public var int64Value: Int64? {
        node.tag == WireTag.int64 ? Int64(bitPattern: node.payload) : nil
    }

    /// The binary64 bit pattern of a float64 (spec §4.3).
    public var float64Bits: UInt64? { node.tag == WireTag.float64 ? node.payload : nil }

    public var doubleValue: Double? { float64Bits.map(Double.init(bitPattern:)) }

    /// The text of a string, or of a largeInt (tag 5, flutter mode).
    public var stringValue: String? {
        let n = node
        guard n.tag == WireTag.string || n.tag == WireTag.largeInt else { return nil }
        return String(decoding: tree.payload(n), as: UTF8.self)
    }

    /// A copy of a Uint8List's bytes.
    public var bytes: [UInt8]? {
        let n = node
        return n.tag == WireTag.uint8List ? [UInt8](tree.payload(n)) : nil
    }

    public var int32s: [Int32]? { elements(WireTag.int32List, Int32.self, Int32.self) { $0 } }
    public var int64s: [Int64]? { elements(WireTag.int64List, Int64.self, Int64.self) { $0 } }
    /// Float64List elements as bit patterns; `doubles` as Doubles.
    public var float64BitsList: [UInt64]? {
        elements(WireTag.float64List, UInt64.self, UInt64.self) { $0 }
    }
    public var doubles: [Double]? {
        elements(WireTag.float64List, Double.self, UInt64.self, Double.init(bitPattern:))
    }
    /// Float32List elements as bit patterns.
    public var float32BitsList: [UInt32]? {
        elements(WireTag.float32List, UInt32.self, UInt32.self) { $0 }
    }

    /// A typed list's elements, copied out of the tree with the decoder's bulk copy.
    private func elements<E, B: FixedWidthInteger>(
        _ tag: UInt8, _: E.Type, _: B.Type,
        _ fromBits: (B) -> E
    ) -> [E]? {
        let n = node
        guard n.tag == tag else { return nil }
        return InputCursor.copyElements(
            of: E.self, bits: B.self,
            from: tree.bytes,
            at: Int(n.payload), count: Int(n.count), fromBits: fromBits)
    }

    /// Elements of a List, entries of a Map, 1 for a custom value, 0 otherwise.
    public var count: Int {
        switch node.tag {
        case WireTag.list, WireTag.map: return Int(node.count)
        case WireTag.firstCustom...: return 1
        default: return 0
        }
    }

    /// The elements of a List (empty for any other kind), in order.
    public var elements: Children { Children(tree, node.tag == WireTag.list ? index : nil) }

    /// The key-value entries of a Map (empty for any other kind), in wire order.
    public var entries: Entries { Entries(tree, node.tag == WireTag.map ? index : nil) }

    /// The tag (128...255) of a custom value.
    public var customTag: UInt8? { node.tag >= WireTag.firstCustom ? node.tag : nil }

    /// The one nested value of a custom value.
    public var payload: SMCNode? {
        node.tag >= WireTag.firstCustom ? SMCNode(tree, index + 1) : nil
    }

    /// The whole subtree as the lossless value model.
    public var value: SMCValue { tree.value(at: index) }

    /// The children of a container: for each, the node and the index after its subtree.
    public struct Children: Sequence {
        let tree: SMCNodeTree
        let container: Int?
        /// A Map's count is entries: twice as many children.
        let perEntry: Int

        init(_ tree: SMCNodeTree, _ container: Int?, pairs: Bool = false) {
            self.tree = tree
            self.container = container
            perEntry = pairs ? 2 : 1
        }

        public func makeIterator() -> Iterator {
            guard let c = container else { return Iterator(tree: tree, cursor: 0, left: 0) }
            return Iterator(tree: tree, cursor: c + 1, left: perEntry * Int(tree.nodes[c].count))
        }

        public struct Iterator: IteratorProtocol {
            let tree: SMCNodeTree
            var cursor: Int
            var left: Int

            public mutating func next() -> SMCNode? {
                guard left > 0 else { return nil }
                left -= 1
                let node = SMCNode(tree, cursor)
                cursor = tree.end(of: cursor)
                return node
            }
        }
    }

    /// A Map's children taken two at a time: key, value.
    public struct Entries: Sequence {
        let children: Children

        init(_ tree: SMCNodeTree, _ map: Int?) {
            children = Children(tree, map, pairs: true)
        }

        public func makeIterator() -> Iterator { Iterator(children: children.makeIterator()) }

        public struct Iterator: IteratorProtocol {
            var children: Children.Iterator

            public mutating func next() -> (key: SMCNode, value: SMCNode)? {
                guard let key = children.next(), let value = children.next() else { return nil }
                return (key, value)
            }
        }
    }
}

/// A decoded method call in the flat form: the name and the arguments' node (spec §10).
public struct SMCNodeMethodCall {
    public let name: String
    public let arguments: SMCNode
}

/// A decoded envelope in the flat form (spec §11), with the optional 4th element.
public enum SMCNodeEnvelope {
    case success(SMCNode)
    case error(code: String, message: String?, details: SMCNode, stacktrace: SMCStacktrace?)
}

/// One node of the flat form: the wire tag (1 and 2 for the booleans, 128...255 for a custom
/// value); `count`: a container's elements (a Map's entries), a string's or byte array's
/// length, a typed list's elements; `payload`: a scalar's bits, the offset of a payload's
/// first byte in the tree's copy of the input, or for a container the index of the node
/// after its subtree.
@usableFromInline
struct NodeRecord {
    var tag: UInt8
    var count: UInt32
    var payload: UInt64
}

/// The storage of a decoded tree: one `malloc` block holding the nodes, then the copy of the
/// input their payload offsets refer to. Immutable once built.
@usableFromInline
final class SMCNodeTree: @unchecked Sendable {
    let nodes: UnsafeMutablePointer<NodeRecord>
    let nodeCount: Int
    let bytes: UnsafeRawBufferPointer
    /// An upper bound on the canonical encoding of any subtree, wherever it starts: sizes
    /// are never longer than the input's, payloads are the same bytes, and only padding can
    /// grow, by at most 7 bytes per float64 or typed list (spec §2.2, §3.2). The encoder
    /// writes into a buffer this large with no check per value, and no sizing pass.
    let encodeBound: Int

    /// Takes over `block` (from `malloc`): `nodeCount` nodes, then `byteCount` bytes.
    init(block: UnsafeMutableRawPointer, nodeCount: Int, byteCount: Int, encodeBound: Int) {
        self.encodeBound = encodeBound
        nodes = block.bindMemory(to: NodeRecord.self, capacity: nodeCount)
        self.nodeCount = nodeCount
        bytes = UnsafeRawBufferPointer(
            start: block + nodeCount * MemoryLayout<NodeRecord>.stride,
            count: byteCount)
    }

    deinit { free(UnsafeMutableRawPointer(nodes)) }

    /// The index of the node after the subtree of node `i`.
    @inline(__always)
    func end(of i: Int) -> Int {
        let n = nodes[i]
        switch n.tag {
        case WireTag.list, WireTag.map, WireTag.firstCustom...: return Int(n.payload)
        default: return i + 1
        }
    }

    /// The payload bytes of a string, largeInt, Uint8List or typed list node.
    func payload(_ n: NodeRecord) -> UnsafeRawBufferPointer {
        let width: Int
        switch n.tag {
        case WireTag.int32List, WireTag.float32List: width = 4
        case WireTag.int64List, WireTag.float64List: width = 8
        default: width = 1
        }
        let start = Int(n.payload)
        return UnsafeRawBufferPointer(rebasing: bytes[start..<start + Int(n.count) * width])
    }

    func value(at i: Int) -> SMCValue {
        let node = SMCNode(self, i)
        let n = nodes[i]
        switch n.tag {
        case WireTag.null: return .null
        case WireTag.true: return .bool(true)
        case WireTag.false: return .bool(false)
        case WireTag.int32: return .int32(Int32(truncatingIfNeeded: n.payload))
        case WireTag.int64: return .int64(Int64(bitPattern: n.payload))
        case WireTag.largeInt: return .largeInt(node.stringValue!)
        case WireTag.float64: return .float64(n.payload)
        case WireTag.string: return .string(node.stringValue!)
        case WireTag.uint8List: return .uint8List(node.bytes!)
        case WireTag.int32List: return .int32List(node.int32s!)
        case WireTag.int64List: return .int64List(node.int64s!)
        case WireTag.float64List: return .float64List(node.float64BitsList!)
        case WireTag.float32List: return .float32List(node.float32BitsList!)
        case WireTag.list: return .list(node.elements.map { $0.value })
        case WireTag.map: return .map(node.entries.map { ($0.key.value, $0.value.value) })
        default: return .custom(tag: n.tag, value: value(at: i + 1))
        }
    }
}
