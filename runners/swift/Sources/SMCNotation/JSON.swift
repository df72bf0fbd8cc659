/// A small exact JSON reader and writer (RFC 8259).
///
/// Written by hand instead of using JSONSerialization because the notation needs what
/// Foundation does not promise on every platform: numbers kept as their exact text (an
/// i32 must be an integer literal, `1.0` and `1e2` are rejected), booleans never confused
/// with numbers (Linux returns NSNumber for both), lone surrogate escapes rejected,
/// object member order kept, and nesting of several hundred levels (notation.md §N.4).
public indirect enum JSONValue: Equatable {
    case null
    case bool(Bool)
    /// The number's exact source text.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The member named `key` of an object, nil otherwise.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.0 == key })?.1
    }

    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// An integer number that fits Int (no fraction, no exponent), nil otherwise.
    public var intValue: Int? {
        if case .number(let text) = self { return JSONValue.exactInteger(text) }
        return nil
    }

    /// Parses `-?(0|[1-9][0-9]*)` exactly, nil for anything else or out of Int range.
    static func exactInteger(_ text: String) -> Int? {
        let digits = text.utf8
        guard !digits.isEmpty else { return nil }
        for (index, byte) in digits.enumerated() {
            let isDigit = byte >= 0x30 && byte <= 0x39
            if !(isDigit || (index == 0 && byte == 0x2D)) { return nil }
        }
        return Int(text)
    }
}

public struct JSONParseError: Error, CustomStringConvertible {
    public let offset: Int
    public let message: String
    public var description: String { "JSON error at byte \(offset): \(message)" }
}

public struct JSONParser {
    private let bytes: [UInt8]
    private var position = 0
    private let maxDepth: Int

    /// Parses one JSON document (surrounding whitespace allowed, nothing else after it).
    public static func parse(_ bytes: [UInt8], maxDepth: Int = 2048) throws -> JSONValue {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.position != bytes.count { throw parser.error("text after the JSON value") }
        return value
    }

    public static func parse(_ text: String, maxDepth: Int = 2048) throws -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }

    private init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    private func error(_ message: String) -> JSONParseError {
        JSONParseError(offset: position, message: message)
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws -> JSONValue {
        guard position < bytes.count else { throw error("unexpected end of JSON") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        default: return .number(try parseNumber())
        }
    }

    private mutating func expectLiteral(_ literal: String) throws {
        for byte in literal.utf8 {
            guard position < bytes.count, bytes[position] == byte else {
                throw error("invalid literal")
            }
            position += 1
        }
    }

    private mutating func parseArray(depth: Int) throws -> JSONValue {
        if depth > maxDepth { throw error("JSON nested deeper than \(maxDepth)") }
        position += 1  // [
        var items: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth))
            skipWhitespace()
            guard position < bytes.count else { throw error("unterminated array") }
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "]") { return .array(items) }
            if byte != UInt8(ascii: ",") { throw error("expected , or ] in array") }
        }
    }

    private mutating func parseObject(depth: Int) throws -> JSONValue {
        if depth > maxDepth { throw error("JSON nested deeper than \(maxDepth)") }
        position += 1  // {
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("expected a member name")
            }
            let key = try parseString()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw error("expected :")
            }
            position += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth)))
            skipWhitespace()
            guard position < bytes.count else { throw error("unterminated object") }
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "}") { return .object(members) }
            if byte != UInt8(ascii: ",") { throw error("expected , or } in object") }
        }
    }

    private mutating func parseNumber() throws -> String {
        let start = position
        func digits(_ parser: inout JSONParser) -> Int {
            var n = 0
            while parser.position < parser.bytes.count,
                parser.bytes[parser.position] >= 0x30, parser.bytes[parser.position] <= 0x39
            {
                parser.position += 1
                n += 1
            }
            return n
        }
        if position < bytes.count && bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count else { throw error("invalid number") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else if digits(&self) == 0 {
            throw error("invalid value")
        }
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            position += 1
            if digits(&self) == 0 { throw error("invalid fraction") }
        }
        if position < bytes.count && (bytes[position] | 0x20) == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count
                && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-"))
            {
                position += 1
            }
            if digits(&self) == 0 { throw error("invalid exponent") }
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func parseHex4() throws -> UInt32 {
        guard bytes.count - position >= 4 else { throw error("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            default: throw error("bad hex digit in \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    /// A string; lone surrogate escapes are rejected (notation.md §N.4).
    private mutating func parseString() throws -> String {
        position += 1  // opening quote
        var out: [UInt8] = []
        let runStart = position
        // Fast path: no escapes.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: bytes[runStart..<position], as: UTF8.self)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            position += 1
        }
        out.append(contentsOf: bytes[runStart..<position])
        while true {
            guard position < bytes.count else { throw error("unterminated string") }
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { throw error("unterminated escape") }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if scalar >= 0xD800 && scalar <= 0xDBFF {
                        guard bytes.count - position >= 2, bytes[position] == 0x5C,
                            bytes[position + 1] == UInt8(ascii: "u")
                        else {
                            throw error("lone high surrogate escape")
                        }
                        position += 2
                        let low = try parseHex4()
                        guard low >= 0xDC00 && low <= 0xDFFF else {
                            throw error("high surrogate not followed by a low surrogate")
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                        throw error("lone low surrogate escape")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("bad escape") }
                    out.append(contentsOf: Array(String(Character(unicode)).utf8))
                default: throw error("invalid escape")
                }
            default:
                if byte < 0x20 { throw error("control character in string") }
                out.append(byte)
            }
        }
    }
}

/// Writes JSON text on one line. Non-ASCII is written as raw UTF-8; only `"`, `\` and
/// control characters are escaped (notation.md §N.4).
public enum JSONWriter {
    public static func string(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    public static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: Array("null".utf8))
        case .bool(let flag): out.append(contentsOf: Array((flag ? "true" : "false").utf8))
        case .number(let text): out.append(contentsOf: Array(text.utf8))
        case .string(let text): writeString(text, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(item, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeString(member.0, into: &out)
                out.append(UInt8(ascii: ":"))
                write(member.1, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeString(_ text: String, into out: inout [UInt8]) {
        let hexDigits = Array("0123456789abcdef".utf8)
        out.append(0x22)
        for byte in text.utf8 {
            switch byte {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0x00..<0x20:
                out.append(contentsOf: [
                    0x5C, UInt8(ascii: "u"), 0x30, 0x30,
                    hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 15)],
                ])
            default: out.append(byte)
            }
        }
        out.append(0x22)
    }
}
