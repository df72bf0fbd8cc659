import Foundation

/// A well-formed value of another wire type than a typed read expects: a schema error, not
/// a malformed message. `offset` is the offset of the value's tag, `tag` the tag found.
public struct SMCTypeMismatchError: Error, Equatable, CustomStringConvertible, Sendable {
    public let offset: Int
    public let tag: UInt8
    public let expected: String

    public init(offset: Int, tag: UInt8, expected: String) {
        self.offset = offset
        self.tag = tag
        self.expected = expected
    }

    public var description: String {
        "tag \(tag) at offset \(offset), expected \(expected) or null"
    }
}

// MARK: Typed reads, for generated code

/// Pigeon's Swift code reads a data class as `readValue() as! [Any?]` and casts each field,
/// which boxes every field into an `Any` and runs a dynamic cast per field. These reads put
/// one field straight into its Swift type: null → nil, the expected wire type → the value,
/// any other well-formed value → `SMCTypeMismatchError`. Malformed bytes fail with the
/// `SMCDecodingError` (class + offset) that `readValue()` reports for them, after the same
/// checks in the same order (spec/errors.md §14.2), and containers count against the depth
/// limit like every other container (spec §15.1). Every value owns its storage.
extension SMCReader {
    /// The next tag and its offset (spec §14.2 step 1: a missing tag is `truncated`).
    @inline(__always)
    private func readTag() throws -> (tag: UInt8, offset: Int) {
        let offset = state.pointee.cursor.position
        return (try state.pointee.cursor.readByte("a value (its tag)"), offset)
    }

    /// The error for a tag that is not the expected one: `unknown_tag` when no value may
    /// carry it in this mode (what `readValue()` reports), else a type mismatch.
    private func unexpected(_ tag: UInt8, at offset: Int, _ expected: String) -> Error {
        let known =
            tag <= WireTag.float32List
            && !(tag == WireTag.largeInt && state.pointee.options.mode == .strict)
            || tag >= WireTag.firstCustom && state.pointee.options.allowsCustomTags
        if !known { return SMCDecodingError(.unknownTag, at: offset, "tag \(tag)") }
        return SMCTypeMismatchError(offset: offset, tag: tag, expected: expected)
    }

    /// Opens one nesting level for a container whose tag is at `offset` (spec §15.1).
    @inlinable @inline(__always)
    func enterContainer(at offset: Int) throws {
        if state.pointee.depth >= state.pointee.options.maxDepth {
            throw depthLimit(at: offset)
        }
        state.pointee.depth += 1
    }

    @usableFromInline
    func depthLimit(at offset: Int) -> Error {
        SMCDecodingError(
            .depthLimit, at: offset,
            "container nested deeper than \(state.pointee.options.maxDepth)")
    }

    /// The tag of the next value, not consumed; nil at the end of the input. Generated code
    /// uses it to read an `Any?` field or element of a common type with the typed read of
    /// that type (which reports errors as `readValue()` does) instead of `readValue()`'s
    /// dynamic path through `readValue(ofType:)` and its subclass overrides.
    @inlinable public var nextTag: UInt8? { state.pointee.cursor.tag(followedBy: 0) }

    /// The typed reads' fast paths are `@inlinable` (inlined into generated code, no call
    /// per field); the full path after each is a call (`…FullPath`).
    @inlinable
    public func readOptionalBool() throws -> Bool? {
        switch state.pointee.cursor.tag(followedBy: 0) {
        case WireTag.true?:
            state.pointee.cursor.skip(1)
            return true
        case WireTag.false?:
            state.pointee.cursor.skip(1)
            return false
        case WireTag.null?:
            state.pointee.cursor.skip(1)
            return nil
        default: return try readOptionalBoolFullPath()
        }
    }

    @usableFromInline
    func readOptionalBoolFullPath() throws -> Bool? {
        let (tag, offset) = try readTag()
        switch tag {
        case WireTag.null: return nil
        case WireTag.true: return true
        case WireTag.false: return false
        default: throw unexpected(tag, at: offset, "bool")
        }
    }

