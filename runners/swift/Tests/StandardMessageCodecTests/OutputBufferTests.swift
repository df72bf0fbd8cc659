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

    func testPaddingIsZeroAtEveryOffsetAndFreeSpace() {
        // Spec §3.2: zero bytes up to the element size. The free space past the write
        // position is filled with 0xff first, so padding that is not written shows; both
        // forms are reached (8 bytes free: one store; fewer: the byte fill).
        for alignment in [4, 8] {
            for capacity in 16...40 {
                for offset in 0...capacity {
                    let out = OutputBuffer(initialCapacity: capacity)
                    XCTAssertEqual(out.capacity, capacity)
                    for _ in 0..<capacity { out.append(0xff) }
                    out.count = 0
                    for _ in 0..<offset { out.append(0xaa) }
                    out.appendPadding(alignment: alignment)
                    let padding = (alignment - offset % alignment) % alignment
                    XCTAssertEqual(
                        out.bytes,
                        [UInt8](repeating: 0xaa, count: offset)
                            + [UInt8](repeating: 0, count: padding),
                        "alignment \(alignment), capacity \(capacity), offset \(offset)")
                }
            }
        }
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

    // SMCWriter on the thread's kept buffer: `takeData()` copies a message of up to
    // `reusableKeepMax` bytes out and keeps the block; a larger one hands the block over.
    // Each result is compared with a writer whose hint is beyond the kept size, which owns
    // its buffer and hands it over (the path every writer took before, spec §2 bytes alike).

    /// A message of about `size` bytes (spec §4.1, §5, §6.1, §7.1): a list of an int32, a
    /// string, a Uint8List of `size` bytes of `seed`, and a null.
    private func writeSample(_ writer: SMCWriter, size: Int, seed: UInt8) throws {
        try writer.writeListHeader(count: 4)
        writer.writeInt32(Int32(size))
        try writer.writeString("seed \(seed)")
        try writer.writeData(Data(repeating: seed, count: size))
        writer.writeNull()
    }

    private func sampleByOwnBuffer(size: Int, seed: UInt8) throws -> Data {
        let writer = SMCWriter(capacityHint: OutputBuffer.reusableKeepMax + 1)
        XCTAssertFalse(writer.out.isKeptForReuse, "the reference path owns a large buffer")
        try writeSample(writer, size: size, seed: seed)
        return writer.takeData()
    }

    private func sampleByKeptBuffer(size: Int, seed: UInt8, hint: Int = 256) throws -> Data {
        let writer = SMCWriter(capacityHint: hint)
        try writeSample(writer, size: size, seed: seed)
        return writer.takeData()
    }

    func testWritersInTurnShareTheThreadBufferAndKeepTheirBytes() throws {
        // Copied out (≤ copiedTakeMax), then handed over with a new block for the buffer.
        for size in [300, OutputBuffer.copiedTakeMax + 1, 20_000] {
            let first = try sampleByKeptBuffer(size: size, seed: 1)
            let second = try sampleByKeptBuffer(size: size - 100, seed: 2)  // the same buffer
            XCTAssertEqual(first, try sampleByOwnBuffer(size: size, seed: 1), "not overwritten")
            XCTAssertEqual(
                second, try sampleByOwnBuffer(size: size - 100, seed: 2), "nothing left over")
        }
        var buffers: [ObjectIdentifier] = []
        for _ in 0..<2 {
            let writer = SMCWriter()
            buffers.append(ObjectIdentifier(writer.out))
            writer.writeInt32(1)
            XCTAssertEqual([UInt8](writer.takeData()), [3, 1, 0, 0, 0])
        }
        XCTAssertEqual(buffers[0], buffers[1], "the second writer reuses the first's buffer")
    }

    func testWriterDroppedWithoutTakingLeavesNothingBehind() throws {
        do {
            let dropped = SMCWriter()
            try writeSample(dropped, size: 50, seed: 9)
        }
        let writer = SMCWriter()
        writer.writeBool(true)
        XCTAssertEqual([UInt8](writer.takeData()), [1])
    }

    func testKeptBufferGrowsFromASmallHintAtEverySize() throws {
        // Sizes across the 1-, 3- and 5-byte size forms (spec §2.2) and the kept maximum.
        let keep = OutputBuffer.reusableKeepMax
        for size in [
            0, 1, 253, 254, 4_000, 65_535, 65_536, keep - 40, keep - 20, keep + 1, 200_000, 10,
        ] {
            let seed = UInt8(truncatingIfNeeded: size)
            XCTAssertEqual(
                try sampleByKeptBuffer(size: size, seed: seed, hint: 16),
                try sampleByOwnBuffer(size: size, seed: seed), "size \(size)")
        }
    }

    func testMessageOfExactlyTheHintAndEmptyMessages() throws {
        XCTAssertEqual(SMCWriter().takeData(), Data(), "nothing written")
        for hint in [16, 256, 1_000, OutputBuffer.reusableKeepMax] {
            let writer = SMCWriter(capacityHint: hint)
            XCTAssertGreaterThanOrEqual(writer.out.capacity - writer.out.count, hint)
            for i in 0..<hint { writer.writeByte(UInt8(truncatingIfNeeded: i)) }
            let exact = writer.takeData()
            XCTAssertEqual([UInt8](exact), (0..<hint).map { UInt8(truncatingIfNeeded: $0) })
            XCTAssertEqual(writer.takeData(), Data(), "empty after takeData, hint \(hint)")
        }
    }

    func testWritesAfterTakeDataOnBothPaths() throws {
        // Copied out; handed over, a new block kept; handed over, no block kept.
        for size in [100, 10_000, OutputBuffer.reusableKeepMax + 10] {
            let writer = SMCWriter()
            try writeSample(writer, size: size, seed: 3)
            let taken = writer.takeData()
            XCTAssertEqual(writer.out.isKeptForReuse, size <= OutputBuffer.reusableKeepMax)
            writer.writeInt64(-2)
            XCTAssertEqual(
                [UInt8](writer.takeData()), [4, 0xfe] + [UInt8](repeating: 0xff, count: 7))
            try writeSample(writer, size: size, seed: 4)
            let again = writer.takeData()
            XCTAssertEqual(taken, try sampleByOwnBuffer(size: size, seed: 3), "size \(size)")
            XCTAssertEqual(again, try sampleByOwnBuffer(size: size, seed: 4), "size \(size)")
        }
    }

    func testWritersAliveAtOnceHaveTheirOwnBuffers() throws {
        let outer = SMCWriter()
        try writeSample(outer, size: 40, seed: 5)
        let inner = SMCWriter()
        XCTAssertFalse(inner.out === outer.out)
        try writeSample(inner, size: 30, seed: 6)
        // The codec's own encodes, inside both, take yet another buffer.
        XCTAssertEqual(try flutterCodec.encodeMessage(.int32(7)), [3, 7, 0, 0, 0])
        try writeSample(outer, size: 20, seed: 7)
        let innerData = inner.takeData()
        let outerData = outer.takeData()
        XCTAssertEqual(innerData, try sampleByOwnBuffer(size: 30, seed: 6))
        let reference = SMCWriter(capacityHint: OutputBuffer.reusableKeepMax + 1)
        try writeSample(reference, size: 40, seed: 5)
        try writeSample(reference, size: 20, seed: 7)
        XCTAssertEqual(outerData, reference.takeData())
    }

    func testWritersOnManyThreadsAtOnceGetTheirOwnBytes() throws {
        let failures = Atomicish()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for i in 0..<500 {
                let size = (thread &* 131 &+ i &* 17) % 3_000
                let seed = UInt8(truncatingIfNeeded: thread &+ i)
                guard let kept = try? self.sampleByKeptBuffer(size: size, seed: seed),
                    let own = try? self.sampleByOwnBuffer(size: size, seed: seed), kept == own
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
