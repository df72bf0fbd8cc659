import Foundation
import XCTest

@testable import StandardMessageCodec

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
        let payload = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let bytes = try OutputBuffer.encodeToArray(capacityHint: 16) { out in
            for byte in payload.prefix(10) { out.append(byte) }  // fits the borrowed array
            payload.dropFirst(10).withUnsafeBytes { out.append(contentsOf: $0) }  // spills
            out.appendLittleEndian(UInt32(0x0403_0201))
        }
        XCTAssertEqual(bytes, payload + [1, 2, 3, 4])
    }

    func testDirectEncodingPropagatesErrors() {
        XCTAssertThrowsError(
            try OutputBuffer.encodeToArray(capacityHint: 16) { out in
                out.append(1)
                try out.appendSize(-1)
            }
        ) { error in XCTAssertTrue(error is SMCEncodingError, "\(error)") }
    }

    // The per-thread buffer of small encodes (OutputBuffer.withReusable).

    func testReusedBufferStartsEmptyAndResultsStayOwned() throws {
        let codec = SMCCodec()
        let first = try codec.encodeMessage(.list([.int32(1), .string("a")]))
        let second = try codec.encodeMessage(.int32(2))
        XCTAssertEqual(first, [12, 2, 3, 1, 0, 0, 0, 7, 1, 0x61], "unchanged by the next encode")
        XCTAssertEqual(second, [3, 2, 0, 0, 0], "nothing left over from the previous one")
        // A message that grows the buffer past the kept size, then a small one.
        let big = try codec.encodeMessage(.list((0..<20_000).map { .int32(Int32($0)) }))
        XCTAssertEqual(big.count, 1 + 3 + 20_000 * 5, "tag, fe + 2-byte count, 5 bytes an int32")
        XCTAssertEqual(try codec.encodeMessage(.bool(true)), [1])
    }

    func testNestedUseOfTheReusedBufferGetsItsOwn() throws {
        let outer: [UInt8] = OutputBuffer.withReusable { out in
            out.append(1)
            let inner: [UInt8] = OutputBuffer.withReusable { nested in
                XCTAssertFalse(nested === out)
                nested.append(2)
                return nested.bytes
            }
            XCTAssertEqual(inner, [2])
            out.append(3)
            return out.bytes
        }
        XCTAssertEqual(outer, [1, 3])
    }

    func testThreadsEncodingAtOnceGetTheirOwnBytes() throws {
        let codec = SMCCodec()
        let failures = Atomicish()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for i in 0..<2_000 {
                let value = SMCValue.list([.int32(Int32(thread)), .string("t\(thread)-\(i)")])
                guard let bytes = try? codec.encodeMessage(value),
                    let back = try? codec.decodeMessage(bytes), back == value
                else { return failures.add() }
            }
        }
        XCTAssertEqual(failures.count, 0)
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
                XCTAssertGreaterThanOrEqual(
                    value.encodedSizeHint, encoded.count,
                    "\(value.typeWord) × \(count)")
                let call = SMCMethodCall(name: "m", arguments: value)
                XCTAssertEqual(
                    try flutterCodec.encodeMethodCall(call),
                    [7, 1, 0x6d] + encodedAfterOffset3(value),
                    "call \(value.typeWord) × \(count)")
                XCTAssertEqual(
                    try flutterCodec.encodeEnvelope(.success(value)).dropFirst(1)
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
        out.append(0)
        out.append(0)
        out.append(0)
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

/// A counter safe to bump from several threads.
private final class Atomicish: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() {
        lock.lock()
        value += 1
        lock.unlock()
    }
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
