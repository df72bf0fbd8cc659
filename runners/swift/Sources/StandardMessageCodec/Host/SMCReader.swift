import Foundation

/// Reads host values, in the shape of Flutter's `FlutterStandardReader` that Pigeon's
/// generated Swift codecs subclass: override `readValue(ofType:)`, handle your tags
/// (129...255) by calling `readValue()` for the payload, and pass every other tag to
/// `super`. The one difference: reads `throw` an `SMCDecodingError` (class + offset,
/// spec/errors.md) instead of asserting.
///
/// Wire → host (see README.md): null → nil; bool → Bool; int32 → Int32; int64 → Int64;
/// largeInt → SMCLargeInt (flutter mode); float64 → Double (bits kept); string → String;
/// Uint8List → Data; Int32List → [Int32]; Int64List → [Int64]; Float64List → [Double];
/// Float32List → [Float]; List → [Any?]; Map → [AnyHashable: Any?] or SMCOrderedMap
/// (`mapStyle`); unclaimed custom → SMCCustomValue.
///
/// `init(data:)` copies the input into memory the reader owns (freed in deinit);
/// `init(unsafeBytes:)` reads the caller's bytes in place, for a reader used within the
/// scope that keeps them valid (`SMCHostMessageCodec.decode` does that within
/// `Data.withUnsafeBytes`). Either way every value read owns its bytes. The same checks
/// apply in the same order as `SMCCodec` (spec/errors.md §14.2), including the depth limit,
/// which counts the custom values a subclass reads.
open class SMCReader {
    /// Everything a read changes, behind a pointer: Swift checks exclusive access to a
    /// class's stored `var`s at run time (a `swift_beginAccess` / `swift_endAccess` pair on
    /// every access, which took 60% of a typed decode), but not to memory reached through a
    /// pointer. Allocated in init, freed in deinit; never shared.
    @usableFromInline
    struct State {
        @usableFromInline var cursor: InputCursor
        @usableFromInline var depth = 0
        var tagOffset = 0
        @usableFromInline var options: SMCDecodingOptions
        var mapStyle: SMCMapStyle
    }

    /// The reader's copy of the input; nil when it reads the caller's bytes in place.
    private let storage: UnsafeMutableRawBufferPointer?
    @usableFromInline let state: UnsafeMutablePointer<State>

    public var options: SMCDecodingOptions {
        get { state.pointee.options }
        set {
            state.pointee.options = newValue
            state.pointee.cursor.strict = newValue.mode == .strict
        }
    }

    public var mapStyle: SMCMapStyle {
        get { state.pointee.mapStyle }
        set { state.pointee.mapStyle = newValue }
    }

