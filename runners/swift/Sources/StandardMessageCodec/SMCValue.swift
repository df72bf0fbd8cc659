/// One StandardMessageCodec value, exactly as the wire carries it (spec §4–§8).
///
/// The model is lossless so that decode → encode reproduces canonical bytes:
/// * `int32` and `int64` are distinct cases (spec §4.2), even for the same number.
/// * Floats are stored as raw IEEE-754 bit patterns so NaN payloads and −0.0 survive
///   (spec §4.3); use `doubleValue` / `doubles` / `floats` for host numbers.
/// * Strings keep their exact UTF-8 bytes, embedded U+0000 included (spec §5.2).
///   Equality compares UTF-8 bytes, not Swift's canonical-equivalence `==`, because
///   "é" and "e\u{301}" are different wire values.
/// * Maps are ordered pairs in wire order, duplicates kept (spec §7.2, §7.3).
public enum SMCValue {
    case null
    case bool(Bool)
    case int32(Int32)
    case int64(Int64)
    /// Tag 5: decoded in flutter mode only, never encodable (spec §4.4). The payload text.
    case largeInt(String)
    /// Tag 6: the binary64 bit pattern.
    case float64(UInt64)
    case string(String)
    case uint8List([UInt8])
    case int32List([Int32])
    case int64List([Int64])
    /// Tag 11: binary64 bit patterns.
    case float64List([UInt64])
    /// Tag 14: binary32 bit patterns.
    case float32List([UInt32])
    case list([SMCValue])
    case map([(SMCValue, SMCValue)])
    /// Tags 128...255 (spec §8): the tag and its one nested value.
    indirect case custom(tag: UInt8, value: SMCValue)
}

extension SMCValue {
    /// A float64 value from a host Double (bits kept as they are).
    public static func double(_ value: Double) -> SMCValue { .float64(value.bitPattern) }

    /// A Float64List from host Doubles.
    public static func doubles(_ values: [Double]) -> SMCValue {
        .float64List(values.map { $0.bitPattern })
    }

    /// A Float32List from host Floats.
    public static func floats(_ values: [Float]) -> SMCValue {
        .float32List(values.map { $0.bitPattern })
    }

    /// The Double of a `float64` value, nil for every other case.
    public var doubleValue: Double? {
        if case .float64(let bits) = self { return Double(bitPattern: bits) }
        return nil
    }

    /// The Doubles of a `float64List`, nil for every other case.
    public var doubles: [Double]? {
        if case .float64List(let bits) = self { return bits.map { Double(bitPattern: $0) } }
        return nil
    }

    /// The Floats of a `float32List`, nil for every other case.
    public var floats: [Float]? {
        if case .float32List(let bits) = self { return bits.map { Float(bitPattern: $0) } }
        return nil
    }

    /// The notation's type word (spec/notation.md §N.1), handy in messages and reports.
    public var typeWord: String {
        switch self {
        case .null: return "null"
        case .bool: return "bool"
        case .int32: return "i32"
        case .int64: return "i64"
        case .largeInt: return "largeint"
        case .float64: return "f64"
        case .string: return "str"
        case .uint8List: return "u8s"
        case .int32List: return "i32s"
        case .int64List: return "i64s"
        case .float64List: return "f64s"
        case .float32List: return "f32s"
        case .list: return "list"
        case .map: return "map"
        case .custom: return "custom"
        }
    }
}

extension SMCValue: Equatable {
    /// Structural equality as in spec/notation.md §N.4: same case, same bits, same UTF-8
    /// bytes, same order. NaN equals NaN with the same bits; 0.0 and −0.0 differ.
    public static func == (lhs: SMCValue, rhs: SMCValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int32(let a), .int32(let b)): return a == b
        case (.int64(let a), .int64(let b)): return a == b
        case (.largeInt(let a), .largeInt(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.float64(let a), .float64(let b)): return a == b
        case (.string(let a), .string(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.uint8List(let a), .uint8List(let b)): return a == b
        case (.int32List(let a), .int32List(let b)): return a == b
        case (.int64List(let a), .int64List(let b)): return a == b
        case (.float64List(let a), .float64List(let b)): return a == b
        case (.float32List(let a), .float32List(let b)): return a == b
        case (.list(let a), .list(let b)): return a == b
        case (.map(let a), .map(let b)):
            guard a.count == b.count else { return false }
            for (x, y) in zip(a, b) where x.0 != y.0 || x.1 != y.1 { return false }
            return true
        case (.custom(let t1, let v1), .custom(let t2, let v2)): return t1 == t2 && v1 == v2
        default: return false
        }
    }
}

/// A decoded method call (spec §10): the name and the one arguments value.
public struct SMCMethodCall: Equatable {
    public var name: String
    public var arguments: SMCValue

    public init(name: String, arguments: SMCValue) {
        self.name = name
        self.arguments = arguments
    }

    public static func == (lhs: SMCMethodCall, rhs: SMCMethodCall) -> Bool {
        lhs.name.utf8.elementsEqual(rhs.name.utf8) && lhs.arguments == rhs.arguments
    }
}

/// The optional 4th element of an error envelope (spec §11.3) when it is present:
/// a null (wire `00`) or a string.
public enum SMCStacktrace: Equatable {
    case null
    case text(String)

    public static func == (lhs: SMCStacktrace, rhs: SMCStacktrace) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.text(let a), .text(let b)): return a.utf8.elementsEqual(b.utf8)
        default: return false
        }
    }
}

/// A method-codec envelope (spec §11). `message == nil` is wire `00`, distinct from `""`;
/// `stacktrace == nil` is the 3-element form.
public enum SMCEnvelope: Equatable {
    case success(SMCValue)
    case error(code: String, message: String?, details: SMCValue, stacktrace: SMCStacktrace?)

    public static func == (lhs: SMCEnvelope, rhs: SMCEnvelope) -> Bool {
        switch (lhs, rhs) {
        case (.success(let a), .success(let b)): return a == b
        case (.error(let c1, let m1, let d1, let s1), .error(let c2, let m2, let d2, let s2)):
            let sameMessage: Bool
            switch (m1, m2) {
            case (nil, nil): sameMessage = true
            case (let a?, let b?): sameMessage = a.utf8.elementsEqual(b.utf8)
            default: sameMessage = false
            }
            return c1.utf8.elementsEqual(c2.utf8) && sameMessage && d1 == d2 && s1 == s2
        default: return false
        }
    }
}
