import Foundation

/// Bounds-checked reads over the bytes of one decode call.
///
/// Every read checks `n <= remaining` before touching memory, with wire-derived sizes
/// widened to UInt64 so no product or sum can overflow (spec §14.3), also on 32-bit hosts.
/// Multi-byte numbers are read with `loadUnaligned` and converted from little-endian
/// (spec §2.1); alignment is computed from `position` — the offset from the first byte
/// of the input — never from the memory address (spec §3.3).
///
/// `@usableFromInline` with the few members the typed reads' fast paths use, so that those
/// inline into generated code (`SMCTypedFields.swift`); `position` is set only by the
/// cursor's own methods.
@usableFromInline
struct InputCursor {
    @usableFromInline let bytes: UnsafeRawBufferPointer
    @usableFromInline var position: Int
    @usableFromInline var strict: Bool

    init(bytes: UnsafeRawBufferPointer, strict: Bool) {
        self.bytes = bytes
        self.position = 0
        self.strict = strict
    }

    var count: Int { bytes.count }
    var remaining: Int { bytes.count - position }
    var isAtEnd: Bool { position >= bytes.count }

    /// `truncated` always reports the input length (errors.md §14.1).
    func truncated(_ what: String) -> SMCDecodingError {
        SMCDecodingError(.truncated, at: count, "input ends inside \(what)")
    }

    /// Fails with `truncated` unless `n` more bytes are present.
    @inline(__always)
    func require(_ n: UInt64, _ what: @autoclosure () -> String) throws {
        if n > UInt64(remaining) { throw truncated(what()) }
    }

    /// The byte at `position`, without advancing. The caller checked `!isAtEnd`.
    @inline(__always)
    func peekUnchecked() -> UInt8 { bytes[position] }

    @inline(__always)
    mutating func readByte(_ what: @autoclosure () -> String) throws -> UInt8 {
        if position >= bytes.count { throw truncated(what()) }
        let byte = bytes[position]
        position += 1
        return byte
    }