    /// A reader over a copy of `data`: usable for as long as the reader lives.
    public init(
        data: Data, options: SMCDecodingOptions = .flutter,
        mapStyle: SMCMapStyle = .dictionary
    ) {
        let owned = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 16)
        data.withUnsafeBytes { owned.copyMemory(from: $0) }
        storage = owned
        state = Self.makeState(UnsafeRawBufferPointer(owned), options, mapStyle)
    }

    /// A reader over the caller's bytes, read in place: they must stay valid and unchanged
    /// while the reader is used (e.g. within `Data.withUnsafeBytes`). This saves a copy of
    /// the whole input, and for a large message the fresh allocation of that copy, which on
    /// glibc costs page faults on every message (the freed block is trimmed from the heap).
    public init(
        unsafeBytes bytes: UnsafeRawBufferPointer, options: SMCDecodingOptions = .flutter,
        mapStyle: SMCMapStyle = .dictionary
    ) {
        storage = nil
        state = Self.makeState(bytes, options, mapStyle)
    }

    public convenience init(
        bytes: [UInt8], options: SMCDecodingOptions = .flutter,
        mapStyle: SMCMapStyle = .dictionary
    ) {
        self.init(data: Data(bytes), options: options, mapStyle: mapStyle)
    }

    private static func makeState(
        _ bytes: UnsafeRawBufferPointer, _ options: SMCDecodingOptions,
        _ mapStyle: SMCMapStyle
    ) -> UnsafeMutablePointer<State> {
        let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(
            to: State(
                cursor: InputCursor(bytes: bytes, strict: options.mode == .strict),
                options: options, mapStyle: mapStyle))
        return state
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
        storage?.deallocate()
    }

    /// Offset of the next byte to read, from the start of the input.
    public var position: Int { state.pointee.cursor.position }
    public var hasMore: Bool { !state.pointee.cursor.isAtEnd }

    /// Reads one value: the tag (with the depth check for containers, spec §15.1), then
    /// `readValue(ofType:)`.
    open func readValue() throws -> Any? {
        let offset = state.pointee.cursor.position
        let tag = try state.pointee.cursor.readByte("a value (its tag)")
        let opensLevel = WireTag.isContainer(tag)
        if opensLevel {
            if state.pointee.depth >= state.pointee.options.maxDepth {
                throw SMCDecodingError(
                    .depthLimit, at: offset,
                    "container nested deeper than \(state.pointee.options.maxDepth)")
            }
            state.pointee.depth += 1
        }
        defer { if opensLevel { state.pointee.depth -= 1 } }
        state.pointee.tagOffset = offset
        return try readValue(ofType: tag)
    }

    /// The payload of a value whose tag was just read. Subclasses handle their custom
    /// tags and call `super` for the rest.
    open func readValue(ofType type: UInt8) throws -> Any? {
        switch type {
        case WireTag.null: return nil
        case WireTag.true: return true
        case WireTag.false: return false
        case WireTag.int32: return try state.pointee.cursor.readInt32()
        case WireTag.int64:
            return Int64(bitPattern: try state.pointee.cursor.readUInt64("an int64"))
        case WireTag.largeInt:
            if state.pointee.options.mode == .strict {
                throw SMCDecodingError(
                    .unknownTag, at: state.pointee.tagOffset,
                    "largeInt (tag 5) is not accepted in strict mode")
            }
            return SMCLargeInt(text: try state.pointee.cursor.readSizedUTF8("a largeInt"))
        case WireTag.float64:
            try state.pointee.cursor.skipPadding(state.pointee.cursor.paddingLength(alignment: 8))
            return Double(bitPattern: try state.pointee.cursor.readUInt64("a float64"))
        case WireTag.string: return try state.pointee.cursor.readSizedUTF8("a string")
        case WireTag.uint8List: return try state.pointee.cursor.readByteData()
        case WireTag.int32List:
            return try state.pointee.cursor.readTypedList(of: Int32.self, "an Int32List")
        case WireTag.int64List:
            return try state.pointee.cursor.readTypedList(of: Int64.self, "an Int64List")
        case WireTag.float64List:
            return try state.pointee.cursor.readTypedList(
                of: Double.self, bits: UInt64.self, "a Float64List",
                fromBits: Double.init(bitPattern:))
        case WireTag.float32List:
            return try state.pointee.cursor.readTypedList(
                of: Float.self, bits: UInt32.self, "a Float32List",
                fromBits: Float.init(bitPattern:))
        case WireTag.list:
            let n = try state.pointee.cursor.readContainerCount(bytesPerElement: 1, "a List")
            var items = [Any?]()
            items.reserveCapacity(n)
            for _ in 0..<n { items.append(try readValue()) }
            return items
        case WireTag.map:
            let n = try state.pointee.cursor.readContainerCount(bytesPerElement: 2, "a Map")
            switch state.pointee.mapStyle {
            case .orderedPairs:
                var entries = [(key: Any?, value: Any?)]()
                entries.reserveCapacity(n)
                for _ in 0..<n {
                    let key = try readValue()
                    entries.append((key: key, value: try readValue()))
                }
                return SMCOrderedMap(entries)
            case .dictionary:
                var map = [AnyHashable: Any?](minimumCapacity: n)
                for _ in 0..<n {
                    let key = Self.hashableKey(try readValue())
                    map[key] = .some(try readValue())
                }
                return map
            }
        case WireTag.firstCustom...:
            if !state.pointee.options.allowsCustomTags {
                throw SMCDecodingError(
                    .unknownTag, at: state.pointee.tagOffset,
                    "custom tag \(type) with custom values disabled")
            }
            return SMCCustomValue(tag: type, value: try readValue())
        default:
            throw SMCDecodingError(.unknownTag, at: state.pointee.tagOffset, "reserved tag \(type)")
        }
    }

    private static func hashableKey(_ key: Any?) -> AnyHashable {
        guard let key = key else { return AnyHashable(SMCNull()) }
        if let hashable = key as? AnyHashable { return hashable }
        return AnyHashable(SMCUnhashableKey(key))
    }

    // MARK: Primitives for subclasses (the FlutterStandardReader vocabulary)

    public func readByte() throws -> UInt8 { try state.pointee.cursor.readByte("a byte") }

    /// A size field (spec §2.2). A size that cannot fit `Int` (32-bit hosts) cannot fit the
    /// remaining input either, so it is `truncated`, like any other length bomb (§14.3).
    public func readSize() throws -> Int {
        guard let size = Int(exactly: try state.pointee.cursor.readSize()) else {
            throw state.pointee.cursor.truncated("a size larger than this host's Int")
        }
        return size
    }

    /// Skips padding to a multiple of `alignment` counted from the input start (spec §3).
    public func readAlignment(_ alignment: Int) throws {
        guard alignment == 1 || alignment == 2 || alignment == 4 || alignment == 8 else { return }
        try state.pointee.cursor.skipPadding(
            state.pointee.cursor.paddingLength(alignment: alignment))
    }

    /// A size-prefixed UTF-8 string payload (after the tag).
    public func readUTF8() throws -> String { try state.pointee.cursor.readSizedUTF8("a string") }

    /// After the top-level value: fails with `trailing_bytes` if bytes remain (spec §9.1).
    public func finish() throws {
        if !state.pointee.cursor.isAtEnd {
            throw SMCDecodingError(
                .trailingBytes, at: state.pointee.cursor.position,
                "\(state.pointee.cursor.remaining) byte(s) after the complete item")
        }
    }
}
