import Foundation
import StandardMessageCodec
import XCTest

/// Every decoded value owns its bytes: overwriting the input right after a decode returns
/// must not change what was decoded (a decoder that kept views into the caller's buffer, as
/// a zero-copy fast path would, fails here). Covers each payload-carrying type at sizes on
/// both sides of Swift's inline limits (small strings ≤ 15 bytes, inline Data ≤ 14 bytes),
/// through every decoding API: SMCCodec (messages, calls, envelopes), SMCReader and its
/// typed reads.
final class OwnershipTests: XCTestCase {
    private static let long = String(repeating: "long string, heap storage ", count: 4)
    private static let value: SMCValue = .list([
        .string("short"), .string(long), .uint8List([1, 2, 3]),
        .uint8List([UInt8](repeating: 7, count: 300)), .int32List([1, -2, 3]),
        .int64List([Int64](repeating: -5, count: 40)), .doubles([0.5, 1.5]),
        .floats([2.5]), .map([(.string("key"), .string(long))]),
        .custom(tag: 130, value: .string(long)),
    ])

    /// `wire` copied into fresh memory, decoded by `decode`, then overwritten with 0xAA
    /// before `check` looks at the result.
    private func decodeThenOverwrite<T>(
        _ wire: [UInt8], _ decode: (UnsafeRawBufferPointer) throws -> T,
        check: (T) throws -> Void
    ) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: wire.count, alignment: 16)
        defer { buffer.deallocate() }
        buffer.copyBytes(from: wire)
        let decoded = try decode(UnsafeRawBufferPointer(buffer))
        buffer.initializeMemory(as: UInt8.self, repeating: 0xAA)
        try check(decoded)
    }

    func testValueModelOwnsItsBytes() throws {
        let wire = try flutterCodec.encodeMessage(Self.value)
        try decodeThenOverwrite(
            wire, { try flutterCodec.decodeMessage(unsafeBytes: $0) },
            check: { XCTAssertEqual($0, Self.value) })
        let call = SMCMethodCall(name: Self.long, arguments: Self.value)
        try decodeThenOverwrite(
            try flutterCodec.encodeMethodCall(call),
            { try flutterCodec.decodeMethodCall(unsafeBytes: $0) },
            check: { XCTAssertEqual($0, call) })
        let envelope = SMCEnvelope.error(
            code: Self.long, message: Self.long, details: Self.value,
            stacktrace: .text(Self.long))
        try decodeThenOverwrite(
            try flutterCodec.encodeEnvelope(envelope),
            { try flutterCodec.decodeEnvelope(unsafeBytes: $0) },
            check: { XCTAssertEqual($0, envelope) })
    }

    func testHostReaderOwnsItsBytes() throws {
        let wire = try flutterCodec.encodeMessage(Self.value)
        var data = Data(wire)
        let reader = SMCReader(data: data, mapStyle: .orderedPairs)
        let decoded = try XCTUnwrap(try reader.readValue() as? [Any?])
        data.resetBytes(in: 0..<data.count)  // the caller reuses its buffer
        XCTAssertEqual(decoded[1] as? String, Self.long)
        XCTAssertEqual(decoded[3] as? Data, Data(repeating: 7, count: 300))
        XCTAssertEqual(decoded[5] as? [Int64], [Int64](repeating: -5, count: 40))
        XCTAssertEqual((decoded[8] as? SMCOrderedMap)?.entries.first?.value as? String, Self.long)
    }

    func testInPlaceReaderValuesOwnTheirBytes() throws {
        let wire = try flutterCodec.encodeMessage(Self.value)
        let decode = { (bytes: UnsafeRawBufferPointer) -> [Any?]? in
            let reader = SMCReader(unsafeBytes: bytes, mapStyle: .orderedPairs)
            let items = try reader.readValue() as? [Any?]
            try reader.finish()
            return items
        }
        try decodeThenOverwrite(wire, decode) { decoded in
            XCTAssertEqual(decoded?[1] as? String, Self.long)
            XCTAssertEqual(decoded?[3] as? Data, Data(repeating: 7, count: 300))
            XCTAssertEqual(decoded?[4] as? [Int32], [1, -2, 3])
            XCTAssertEqual((decoded?[9] as? SMCCustomValue)?.value as? String, Self.long)
        }
        // SMCHostMessageCodec.decode reads the Data in place; the caller then reuses it.
        var data = Data(wire)
        let decoded = try XCTUnwrap(
            try SMCHostMessageCodec(mapStyle: .orderedPairs).decode(data) as? [Any?])
        data.resetBytes(in: 0..<data.count)
        XCTAssertEqual(decoded[1] as? String, Self.long)
        XCTAssertEqual(decoded[5] as? [Int64], [Int64](repeating: -5, count: 40))
    }

    func testWriterHandsOverItsBufferOnce() throws {
        let writer = SMCWriter(capacityHint: 16)
        for _ in 0..<100 { try writer.writeValue(Self.long) }  // grows several times
        let copy = writer.bytes
        let taken = writer.takeData()
        XCTAssertEqual([UInt8](taken), copy)
        XCTAssertEqual(writer.bytes, [], "empty after takeData")
        try writer.writeValue(Int32(1))
        XCTAssertEqual(writer.bytes, [3, 1, 0, 0, 0], "usable again")
        XCTAssertEqual([UInt8](taken), copy, "the taken bytes are not touched by later writes")
        XCTAssertEqual([UInt8](writer.takeData()), [3, 1, 0, 0, 0], "handed over again")
        XCTAssertEqual(writer.takeData().count, 0, "nothing written since")
        try writer.writeValue("x")
        XCTAssertEqual(writer.bytes, [7, 1, 0x78], "and usable once more")
    }

    func testTypedReadsOwnTheirBytes() throws {
        let wire = try flutterCodec.encodeMessage(Self.value)
        var data = Data(wire)
        let r = SMCReader(data: data)
        var fields: (String?, String?, Data?, Data?, [Int32]?, [Int64]?, [Double]?)
        _ = try r.beginList()
        fields = (
            try r.readOptionalString(), try r.readOptionalString(), try r.readOptionalData(),
            try r.readOptionalData(), try r.readOptionalInt32List(),
            try r.readOptionalInt64List(), try r.readOptionalFloat64List()
        )
        for _ in 0..<3 { try r.skipValue() }
        r.endContainer()
        data.resetBytes(in: 0..<data.count)
        XCTAssertEqual(fields.0, "short")
        XCTAssertEqual(fields.1, Self.long)
        XCTAssertEqual(fields.2, Data([1, 2, 3]))
        XCTAssertEqual(fields.3, Data(repeating: 7, count: 300))
        XCTAssertEqual(fields.4, [1, -2, 3])
        XCTAssertEqual(fields.5, [Int64](repeating: -5, count: 40))
        XCTAssertEqual(fields.6, [0.5, 1.5])
    }
}