    // Fast paths: a value of the expected type whose bytes are all present is read behind
    // one bounds check (`tag(followedBy:)`); anything else (null, another tag, a short
    // input, a long size form, strict mode's padding check) takes the full path below it,
    // which consumes nothing the fast path did not, so errors keep their class and offset.

    @inlinable
    public func readOptionalInt32() throws -> Int32? {
        if state.pointee.cursor.tag(followedBy: 4) == WireTag.int32 {
            return Int32(bitPattern: state.pointee.cursor.takeFixed(after: 1, as: UInt32.self))
        }
        return try readOptionalInt32FullPath()
    }

    @usableFromInline
    func readOptionalInt32FullPath() throws -> Int32? {
        let (tag, offset) = try readTag()
        switch tag {
        case WireTag.null: return nil
        case WireTag.int32: return try state.pointee.cursor.readInt32()
        default: throw unexpected(tag, at: offset, "int32")
        }
    }

    /// int64, or int32 widened: Pigeon's Swift fields are `Int64` and its reader accepts
    /// either width (wire-format-notes §4.2).
    @inlinable
    public func readOptionalInt64() throws -> Int64? {
        if state.pointee.cursor.tag(followedBy: 8) == WireTag.int64 {
            return Int64(bitPattern: state.pointee.cursor.takeFixed(after: 1, as: UInt64.self))
        }
        return try readOptionalInt64FullPath()
    }

    @usableFromInline
    func readOptionalInt64FullPath() throws -> Int64? {
        let (tag, offset) = try readTag()
        switch tag {
        case WireTag.null: return nil
        case WireTag.int64:
            return Int64(bitPattern: try state.pointee.cursor.readUInt64("an int64"))
        case WireTag.int32: return Int64(try state.pointee.cursor.readInt32())
        default: throw unexpected(tag, at: offset, "int64")
        }
    }

    @inlinable
    public func readOptionalDouble() throws -> Double? {
        let padding = (8 &- ((state.pointee.cursor.position &+ 1) & 7)) & 7
        if !state.pointee.cursor.strict,
            state.pointee.cursor.tag(followedBy: padding &+ 8) == WireTag.float64
        {
            return Double(
                bitPattern: state.pointee.cursor.takeFixed(after: 1 &+ padding, as: UInt64.self))
        }
        return try readOptionalDoubleFullPath()
    }

    @usableFromInline
    func readOptionalDoubleFullPath() throws -> Double? {
        let (tag, offset) = try readTag()
        switch tag {
        case WireTag.null: return nil
        case WireTag.float64:
            try state.pointee.cursor.skipPadding(state.pointee.cursor.paddingLength(alignment: 8))
            return Double(bitPattern: try state.pointee.cursor.readUInt64("a float64"))
        default: throw unexpected(tag, at: offset, "float64")
        }
    }

    @inlinable
    public func readOptionalString() throws -> String? {
        // A string with a one-byte size: tag, size and bytes checked together.
        if state.pointee.cursor.tag(followedBy: 1) == WireTag.string {
            let length = Int(state.pointee.cursor.byteUnchecked(after: 1))
            if length < 254 && state.pointee.cursor.tag(followedBy: 1 &+ length) != nil {
                state.pointee.cursor.skip(2)
                return try readUTF8Payload(length: length)
            }
        }
        return try readOptionalStringFullPath()
    }

    /// The `length` bytes at the cursor as a String (validated), a call: the string's
    /// construction is too large to inline at every field.
    @usableFromInline
    func readUTF8Payload(length: Int) throws -> String {
        try state.pointee.cursor.readUTF8(length: length)
    }

    @usableFromInline
    func readOptionalStringFullPath() throws -> String? {
        let (tag, offset) = try readTag()
        switch tag {
        case WireTag.null: return nil
        case WireTag.string: return try state.pointee.cursor.readSizedUTF8("a string")
        default: throw unexpected(tag, at: offset, "string")
        }
    }

    /// A Uint8List as `Data` (copied; up to 14 bytes `Data` holds them inline, without a
    /// heap allocation).
    public func readOptionalData() throws -> Data? {
        let (tag, offset) = try readTag()
        switch tag {
        case WireTag.null: return nil
        case WireTag.uint8List: return try state.pointee.cursor.readByteData()
        default: throw unexpected(tag, at: offset, "Uint8List")
        }
    }