    @inline(__always)
    mutating func readInt32() throws -> Int32 {
        try require(4, "an int32")
        let raw = bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self)
        position += 4
        return Int32(bitPattern: UInt32(littleEndian: raw))
    }

    @inline(__always)
    mutating func readUInt64(_ what: @autoclosure () -> String) throws -> UInt64 {
        try require(8, what())
        let raw = bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self)
        position += 8
        return UInt64(littleEndian: raw)
    }

    /// A size field (spec §2.2). Strict mode rejects a longer form than needed with
    /// `not_canonical` at the escape byte.
    @inline(__always)
    mutating func readSize() throws -> UInt32 {
        let escapeOffset = position
        let first = try readByte("a size")
        if first < 254 { return UInt32(first) }
        if first == 254 {
            try require(2, "a 3-byte size")
            let value = UInt16(
                littleEndian: bytes.loadUnaligned(
                    fromByteOffset: position,
                    as: UInt16.self))
            position += 2
            if strict && value < 254 {
                throw SMCDecodingError(
                    .notCanonical, at: escapeOffset,
                    "size \(value) written in the 3-byte form")
            }
            return UInt32(value)
        }
        try require(4, "a 5-byte size")
        let value = UInt32(
            littleEndian: bytes.loadUnaligned(
                fromByteOffset: position,
                as: UInt32.self))
        position += 4
        if strict && value <= 0xFFFF {
            throw SMCDecodingError(
                .notCanonical, at: escapeOffset,
                "size \(value) written in the 5-byte form")
        }
        return value
    }

    /// Skips `n` bytes whose presence was already checked.
    @inlinable @inline(__always)
    mutating func skip(_ n: Int) {
        position += n
    }

    /// Number of padding bytes before an item aligned to `alignment` (a power of two).
    @inline(__always)
    func paddingLength(alignment: Int) -> Int {
        (alignment - (position & (alignment - 1))) & (alignment - 1)
    }

    /// Skips `length` padding bytes (spec §3.3): they must be present; strict mode
    /// requires them to be zero.
    @inline(__always)
    mutating func skipPadding(_ length: Int) throws {
        try require(UInt64(length), "padding")
        if strict {
            for i in position..<position + length where bytes[i] != 0 {
                throw SMCDecodingError(.notCanonical, at: i, "non-zero padding byte")
            }
        }
        position += length
    }

    /// A UTF-8 payload of `length` bytes whose presence was already checked.
    /// (`String(validating:)` in place of the two passes below was slower: it is generic
    /// over the encoding and looked up its metadata per call, +1,000 instructions per
    /// AnrRecord, callgrind.) Inlined into its callers, the typed string read's fast path
    /// among them: typed_decode b_anr_1000 14,379 → 14,331 instructions per record, generic
    /// decode 19.96 M → 18.91 M; g_map10000_str decode 12.85 M → 12.98 M (+1%).
    @inline(__always)
    mutating func readUTF8(length: Int) throws -> String {
        if !UTF8Validation.isASCII(bytes, start: position, count: length),
            let bad = UTF8Validation.firstIllFormedOffset(
                in: bytes, start: position,
                count: length)
        {
            throw SMCDecodingError(.badUTF8, at: bad, "ill-formed UTF-8")
        }
        // One copy straight into the string's storage (inline for up to 15 bytes); the
        // standard library checks the bytes once more (it has no unchecked public
        // initialiser). `String(decoding:as:)` over the same slice scanned ASCII twice:
        // 97 instructions more per AnrRecord (9 strings; b_anr_1000, callgrind).
        if length == 0 { return "" }
        let source = bytes.baseAddress.unsafelyUnwrapped + position
        let text = String(unsafeUninitializedCapacity: length) { buffer in
            UnsafeMutableRawPointer(buffer.baseAddress.unsafelyUnwrapped)
                .copyMemory(from: source, byteCount: length)
            return length
        }
        position += length
        return text
    }

    /// A sized UTF-8 item (string, largeInt, method name, error code…) after its tag.
    /// Inlined: a call per string and per container was ~40 instructions each (callgrind).
    @inline(__always)
    mutating func readSizedUTF8(_ what: String) throws -> String {
        let length = try readSize()
        try require(UInt64(length), what)
        return try readUTF8(length: Int(length))
    }

    /// Uint8List payload after its tag (spec §6.1), copied into a new array with one bulk
    /// copy (`Array.init` from a raw buffer is a memcpy, and for small payloads cheaper
    /// than `init(unsafeUninitializedCapacity:)`, which looks up generic metadata).
    mutating func readByteArray() throws -> [UInt8] {
        [UInt8](try readByteArrayPayload())
    }

    /// Uint8List payload after its tag (spec §6.1) as `Data`, copied once.
    mutating func readByteData() throws -> Data {
        let source = try readByteArrayPayload()
        guard let base = source.baseAddress else { return Data() }
        return Data(bytes: base, count: source.count)
    }

    /// The size field and the presence check of a Uint8List; the bytes are consumed and
    /// returned as a view into the input, to be copied by the caller.
    private mutating func readByteArrayPayload() throws -> UnsafeRawBufferPointer {
        let length = try readSize()
        try require(UInt64(length), "a Uint8List")
        let n = Int(length)
        let source = UnsafeRawBufferPointer(rebasing: bytes[position..<position + n])
        position += n
        return source
    }

    /// Typed-list payload after its tag (spec §6.2–§6.5): count, padding to the element
    /// width, then count × width bytes. The minimum-bytes check (padding + width × count)
    /// comes before the padding is looked at and before anything is allocated (§14.2).
    mutating func readTypedList<Element: FixedWidthInteger>(
        of _: Element.Type,
        _ what: String
    ) throws -> [Element] {
        try readTypedList(of: Element.self, bits: Element.self, what) { $0 }
    }

    /// Typed-list payload whose elements are the `Bits` patterns of `Element` (e.g. Double
    /// from UInt64), so host Float64/Float32 lists need no second pass over the elements.
    /// `fromBits` must reinterpret the bit pattern unchanged (identity, `init(bitPattern:)`).
    ///
    /// On little-endian hosts the wire bytes already are the in-memory elements, so they
    /// are copied with one bulk copy. Padding aligns elements relative to the message start
    /// (spec §3.3), so in a buffer from malloc, Data or an Array they are aligned in memory
    /// too: the source is then bound to `Element` for the duration of the copy and handed to
    /// `Array.init(_: UnsafeBufferPointer)`, whose storage allocation is specialised. (The
    /// `unsafeUninitializedCapacity:` initialiser looks up the array's generic metadata at
    /// run time on every call: ~800 instructions, more than copying a short list.) A
    /// misaligned source (a caller's slice at an odd address) and big-endian hosts read each
    /// element with `loadUnaligned` and convert it from little-endian (spec §2.1).
    @inline(__always)
    mutating func readTypedList<Element, Bits: FixedWidthInteger>(
        of _: Element.Type, bits _: Bits.Type, _ what: String,
        fromBits: (Bits) -> Element
    ) throws -> [Element] {
        let width = MemoryLayout<Bits>.size
        let declared = try readSize()
        let padding = paddingLength(alignment: width)
        try require(UInt64(padding) + UInt64(width) * UInt64(declared), what)
        try skipPadding(padding)
        let n = Int(declared)
        let start = position
        position += n * width
        return Self.copyElements(
            of: Element.self, bits: Bits.self, from: bytes, at: start,
            count: n, fromBits: fromBits)
    }

    /// `count` little-endian elements at `bytes[offset...]` (presence already checked) as a
    /// new array; see `readTypedList`.
    @inline(__always)
    static func copyElements<Element, Bits: FixedWidthInteger>(
        of _: Element.Type, bits _: Bits.Type, from bytes: UnsafeRawBufferPointer, at offset: Int,
        count n: Int, fromBits: (Bits) -> Element
    ) -> [Element] {
        guard n > 0, let base = bytes.baseAddress else { return [] }
        let source = base + offset
        #if _endian(little)
            if MemoryLayout<Element>.stride == MemoryLayout<Bits>.size,
                Int(bitPattern: source) & (MemoryLayout<Element>.alignment - 1) == 0
            {
                return source.withMemoryRebound(to: Element.self, capacity: n) {
                    Array(UnsafeBufferPointer(start: $0, count: n))
                }
            }
        #endif
        var result = [Element]()
        result.reserveCapacity(n)
        for i in 0..<n {
            let raw = source.loadUnaligned(
                fromByteOffset: i &* MemoryLayout<Bits>.size, as: Bits.self)
            result.append(fromBits(Bits(littleEndian: raw)))
        }
        return result
    }

    /// Declared element count of a list or map with the minimum bytes it implies checked
    /// (spec §14.3: list n → n bytes, map n → 2n bytes).
    @inline(__always)
    mutating func readContainerCount(bytesPerElement: UInt64, _ what: String) throws -> Int {
        let declared = try readSize()
        try require(UInt64(declared) * bytesPerElement, what)
        return Int(declared)
    }
}

