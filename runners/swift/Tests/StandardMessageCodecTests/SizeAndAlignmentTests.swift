import SMCNotation
import StandardMessageCodec
import XCTest

final class SizeAndAlignmentTests: XCTestCase {
    /// spec §2.2 boundaries, with DART's literal bytes (wire-format-notes §3.1).
    func testSizeBoundaries() throws {
        let cases: [(Int, String)] = [
            (253, "08fd"), (254, "08fefe00"), (65535, "08feffff"),
            (65536, "08ff00000100"),
        ]
        for (length, prefix) in cases {
            let value = SMCValue.uint8List([UInt8](repeating: 0xab, count: length))
            let encoded = try flutterCodec.encodeMessage(value)
            XCTAssertEqual(Hex.encode(encoded.prefix(prefix.count / 2)), prefix, "size \(length)")
            XCTAssertEqual(encoded.count, prefix.count / 2 + length)
            XCTAssertEqual(try strictCodec.decodeMessage(encoded), value)
        }
        let text = String(repeating: "x", count: 254)
        XCTAssertEqual(
            Array(try flutterCodec.encodeMessage(.string(text)).prefix(4)),
            [0x07, 0xfe, 0xfe, 0x00])
    }

    /// spec §2.2: longer size forms are accepted in flutter mode, `not_canonical` at the
    /// escape byte in strict mode.
    func testNonMinimalSizes() throws {
        XCTAssertEqual(try flutterCodec.decodeMessage(bytes("07fe02006162")), .string("ab"))
        XCTAssertEqual(try flutterCodec.decodeMessage(bytes("07ff020000006162")), .string("ab"))
        XCTAssertEqual(try flutterCodec.decodeMessage(bytes("0cff00000000")), .list([]))
        assertRejects("07fe02006162", .notCanonical, at: 1, codec: strictCodec)
        assertRejects("07ff020000006162", .notCanonical, at: 1, codec: strictCodec)
        // fe form holding 0xffff is minimal; ff form holding 0xffff is not.
        assertRejects("08ffffff0000", .notCanonical, at: 1, codec: strictCodec)
        assertRejects("0c02 00 07fe01006100", .notCanonical, at: 4, codec: strictCodec)
    }

    /// spec §3: padding counted from the message start, for every position mod 8.
    func testFloat64AlignmentAtEveryOffset() throws {
        for leading in 0..<8 {
            let items = [SMCValue](repeating: .null, count: leading) + [.double(1.5)]
            let encoded = try flutterCodec.encodeMessage(.list(items))
            let tagOffset = 2 + leading
            let payloadOffset = (tagOffset + 1 + 7) / 8 * 8
            XCTAssertEqual(encoded.count, payloadOffset + 8, "leading \(leading)")
            XCTAssertEqual(
                Array(encoded[(tagOffset + 1)..<payloadOffset]),
                [UInt8](repeating: 0, count: payloadOffset - tagOffset - 1))
            XCTAssertEqual(try strictCodec.decodeMessage(encoded), .list(items))
        }
    }

    /// wire-format-notes §3.6: a method call aligns from the name's first byte; an envelope
    /// counts its flag byte.
    func testAlignmentInMethodCallsAndEnvelopes() throws {
        let call = SMCMethodCall(name: "m", arguments: .double(1.5))
        XCTAssertEqual(
            Hex.encode(try flutterCodec.encodeMethodCall(call)),
            "07016d0600000000000000000000f83f")
        XCTAssertEqual(
            try strictCodec.decodeMethodCall(bytes("07016d0600000000000000000000f83f")), call)
        let envelope = SMCEnvelope.success(.double(1.0))
        XCTAssertEqual(
            Hex.encode(try flutterCodec.encodeEnvelope(envelope)),
            "0006000000000000000000000000f03f")
    }

    /// spec §6.6 / notes §2.4: `[null, Int32List[], 7]` keeps its padding.
    func testEmptyTypedListInsideListIsPadded() {
        assertCanonical(.list([.null, .int32List([]), .int32(7)]), "0c030009000000000307000000")
    }

    /// spec §3.3: flutter mode ignores padding content, strict mode reports the first
    /// non-zero padding byte.
    func testNonZeroPadding() throws {
        XCTAssertEqual(
            try flutterCodec.decodeMessage(bytes("0600ff0000000000000000000000f03f")),
            .double(1.0))
        assertRejects("0600ff0000000000000000000000f03f", .notCanonical, at: 2, codec: strictCodec)
        assertRejects("090100ab01000000", .notCanonical, at: 3, codec: strictCodec)
    }

    /// The decoder aligns by message offset even when the buffer sits at an odd address
    /// (runners/PROTOCOL.md P.2 `shift`).
    func testDecodingFromMisalignedMemory() throws {
        let wire = bytes("0c02000b01 000000 000000000000f03f")
        for shift in 0..<8 {
            let block = UnsafeMutableRawBufferPointer.allocate(
                byteCount: wire.count + 8, alignment: 8)
            defer { block.deallocate() }
            let window = UnsafeMutableRawBufferPointer(rebasing: block[shift..<shift + wire.count])
            wire.withUnsafeBytes { window.copyMemory(from: $0) }
            XCTAssertEqual(
                try flutterCodec.decodeMessage(unsafeBytes: UnsafeRawBufferPointer(window)),
                .list([.null, .doubles([1.0])]), "shift \(shift)")
        }
    }
}
