import Foundation

/// The growing node array of one decode (`malloc` + `realloc`, handed to the tree).
struct NodeBuffer {
    private(set) var base: UnsafeMutablePointer<NodeRecord>
    private(set) var count = 0
    private var capacity: Int

    /// Starts at 64 nodes and doubles with `realloc` (in place for a large block): a first
    /// guess from the input length would reserve a megabyte of nodes for the one node of a
    /// 1 MiB byte array.
    init(inputLength: Int) {
        capacity = 64
        guard let block = malloc(capacity * MemoryLayout<NodeRecord>.stride) else {
            fatalError("SMCNode: out of memory")
        }
        base = block.assumingMemoryBound(to: NodeRecord.self)
    }

    /// Appends a node; returns its index.
    @inline(__always) @discardableResult
    mutating func append(_ tag: UInt8, _ count: UInt32 = 0, _ payload: UInt64 = 0) -> Int {
        if self.count == capacity { grow() }
        (base + self.count).initialize(to: NodeRecord(tag: tag, count: count, payload: payload))
        self.count += 1
        return self.count - 1
    }

    /// Sets the end (index after the subtree) of container node `i`.
    @inline(__always)
    mutating func close(_ i: Int) {
        base[i].payload = UInt64(count)
    }

    private mutating func grow() {
        capacity *= 2
        guard let block = realloc(base, capacity * MemoryLayout<NodeRecord>.stride) else {
            fatalError("SMCNode: out of memory")
        }
        base = block.assumingMemoryBound(to: NodeRecord.self)
    }

    func discard() { free(base) }

    /// One block holding the nodes, then a copy of `input` (what the nodes' payload offsets
    /// refer to): the node buffer is extended with `realloc`, so a decode makes one block
    /// for the whole tree. Consumes the buffer.
    func finish(copying input: UnsafeRawBufferPointer) -> UnsafeMutableRawPointer {
        let nodeBytes = count * MemoryLayout<NodeRecord>.stride
        guard let block = realloc(base, max(nodeBytes + input.count, 1)) else {
            fatalError("SMCNode: out of memory")
        }
        if let source = input.baseAddress, input.count > 0 {
            (block + nodeBytes).copyMemory(from: source, byteCount: input.count)
        }
        return block
    }
}

/// Decodes bytes into the flat form, with exactly the checks of `ValueDecoder`, in the same
/// order, with the same classes and offsets (spec/errors.md §14.2): the two are kept in step
/// by the vector and robustness tests, which compare them on every input. Payloads are
/// validated where they are (UTF-8, sizes, padding) and referred to by offset; the tree
/// copies the input once at the end.
struct NodeDecoder {
    var cursor: InputCursor
    let options: SMCDecodingOptions
    var nodes: NodeBuffer
    /// Float64s and typed lists: the nodes whose canonical padding may differ from the
    /// input's (by up to 7 bytes each), for the tree's bound on its encoded size.
    var paddedNodes = 0

    init(bytes: UnsafeRawBufferPointer, options: SMCDecodingOptions) {
        cursor = InputCursor(bytes: bytes, strict: options.mode == .strict)
        self.options = options
        nodes = NodeBuffer(inputLength: bytes.count)
    }

    /// One value and its subtree; `depth` containers are open around it.
    mutating func readValue(depth: Int) throws {
        let tagOffset = cursor.position
        let tag = try cursor.readValueTag(depth: depth, maxDepth: options.maxDepth)
        switch tag {
        case WireTag.null, WireTag.true, WireTag.false: nodes.append(tag)
        case WireTag.int32:
            nodes.append(tag, 0, UInt64(UInt32(bitPattern: try cursor.readInt32())))
        case WireTag.int64: nodes.append(tag, 0, try cursor.readUInt64("an int64"))
        case WireTag.largeInt:
            if options.mode == .strict {
                throw SMCDecodingError(
                    .unknownTag, at: tagOffset,
                    "largeInt (tag 5) is not accepted in strict mode")
            }
            try readUTF8Node(tag, "a largeInt")
        case WireTag.float64:
            try cursor.skipPadding(cursor.paddingLength(alignment: 8))
            nodes.append(tag, 0, try cursor.readUInt64("a float64"))
            paddedNodes += 1
        case WireTag.string: try readUTF8Node(tag, "a string")
        case WireTag.uint8List:
            let length = try cursor.readSize()
            try cursor.require(UInt64(length), "a Uint8List")
            nodes.append(tag, length, UInt64(cursor.position))
            cursor.skip(Int(length))
        case WireTag.int32List: try readTypedListNode(tag, width: 4, "an Int32List")
        case WireTag.int64List: try readTypedListNode(tag, width: 8, "an Int64List")
        case WireTag.float64List: try readTypedListNode(tag, width: 8, "a Float64List")
        case WireTag.float32List: try readTypedListNode(tag, width: 4, "a Float32List")
        case WireTag.list:
            let n = try cursor.readContainerCount(bytesPerElement: 1, "a List")
            let me = nodes.append(tag, UInt32(n))
            for _ in 0..<n {
                if !readSmallScalarIfPresent() { try readValue(depth: depth + 1) }
            }
            nodes.close(me)
        case WireTag.map:
            let n = try cursor.readContainerCount(bytesPerElement: 2, "a Map")
            let me = nodes.append(tag, UInt32(n))
            for _ in 0..<2 * n {
                if !readSmallScalarIfPresent() { try readValue(depth: depth + 1) }
            }
            nodes.close(me)
        case WireTag.firstCustom...:
            if !options.allowsCustomTags {
                throw SMCDecodingError(
                    .unknownTag, at: tagOffset,
                    "custom tag \(tag) with custom values disabled")
            }
            let me = nodes.append(tag)
            try readValue(depth: depth + 1)
            nodes.close(me)
        default:
            throw SMCDecodingError(.unknownTag, at: tagOffset, "reserved tag \(tag)")
        }
    }

