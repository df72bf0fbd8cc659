import Foundation
import StandardMessageCodec
import XCTest

/// A custom type of a generated codec, for the fallback of the `Any?` paths.
private struct Point: Equatable {
    var x: Int32
}

/// The generated-style reader: tag 129 is a Point (its x as an int32), then `super`.
private final class PointReader: SMCReader {
    var customReads = 0

    override func readValue(ofType type: UInt8) throws -> Any? {
        guard type == 129 else { return try super.readValue(ofType: type) }
        customReads += 1
        guard let x = try readValue() as? Int32 else { throw SMCEncodingError("bad Point") }
        return Point(x: x)
    }
}

/// The generated-style writer: a Point as tag 129 + its x, then `super`; counts its calls.
private final class PointWriter: SMCWriter {
    var overrideCalls = 0

    override func writeValue(_ value: Any?) throws {
        overrideCalls += 1
        if let point = value as? Point {
            writeByte(129)
            writeInt32(point.x)
        } else {
            try super.writeValue(value)
        }
    }
}

/// `SMCReader.readAnyValue()` and `SMCWriter.writeAnyValue(at:)` (issue 33): the short paths
/// for the common scalars must give exactly what `readValue()` / `writeValue(_:)` give —
/// value and dynamic type, position, error class and offset, bytes — and every other value
/// must still reach the subclass's override.
final class AnyFieldTests: XCTestCase {
    /// A value with its dynamic type (an Int32 and an Int64 of the same number differ), or
    /// the error's class and offset.
    private func describe(_ result: Result<Any?, Error>) -> String {
        switch result {
        case .success(let value?): return "\(type(of: value)) \(value)"
        case .success(nil): return "nil"
        case .failure(let error as SMCDecodingError):
            return "error \(error.errorClass) at \(error.offset)"
        case .failure(let error): return "other error \(type(of: error)) \(error)"
        }
    }

    private static let long = [UInt8](repeating: 0x61, count: 300)

    /// One value of every kind the short path takes and of some it leaves to `readValue()`,
    /// placed after `lead` bytes (a float64's padding depends on it).
    private static func values(lead: Int) -> [(String, [UInt8])] {
        let padding = (8 - (lead + 1) % 8) % 8
        let float64 = [6] + [UInt8](repeating: 0, count: padding) + [0, 0, 0, 0, 0, 0, 0xf8, 0x3f]
        return [
            ("null", [0]),
            ("true", [1]),
            ("false", [2]),
            ("int32", [3, 0xfe, 0xff, 0xff, 0xff]),
            ("int64", [4, 1, 2, 3, 4, 5, 6, 7, 0x80]),
            ("float64", float64),
            ("empty string", [7, 0]),
            ("string", [7, 3, 0x61, 0xc3, 0xa9]),
            ("long string", [7, 254, 0x2c, 0x01] + long),
            ("bad UTF-8", [7, 2, 0x61, 0xff]),
            ("largeInt", [5, 2, 0x31, 0x32]),
            ("Uint8List", [8, 2, 9, 9]),
            ("List", [12, 2, 3, 1, 0, 0, 0, 7, 1, 0x62]),
            ("Map", [13, 1, 7, 1, 0x6b, 1]),
            ("custom Point", [129, 3, 5, 0, 0, 0]),
            ("unclaimed custom", [200, 0]),
            ("reserved tag", [15]),
        ]
    }

    /// Every value at every cut, after 0...7 nulls, in both modes: `readAnyValue()` against
    /// `readValue()` on a second reader.
    func testReadAnyValueAgreesWithReadValueAtEveryCut() {
        for options in [SMCDecodingOptions.flutter, .strict] {
            for lead in 0..<8 {
                for (name, whole) in Self.values(lead: lead) {
                    for cut in 0...whole.count {
                        let input = Data([UInt8](repeating: 0, count: lead) + whole.prefix(cut))
                        let fast = PointReader(data: input, options: options)
                        let full = PointReader(data: input, options: options)
                        for _ in 0..<lead {
                            XCTAssertNil(try fast.readAnyValue())
                            XCTAssertNil(try full.readValue())
                        }
                        let got = describe(Result { try fast.readAnyValue() })
                        let want = describe(Result { try full.readValue() })
                        let what = "\(name) after \(lead) nulls, \(cut) of \(whole.count) bytes"
                        XCTAssertEqual(got, want, "\(what), \(options.mode)")
                        XCTAssertEqual(fast.customReads, full.customReads, what)
                        if !got.hasPrefix("error") {
                            XCTAssertEqual(fast.position, full.position, what)
                        }
                    }
                }
            }
        }
    }

