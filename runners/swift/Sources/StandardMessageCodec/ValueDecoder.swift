/// Wire tags (spec §1.1 table, notes §1.1).
/// Constants, not stored `let`s, so that `@inlinable` code in other modules folds them too.
@usableFromInline
enum WireTag {
    @inlinable static var null: UInt8 { 0x00 }
    @inlinable static var `true`: UInt8 { 0x01 }
    @inlinable static var `false`: UInt8 { 0x02 }
    @inlinable static var int32: UInt8 { 0x03 }
    @inlinable static var int64: UInt8 { 0x04 }
    @inlinable static var largeInt: UInt8 { 0x05 }
    @inlinable static var float64: UInt8 { 0x06 }
    @inlinable static var string: UInt8 { 0x07 }
    @inlinable static var uint8List: UInt8 { 0x08 }
    @inlinable static var int32List: UInt8 { 0x09 }
    @inlinable static var int64List: UInt8 { 0x0a }
    @inlinable static var float64List: UInt8 { 0x0b }
    @inlinable static var list: UInt8 { 0x0c }
    @inlinable static var map: UInt8 { 0x0d }
    @inlinable static var float32List: UInt8 { 0x0e }
    @inlinable static var firstCustom: UInt8 { 0x80 }

    /// Lists, maps and custom values each open one nesting level (spec §15.1).
    @inlinable @inline(__always)
    static func isContainer(_ tag: UInt8) -> Bool {
        tag == list || tag == map || tag >= firstCustom
    }
}

/// Decodes bytes into `SMCValue`s, applying spec/errors.md §14.2's checks in order.
///
/// Recursion is bounded by `options.maxDepth` (the depth check happens before a
/// container is opened), so hostile nesting cannot exhaust the stack.
struct ValueDecoder {
    var cursor: InputCursor
    let options: SMCDecodingOptions

    init(bytes: UnsafeRawBufferPointer, options: SMCDecodingOptions) {
        self.cursor = InputCursor(bytes: bytes, strict: options.mode == .strict)
        self.options = options
    }

    /// One value. `depth` is the number of containers already open around it.
    mutating func readValue(depth: Int) throws -> SMCValue {
        // §14.2 step 1: tag present, depth, then known-ness.
        let tagOffset = cursor.position
        let tag = try cursor.readValueTag(depth: depth, maxDepth: options.maxDepth)
        switch tag {
        case WireTag.null: return .null
        case WireTag.true: return .bool(true)
        case WireTag.false: return .bool(false)
        case WireTag.int32: return .int32(try cursor.readInt32())
        case WireTag.int64: return .int64(Int64(bitPattern: try cursor.readUInt64("an int64")))
        case WireTag.largeInt:
            if options.mode == .strict {
                throw SMCDecodingError(
                    .unknownTag, at: tagOffset,
                    "largeInt (tag 5) is not accepted in strict mode")
            }
            return .largeInt(try cursor.readSizedUTF8("a largeInt"))
        case WireTag.float64:
            try cursor.skipPadding(cursor.paddingLength(alignment: 8))
            return .float64(try cursor.readUInt64("a float64"))
        case WireTag.string: return .string(try cursor.readSizedUTF8("a string"))
        case WireTag.uint8List: return .uint8List(try cursor.readByteArray())
        case WireTag.int32List:
            return .int32List(try cursor.readTypedList(of: Int32.self, "an Int32List"))
        case WireTag.int64List:
            return .int64List(try cursor.readTypedList(of: Int64.self, "an Int64List"))
        case WireTag.float64List:
            return .float64List(try cursor.readTypedList(of: UInt64.self, "a Float64List"))
        case WireTag.float32List:
            return .float32List(try cursor.readTypedList(of: UInt32.self, "a Float32List"))
        case WireTag.list:
            let n = try cursor.readContainerCount(bytesPerElement: 1, "a List")
            var items = [SMCValue]()
            items.reserveCapacity(n)
            for _ in 0..<n {
                if let scalar = cursor.readSmallScalarIfPresent() {
                    items.append(scalar)
                } else {
                    items.append(try readValue(depth: depth + 1))
                }
            }
            return .list(items)
        case WireTag.map:
            let n = try cursor.readContainerCount(bytesPerElement: 2, "a Map")
            var entries = [(SMCValue, SMCValue)]()
            entries.reserveCapacity(n)
            for _ in 0..<n {
                let key = try cursor.readSmallScalarIfPresent() ?? readValue(depth: depth + 1)
                let value = try cursor.readSmallScalarIfPresent() ?? readValue(depth: depth + 1)
                entries.append((key, value))
            }
            return .map(entries)
        case WireTag.firstCustom...:
            if !options.allowsCustomTags {
                throw SMCDecodingError(
                    .unknownTag, at: tagOffset,
                    "custom tag \(tag) with custom values disabled")
            }
            return .custom(tag: tag, value: try readValue(depth: depth + 1))
        default:
            throw SMCDecodingError(.unknownTag, at: tagOffset, "reserved tag \(tag)")
        }
    }

    /// §14.2 step 6: nothing may follow the complete top-level item.
    func requireEnd() throws {
        if !cursor.isAtEnd {
            throw SMCDecodingError(
                .trailingBytes, at: cursor.position,
                "\(cursor.remaining) byte(s) after the complete item")
        }
    }

    // MARK: Entry points

    /// A message: exactly one value (spec §9).
    mutating func decodeMessage() throws -> SMCValue {
        let value = try readValue(depth: 0)
        try requireEnd()
        return value
    }

    /// A method call: name (tag 7) then arguments, aligned from the name's first byte
    /// (spec §10).
    mutating func decodeMethodCall() throws -> SMCMethodCall {
        let name = try cursor.readRequiredString("the method name")
        let arguments = try readValue(depth: 0)
        try requireEnd()
        return SMCMethodCall(name: name, arguments: arguments)
    }

    /// A success or error envelope (spec §11), with the optional 4th element.
    mutating func decodeEnvelope() throws -> SMCEnvelope {
        let flagOffset = cursor.position
        let flag = try cursor.readByte("an envelope (its flag)")
        switch flag {
        case 0:
            let result = try readValue(depth: 0)
            try requireEnd()
            return .success(result)
        case 1:
            let code = try cursor.readRequiredString("the error code")
            let message = try cursor.readOptionalString("the error message")
            let details = try readValue(depth: 0)
            var stacktrace: SMCStacktrace? = nil
            if !cursor.isAtEnd {
                // Bytes after the details are the optional stacktrace (spec §11.3).
                stacktrace =
                    try cursor.readOptionalString("the stacktrace").map { .text($0) } ?? .null
            }
            try requireEnd()
            return .error(code: code, message: message, details: details, stacktrace: stacktrace)
        default:
            throw SMCDecodingError(.badEnvelope, at: flagOffset, "envelope flag \(flag)")
        }
    }
}
