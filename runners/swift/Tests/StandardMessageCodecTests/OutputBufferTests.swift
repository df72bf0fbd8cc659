@testable import StandardMessageCodec
import XCTest

/// The encoder's direct-to-array path (OutputBuffer.encodeToArray) and the size bounds
/// that choose it: a wrong bound must cost a copy, never wrong bytes.
final class OutputBufferTests: XCTestCase {
    func testDirectEncodingThatFitsWritesTheBytes() throws {
        let bytes = try OutputBuffer.encodeToArray(capacityHint: 64) { out in
            out.append(7)
            try out.appendSize(300)  // 3-byte form: fe + little-endian 300 (spec §2.2)
            out.appendPadding(alignment: 8)
        }
        XCTAssertEqual(bytes, [7, 0xfe, 0x2c, 0x01, 0, 0, 0, 0])
    }

    func testDirectEncodingThatOverflowsSpillsAndKeepsEveryByte() throws {
        let payload = (0 ..< 1000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let bytes = try OutputBuffer.encodeToArray(capacityHint: 16) { out in
            for byte in payload.prefix(10) { out.append(byte) }  // fits the borrowed array
            payload.dropFirst(10).withUnsafeBytes { out.append(contentsOf: $0) }  // spills
            out.appendLittleEndian(UInt32(0x0403_0201))
        }
        XCTAssertEqual(bytes, payload + [1, 2, 3, 4])
    }

    func testDirectEncodingPropagatesErrors() {
        XCTAssertThrowsError(try OutputBuffer.encodeToArray(capacityHint: 16) { out in
            out.append(1)
            try out.appendSize(-1)
        }) { error in XCTAssertTrue(error is SMCEncodingError, "\(error)") }
    }

    func testSizeHintBoundsEveryFlatValueAtEverySizeForm() throws {
        // Counts on both sides of the 1-, 3- and 5-byte size forms (spec §2.2).
        for count in [0, 1, 253, 254, 65_535, 65_536] {
            let values: [SMCValue] = [
                .uint8List([UInt8](repeating: 1, count: count)),
                .string(String(repeating: "a", count: count)),
                .int32List([Int32](repeating: 1, count: count)),
                .float64List([UInt64](repeating: 1, count: count)),
            ]
            for value in values {
                XCTAssertTrue(value.encodedSizeHintIsUpperBound, value.typeWord)
                let encoded = try flutterCodec.encodeMessage(value)
                XCTAssertGreaterThanOrEqual(value.encodedSizeHint, encoded.count,
                                            "\(value.typeWord) × \(count)")
                let call = SMCMethodCall(name: "m", arguments: value)
                XCTAssertEqual(try flutterCodec.encodeMethodCall(call),
                               [7, 1, 0x6d] + encodedAfterOffset3(value),
                               "call \(value.typeWord) × \(count)")
                XCTAssertEqual(try flutterCodec.encodeEnvelope(.success(value)).dropFirst(1)
                                   .count, encodedAtOffset1Count(value),
                               "envelope \(value.typeWord) × \(count)")
            }
        }
        XCTAssertFalse(SMCValue.list([]).encodedSizeHintIsUpperBound)
    }

    /// The value's bytes when it starts at message offset 3, via a list wrapper that puts
    /// it there: padding depends on the offset (spec §3.2), so it is re-encoded in place.
    private func encodedAfterOffset3(_ value: SMCValue) -> [UInt8] {
        let out = OutputBuffer(initialCapacity: 16)
        out.append(0); out.append(0); out.append(0)
        XCTAssertNoThrow(try ValueEncoder(out: out).writeValue(value))
        return Array(out.bytes.dropFirst(3))
    }

    private func encodedAtOffset1Count(_ value: SMCValue) -> Int {
        let out = OutputBuffer(initialCapacity: 16)
        out.append(0)
        XCTAssertNoThrow(try ValueEncoder(out: out).writeValue(value))
        return out.count - 1
    }
}