extension InputCursor {
    /// The tag at `position` when it and the `n` bytes after it are all present: one
    /// bounds check for a whole fixed-size value (the typed reads' fast paths). nil when
    /// the input ends sooner; the caller then takes its full path, which reports where.
    @inlinable @inline(__always)
    func tag(followedBy n: Int) -> UInt8? {
        bytes.count &- position > n ? bytes[position] : nil
    }

    /// The little-endian number `skip` bytes past `position`, and `position` moved past it.
    /// The caller checked its presence with `tag(followedBy:)`.
    @inlinable @inline(__always)
    mutating func takeFixed<T: FixedWidthInteger>(after skip: Int, as _: T.Type) -> T {
        let raw = bytes.loadUnaligned(fromByteOffset: position &+ skip, as: T.self)
        position &+= skip &+ MemoryLayout<T>.size
        return T(littleEndian: raw)
    }

    /// The byte `offset` bytes past `position`, whose presence the caller checked.
    @inlinable @inline(__always)
    func byteUnchecked(after offset: Int) -> UInt8 { bytes[position &+ offset] }
}

extension InputCursor {
    /// Fast path for the commonest container elements: null, booleans, int32 and int64
    /// whose bytes are all present. Returns nil (consuming nothing) for anything else, which
    /// then takes the full path with every check of §14.2; these tags can fail no check.
    @inline(__always)
    mutating func readSmallScalarIfPresent() -> SMCValue? {
        let left = remaining
        guard left > 0 else { return nil }
        switch bytes[position] {
        case WireTag.null:
            position += 1
            return .null
        case WireTag.true:
            position += 1
            return .bool(true)
        case WireTag.false:
            position += 1
            return .bool(false)
        case WireTag.int32 where left >= 5:
            let raw = bytes.loadUnaligned(fromByteOffset: position + 1, as: UInt32.self)
            position += 5
            return .int32(Int32(bitPattern: UInt32(littleEndian: raw)))
        case WireTag.int64 where left >= 9:
            let raw = bytes.loadUnaligned(fromByteOffset: position + 1, as: UInt64.self)
            position += 9
            return .int64(Int64(bitPattern: UInt64(littleEndian: raw)))
        default:
            return nil
        }
    }
}

extension InputCursor {
    /// The tag of a value with `depth` containers open around it (§14.2 step 1): present,
    /// and a container only below `maxDepth`. Consumes the tag.
    @inline(__always)
    mutating func readValueTag(depth: Int, maxDepth: Int) throws -> UInt8 {
        let tagOffset = position
        let tag = try readByte("a value (its tag)")
        if WireTag.isContainer(tag) && depth >= maxDepth {
            throw SMCDecodingError(
                .depthLimit, at: tagOffset,
                "container nested deeper than \(maxDepth)")
        }
        return tag
    }
}

extension InputCursor {
    /// Checks the tag of a fixed-type element of a method call or envelope before decoding
    /// it (errors.md §14.2, last paragraph): a wrong tag is `bad_envelope`, not
    /// `unknown_tag`. Consumes the tag.
    mutating func expectTag(_ allowed: (UInt8) -> Bool, _ what: String) throws -> UInt8 {
        if isAtEnd { throw truncated(what) }
        let tag = peekUnchecked()
        if !allowed(tag) {
            throw SMCDecodingError(.badEnvelope, at: position, "\(what) has tag \(tag)")
        }
        return try readByte(what)
    }

    /// A method name or error code: a string element (tag 7).
    mutating func readRequiredString(_ what: String) throws -> String {
        _ = try expectTag({ $0 == WireTag.string }, what)
        return try readSizedUTF8(what)
    }

    /// An error message or stacktrace: a string or null element.
    mutating func readOptionalString(_ what: String) throws -> String? {
        let tag = try expectTag({ $0 == WireTag.string || $0 == WireTag.null }, what)
        if tag == WireTag.null { return nil }
        return try readSizedUTF8(what)
    }
}
