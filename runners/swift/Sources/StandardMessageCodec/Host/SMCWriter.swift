import Foundation

/// Writes host values, in the shape of Flutter's `FlutterStandardWriter` that Pigeon's
/// generated Swift codecs subclass: override `writeValue(_:)`, write your types as
/// `writeByte(tag)` + `super.writeValue(payload)`, and pass everything else to `super`.
/// Writes `throw` `SMCEncodingError` (`not_encodable`) instead of asserting.
///
/// Host → wire (README.md has the table and the reasons): nil / NSNull / SMCNull → null; Bool → bool;
/// Int8, Int16, Int32, UInt8, UInt16 → int32; Int, Int64, UInt32 → int64 (always, like a
/// Flutter NSNumber of 8 bytes; spec §4.2 "the tag of the value's type"); UInt, UInt64 →
/// int64 when ≤ Int64.max; Double, Float → float64; String → string; Data, [UInt8] →
/// Uint8List; [Int32] → Int32List; [Int64] → Int64List; [Double] → Float64List; [Float] →
/// Float32List; any other array → List; any dictionary → Map (its iteration order);
/// SMCOrderedMap → Map in its order; SMCCustomValue → its tag + payload; SMCValue → as is.
/// Only exactly these array types are typed lists: `[Int32?]` or `[Any?]` is a List.
open class SMCWriter {
    @usableFromInline let out: OutputBuffer

    /// A writer on this thread's kept buffer (the one `SMCCodec`'s small encodes reuse),
    /// already grown by earlier messages, unless `capacityHint` is beyond what a thread
    /// keeps: a message per writer, as Pigeon's codecs write, then costs no buffer object,
    /// no block and no growth of its own. The writer gives the buffer back when it is freed.
    public init(capacityHint: Int = 256) {
        if capacityHint <= OutputBuffer.reusableKeepMax {
            out = OutputBuffer.takeReusable()
            out.reserve(capacityHint)
        } else {
            out = OutputBuffer(initialCapacity: capacityHint)
        }
    }

    deinit { out.offerForReuse() }

    /// The bytes written so far (copies).
    public var bytes: [UInt8] { out.bytes }
    public var data: Data { out.data }

    /// The bytes written, as `Data`; the writer is empty afterwards. A message of up to
    /// 4 KiB is copied out (the writer keeps its block for the next message); a longer one
    /// takes over the writer's block without a copy.
    public func takeData() -> Data { out.takeData() }

    /// The Unicode scalars of UTF-16 code units (a Foundation string, spec §17.5 `NSString`),
    /// refused with not_encodable when one is a lone surrogate, which has no UTF-8 form
    /// (R5.4-2). Bridging to `String` would write U+FFFD for it instead.
    public static func scalars(ofUTF16 units: [UInt16]) throws -> String {
        var i = 0
        while i < units.count {
            let unit = units[i]
            if UTF16.isLeadSurrogate(unit), i + 1 < units.count,
                UTF16.isTrailSurrogate(units[i + 1])
            {
                i += 2
            } else if UTF16.isLeadSurrogate(unit) || UTF16.isTrailSurrogate(unit) {
                throw SMCEncodingError(
                    "string has a lone surrogate at UTF-16 index \(i); UTF-8 cannot carry it (spec §5.4)"
                )
            } else {
                i += 1
            }
        }
        return String(decoding: units, as: UTF16.self)
    }

