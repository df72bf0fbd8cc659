import Foundation
import SMCNotation
import StandardMessageCodec
import XCTest

/// The typed field reads and writes of SMCReader / SMCWriter (SMCTypedFields.swift): each
/// agrees with the lossless codec on the bytes, rejects malformed input with the class and
/// offset `readValue()` reports, and tells a wrong wire type from a malformed message.
final class TypedFieldTests: XCTestCase {
    private func reader(_ hex: String, options: SMCDecodingOptions = .flutter) -> SMCReader {
        SMCReader(data: Data(bytes(hex)), options: options)
    }

    func testEachReadReturnsItsTypeOrNilForNull() throws {
        XCTAssertEqual(try reader("01").readOptionalBool(), true)
        XCTAssertEqual(try reader("02").readOptionalBool(), false)
        XCTAssertNil(try reader("00").readOptionalBool())
        XCTAssertEqual(try reader("03feffffff").readOptionalInt32(), -2)
        XCTAssertEqual(try reader("040000005eb4f00000").readOptionalInt64(), 0xF0_B45E_0000_00)
        XCTAssertEqual(try reader("0307000000").readOptionalInt64(), 7, "int32 widens to Int64")
        XCTAssertEqual(try reader("06000000000000000000000000000840").readOptionalDouble(), 3.0)
        XCTAssertEqual(try reader("0703 61 00 62").readOptionalString()?.utf8.count, 3)
        XCTAssertEqual(try reader("0802 ff00").readOptionalData(), Data([0xff, 0]))
        XCTAssertEqual(try reader("0902 0000 01000000 feffffff").readOptionalInt32List(), [1, -2])
        XCTAssertEqual(
            try reader("0a01 000000000000 0200000000000000").readOptionalInt64List(), [2])
        XCTAssertEqual(
            try reader("0b01 000000000000 000000000000f03f").readOptionalFloat64List(), [1.0])
        XCTAssertEqual(try reader("0e01 0000 0000803f").readOptionalFloat32List(), [1.0])
        for read in [
            { try $0.readOptionalString() as Any? }, { try $0.readOptionalData() as Any? },
            { try $0.readOptionalInt32List() as Any? }, { try $0.readOptionalDouble() as Any? },
        ]
            as [(SMCReader) throws -> Any?]
        {
            XCTAssertNil(try read(reader("00")) as Any?)
        }
    }

    func testNextTagPeeksWithoutConsuming() throws {
        let r = reader("07 01 61 03 05000000")
        XCTAssertEqual(r.nextTag, 7)
        XCTAssertEqual(r.nextTag, 7, "peeking twice consumes nothing")
        XCTAssertEqual(try r.readOptionalString(), "a")
        XCTAssertEqual(r.nextTag, 3)
        XCTAssertEqual(r.position, 3)
        XCTAssertEqual(try r.readOptionalInt32(), 5)
        XCTAssertNil(r.nextTag, "nil at the end of the input")
    }

    func testContainersGiveTheirCountAndNestOneLevel() throws {
        let r = reader("0c02 0d01 0701 6b 0701 76 8103 05000000")
        XCTAssertEqual(try r.beginList(), 2)
        XCTAssertEqual(try r.beginMap(), 1)
        XCTAssertEqual(try r.readOptionalString(), "k")
        XCTAssertEqual(try r.readOptionalString(), "v")
        r.endContainer()
        XCTAssertEqual(try r.beginCustom(0x81), true)
        XCTAssertEqual(try r.readOptionalInt32(), 5)
        r.endContainer()
        r.endContainer()
        XCTAssertNoThrow(try r.finish())
        XCTAssertNil(try reader("00").beginList())
        XCTAssertNil(try reader("00").beginMap())
        XCTAssertEqual(try reader("00").beginCustom(0x81), false)
    }

    func testAWrongTypeIsAMismatchAtItsTag() {
        let cases: [(String, (SMCReader) throws -> Any?)] = [
            ("0c00", { try $0.readOptionalBool() }),
            ("01", { try $0.readOptionalInt32() }),
            ("0600000000000000000000000000f03f", { try $0.readOptionalInt64() }),
            ("0307000000", { try $0.readOptionalDouble() }),
            ("0801 61", { try $0.readOptionalString() }),
            ("0701 61", { try $0.readOptionalData() }),
            ("0a00 000000000000", { try $0.readOptionalInt32List() }),
            ("0d00", { try $0.beginList() }),
            ("8200", { try $0.beginCustom(0x81) }),
        ]
        for (hex, read) in cases {
            XCTAssertThrowsError(try read(reader(hex)), hex) { error in
                let mismatch = error as? SMCTypeMismatchError
                XCTAssertEqual(mismatch?.offset, 0, "\(hex): \(error)")
                XCTAssertEqual(mismatch?.tag, bytes(hex)[0], hex)
            }
        }
    }

