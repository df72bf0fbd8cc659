/// Writes the canonical encoding (spec §13): shortest sizes, zero padding counted from
/// the start of the buffer, the tag of the value's own type, raw float bits, map entries
/// in the value's order, never tag 5.
struct ValueEncoder {
    let out: OutputBuffer

    init(capacityHint: Int = 256) {
        out = OutputBuffer(initialCapacity: capacityHint)
    }

    init(out: OutputBuffer) {
        self.out = out
    }

    func writeValue(_ value: SMCValue) throws {
        switch value {
        case .null: out.append(WireTag.null)
        case .bool(let flag): out.append(flag ? WireTag.true : WireTag.false)
        case .int32(let number):
            out.append(WireTag.int32)
            out.appendLittleEndian(number)
        case .int64(let number):
            out.append(WireTag.int64)
            out.appendLittleEndian(number)
        case .largeInt:
            throw SMCEncodingError("largeInt (tag 5) is never written (spec §4.4)")
        case .float64(let bits):
            out.append(WireTag.float64)
            out.appendPadding(alignment: 8)
            out.appendLittleEndian(bits)
        case .string(let text):
            out.append(WireTag.string)
            try writeUTF8(text)
        case .uint8List(let bytes):
            out.append(WireTag.uint8List)
            try out.appendSize(bytes.count)
            bytes.withUnsafeBytes { out.append(contentsOf: $0) }
        case .int32List(let elements): try writeTypedList(WireTag.int32List, elements)
        case .int64List(let elements): try writeTypedList(WireTag.int64List, elements)
        case .float64List(let elements): try writeTypedList(WireTag.float64List, elements)
        case .float32List(let elements): try writeTypedList(WireTag.float32List, elements)
        case .list(let items):
            out.append(WireTag.list)
            try out.appendSize(items.count)
            for item in items { try writeValue(item) }
        case .map(let entries):
            out.append(WireTag.map)
            try out.appendSize(entries.count)
            for (key, item) in entries {
                try writeValue(key)
                try writeValue(item)
            }
        case .custom(let tag, let payload):
            guard tag >= WireTag.firstCustom else {
                throw SMCEncodingError("custom tag \(tag) is outside 128...255 (spec §8.1)")
            }
            out.append(tag)
            try writeValue(payload)
        }
    }

    /// Size + UTF-8 bytes (spec §5.1). A Swift String is always well-formed UTF-8, and its
    /// native storage holds the exact bytes it was decoded from, so the bytes round-trip.
    func writeUTF8(_ text: String) throws {
        var text = text
        try text.withUTF8 { utf8 in
            try out.appendSize(utf8.count)
            out.append(contentsOf: UnsafeRawBufferPointer(utf8))
        }
    }

    /// Count, zero padding to the element width, elements (spec §6.2–§6.6; padding is
    /// written for empty lists too).
    func writeTypedList<T: FixedWidthInteger>(_ tag: UInt8, _ elements: [T]) throws {
        out.append(tag)
        try out.appendSize(elements.count)
        out.appendPadding(alignment: MemoryLayout<T>.size)
        out.appendElements(elements)
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
        case let .error(code, message, details, stacktrace):
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
    /// A first guess of the encoded size from the top level only (exact for flat payloads,
    /// a per-element estimate for containers), so large messages start with a buffer of
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
