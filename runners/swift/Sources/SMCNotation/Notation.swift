import StandardMessageCodec

/// Text handed to a converter that is not valid notation (errors.md `bad_notation`).
public struct NotationError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { "bad_notation: \(message)" }
}

/// spec/notation.md: JSON notation <-> SMCValue, method calls and envelopes.
public enum Notation {
    // MARK: Reading (§N.1, §N.3, §N.4 reader rules)

    public static func value(from json: JSONValue) throws -> SMCValue {
        guard case .array(let parts) = json, let word = parts.first?.stringValue else {
            throw NotationError("a value must be an array starting with a type word")
        }
        func arity(_ n: Int) throws {
            if parts.count != n {
                throw NotationError("\(word) needs \(n - 1) element(s), got \(parts.count - 1)")
            }
        }
        func elements() throws -> [JSONValue] {
            try arity(2)
            guard let items = parts[1].arrayValue else {
                throw NotationError("\(word) needs an array")
            }
            return items
        }
        switch word {
        case "null":
            try arity(1)
            return .null
        case "bool":
            try arity(2)
            guard case .bool(let flag) = parts[1] else {
                throw NotationError("bool needs true/false")
            }
            return .bool(flag)
        case "i32":
            try arity(2)
            return .int32(try int32(parts[1]))
        case "i64":
            try arity(2)
            return .int64(try int64(parts[1]))
        case "largeint":
            try arity(2)
            guard let text = parts[1].stringValue else {
                throw NotationError("largeint needs a string")
            }
            return .largeInt(text)
        case "f64":
            try arity(2)
            return .float64(try bits(parts[1], as: UInt64.self))
        case "str":
            try arity(2)
            guard let text = parts[1].stringValue else { throw NotationError("str needs a string") }
            return .string(text)
        case "u8s":
            try arity(2)
            guard let text = parts[1].stringValue, let bytes = Hex.decode(text) else {
                throw NotationError("u8s needs lower-case hex of whole bytes")
            }
            return .uint8List(bytes)
        case "i32s": return .int32List(try elements().map(int32))
        case "i64s": return .int64List(try elements().map(int64))
        case "f64s": return .float64List(try elements().map { try bits($0, as: UInt64.self) })
        case "f32s": return .float32List(try elements().map { try bits($0, as: UInt32.self) })
        case "list": return .list(try elements().map(value(from:)))
        case "map":
            return .map(
                try elements().map { pair in
                    guard let kv = pair.arrayValue, kv.count == 2 else {
                        throw NotationError("a map entry must be a [key, value] array")
                    }
                    return (try value(from: kv[0]), try value(from: kv[1]))
                })
        case "custom":
            try arity(3)
            guard let tag = parts[1].intValue, (128...255).contains(tag) else {
                throw NotationError("custom tag must be an integer in 128..255")
            }
            return .custom(tag: UInt8(tag), value: try value(from: parts[2]))
        default:
            throw NotationError("unknown type word \"\(word)\"")
        }
    }

    static func int32(_ json: JSONValue) throws -> Int32 {
        guard let number = json.intValue, let result = Int32(exactly: number) else {
            throw NotationError("i32 needs a JSON integer in int32 range")
        }
        return result
    }

    /// A canonical decimal string `-?(0|[1-9][0-9]*)` in int64 range, not `-0`.
    static func int64(_ json: JSONValue) throws -> Int64 {
        guard let text = json.stringValue else { throw NotationError("i64 needs a decimal string") }
        let chars = Array(text.utf8)
        let digits = chars.first == UInt8(ascii: "-") ? chars.dropFirst() : chars[...]
        let canonical =
            !digits.isEmpty
            && digits.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            && (digits.first != 0x30 || digits.count == 1)
            && text != "-0"
        guard canonical, let number = Int64(text) else {
            throw NotationError("i64 \"\(text)\" is not a canonical int64 decimal string")
        }
        return number
    }

    static func bits<T: FixedWidthInteger & UnsignedInteger>(
        _ json: JSONValue,
        as type: T.Type
    ) throws -> T {
        guard let text = json.stringValue, let value = Hex.decode(bits: text, as: type) else {
            throw NotationError("expected \(MemoryLayout<T>.size * 2) lower-case hex digits")
        }
        return value
    }

