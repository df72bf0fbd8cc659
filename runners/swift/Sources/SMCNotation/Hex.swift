/// Lower-case hex, the byte notation of vectors and the runner protocol.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String
    where Bytes.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Lower-case fixed-width hex of an integer, most significant digit first.
    public static func encode<T: FixedWidthInteger>(bits value: T) -> String {
        let width = MemoryLayout<T>.size * 2
        let text = String(value, radix: 16)
        return String(repeating: "0", count: width - text.count) + text
    }

    /// Decodes hex; nil if the length is odd or a character is not a hex digit (upper-case
    /// digits are rejected unless `allowUpperCase`).
    public static func decode(_ text: String, allowUpperCase: Bool = false) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 2 == 0 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(chars.count / 2)
        var index = 0
        while index < chars.count {
            guard let high = nibble(chars[index], allowUpperCase),
                let low = nibble(chars[index + 1], allowUpperCase)
            else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    /// Parses exactly `MemoryLayout<T>.size * 2` lower-case hex digits.
    public static func decode<T: FixedWidthInteger & UnsignedInteger>(
        bits text: String,
        as _: T.Type
    ) -> T? {
        let chars = Array(text.utf8)
        guard chars.count == MemoryLayout<T>.size * 2 else { return nil }
        var value: T = 0
        for char in chars {
            guard let digit = nibble(char, false) else { return nil }
            value = value << 4 | T(digit)
        }
        return value
    }

    private static func nibble(_ char: UInt8, _ allowUpperCase: Bool) -> UInt8? {
        switch char {
        case 0x30...0x39: return char - 0x30
        case 0x61...0x66: return char - 0x61 + 10
        case 0x41...0x46 where allowUpperCase: return char - 0x41 + 10
        default: return nil
        }
    }
}
