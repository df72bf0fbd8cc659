import SMCNotation
import StandardMessageCodec
import XCTest

/// The `summary` answer of runners/PROTOCOL.md P.3: depth, value count and bytes of a value
/// too large to print, measured without recursion.
final class SummaryTests: XCTestCase {
    func testCountsDepthValuesAndBytes() {
        let value: SMCValue = .list([
            .string("ab"), .map([(.int32(1), .uint8List([1, 2, 3]))]), .int64List([1, 2]),
            .custom(tag: 130, value: .float32List([0])),
        ])
        XCTAssertEqual(
            ValueSummary(of: value), ValueSummary(depth: 2, values: 8, bytes: 2 + 3 + 16 + 4))
        XCTAssertEqual(ValueSummary(of: .int32(5)), ValueSummary(depth: 0, values: 1, bytes: 0))
        XCTAssertEqual(ValueSummary(of: .string("é")).bytes, 2, "UTF-8 bytes, not characters")
    }

    func testAValueDeeperThanAnyStackIsMeasured() {
        var value: SMCValue = .null
        for _ in 0..<100_000 { value = .custom(tag: 128, value: value) }
        XCTAssertEqual(
            ValueSummary(of: value), ValueSummary(depth: 100_000, values: 100_001, bytes: 0))
        var bytes: [UInt8] = []
        JSONWriter.write(ValueSummary(depth: 1, values: 2, bytes: 3).json, into: &bytes)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), #"{"depth":1,"values":2,"bytes":3}"#)
        // Release the chain without recursing through 100,000 nested enum payloads.
        while case .custom(_, let inner) = value { value = inner }
    }
}
