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
/// The reader copies the input into memory it owns (freed in deinit), and applies the same
/// checks in the same order as `SMCCodec` (spec/errors.md §14.2), including the depth
/// limit, which counts the custom values a subclass reads.
open class SMCReader {
    private let storage: UnsafeMutableRawBufferPointer
    private var cursor: InputCursor
    private var depth = 0
    private var tagOffset = 0

    public var options: SMCDecodingOptions {
        didSet { cursor.strict = options.mode == .strict }
    }
    public var mapStyle: SMCMapStyle

    public init(data: Data, options: SMCDecodingOptions = .flutter,
                mapStyle: SMCMapStyle = .dictionary) {
        let owned = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 16)
        data.withUnsafeBytes { owned.copyMemory(from: $0) }
        storage = owned
        cursor = InputCursor(bytes: UnsafeRawBufferPointer(storage),
                             strict: options.mode == .strict)
        self.options = options
        self.mapStyle = mapStyle
    }

    public convenience init(bytes: [UInt8], options: SMCDecodingOptions = .flutter,
                            mapStyle: SMCMapStyle = .dictionary) {
        self.init(data: Data(bytes), options: options, mapStyle: mapStyle)
    }

    deinit { storage.deallocate() }

    /// Offset of the next byte to read, from the start of the input.
    public var position: Int { cursor.position }
    public var hasMore: Bool { !cursor.isAtEnd }

    /// Reads one value: the tag (with the depth check for containers, spec §15.1), then
    /// `readValue(ofType:)`.
    open func readValue() throws -> Any? {
        let offset = cursor.position
        let tag = try cursor.readByte("a value (its tag)")
        let opensLevel = WireTag.isContainer(tag)
        if opensLevel {
            if depth >= options.maxDepth {
                throw SMCDecodingError(.depthLimit, at: offset,
                                       "container nested deeper than \(options.maxDepth)")
            }
            depth += 1
        }
        defer { if opensLevel { depth -= 1 } }
        tagOffset = offset
        return try readValue(ofType: tag)
    }

    /// The payload of a value whose tag was just read. Subclasses handle their custom
    /// tags and call `super` for the rest.
    open func readValue(ofType type: UInt8) throws -> Any? {
        switch type {
        case WireTag.null: return nil
        case WireTag.true: return true
        case WireTag.false: return false
        case WireTag.int32: return try cursor.readInt32()
        case WireTag.int64: return Int64(bitPattern: try cursor.readUInt64("an int64"))
        case WireTag.largeInt:
            if options.mode == .strict {
                throw SMCDecodingError(.unknownTag, at: tagOffset,
                                       "largeInt (tag 5) is not accepted in strict mode")
            }
            return SMCLargeInt(text: try cursor.readSizedUTF8("a largeInt"))
        case WireTag.float64:
            try cursor.skipPadding(cursor.paddingLength(alignment: 8))
            return Double(bitPattern: try cursor.readUInt64("a float64"))
        case WireTag.string: return try cursor.readSizedUTF8("a string")
        case WireTag.uint8List: return try cursor.readByteData()
        case WireTag.int32List: return try cursor.readTypedList(of: Int32.self, "an Int32List")
        case WireTag.int64List: return try cursor.readTypedList(of: Int64.self, "an Int64List")
        case WireTag.float64List:
            return try cursor.readTypedList(of: Double.self, bits: UInt64.self, "a Float64List",
                                            fromBits: Double.init(bitPattern:))
        case WireTag.float32List:
            return try cursor.readTypedList(of: Float.self, bits: UInt32.self, "a Float32List",
                                            fromBits: Float.init(bitPattern:))
        case WireTag.list:
            let n = try cursor.readContainerCount(bytesPerElement: 1, "a List")
            var items = [Any?]()
            items.reserveCapacity(n)
            for _ in 0 ..< n { items.append(try readValue()) }
            return items
        case WireTag.map:
            let n = try cursor.readContainerCount(bytesPerElement: 2, "a Map")
            switch mapStyle {
            case .orderedPairs:
                var entries = [(key: Any?, value: Any?)]()
                entries.reserveCapacity(n)
                for _ in 0 ..< n {
                    let key = try readValue()
                    entries.append((key: key, value: try readValue()))
                }
                return SMCOrderedMap(entries)
            case .dictionary:
                var map = [AnyHashable: Any?](minimumCapacity: n)
                for _ in 0 ..< n {
                    let key = Self.hashableKey(try readValue())
                    map[key] = .some(try readValue())
                }
                return map
            }
        case WireTag.firstCustom...:
            if !options.allowsCustomTags {
                throw SMCDecodingError(.unknownTag, at: tagOffset,
                                       "custom tag \(type) with custom values disabled")
            }
            return SMCCustomValue(tag: type, value: try readValue())
        default:
            throw SMCDecodingError(.unknownTag, at: tagOffset, "reserved tag \(type)")
        }
    }

    private static func hashableKey(_ key: Any?) -> AnyHashable {
        guard let key = key else { return AnyHashable(SMCNull()) }
        if let hashable = key as? AnyHashable { return hashable }
        return AnyHashable(SMCUnhashableKey(key))
    }

    // MARK: Primitives for subclasses (the FlutterStandardReader vocabulary)

    public func readByte() throws -> UInt8 { try cursor.readByte("a byte") }

    /// A size field (spec §2.2). A size that cannot fit `Int` (32-bit hosts) cannot fit the
    /// remaining input either, so it is `truncated`, like any other length bomb (§14.3).
    public func readSize() throws -> Int {
        guard let size = Int(exactly: try cursor.readSize()) else {
            throw cursor.truncated("a size larger than this host's Int")
        }
        return size
    }

    /// Skips padding to a multiple of `alignment` counted from the input start (spec §3).
    public func readAlignment(_ alignment: Int) throws {
        guard alignment == 1 || alignment == 2 || alignment == 4 || alignment == 8 else { return }
        try cursor.skipPadding(cursor.paddingLength(alignment: alignment))
    }

    /// A size-prefixed UTF-8 string payload (after the tag).
    public func readUTF8() throws -> String { try cursor.readSizedUTF8("a string") }

    /// After the top-level value: fails with `trailing_bytes` if bytes remain (spec §9.1).
    public func finish() throws {
        if !cursor.isAtEnd {
            throw SMCDecodingError(.trailingBytes, at: cursor.position,
                                   "\(cursor.remaining) byte(s) after the complete item")
        }
    }
}