    public func readOptionalInt32List() throws -> [Int32]? {
        let (tag, offset) = try readTag()
        switch tag {
        case WireTag.null: return nil
        case WireTag.int32List:
            return try state.pointee.cursor.readTypedList(of: Int32.self, "an Int32List")
        default: throw unexpected(tag, at: offset, "Int32List")
        }
    }

    public func readOptionalInt64List() throws -> [Int64]? {
        let (tag, offset) = try readTag()
        switch tag {
        case WireTag.null: return nil
        case WireTag.int64List:
            return try state.pointee.cursor.readTypedList(of: Int64.self, "an Int64List")
        default: throw unexpected(tag, at: offset, "Int64List")
        }
    }

    public func readOptionalFloat64List() throws -> [Double]? {
        let (tag, offset) = try readTag()
        switch tag {
        case WireTag.null: return nil
        case WireTag.float64List:
            return try state.pointee.cursor.readTypedList(
                of: Double.self, bits: UInt64.self, "a Float64List",
                fromBits: Double.init(bitPattern:))
        default: throw unexpected(tag, at: offset, "Float64List")
        }
    }

    public func readOptionalFloat32List() throws -> [Float]? {
        let (tag, offset) = try readTag()
        switch tag {
        case WireTag.null: return nil
        case WireTag.float32List:
            return try state.pointee.cursor.readTypedList(
                of: Float.self, bits: UInt32.self, "a Float32List",
                fromBits: Float.init(bitPattern:))
        default: throw unexpected(tag, at: offset, "Float32List")
        }
    }

    /// The fast path of `beginList` / `beginMap`: a container of tag `tag` with a one-byte
    /// size and at least the bytes its count implies (spec §14.3), checked together; the
    /// depth limit as in the full path, which is taken (nil) for anything else.
    @inlinable @inline(__always)
    func beginContainerFast(_ tag: UInt8, bytesPerElement: Int) throws -> Int? {
        guard state.pointee.cursor.tag(followedBy: 1) == tag else { return nil }
        let count = Int(state.pointee.cursor.byteUnchecked(after: 1))
        guard count < 254,
            state.pointee.cursor.tag(followedBy: 1 &+ count &* bytesPerElement) != nil
        else { return nil }
        try enterContainer(at: state.pointee.cursor.position)
        state.pointee.cursor.skip(2)
        return count
    }

    /// Opens a List (tag 12): returns its element count (checked against the bytes left,
    /// spec §14.3), one nesting level deeper, or nil for null. The caller reads exactly that
    /// many values, then calls `endContainer()`. This is how a data class's field list is
    /// read (wire-format-notes §4.2). No closure: a generic closure-taking read cannot be
    /// specialised across the module boundary, and cost a witness-table copy per record.
    @inlinable
    public func beginList() throws -> Int? {
        if let count = try beginContainerFast(WireTag.list, bytesPerElement: 1) { return count }
        return try beginListFullPath()
    }

    @usableFromInline
    func beginListFullPath() throws -> Int? {
        let (tag, offset) = try readTag()
        switch tag {
        case WireTag.null: return nil
        case WireTag.list:
            try enterContainer(at: offset)
            return try state.pointee.cursor.readContainerCount(bytesPerElement: 1, "a List")
        default: throw unexpected(tag, at: offset, "List")
        }
    }

    /// Opens a Map (tag 13): its entry count (2 × count values follow), or nil for null;
    /// then `endContainer()`.
    @inlinable
    public func beginMap() throws -> Int? {
        if let count = try beginContainerFast(WireTag.map, bytesPerElement: 2) { return count }
        return try beginMapFullPath()
    }

    @usableFromInline
    func beginMapFullPath() throws -> Int? {
        let (tag, offset) = try readTag()
        switch tag {
        case WireTag.null: return nil
        case WireTag.map:
            try enterContainer(at: offset)
            return try state.pointee.cursor.readContainerCount(bytesPerElement: 2, "a Map")
        default: throw unexpected(tag, at: offset, "Map")
        }
    }

