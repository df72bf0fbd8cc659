import Foundation

// MARK: `Any?` fields and elements, for generated code

/// A Pigeon data class may have fields of type `Any?` (`Object?` in the Dart schema) and
/// lists of them (`[Any?]`). `readValue()` and `writeValue(_:)` handle them, but each value
/// goes through the overridable dispatch (`readValue(ofType:)` and the subclasses'
/// overrides, or the writer's override chain and its type tests) even when it is one of the
/// common scalars. These two take those scalars on a short path and hand everything else to
/// the overridable methods, so the values, the bytes and the errors are the same, and a
/// subclass's custom types still go through its override.
extension SMCReader {
    /// One value of any type, as `readValue()` reads it: null, true/false, int32, int64,
    /// float64 and string through the typed reads (no call of `readValue(ofType:)`, no
    /// subclass override), which give the values and the errors (class and offset)
    /// `readValue()` gives for those tags; every other tag, the custom tags among them,
    /// through the overridable `readValue()`. A subclass whose `readValue(ofType:)` reads one
    /// of those six standard tags differently must call `readValue()` instead.
    @inlinable @inline(__always)
    public func readAnyValue() throws -> Any? {
        switch nextTag {
        case WireTag.null?:
            _ = try readOptionalBool()  // consumes the null
            return nil
        case WireTag.true?, WireTag.false?: if let flag = try readOptionalBool() { return flag }
        case WireTag.int32?: if let number = try readOptionalInt32() { return number }
        case WireTag.int64?: if let number = try readOptionalInt64() { return number }
        case WireTag.float64?: if let number = try readOptionalDouble() { return number }
        case WireTag.string?: if let text = try readOptionalString() { return text }
        default: break
        }
        // Other tags, and the end of the input (the same `truncated` error as a typed read).
        return try readValue()
    }
}

extension SMCWriter {
    /// The `Any?` at `value` (an element in an array's storage, e.g. within
    /// `withUnsafeBufferPointer`, or a field within `withUnsafePointer(to:)`), read in place:
    /// nil and values whose dynamic type is exactly String, Int32, Int64, Double or Bool
    /// (exact type identity, as `writeValue(_:)` tests it: never a bridged NSNumber) written
    /// with the typed writes, without calling `writeValue(_:)`; anything else (Int, records,
    /// enums, containers, ...) through the overridable `writeValue(_:)`. A subclass whose
    /// `writeValue(_:)` writes one of those five types differently must call it instead.
    ///
    /// Why a pointer: `for item in items` copies each `Any?` out of the array (the Optional's
    /// and the existential's value witnesses) before `writeValue` is even called; read in
    /// place, ~200 instructions per element fewer (bench/README.md, eighth round). Each
    /// `Optional.map` below still copies the element (measured: the `Any` read at the
    /// Optional's start after a `!= nil` test cost more).
    @inlinable @inline(__always)
    public func writeAnyValue(at value: UnsafePointer<Any?>) throws {
        guard let type = value.pointee.map({ ObjectIdentifier(Swift.type(of: $0)) }) else {
            return writeNull()
        }
        if type == ObjectIdentifier(String.self) {
            try writeString(value.pointee.map { smcExactly($0, String.self) })
        } else if type == ObjectIdentifier(Int32.self) {
            writeInt32(value.pointee.map { smcExactly($0, Int32.self) })
        } else if type == ObjectIdentifier(Int64.self) {
            writeInt64(value.pointee.map { smcExactly($0, Int64.self) })
        } else if type == ObjectIdentifier(Double.self) {
            writeDouble(value.pointee.map { smcExactly($0, Double.self) })
        } else if type == ObjectIdentifier(Bool.self) {
            writeBool(value.pointee.map { smcExactly($0, Bool.self) })
        } else {
            try writeValue(value.pointee)
        }
    }

    /// `value` written as `writeAnyValue(at:)` writes it (for a single `Any?` held in a
    /// local or a field).
    @inlinable @inline(__always)
    public func writeAnyValue(_ value: Any?) throws {
        try withUnsafePointer(to: value) { try writeAnyValue(at: $0) }
    }
}

/// `value` when its dynamic type is exactly `T`, which the caller has checked by metatype
/// identity: the existential opened and its contents reinterpreted, with no dynamic cast
/// (what `SMCWriter.writeValue`'s `commonScalar` does). Wrong `T` is undefined behaviour,
/// hence internal.
@inlinable @inline(__always)
func smcExactly<T>(_ value: Any, _: T.Type) -> T {
    func take<U>(_ inner: U) -> T { unsafeBitCast(inner, to: T.self) }
    return _openExistential(value, do: take)
}
