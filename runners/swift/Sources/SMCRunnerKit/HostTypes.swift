import Foundation
import SMCNotation
import StandardMessageCodec

/// Host values of spec §17 (`{"type": T, "value": X}`) for the vocabularies this runner
/// speaks: `swift` (§17.5) and `any` (§17.9). `build` makes a Swift value of exactly the type
/// named and `SMCWriter` encodes it as it would any such value; `describe` names the type of
/// each node `SMCReader` decoded. The runner never picks a wire type: that is the codec's job,
/// and what the host-type vectors test.
public enum HostTypes {
    public static let vocabularies = ["swift", "any"]

    private static let anyTypes = [
        "null": "nil", "bool": "Bool", "int32": "Int32",
        "float32": "Float", "float64": "Double", "string": "String",
        "bytes": "Data",
    ]

    public static func build(_ vocab: String, _ node: JSONValue) throws -> Any? {
        guard let type = node["type"]?.stringValue, let x = node["value"] else {
            throw NotApplicable(reason: "a host value is {\"type\": T, \"value\": X}")
        }
        let name = vocab == "any" ? anyTypes[type] : type
        switch name {
        case "nil"?: return nil as Any?
        case "NSNull"?: return NSNull()
        case "Bool"?:
            guard case .bool(let flag) = x else { throw bad(type) }
            return flag
        case "Int8"?: return try int(x, Int8.self)
        case "Int16"?: return try int(x, Int16.self)
        case "Int32"?: return try int(x, Int32.self)
        case "Int64"?: return try int(x, Int64.self)
        case "Int"?: return try int(x, Int.self)
        case "UInt8"?: return try int(x, UInt8.self)
        case "UInt16"?: return try int(x, UInt16.self)
        case "UInt32"?: return try int(x, UInt32.self)
        case "UInt64"?: return try int(x, UInt64.self)
        case "UInt"?: return try int(x, UInt.self)
        case "Float"?: return Float(bitPattern: try bits(x, UInt32.self))
        case "Double"?: return Double(bitPattern: try bits(x, UInt64.self))
        case "String"?:
            guard let text = x.stringValue else { throw bad(type) }
            return text
        case "NSString"?: return try nsString(x)
        case "Data"?: return Data(try bytes(x))
        case "[UInt8]"?: return try bytes(x)
        case "[Int32]"?: return try items(x).map { try int($0, Int32.self) }
        case "[Int64]"?: return try items(x).map { try int($0, Int64.self) }
        case "[Int]"?: return try items(x).map { try int($0, Int.self) }
        case "[Float]"?: return try items(x).map { Float(bitPattern: try bits($0, UInt32.self)) }
        case "[Double]"?: return try items(x).map { Double(bitPattern: try bits($0, UInt64.self)) }
        case "Array"?: return try items(x).map { try build(vocab, $0) } as [Any?]
        case "Dictionary"?:
            var map = [AnyHashable: Any?]()
            for pair in try items(x) {
                guard let kv = pair.arrayValue, kv.count == 2 else { throw bad(type) }
                guard let key = try build(vocab, kv[0]) else {
                    map[AnyHashable(SMCNull())] = .some(try build(vocab, kv[1]))
                    continue
                }
                guard let hashable = key as? AnyHashable else { throw bad(type) }
                map[hashable] = .some(try build(vocab, kv[1]))
            }
            return map
        default:
            throw NotApplicable(reason: "no \(vocab) host type \(type)")
        }
    }