    /// Opens a custom value with tag `customTag` (128...255, spec §8): true, and the caller
    /// reads its one nested value (a class's field list, an enum's index) then calls
    /// `endContainer()`; false for null.
    public func beginCustom(_ customTag: UInt8) throws -> Bool {
        let (tag, offset) = try readTag()
        if tag == WireTag.null { return false }
        guard tag == customTag, tag >= WireTag.firstCustom, state.pointee.options.allowsCustomTags
        else {
            throw unexpected(tag, at: offset, "custom \(customTag)")
        }
        try enterContainer(at: offset)
        return true
    }

    /// Closes the container the last `begin…` call opened.
    @inlinable
    public func endContainer() {
        state.pointee.depth -= 1
    }

    /// Reads and drops one value of any type, with every check of `readValue()` (e.g. a
    /// field a newer schema added).
    public func skipValue() throws { _ = try readValue() }
}

// MARK: Typed writes, for generated code

/// The writing side of the typed reads: each writes one field from its Swift type, nil as
/// null, with the canonical encoding of spec §13. No boxing into `Any`, no type tests.
extension SMCWriter {
    @inlinable @inline(__always)
    public func writeNull() { out.append(WireTag.null) }

    @inlinable @inline(__always)
    public func writeBool(_ value: Bool?) {
        guard let value = value else { return out.append(WireTag.null) }
        out.append(value ? WireTag.true : WireTag.false)
    }

    @inlinable @inline(__always)
    public func writeInt32(_ value: Int32?) {
        guard let value = value else { return out.append(WireTag.null) }
        out.appendTagged(WireTag.int32, value)
    }

    @inlinable @inline(__always)
    public func writeInt64(_ value: Int64?) {
        guard let value = value else { return out.append(WireTag.null) }
        out.appendTagged(WireTag.int64, value)
    }

    @inlinable @inline(__always)
    public func writeDouble(_ value: Double?) {
        guard let value = value else { return out.append(WireTag.null) }
        out.appendTaggedAligned64(WireTag.float64, value.bitPattern)
    }

    @inlinable @inline(__always)
    public func writeString(_ value: String?) throws {
        guard let value = value else { return out.append(WireTag.null) }
        try ValueEncoder(out: out).writeTaggedUTF8(WireTag.string, value)
    }

    @inlinable @inline(__always)
    public func writeData(_ value: Data?) throws {
        guard let value = value else { return out.append(WireTag.null) }
        try value.withUnsafeBytes { try out.appendTaggedSized(WireTag.uint8List, $0) }
    }

    @inlinable @inline(__always)
    public func writeInt32List(_ value: [Int32]?) throws {
        guard let value = value else { return out.append(WireTag.null) }
        try ValueEncoder(out: out).writeTypedList(WireTag.int32List, value)
    }

    @inlinable @inline(__always)
    public func writeInt64List(_ value: [Int64]?) throws {
        guard let value = value else { return out.append(WireTag.null) }
        try ValueEncoder(out: out).writeTypedList(WireTag.int64List, value)
    }

    @inlinable @inline(__always)
    public func writeFloat64List(_ value: [Double]?) throws {
        guard let value = value else { return out.append(WireTag.null) }
        try ValueEncoder(out: out).writeTypedList(WireTag.float64List, value) { $0.bitPattern }
    }

    @inlinable @inline(__always)
    public func writeFloat32List(_ value: [Float]?) throws {
        guard let value = value else { return out.append(WireTag.null) }
        try ValueEncoder(out: out).writeTypedList(WireTag.float32List, value) { $0.bitPattern }
    }

    /// The header of a List of `count` elements (spec §7.1); the caller writes exactly
    /// `count` values after it.
    @inlinable @inline(__always)
    public func writeListHeader(count: Int) throws {
        try out.appendTaggedSize(WireTag.list, count)
    }

    /// The header of a Map of `count` entries (spec §7.2); the caller writes exactly
    /// `count` key-value pairs after it.
    @inlinable @inline(__always)
    public func writeMapHeader(count: Int) throws {
        try out.appendTaggedSize(WireTag.map, count)
    }
}
