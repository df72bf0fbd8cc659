import Foundation
import StandardMessageCodec
import XCTest

/// One test per wire type, with the literal upstream bytes of
/// ../../../../shared/wire-format-notes.md §3 where they exist (spec §4–§8).
final class ScalarAndStringTests: XCTestCase {
    func testNullAndBooleans() {  // spec §4.1
        assertCanonical(.null, "00")
        assertCanonical(.bool(true), "01")
        assertCanonical(.bool(false), "02")
    }

    func testInt32AndInt64AreDistinct() {  // spec §4.2
        assertCanonical(.int32(0x0123_4567), "0367452301")
        assertCanonical(.int32(.min), "0300000080")
        assertCanonical(.int32(.max), "03ffffff7f")
        assertCanonical(.int64(0x0123_4567_89ab_cdef), "04efcdab8967452301")
        assertCanonical(.int64(.min), "040000000000000080")
        assertCanonical(.int64(5), "040500000000000000")
        XCTAssertNotEqual(SMCValue.int32(5), SMCValue.int64(5))
    }

    func testFloat64KeepsBitsAndAlignsToEight() {  // spec §4.3
        assertCanonical(.double(1.0), "0600000000000000000000000000f03f")
        assertCanonical(.double(-0.0), "06000000000000000000000000000080")
        assertCanonical(.float64(0x7ff0_0000_0000_0001), "0600000000000000010000000000f07f")

        XCTAssertEqual(SMCValue.double(.pi).doubleValue, .pi)
        XCTAssertNotEqual(SMCValue.double(0.0), SMCValue.double(-0.0))
    }

    func testLargeIntDecodesInFlutterModeOnly() throws {  // spec §4.4
        XCTAssertEqual(try flutterCodec.decodeMessage(bytes("05022d31")), .largeInt("-1"))
        assertRejects("05022d31", .unknownTag, at: 0, codec: strictCodec)
        XCTAssertThrowsError(try flutterCodec.encodeMessage(.largeInt("ff"))) { error in
            XCTAssertEqual((error as? SMCEncodingError)?.errorClass, .notEncodable)
        }
    }

    /// spec §5.4, §17.5: UTF-16 code units are written as their scalars, a pair as one 4-byte
    /// scalar; a lone surrogate is refused (R5.4-2), never repaired or dropped.
    func testUTF16CodeUnits() throws {
        XCTAssertEqual(try SMCWriter.scalars(ofUTF16: [0x68, 0xd83d, 0xde00, 0x77]), "h\u{1F600}w")
        for lone: [UInt16] in [
            [0x61, 0xd800, 0x62], [0x61, 0xdc00], [0xdc00, 0xd800], [0x61, 0xd83d],
        ] {
            XCTAssertThrowsError(try SMCWriter.scalars(ofUTF16: lone), "\(lone)") { error in
                XCTAssertEqual((error as? SMCEncodingError)?.errorClass, .notEncodable)
            }
        }
        let writer = SMCWriter(capacityHint: 16)
        try writer.writeValue(NSString(characters: [0x68, 0xd83d, 0xde00, 0x77], length: 4))
        XCTAssertEqual(
            writer.bytes, bytes("070668f09f988077"), "an NSString is written as a string")
    }

    func testStrings() {  // spec §5
        assertCanonical(.string(""), "0700")
        assertCanonical(.string("hello world"), "070b68656c6c6f20776f726c64")
        assertCanonical(.string("h\u{263A}w"), "070568e298ba77")
        assertCanonical(.string("h\u{1F602}w"), "070668f09f988277")
        assertCanonical(.string("a\u{0}b"), "0703610062")  // spec §5.2 embedded NUL
    }

    func testStringsCompareByBytesNotCanonicalEquivalence() {
        // "é" precomposed and decomposed are equal Swift Strings but different wire values.
        assertCanonical(.string("\u{E9}"), "0702c3a9")
        assertCanonical(.string("e\u{301}"), "070365cc81")
        XCTAssertNotEqual(SMCValue.string("\u{E9}"), SMCValue.string("e\u{301}"))
    }

    func testByteOrderMarkSurvives() throws {
        let value = try flutterCodec.decodeMessage(bytes("0703efbbbf"))
        XCTAssertEqual(try flutterCodec.encodeMessage(value), bytes("0703efbbbf"))
    }

    func testTypedLists() {  // spec §6, GLib vectors
        assertCanonical(.uint8List([0, 1, 2, 3, 4]), "08050001020304")
        assertCanonical(
            .int32List([0, -1, 2, -3, 4]),
            "0905000000000000ffffffff02000000fdffffff04000000")
        assertCanonical(
            .int64List([0, -1, 2, -3, 4]),
            "0a050000000000000000000000000000ffffffffffffffff0200000000000000fdffffffffffffff0400000000000000"
        )
        assertCanonical(
            .floats([0, -0.5, 0.25, -0.125, 0.00625]),
            "0e05000000000000000000bf0000803e000000becdcccc3b")
        assertCanonical(
            .doubles([0, -0.5, 0.25, -0.125, 0.00625]),
            "0b050000000000000000000000000000000000000000e0bf000000000000d03f000000000000c0bf9a9999999999793f"
        )
        // spec §6.6: empty typed lists still carry padding.
        assertCanonical(.int32List([]), "09000000")
        assertCanonical(.int64List([]), "0a00000000000000")
        assertCanonical(.float32List([]), "0e000000")
        assertCanonical(.float64List([]), "0b00000000000000")
        assertCanonical(.float32List([0x7fc0_0001]), "0e01000001 00c07f")
    }

    func testListsAndMapsKeepOrderAndDuplicates() {  // spec §7
        assertCanonical(.list([]), "0c00")
        assertCanonical(
            .list([
                .null, .bool(true), .int32(42), .double(.pi), .string("hello"),
                .list([]), .map([]),
            ]),
            "0c070001032a00000006000000000000182d4454fb210940070568656c6c6f0c000d00")
        assertCanonical(
            .map([(.string("a"), .int32(1)), (.string("a"), .int32(2))]),
            "0d0207016103010000000701610302000000")
        XCTAssertNotEqual(
            SMCValue.map([(.int32(1), .null), (.int32(2), .null)]),
            SMCValue.map([(.int32(2), .null), (.int32(1), .null)]))
    }

    func testCustomValues() {  // spec §8
        assertCanonical(.custom(tag: 128, value: .string("hello")), "80070568656c6c6f")
        assertCanonical(.custom(tag: 129, value: .int64(1)), "81040100000000000000")
        assertCanonical(
            .custom(tag: 255, value: .list([.int64(0), .int64(2)])),
            "ff0c02040000000000000000040200000000000000")
        XCTAssertThrowsError(try flutterCodec.encodeMessage(.custom(tag: 12, value: .null)))
        assertRejects(
            "8000", .unknownTag, at: 0, codec: SMCCodec(options: .init(allowsCustomTags: false)))
    }
}
