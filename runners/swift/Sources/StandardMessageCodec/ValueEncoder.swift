/// Writes the canonical encoding (spec §13): shortest sizes, zero padding counted from
/// the start of the buffer, the tag of the value's own type, raw float bits, map entries
/// in the value's order, never tag 5.
@usableFromInline
struct ValueEncoder {
    @usableFromInline let out: OutputBuffer

    init(capacityHint: Int = 256) {
        out = OutputBuffer(initialCapacity: capacityHint)
    }

    @inlinable
    init(out: OutputBuffer) {
        self.out = out
    }

    func writeValue(_ value: borrowing SMCValue) throws {
        if writeScalar(value) { return }
        switch value {
        case .null, .bool, .int32, .int64, .float64: break  // written by writeScalar
        case .largeInt:
            throw SMCEncodingError("largeInt (tag 5) is never written (spec §4.4)")
        case .string(let text): try writeTaggedUTF8(WireTag.string, text)
        case .uint8List(let bytes):
            try bytes.withUnsafeBytes { try out.appendTaggedSized(WireTag.uint8List, $0) }
        case .int32List(let elements): try writeTypedList(WireTag.int32List, elements)
        case .int64List(let elements): try writeTypedList(WireTag.int64List, elements)
        case .float64List(let elements): try writeTypedList(WireTag.float64List, elements)
        case .float32List(let elements): try writeTypedList(WireTag.float32List, elements)
        case .list(let items):
            out.append(WireTag.list)
            try out.appendSize(items.count)
            for i in 0..<items.count {
                if !writeScalar(items[i]) { try writeValue(items[i]) }
            }
        case .map(let entries):
            out.append(WireTag.map)
            try out.appendSize(entries.count)
            for i in 0..<entries.count {
                try writeValue(entries[i].0)
                try writeValue(entries[i].1)
            }
        case .custom(let tag, let payload):
            guard tag >= WireTag.firstCustom else {
                throw SMCEncodingError("custom tag \(tag) is outside 128...255 (spec §8.1)")
            }
            out.append(tag)
            try writeValue(payload)
        }
    }

    /// Writes `value` and returns true if it is a scalar with a trivial payload (no reference
    /// to retain); else writes nothing and returns false.
    @inline(__always)
    func writeScalar(_ value: borrowing SMCValue) -> Bool {
        switch value {
        case .null: out.append(WireTag.null)
        case .bool(let flag): out.append(flag ? WireTag.true : WireTag.false)
        // One capacity check per value, as the typed writes: each separate append checks the
        // capacity and loads and stores the count through the buffer's state pointer again.
        case .int32(let number): out.appendTagged(WireTag.int32, number)
        case .int64(let number): out.appendTagged(WireTag.int64, number)
        case .float64(let bits): out.appendTaggedAligned64(WireTag.float64, bits)
        default: return false
        }
        return true
    }

    /// Size + UTF-8 bytes (spec §5.1). A Swift String is always well-formed UTF-8, and its
    /// native storage holds the exact bytes it was decoded from, so the bytes round-trip.
    @inlinable @inline(__always)
    func writeUTF8(_ text: String) throws {
        // Native and small strings have contiguous UTF-8 (the closure runs); a bridged
        // NSString may not, and takes the copying path.
        let written: Void? = try text.utf8.withContiguousStorageIfAvailable { utf8 in
            try out.appendSize(utf8.count)
            out.append(contentsOf: UnsafeRawBufferPointer(utf8))
        }
        if written == nil {
            var copy = text
            try copy.withUTF8 { utf8 in
                try out.appendSize(utf8.count)
                out.append(contentsOf: UnsafeRawBufferPointer(utf8))
            }
        }
    }

    /// `tag`, then `text` as in `writeUTF8`, the tag, size and bytes behind one capacity
    /// check (`appendTaggedSized`).
    @inlinable @inline(__always)
    func writeTaggedUTF8(_ tag: UInt8, _ text: String) throws {
        let written: Void? = try text.utf8.withContiguousStorageIfAvailable { utf8 in
            try out.appendTaggedSized(tag, UnsafeRawBufferPointer(utf8))
        }
        if written == nil {
            out.append(tag)
            try writeUTF8(text)
        }
    }