    /// `["call", NAME, V]` (§N.2).
    public static func methodCall(from json: JSONValue) throws -> SMCMethodCall {
        guard case .array(let parts) = json, parts.count == 3,
            parts[0].stringValue == "call", let name = parts[1].stringValue
        else {
            throw NotationError("a method call is [\"call\", NAME, V]")
        }
        return SMCMethodCall(name: name, arguments: try value(from: parts[2]))
    }

    /// `["success", V]` or `["error", CODE, MESSAGE, DETAILS(, STACKTRACE)]` (§N.2).
    public static func envelope(from json: JSONValue) throws -> SMCEnvelope {
        guard case .array(let parts) = json, let word = parts.first?.stringValue else {
            throw NotationError("an envelope is [\"success\", V] or [\"error\", ...]")
        }
        func optionalString(_ json: JSONValue) throws -> String? {
            switch json {
            case .null: return nil
            case .string(let text): return text
            default: throw NotationError("expected a string or null")
            }
        }
        switch word {
        case "success" where parts.count == 2:
            return .success(try value(from: parts[1]))
        case "error" where parts.count == 4 || parts.count == 5:
            guard let code = parts[1].stringValue else {
                throw NotationError("error code must be a string")
            }
            let message = try optionalString(parts[2])
            let details = try value(from: parts[3])
            var stacktrace: SMCStacktrace? = nil
            if parts.count == 5 {
                stacktrace = try optionalString(parts[4]).map { .text($0) } ?? .null
            }
            return .error(code: code, message: message, details: details, stacktrace: stacktrace)
        default:
            throw NotationError(
                "an envelope is [\"success\", V] or [\"error\", CODE, MESSAGE, DETAILS(, STACKTRACE)]"
            )
        }
    }

    // MARK: Writing

    public static func json(_ value: SMCValue) -> JSONValue {
        func tagged(_ word: String, _ rest: JSONValue...) -> JSONValue {
            .array([.string(word)] + rest)
        }
        switch value {
        case .null: return tagged("null")
        case .bool(let flag): return tagged("bool", .bool(flag))
        case .int32(let n): return tagged("i32", .number(String(n)))
        case .int64(let n): return tagged("i64", .string(String(n)))
        case .largeInt(let text): return tagged("largeint", .string(text))
        case .float64(let bits): return tagged("f64", .string(Hex.encode(bits: bits)))
        case .string(let text): return tagged("str", .string(text))
        case .uint8List(let bytes): return tagged("u8s", .string(Hex.encode(bytes)))
        case .int32List(let items): return tagged("i32s", .array(items.map { .number(String($0)) }))
        case .int64List(let items): return tagged("i64s", .array(items.map { .string(String($0)) }))
        case .float64List(let items):
            return tagged("f64s", .array(items.map { .string(Hex.encode(bits: $0)) }))
        case .float32List(let items):
            return tagged("f32s", .array(items.map { .string(Hex.encode(bits: $0)) }))
        case .list(let items): return tagged("list", .array(items.map(json)))
        case .map(let entries):
            return tagged("map", .array(entries.map { .array([json($0.0), json($0.1)]) }))
        case .custom(let tag, let payload):
            return tagged("custom", .number(String(tag)), json(payload))
        }
    }

    public static func json(_ call: SMCMethodCall) -> JSONValue {
        .array([.string("call"), .string(call.name), json(call.arguments)])
    }

    public static func json(_ envelope: SMCEnvelope) -> JSONValue {
        switch envelope {
        case .success(let result):
            return .array([.string("success"), json(result)])
        case .error(let code, let message, let details, let stacktrace):
            var parts: [JSONValue] = [
                .string("error"), .string(code),
                message.map { .string($0) } ?? .null, json(details),
            ]
            switch stacktrace {
            case nil: break
            case .null?: parts.append(.null)
            case .text(let text)?: parts.append(.string(text))
            }
            return .array(parts)
        }
    }
}