    func testMalformedInputFailsLikeReadValue() {
        // (bytes, class, offset): the same checks as the generic decoder, spec/errors.md §14.2.
        let cases: [(String, SMCErrorClass, Int, (SMCReader) throws -> Any?)] = [
            ("", .truncated, 0, { try $0.readOptionalBool() }),
            ("03 0102", .truncated, 3, { try $0.readOptionalInt32() }),
            ("0f", .unknownTag, 0, { try $0.readOptionalString() }),
            ("0705 6162", .truncated, 4, { try $0.readOptionalString() }),
            ("0702 c328", .badUTF8, 2, { try $0.readOptionalString() }),
            ("0903 0000 01000000", .truncated, 8, { try $0.readOptionalInt32List() }),
            ("0cff ffffffff", .truncated, 6, { try $0.beginList() }),
        ]
        for (hex, errorClass, offset, read) in cases {
            XCTAssertThrowsError(try read(reader(hex)), hex) { error in
                XCTAssertEqual(
                    error as? SMCDecodingError, SMCDecodingError(errorClass, at: offset, ""),
                    "\(hex): \(error)")
            }
        }
        let strict = SMCDecodingOptions.strict
        XCTAssertThrowsError(try reader("07fe0200 6162", options: strict).readOptionalString()) {
            XCTAssertEqual($0 as? SMCDecodingError, SMCDecodingError(.notCanonical, at: 1, ""))
        }
        XCTAssertThrowsError(try reader("0501 31", options: strict).readOptionalString()) {
            XCTAssertEqual(
                $0 as? SMCDecodingError, SMCDecodingError(.unknownTag, at: 0, ""),
                "largeInt in strict mode is unknown_tag, not a mismatch")
        }
        XCTAssertThrowsError(
            try reader("8100", options: SMCDecodingOptions(allowsCustomTags: false))
                .beginCustom(0x81)
        ) {
            XCTAssertEqual($0 as? SMCDecodingError, SMCDecodingError(.unknownTag, at: 0, ""))
        }
    }

    func testTypedContainersCountAgainstTheDepthLimit() throws {
        func nest(_ r: SMCReader) throws -> Int {
            guard let count = try r.beginList() else { return 0 }
            defer { r.endContainer() }
            return count == 0 ? 0 : 1 + (try nest(r))
        }
        let options = SMCDecodingOptions(maxDepth: 3)
        XCTAssertEqual(try nest(reader("0c01 0c01 0c00", options: options)), 2)
        XCTAssertThrowsError(try nest(reader("0c01 0c01 0c01 0c00", options: options))) {
            XCTAssertEqual($0 as? SMCDecodingError, SMCDecodingError(.depthLimit, at: 6, ""))
        }
        // endContainer gives the level back: two sibling lists of depth 3 both fit.
        let r = reader("0c02 0c01 0c00 0c01 0c00", options: options)
        XCTAssertEqual(try r.beginList(), 2)
        XCTAssertEqual(try nest(r), 1)
        XCTAssertEqual(try nest(r), 1)
        r.endContainer()
        XCTAssertNoThrow(try r.finish())
    }

    func testTypedWritesMatchTheLosslessEncoding() throws {
        let w = SMCWriter()
        try w.writeListHeader(count: 14)
        w.writeBool(true)
        w.writeBool(nil)
        w.writeInt32(-2)
        w.writeInt64(3_000_000_000)
        w.writeDouble(0.5)
        try w.writeString("é")
        try w.writeData(Data([1, 2]))
        try w.writeInt32List([7])
        try w.writeInt64List([8])
        try w.writeFloat64List([1.5])
        try w.writeFloat32List([2.5])
        try w.writeMapHeader(count: 1)
        try w.writeString("k")
        w.writeNull()
        w.writeInt32(nil)
        try w.writeString(nil)
        let expected: SMCValue = .list([
            .bool(true), .null, .int32(-2), .int64(3_000_000_000), .double(0.5), .string("é"),
            .uint8List([1, 2]), .int32List([7]), .int64List([8]), .doubles([1.5]), .floats([2.5]),
            .map([(.string("k"), .null)]), .null, .null,
        ])
        XCTAssertEqual(Hex.encode(w.bytes), Hex.encode(try flutterCodec.encodeMessage(expected)))
    }
}