    /// Count, zero padding to the element width, elements (spec §6.2–§6.6; padding is
    /// written for empty lists too).
    @inlinable
    func writeTypedList<T: FixedWidthInteger>(_ tag: UInt8, _ elements: [T]) throws {
        try writeTypedList(tag, elements) { $0 }
    }

    /// A typed list of host elements written as their bit patterns (Double → UInt64,
    /// Float → UInt32), with no intermediate array of bits.
    @inlinable @inline(__always)
    func writeTypedList<T, Bits: FixedWidthInteger>(
        _ tag: UInt8, _ elements: [T],
        bits: (T) -> Bits
    ) throws {
        try out.appendTaggedSize(tag, elements.count)
        out.appendPadding(alignment: MemoryLayout<Bits>.size)
        out.appendElements(elements, bits: bits)
    }

    // MARK: Entry points

    func writeMethodCall(_ call: SMCMethodCall) throws {
        out.append(WireTag.string)
        try writeUTF8(call.name)
        try writeValue(call.arguments)
    }

    func writeEnvelope(_ envelope: SMCEnvelope) throws {
        switch envelope {
        case .success(let result):
            out.append(0)
            try writeValue(result)
        case .error(let code, let message, let details, let stacktrace):
            out.append(1)
            out.append(WireTag.string)
            try writeUTF8(code)
            try writeOptionalString(message)
            try writeValue(details)
            switch stacktrace {
            case nil: break
            case .null?: out.append(WireTag.null)
            case .text(let text)?:
                out.append(WireTag.string)
                try writeUTF8(text)
            }
        }
    }

    private func writeOptionalString(_ text: String?) throws {
        guard let text = text else {
            out.append(WireTag.null)
            return
        }
        out.append(WireTag.string)
        try writeUTF8(text)
    }
}

extension SMCValue {
    /// A first guess of the encoded size from the top level only (an upper bound for
    /// flat values, a per-element estimate for containers), so large messages start with a buffer of
    /// about the right size. A full traversal would cost as much as the encode itself.
    var encodedSizeHint: Int {
        switch self {
        case .largeInt(let text), .string(let text): return 6 &+ text.utf8.count
        case .uint8List(let bytes): return 6 &+ bytes.count
        case .int32List(let items): return 13 &+ 4 &* items.count
        case .float32List(let items): return 13 &+ 4 &* items.count
        case .int64List(let items): return 13 &+ 8 &* items.count
        case .float64List(let items): return 13 &+ 8 &* items.count
        case .list(let items): return 6 &+ 8 &* items.count
        case .map(let entries): return 6 &+ 16 &* entries.count
        default: return 256
        }
    }
}

extension SMCValue {
    /// True when `encodedSizeHint` bounds the encoded size from above: for every value but
    /// a container it counts the longest size field and the most padding (spec §2.2,
    /// §3.2); for containers it is only a per-element guess.
    var encodedSizeHintIsUpperBound: Bool {
        switch self {
        case .list, .map, .custom: return false
        default: return true
        }
    }
}

extension SMCEnvelope {
    /// A first guess of the encoded size: the flag plus the result's hint, or the code,
    /// message and stacktrace strings (tag + longest size field each) plus the details'
    /// hint (see `SMCValue.encodedSizeHint`).
    var encodedSizeHint: Int {
        switch self {
        case .success(let result): return 1 &+ result.encodedSizeHint
        case .error(let code, let message, let details, let stacktrace):
            var hint = 19 &+ code.utf8.count &+ details.encodedSizeHint
            hint = hint &+ (message?.utf8.count ?? 0)
            if case .text(let text)? = stacktrace { hint = hint &+ text.utf8.count }
            return hint
        }
    }

    /// True when `encodedSizeHint` bounds the encoded size from above (see
    /// `SMCValue.encodedSizeHintIsUpperBound`).
    var encodedSizeHintIsUpperBound: Bool {
        switch self {
        case .success(let result): return result.encodedSizeHintIsUpperBound
        case .error(_, _, let details, _): return details.encodedSizeHintIsUpperBound
        }
    }
}