    open func writeValue(_ value: Any?) throws {
        guard let value = value else {
            out.append(WireTag.null)
            return
        }
        // The commonest types first, with the value opened out of its `Any` box: a metatype
        // comparison and a bit cast instead of an `as?` cast per value (each a runtime call
        // through the dynamic-cast machinery).
        if let scalar = _openExistential(value, do: commonScalar) {
            switch scalar {
            case .string(let text):
                out.append(WireTag.string)
                try ValueEncoder(out: out).writeUTF8(text)
            case .int64(let number): putInt64(number)
            case .int32(let number): putInt32(number)
            case .float64(let number): putFloat64(number)
            case .bool(let flag): out.append(flag ? WireTag.true : WireTag.false)
            }
            return
        }
        let type = ObjectIdentifier(Swift.type(of: value))
        // Exact type identity, not `as?`: on Apple platforms `as?` bridges through NSNumber
        // and would turn an Int64 into a Bool or a Double into an Int32.
        if type == ObjectIdentifier(String.self), let text = value as? String {
            out.append(WireTag.string)
            try ValueEncoder(out: out).writeUTF8(text)
        } else if type == ObjectIdentifier(Int64.self), let number = value as? Int64 {
            putInt64(number)
        } else if type == ObjectIdentifier(Int.self), let number = value as? Int {
            putInt64(Int64(number))
        } else if type == ObjectIdentifier(Int32.self), let number = value as? Int32 {
            putInt32(number)
        } else if type == ObjectIdentifier(Double.self), let number = value as? Double {
            putFloat64(number)
        } else if type == ObjectIdentifier(Bool.self), let flag = value as? Bool {
            out.append(flag ? WireTag.true : WireTag.false)
        } else if let bytes = value as? Data, type == ObjectIdentifier(Data.self) {
            out.append(WireTag.uint8List)
            try out.appendSize(bytes.count)
            bytes.withUnsafeBytes { out.append(contentsOf: $0) }
        } else if type == ObjectIdentifier([UInt8].self), let bytes = value as? [UInt8] {
            try ValueEncoder(out: out).writeValue(.uint8List(bytes))
        } else if type == ObjectIdentifier([Int32].self), let items = value as? [Int32] {
            try ValueEncoder(out: out).writeTypedList(WireTag.int32List, items)
        } else if type == ObjectIdentifier([Int64].self), let items = value as? [Int64] {
            try ValueEncoder(out: out).writeTypedList(WireTag.int64List, items)
        } else if type == ObjectIdentifier([Double].self), let items = value as? [Double] {
            try ValueEncoder(out: out).writeTypedList(WireTag.float64List, items) { $0.bitPattern }
        } else if type == ObjectIdentifier([Float].self), let items = value as? [Float] {
            try ValueEncoder(out: out).writeTypedList(WireTag.float32List, items) { $0.bitPattern }
        } else if type == ObjectIdentifier(Int8.self), let number = value as? Int8 {
            putInt32(Int32(number))
        } else if type == ObjectIdentifier(Int16.self), let number = value as? Int16 {
            putInt32(Int32(number))
        } else if type == ObjectIdentifier(UInt8.self), let number = value as? UInt8 {
            putInt32(Int32(number))
        } else if type == ObjectIdentifier(UInt16.self), let number = value as? UInt16 {
            putInt32(Int32(number))
        } else if type == ObjectIdentifier(UInt32.self), let number = value as? UInt32 {
            putInt64(Int64(number))
        } else if type == ObjectIdentifier(UInt64.self), let number = value as? UInt64 {
            guard let exact = Int64(exactly: number) else {
                throw SMCEncodingError("UInt64 \(number) does not fit int64")
            }
            putInt64(exact)
        } else if type == ObjectIdentifier(UInt.self), let number = value as? UInt {
            guard let exact = Int64(exactly: number) else {
                throw SMCEncodingError("UInt \(number) does not fit int64")
            }
            putInt64(exact)
        } else if type == ObjectIdentifier(Float.self), let number = value as? Float {
            putFloat64(Double(number))
        } else if let optional = value as? SMCOptionalUnwrapping {
            // An Optional inside the Any (an `Int32?` passed as `Any?`): only now, after the
            // exact-type tests above, since a protocol cast per value costs more than they do.
            try writeValue(optional.smcUnwrapped)
        } else if let custom = value as? SMCCustomValue {
            guard custom.tag >= WireTag.firstCustom else {
                throw SMCEncodingError("custom tag \(custom.tag) is outside 128...255 (spec §8.1)")
            }
            out.append(custom.tag)
            try writeValue(custom.value)
        } else if let map = value as? SMCOrderedMap {
            out.append(WireTag.map)
            try out.appendSize(map.entries.count)
            for entry in map.entries {
                try writeValue(entry.key)
                try writeValue(entry.value)
            }
        } else if let wire = value as? SMCValue {
            try ValueEncoder(out: out).writeValue(wire)
        } else if value is NSNull || value is SMCNull {
            out.append(WireTag.null)
        } else if let wrapped = value as? SMCUnhashableKey {
            try writeValue(wrapped.value)
        } else if type == ObjectIdentifier(AnyHashable.self), let key = value as? AnyHashable {
            // A boxed dictionary key handed over directly: write what is inside.
            try writeValue(key.base)
        } else if value is SMCLargeInt {
            throw SMCEncodingError("largeInt (tag 5) is never written (spec §4.4)")
        } else if let text = value as? NSString {
            // Foundation's string (spec §17.5); a Swift String never gets here (its exact type
            // is matched above), though on Linux `is String` holds for an NSString too.
            out.append(WireTag.string)
            let units = (0..<text.length).map { text.character(at: $0) }
            try ValueEncoder(out: out).writeUTF8(try Self.scalars(ofUTF16: units))
        } else if let items = value as? [Any?] {
            out.append(WireTag.list)
            try out.appendSize(items.count)
            for item in items { try writeValue(item) }
        } else if let map = value as? [AnyHashable: Any?] {
            out.append(WireTag.map)
            try out.appendSize(map.count)
            for (key, item) in map {
                try writeValue(key.base)
                try writeValue(item)
            }
        } else {
            throw SMCEncodingError("unsupported value of type \(Swift.type(of: value))")
        }
    }