    /// The §17.5 decode table: the host type of each node `SMCReader` returned.
    public static func describe(_ value: Any?) -> JSONValue {
        guard let value = value else { return hv("nil", .null) }
        switch value {
        case let flag as Bool where type(of: value) == Bool.self: return hv("Bool", .bool(flag))
        case let n as Int32: return hv("Int32", .string(String(n)))
        case let n as Int64: return hv("Int64", .string(String(n)))
        case let d as Double: return hv("Double", .string(Hex.encode(bits: d.bitPattern)))
        case let s as String: return hv("String", .string(s))
        case let data as Data: return hv("Data", .string(Hex.encode(data)))
        // An empty array casts to every array type, so the dynamic type decides (an empty
        // Int64List is [Int64], not the first array case that matches; issue 31).
        case let xs as [Int32] where type(of: value) == [Int32].self:
            return hv("[Int32]", .array(xs.map { .string(String($0)) }))
        case let xs as [Int64] where type(of: value) == [Int64].self:
            return hv("[Int64]", .array(xs.map { .string(String($0)) }))
        case let xs as [Double] where type(of: value) == [Double].self:
            return hv("[Double]", .array(xs.map { .string(Hex.encode(bits: $0.bitPattern)) }))
        case let xs as [Float] where type(of: value) == [Float].self:
            return hv("[Float]", .array(xs.map { .string(Hex.encode(bits: $0.bitPattern)) }))
        case let xs as [Any?]: return hv("Array", .array(xs.map { describe($0) }))
        case let map as [AnyHashable: Any?]:
            return hv(
                "Dictionary",
                .array(
                    map.map { entry in
                        let key: Any? = entry.key.base is SMCNull ? nil : entry.key.base
                        return .array([describe(key), describe(entry.value)])
                    }))
        default:
            return hv(String(describing: type(of: value)), .null)  // outside the table: as it is
        }
    }

    private static func hv(_ type: String, _ value: JSONValue) -> JSONValue {
        .object([("type", .string(type)), ("value", value)])
    }

    private static func bad(_ type: String) -> NotApplicable {
        NotApplicable(reason: "not a literal of \(type)")
    }

    /// An `NSString` literal (spec §17.1): a JSON string (the JSON reader refuses lone-surrogate
    /// escapes), or `{"utf16": H}`, 4 lower-case hex digits per code unit, the code units as
    /// they are: the one way a lone surrogate gets in. A Swift `String` holds scalars only, so
    /// its case above takes no utf16 literal.
    private static func nsString(_ x: JSONValue) throws -> NSString {
        if let text = x.stringValue { return NSString(string: text) }
        guard case .object(let fields) = x, fields.count == 1, fields[0].0 == "utf16",
            let hex = fields[0].1.stringValue, let units = utf16Units(hex)
        else { throw bad("NSString") }
        let text = NSString(characters: units, length: units.count)
        // swift-corelibs-foundation (Linux) stores an NSString as a Swift String, which repairs a
        // lone surrogate to U+FFFD: such a value cannot be built here, and building another one
        // would judge the codec on a string it was never given.
        guard (0..<text.length).map({ text.character(at: $0) }) == units else {
            throw NotApplicable(
                reason: "this Foundation's NSString replaces a lone surrogate with U+FFFD, so "
                    + "\(hex) cannot be built (spec §17.1)")
        }
        return text
    }

    /// The code units of H, 4 lower-case hex digits each; nil if H is not that.
    static func utf16Units(_ hex: String) -> [UInt16]? {
        let digits = Array(hex.utf8)
        guard digits.count % 4 == 0 else { return nil }
        var units = [UInt16]()
        for start in stride(from: 0, to: digits.count, by: 4) {
            var unit: UInt16 = 0
            for d in digits[start..<start + 4] {
                switch d {
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    unit = unit << 4 | UInt16(d - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"):
                    unit = unit << 4 | UInt16(d - UInt8(ascii: "a") + 10)
                default: return nil
                }
            }
            units.append(unit)
        }
        return units
    }

    private static func int<T: FixedWidthInteger>(_ x: JSONValue, _: T.Type) throws -> T {
        guard let text = x.stringValue, let n = T(text) else { throw bad("\(T.self)") }
        return n
    }

    private static func bits<T: FixedWidthInteger & UnsignedInteger>(_ x: JSONValue, _: T.Type)
        throws
        -> T
    {
        guard let text = x.stringValue, let n = Hex.decode(bits: text, as: T.self) else {
            throw bad("\(T.self) bits")
        }
        return n
    }

    private static func bytes(_ x: JSONValue) throws -> [UInt8] {
        guard let text = x.stringValue, let data = Hex.decode(text) else { throw bad("bytes") }
        return data
    }

    private static func items(_ x: JSONValue) throws -> [JSONValue] {
        guard let list = x.arrayValue else { throw bad("array") }
        return list
    }
}
