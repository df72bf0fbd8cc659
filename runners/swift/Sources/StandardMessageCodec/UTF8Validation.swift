/// RFC 3629 well-formedness check with an exact error position (spec §5.3, errors.md
/// `bad_utf8`). Written by hand because the offset must be "the first byte of the first
/// ill-formed subsequence", which no standard-library API reports.
enum UTF8Validation {
    /// True when `bytes[start ..< start + count]` is all ASCII (so well-formed), tested with a
    /// few word loads: the OR of 8-byte words covering the range (the last one overlapping
    /// its predecessor) instead of a byte loop. Most strings on real channels are short and
    /// ASCII; anything else goes to `firstIllFormedOffset`. The caller guarantees the range
    /// lies inside `bytes`.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeRawBufferPointer, start: Int, count: Int) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let p = base + start
        var bits: UInt64
        if count >= 8 {
            bits = p.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            var i = 0
            while i < count &- 8 {
                bits |= p.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                i &+= 8
            }
        } else if count >= 4 {
            bits = UInt64(
                p.loadUnaligned(as: UInt32.self)
                    | p.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
        } else {
            bits = 0
            for i in 0..<count { bits |= UInt64(p.load(fromByteOffset: i, as: UInt8.self)) }
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }

    /// Returns the offset (into `bytes`) of the first byte of the first ill-formed
    /// subsequence in `bytes[start ..< start + count]`, or nil when the range is
    /// well-formed. The caller guarantees the range lies inside `bytes`.
    ///
    /// A sequence whose lead byte is valid but whose continuation bytes are wrong or
    /// missing is ill-formed from its lead byte on, so the lead byte's offset is reported.
    static func firstIllFormedOffset(
        in bytes: UnsafeRawBufferPointer,
        start: Int, count: Int
    ) -> Int? {
        let end = start + count
        var i = start
        while i < end {
            // ASCII fast path, 8 bytes at a time; alignment does not matter (loadUnaligned).
            if end - i >= 8 {
                let word = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                    continue
                }
            }
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            // Allowed range of the second byte, and the sequence length (RFC 3629 §4).
            let secondLow: UInt8
            let secondHigh: UInt8
            let length: Int
            switch lead {
            case 0xC2...0xDF:
                secondLow = 0x80
                secondHigh = 0xBF
                length = 2
            case 0xE0:
                secondLow = 0xA0
                secondHigh = 0xBF
                length = 3  // no overlongs
            case 0xE1...0xEC, 0xEE...0xEF:
                secondLow = 0x80
                secondHigh = 0xBF
                length = 3
            case 0xED:
                secondLow = 0x80
                secondHigh = 0x9F
                length = 3  // no surrogates
            case 0xF0:
                secondLow = 0x90
                secondHigh = 0xBF
                length = 4  // no overlongs
            case 0xF1...0xF3:
                secondLow = 0x80
                secondHigh = 0xBF
                length = 4
            case 0xF4:
                secondLow = 0x80
                secondHigh = 0x8F
                length = 4  // ≤ U+10FFFF
            default: return i  // 0x80...0xC1 (stray continuation / overlong lead), 0xF5...0xFF
            }
            if end - i < length { return i }
            let second = bytes[i + 1]
            if second < secondLow || second > secondHigh { return i }
            var k = 2
            while k < length {
                if bytes[i + k] & 0xC0 != 0x80 { return i }
                k += 1
            }
            i += length
        }
        return nil
    }
}