    private func putInt32(_ number: Int32) { out.appendTagged(WireTag.int32, number) }

    private func putInt64(_ number: Int64) { out.appendTagged(WireTag.int64, number) }

    private func putFloat64(_ number: Double) {
        out.appendTaggedAligned64(WireTag.float64, number.bitPattern)
    }

    // MARK: Primitives for subclasses (the FlutterStandardWriter vocabulary)

    @inlinable @inline(__always)
    public final func writeByte(_ byte: UInt8) { out.append(byte) }

    /// A size field in the shortest form (spec §2.2).
    public func writeSize(_ size: Int) throws { try out.appendSize(size) }

    /// Zero padding to a multiple of `alignment` from the buffer start (spec §3).
    public func writeAlignment(_ alignment: Int) {
        guard alignment == 1 || alignment == 2 || alignment == 4 || alignment == 8 else { return }
        out.appendPadding(alignment: alignment)
    }

    /// A size-prefixed UTF-8 string payload (without the tag).
    public func writeUTF8(_ text: String) throws { try ValueEncoder(out: out).writeUTF8(text) }
}

/// The commonest host types of `SMCWriter.writeValue`, as they are written.
private enum CommonScalar {
    case string(String)
    case int64(Int64)
    case int32(Int32)
    case float64(Double)
    case bool(Bool)
}

/// `value` when its type is exactly String, Int64, Int, Int32, Double or Bool (that type
/// itself: never a bridged or converted one, as with `as?`); nil for any other type. Called
/// through `_openExistential`, so `T` is the dynamic type inside an `Any`.
private func commonScalar<T>(_ value: T) -> CommonScalar? {
    if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
    if T.self == Int64.self { return .int64(unsafeBitCast(value, to: Int64.self)) }
    if T.self == Int.self { return .int64(Int64(unsafeBitCast(value, to: Int.self))) }
    if T.self == Int32.self { return .int32(unsafeBitCast(value, to: Int32.self)) }
    if T.self == Double.self { return .float64(unsafeBitCast(value, to: Double.self)) }
    if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
    return nil
}