    func testReadAnyValueGivesEachScalarItsType() throws {
        let reader = SMCReader(
            bytes: [0, 1, 2, 3, 7, 0, 0, 0, 4, 8, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0]
                + [0, 0, 0, 0, 0, 0xf0, 0x3f, 7, 2, 0x68, 0x69])
        XCTAssertNil(try reader.readAnyValue())
        XCTAssertEqual(try reader.readAnyValue() as? Bool, true)
        XCTAssertEqual(try reader.readAnyValue() as? Bool, false)
        XCTAssertEqual(try reader.readAnyValue() as? Int32, 7)
        XCTAssertEqual(try reader.readAnyValue() as? Int64, 8)
        XCTAssertEqual(try reader.readAnyValue() as? Double, 1.0)
        XCTAssertEqual(try reader.readAnyValue() as? String, "hi")
        try reader.finish()
        XCTAssertThrowsError(try reader.readAnyValue()) { error in
            XCTAssertEqual(error as? SMCDecodingError, SMCDecodingError(.truncated, at: 36, ""))
        }
    }

    /// A custom tag, also inside a List read by `readValue()`, reaches the override.
    func testReadAnyValueHandsCustomTagsToTheOverride() throws {
        let reader = PointReader(bytes: [129, 3, 5, 0, 0, 0, 12, 1, 129, 3, 6, 0, 0, 0])
        XCTAssertEqual(try reader.readAnyValue() as? Point, Point(x: 5))
        let list = try XCTUnwrap(try reader.readAnyValue() as? [Any?])
        XCTAssertEqual(list.first as? Point, Point(x: 6))
        XCTAssertEqual(reader.customReads, 2)
        try reader.finish()
    }

    private static let hostValues: [(String, Any?)] = [
        ("nil", nil),
        ("true", true),
        ("false", false),
        ("Int32", Int32(-2)),
        ("Int64", Int64(1) << 40),
        ("Int64 small", Int64(3)),
        ("Double", 1.5),
        ("negative zero", -0.0),
        ("String", "hé"),
        ("empty String", ""),
        ("long String", String(repeating: "x", count: 300)),
        ("Int", 7),
        ("Float", Float(0.5)),
        ("Data", Data([1, 2])),
        ("[Int32]", [Int32(1), 2]),
        ("[Any?]", [Int32(1), "x", nil] as [Any?]),
        ("Int32? in Any", Int32?(4) as Any),
        ("NSNull", NSNull()),
        ("Point", Point(x: 9)),
        ("[Any?] with a Point", [Point(x: 1)] as [Any?]),
    ]

    /// `writeAnyValue(at:)` and `writeAnyValue(_:)` write the bytes `writeValue(_:)` writes,
    /// after 0...7 bytes (a float64's padding depends on them).
    func testWriteAnyValueWritesWhatWriteValueWrites() throws {
        for lead in 0..<8 {
            for (name, value) in Self.hostValues {
                let viaPointer = PointWriter()
                let viaValue = PointWriter()
                let reference = PointWriter()
                for _ in 0..<lead {
                    viaPointer.writeNull()
                    viaValue.writeNull()
                    reference.writeNull()
                }
                try withUnsafePointer(to: value) { try viaPointer.writeAnyValue(at: $0) }
                try viaValue.writeAnyValue(value)
                try reference.writeValue(value)
                XCTAssertEqual(viaPointer.bytes, reference.bytes, "\(name) after \(lead)")
                XCTAssertEqual(viaValue.bytes, reference.bytes, "\(name) after \(lead)")
            }
        }
    }

    /// The five exact scalar types and nil skip the override; everything else reaches it,
    /// so a subclass's custom types are written by the subclass.
    func testWriteAnyValueCallsTheOverrideForOtherTypes() throws {
        let elements: [Any?] = [nil, true, Int32(1), Int64(2), 2.5, "s", 7, Point(x: 3)]
        let writer = PointWriter()
        try elements.withUnsafeBufferPointer { buffer in
            for i in buffer.indices { try writer.writeAnyValue(at: buffer.baseAddress! + i) }
        }
        XCTAssertEqual(writer.overrideCalls, 2)  // the Int and the Point
        XCTAssertEqual(Array(writer.bytes.suffix(6)), [129, 3, 3, 0, 0, 0])
    }

    func testWriteAnyValueRefusesWhatWriteValueRefuses() {
        struct Unknown {}
        for value in [Unknown() as Any?, SMCLargeInt(text: "1")] {
            XCTAssertThrowsError(try SMCWriter().writeAnyValue(value)) { error in
                XCTAssertEqual((error as? SMCEncodingError)?.errorClass, .notEncodable)
            }
        }
    }
}
