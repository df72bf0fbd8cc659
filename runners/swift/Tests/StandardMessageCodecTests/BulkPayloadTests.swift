import Foundation
import StandardMessageCodec
import XCTest

/// Bulk paths: Uint8Lists and typed lists are copied with one bulk copy (spec §6); large
/// flat values are encoded straight into the result array, containers into a growing
/// buffer. These tests pin the bytes of each path, at every misalignment of the source
/// memory (alignment is by message offset, spec §3.3).
final class BulkPayloadTests: XCTestCase {
    /// Wire bytes of a typed list at message offset 0: tag, size, padding, little-endian
    /// elements, built by hand from the spec rather than by the codec under test.
    private func typedListWire(tag: UInt8, width: Int, elementBytes: [[UInt8]]) -> [UInt8] {
        var wire: [UInt8] = [tag]
        precondition(elementBytes.count < 254, "one-byte size only")
        wire.append(UInt8(elementBytes.count))
        while wire.count % width != 0 { wire.append(0) }
        for element in elementBytes { wire += element }
        return wire
    }

    private func littleEndianBytes<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<MemoryLayout<T>.size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// Decodes `wire` from memory starting `shift` bytes past an 8-aligned address.
    private func decodeShifted(_ wire: [UInt8], shift: Int) throws -> SMCValue {
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: wire.count + 8, alignment: 8)
        defer { block.deallocate() }
        let window = UnsafeMutableRawBufferPointer(rebasing: block[shift..<shift + wire.count])
        wire.withUnsafeBytes { window.copyMemory(from: $0) }
        return try flutterCodec.decodeMessage(unsafeBytes: UnsafeRawBufferPointer(window))
    }

    func testTypedListsDecodeFromEveryMisalignment() throws {
        let int32s: [Int32] = [1, -2, .max, .min, 0x0102_0304]
        let int64s: [Int64] = [1, -2, .max, .min, 0x0102_0304_0506_0708]
        let f64Bits: [UInt64] = [
            Double(1.5).bitPattern, Double(-0.0).bitPattern,
            0x7ff8_0000_0000_0001, 0x0102_0304_0506_0708,
        ]
        let f32Bits: [UInt32] = [
            Float(1.5).bitPattern, Float(-0.0).bitPattern,
            0x7fc0_0001, 0x0102_0304,
        ]
        let cases: [([UInt8], SMCValue)] = [
            (
                typedListWire(tag: 9, width: 4, elementBytes: int32s.map(littleEndianBytes)),
                .int32List(int32s)
            ),
            (
                typedListWire(tag: 10, width: 8, elementBytes: int64s.map(littleEndianBytes)),
                .int64List(int64s)
            ),
            (
                typedListWire(tag: 11, width: 8, elementBytes: f64Bits.map(littleEndianBytes)),
                .float64List(f64Bits)
            ),
            (
                typedListWire(tag: 14, width: 4, elementBytes: f32Bits.map(littleEndianBytes)),
                .float32List(f32Bits)
            ),
            ([8, 5, 0, 1, 0xfe, 0xff, 7], .uint8List([0, 1, 0xfe, 0xff, 7])),
        ]
        for (wire, value) in cases {
            for shift in 0..<8 {
                XCTAssertEqual(
                    try decodeShifted(wire, shift: shift), value,
                    "\(value.typeWord) at shift \(shift)")
            }
            XCTAssertEqual(try flutterCodec.encodeMessage(value), wire, "\(value.typeWord) encode")
        }
    }

    func testLargeUint8ListRoundTripsByteForByte() throws {
        // 70,000 bytes needs the 5-byte size form (spec §2.2): ff + little-endian 70000.
        let payload = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let wire: [UInt8] = [8, 0xff] + littleEndianBytes(UInt32(payload.count)) + payload
        XCTAssertEqual(try flutterCodec.decodeMessage(wire), .uint8List(payload))
        XCTAssertEqual(try flutterCodec.decodeMessage(Data(wire)), .uint8List(payload))
        XCTAssertEqual(try flutterCodec.encodeMessage(.uint8List(payload)), wire)
        XCTAssertEqual(try flutterCodec.encodeMessageData(.uint8List(payload)), Data(wire))
        // Large typed lists take the direct path too: 3000 float64s after tag, 3-byte size
        // (fe b8 0b) and 4 bytes of padding.
        let bits = (0..<3000).map { UInt64($0) &* 0x0101_0101_0101_0101 }
        let f64Wire: [UInt8] =
            [11, 0xfe, 0xb8, 0x0b, 0, 0, 0, 0]
            + Array(bits.map(littleEndianBytes).joined())
        XCTAssertEqual(try flutterCodec.encodeMessage(.float64List(bits)), f64Wire)
        XCTAssertEqual(try flutterCodec.decodeMessage(f64Wire), .float64List(bits))
    }

    func testTruncatedBulkPayloadsFailBeforeAllocating() {
        // Declared 0xffffffff bytes / elements with none present: truncated at the end.
        assertRejects("08 ff ffffffff 00", .truncated, at: 7)
        assertRejects("0b ff ffffffff 00 0000", .truncated, at: 9)
        assertRejects("0e ff ffffffff", .truncated, at: 6)
    }

    func testContainerLargerThanTheSizeGuessGrows() throws {
        // The size guess of a list counts 8 bytes per item; 300 strings of 40 bytes
        // overflow it, so the buffer grows partway through.
        let text = String(repeating: "x", count: 40)
        let value = SMCValue.list(Array(repeating: .string(text), count: 300))
        let item: [UInt8] = [7, 40] + Array(text.utf8)
        let wire: [UInt8] =
            [12, 0xfe] + littleEndianBytes(UInt16(300))
            + Array([[UInt8]](repeating: item, count: 300).joined())
        XCTAssertEqual(try flutterCodec.encodeMessage(value), wire)
        XCTAssertEqual(try flutterCodec.decodeMessage(wire), value)
        let call = SMCMethodCall(name: "m", arguments: value)
        XCTAssertEqual(try flutterCodec.encodeMethodCall(call), [7, 1, 0x6d] + wire)
        XCTAssertEqual(try flutterCodec.encodeEnvelope(.success(value)), [0] + wire)
    }

    func testEncodingErrorAfterPartialWriteThrows() {
        // The error surfaces from inside the direct-to-array write, with nothing returned.
        let value = SMCValue.list([.uint8List([1, 2, 3]), .custom(tag: 3, value: .null)])
        XCTAssertThrowsError(try flutterCodec.encodeMessage(value)) { error in
            XCTAssertTrue(error is SMCEncodingError, "\(error)")
        }
    }

    func testHostFloatListsFromDataSlices() throws {
        let codec = SMCHostMessageCodec()
        let doubles: [Double] = [1.5, -0.0, .infinity, 0x1.0203040506070p-3]
        let floats: [Float] = [1.5, -0.0, .infinity, 0x1.020304p-3]
        let f64Wire = try codec.encode(doubles)
        let f32Wire = try codec.encode(floats)
        XCTAssertEqual(
            [UInt8](f64Wire),
            typedListWire(
                tag: 11, width: 8,
                elementBytes: doubles.map { littleEndianBytes($0.bitPattern) }))
        XCTAssertEqual(
            [UInt8](f32Wire),
            typedListWire(
                tag: 14, width: 4,
                elementBytes: floats.map { littleEndianBytes($0.bitPattern) }))
        // The reader copies its input into aligned memory of its own, so this covers Data
        // slices with a non-zero start index, not misaligned reads (those are covered
        // through `unsafeBytes:` above).
        for shift in 0..<8 {
            let padded = Data(repeating: 0xaa, count: shift) + f64Wire
            let decoded = try codec.decode(padded[shift...]) as? [Double]
            XCTAssertEqual(decoded?.map(\.bitPattern), doubles.map(\.bitPattern), "shift \(shift)")
            let padded32 = Data(repeating: 0xaa, count: shift) + f32Wire
            let decoded32 = try codec.decode(padded32[shift...]) as? [Float]
            XCTAssertEqual(decoded32?.map(\.bitPattern), floats.map(\.bitPattern), "shift \(shift)")
        }
        let bytes = try codec.decode(Data([8, 3, 9, 8, 7])) as? Data
        XCTAssertEqual(bytes, Data([9, 8, 7]))
    }
}
