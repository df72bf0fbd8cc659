import SMCNotation
import StandardMessageCodec
import XCTest

/// Class and offset of every decoder error, per spec/errors.md §14.1–§14.3.
final class ErrorTests: XCTestCase {
    func testTruncationReportsInputLength() {
        assertRejects("", .truncated, at: 0)
        for hex in [
            "03", "0367", "03674523", "04efcdab89674523", "060000000000000000",
            "07", "0705", "070568656c6c", "08050001", "09050000", "0905000000",
            "0a0500000000000000", "0c", "0c0700", "0d07", "0d0707", "07fe02", "07ff0200",
            "80", "0c0180",
        ] {
            assertRejects(hex, .truncated, at: hex.count / 2)
        }
    }

    /// spec §14.3: declared sizes checked against the remaining bytes before allocation.
    func testLengthBombsAreTruncatedWithoutAllocating() {
        assertRejects("08ffffffffff", .truncated, at: 6)
        assertRejects("0cffffffffff00", .truncated, at: 7)
        assertRejects("0dffffffff7f0000", .truncated, at: 8)
        assertRejects("0bffffffffff", .truncated, at: 6)
        assertRejects("0eff00000040", .truncated, at: 6)
        assertRejects("0d020000", .truncated, at: 4)  // map of 2 needs 4 bytes, 2 remain
    }

    func testUnknownTags() {
        assertRejects("0f", .unknownTag, at: 0)
        assertRejects("7f", .unknownTag, at: 0)
        assertRejects("0c03 00 01 20", .unknownTag, at: 4)
    }

    func testTrailingBytes() {
        assertRejects("0000", .trailingBytes, at: 1)
        assertRejects("0c0100ff", .trailingBytes, at: 3)
        assertRejects("070161 00 00", .trailingBytes, at: 4, entry: "call")
        assertRejects("00 00 00", .trailingBytes, at: 2, entry: "envelope")
    }

    /// RFC 3629: the offset is the first byte of the first ill-formed subsequence.
    func testBadUTF8Offsets() {
        assertRejects("0701ff", .badUTF8, at: 2)
        assertRejects("070361 80 62", .badUTF8, at: 3)  // stray continuation
        assertRejects("0702c0af", .badUTF8, at: 2)  // overlong lead
        assertRejects("0703e0808f", .badUTF8, at: 2)  // overlong 3-byte
        assertRejects("0704 61 eda080", .badUTF8, at: 3)  // encoded surrogate
        assertRejects("0704f4900080", .badUTF8, at: 2)  // above U+10FFFF
        assertRejects("0703 61 e298", .badUTF8, at: 3)  // cut inside the string
        // past the ASCII fast path
        assertRejects("070b 6162636465666768 e2 28 a1", .badUTF8, at: 10)
        assertRejects("05 01 ff", .badUTF8, at: 2)  // largeInt payload
        assertRejects("0701ff 00", .badUTF8, at: 2, entry: "call")  // method name
    }

    /// spec §15.1: 128 levels decode, the 129th container is rejected at its tag.
    func testDepthLimit() throws {
        func nestedLists(_ levels: Int) -> [UInt8] {
            // levels-1 one-element lists around an empty list: `levels` containers.
            var wire = [UInt8]()
            for _ in 0..<levels - 1 { wire += [0x0c, 0x01] }
            return wire + [0x0c, 0x00]
        }
        XCTAssertNoThrow(try flutterCodec.decodeMessage(nestedLists(128)))
        assertRejects(Hex.encode(nestedLists(129)), .depthLimit, at: 256)
        let customs = [UInt8](repeating: 0x81, count: 128) + [0x00]
        XCTAssertNoThrow(try flutterCodec.decodeMessage(customs))
        let tooManyCustoms = [UInt8](repeating: 0x81, count: 129) + [0x00]
        assertRejects(Hex.encode(tooManyCustoms), .depthLimit, at: 128)
        // A map key counts as one level inside its map.
        assertRejects(
            "0d01 0d01 0c00 00 00", .depthLimit, at: 4,
            codec: SMCCodec(options: .init(maxDepth: 2)))
    }

    func testDepthLimitComesBeforeUnknownAndTruncation() {
        let limited = SMCCodec(options: .init(maxDepth: 1))
        assertRejects("0c01 0c", .depthLimit, at: 2, codec: limited)
        assertRejects("0c01 80", .depthLimit, at: 2, codec: limited)
    }

    func testBadEnvelopeChecksTagsBeforeDecoding() {
        assertRejects("0f", .badEnvelope, at: 0, entry: "call")
        assertRejects("00 00", .badEnvelope, at: 0, entry: "call")
        assertRejects("02", .badEnvelope, at: 0, entry: "envelope")
        assertRejects("ff", .badEnvelope, at: 0, entry: "envelope")
        assertRejects("01 0f", .badEnvelope, at: 1, entry: "envelope")
        assertRejects("01 0700 03", .badEnvelope, at: 3, entry: "envelope")
        assertRejects("01 0700 00 00 03", .badEnvelope, at: 5, entry: "envelope")
        assertRejects("", .truncated, at: 0, entry: "envelope")
        assertRejects("", .truncated, at: 0, entry: "call")
        assertRejects("070568656c6c6f", .truncated, at: 7, entry: "call")
        assertRejects("01", .truncated, at: 1, entry: "envelope")
        assertRejects("0107056572726f7200", .truncated, at: 9, entry: "envelope")
    }
}