    /// A sized UTF-8 payload, validated in place (spec §5.3), as a node.
    private mutating func readUTF8Node(_ tag: UInt8, _ what: String) throws {
        let length = try cursor.readSize()
        try cursor.require(UInt64(length), what)
        let start = cursor.position
        let n = Int(length)
        if !UTF8Validation.isASCII(cursor.bytes, start: start, count: n),
            let bad = UTF8Validation.firstIllFormedOffset(in: cursor.bytes, start: start, count: n)
        {
            throw SMCDecodingError(.badUTF8, at: bad, "ill-formed UTF-8")
        }
        nodes.append(tag, length, UInt64(start))
        cursor.skip(n)
    }

    /// Count, the minimum-bytes check (padding + width × count), then the padding
    /// (spec §6, §14.2), as in `InputCursor.readTypedList`.
    private mutating func readTypedListNode(_ tag: UInt8, width: Int, _ what: String) throws {
        let declared = try cursor.readSize()
        let padding = cursor.paddingLength(alignment: width)
        try cursor.require(UInt64(padding) + UInt64(width) * UInt64(declared), what)
        try cursor.skipPadding(padding)
        nodes.append(tag, declared, UInt64(cursor.position))
        cursor.skip(Int(declared) * width)
        paddedNodes += 1
    }

    /// The value decoder's fast path for null, booleans, int32 and int64 whose bytes are all
    /// present (these can fail no check).
    @inline(__always)
    private mutating func readSmallScalarIfPresent() -> Bool {
        let left = cursor.remaining
        guard left > 0 else { return false }
        let tag = cursor.peekUnchecked()
        switch tag {
        case WireTag.null, WireTag.true, WireTag.false:
            nodes.append(tag)
            cursor.skip(1)
        case WireTag.int32 where left >= 5:
            let raw = cursor.bytes.loadUnaligned(
                fromByteOffset: cursor.position + 1, as: UInt32.self)
            nodes.append(tag, 0, UInt64(UInt32(littleEndian: raw)))
            cursor.skip(5)
        case WireTag.int64 where left >= 9:
            let raw = cursor.bytes.loadUnaligned(
                fromByteOffset: cursor.position + 1, as: UInt64.self)
            nodes.append(tag, 0, UInt64(littleEndian: raw))
            cursor.skip(9)
        default:
            return false
        }
        return true
    }

    func requireEnd() throws {
        if !cursor.isAtEnd {
            throw SMCDecodingError(
                .trailingBytes, at: cursor.position,
                "\(cursor.remaining) byte(s) after the complete item")
        }
    }

    // MARK: Entry points (spec §9–§11), as ValueDecoder's

    /// The tree of everything decoded (taking over the nodes, copying the input).
    func tree() -> SMCNodeTree {
        SMCNodeTree(
            block: nodes.finish(copying: cursor.bytes), nodeCount: nodes.count,
            byteCount: cursor.bytes.count,
            encodeBound: cursor.bytes.count &+ 7 &* paddedNodes)
    }

    static func decodeMessage(_ bytes: UnsafeRawBufferPointer, _ options: SMCDecodingOptions) throws
        -> SMCNode
    {
        var decoder = NodeDecoder(bytes: bytes, options: options)
        do {
            try decoder.readValue(depth: 0)
            try decoder.requireEnd()
        } catch {
            decoder.nodes.discard()
            throw error
        }
        return SMCNode(decoder.tree(), 0)
    }

    static func decodeMethodCall(_ bytes: UnsafeRawBufferPointer, _ options: SMCDecodingOptions)
        throws -> SMCNodeMethodCall
    {
        var decoder = NodeDecoder(bytes: bytes, options: options)
        do {
            let name = try decoder.cursor.readRequiredString("the method name")
            try decoder.readValue(depth: 0)
            try decoder.requireEnd()
            return SMCNodeMethodCall(name: name, arguments: SMCNode(decoder.tree(), 0))
        } catch {
            decoder.nodes.discard()
            throw error
        }
    }

    static func decodeEnvelope(_ bytes: UnsafeRawBufferPointer, _ options: SMCDecodingOptions)
        throws -> SMCNodeEnvelope
    {
        var decoder = NodeDecoder(bytes: bytes, options: options)
        do {
            let flagOffset = decoder.cursor.position
            let flag = try decoder.cursor.readByte("an envelope (its flag)")
            switch flag {
            case 0:
                try decoder.readValue(depth: 0)
                try decoder.requireEnd()
                return .success(SMCNode(decoder.tree(), 0))
            case 1:
                let code = try decoder.cursor.readRequiredString("the error code")
                let message = try decoder.cursor.readOptionalString("the error message")
                try decoder.readValue(depth: 0)
                var stacktrace: SMCStacktrace? = nil
                if !decoder.cursor.isAtEnd {
                    stacktrace =
                        try decoder.cursor.readOptionalString("the stacktrace").map { .text($0) }
                        ?? .null
                }
                try decoder.requireEnd()
                return .error(
                    code: code, message: message, details: SMCNode(decoder.tree(), 0),
                    stacktrace: stacktrace)
            default:
                throw SMCDecodingError(.badEnvelope, at: flagOffset, "envelope flag \(flag)")
            }
        } catch {
            decoder.nodes.discard()
            throw error
        }
    }
}
