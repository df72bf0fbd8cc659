import Foundation
import SMCNotation
import XCTest

@testable import StandardMessageCodec

/// The flat form (SMCNode): it must agree with the lossless value model on every input —
/// the same value, or the same error class and offset (spec/errors.md) — in both modes and at
/// every entry point, and re-encode to the same canonical bytes.
final class NodeTests: XCTestCase {
    /// Compares both decoders on `input` at `entry` with `codec`; returns a problem or nil.
    static func disagreement(_ input: [UInt8], entry: String, codec: SMCCodec) -> String? {
        func outcome<T>(_ body: () throws -> T) -> Result<T, Error> { Result { try body() } }
        func same(_ a: Error, _ b: Error) -> Bool {
            (a as? SMCDecodingError) == (b as? SMCDecodingError) && a is SMCDecodingError
        }
        switch entry {
        case "call":
            switch (
                outcome { try codec.decodeMethodCall(input) },
                outcome { try codec.decodeMethodCallNode(input.asData) }
            ) {
            case (.success(let v), .success(let n)):
                guard v == SMCMethodCall(name: n.name, arguments: n.arguments.value) else {
                    return "values differ"
                }
                let (a, b) = (
                    outcome { try codec.encodeMethodCall(v) },
                    outcome { try codec.encodeMethodCall(n) }
                )
                return sameEncoding(a, b)
            case (.failure(let a), .failure(let b)):
                return same(a, b) ? nil : "errors differ: \(a) vs \(b)"
            default: return "one decoder accepts, the other rejects"
            }
        case "envelope":
            switch (
                outcome { try codec.decodeEnvelope(input) },
                outcome { try codec.decodeEnvelopeNode(input.asData) }
            ) {
            case (.success(let v), .success(let n)):
                let asValue: SMCEnvelope
                switch n {
                case .success(let r): asValue = .success(r.value)
                case .error(let c, let m, let d, let s):
                    asValue = .error(code: c, message: m, details: d.value, stacktrace: s)
                }
                guard v == asValue else { return "values differ" }
                return sameEncoding(
                    outcome { try codec.encodeEnvelope(v) }, outcome { try codec.encodeEnvelope(n) }
                )
            case (.failure(let a), .failure(let b)):
                return same(a, b) ? nil : "errors differ: \(a) vs \(b)"
            default: return "one decoder accepts, the other rejects"
            }
        default:
            switch (
                outcome { try codec.decodeMessage(input) },
                outcome { try codec.decodeMessageNode(input) }
            ) {
            case (.success(let v), .success(let n)):
                guard v == n.value else { return "values differ" }
                return sameEncoding(
                    outcome { try codec.encodeMessage(v) }, outcome { try codec.encodeMessage(n) })
            case (.failure(let a), .failure(let b)):
                return same(a, b) ? nil : "errors differ: \(a) vs \(b)"
            default: return "one decoder accepts, the other rejects"
            }
        }
    }

    private static func sameEncoding(_ a: Result<[UInt8], Error>, _ b: Result<[UInt8], Error>)
        -> String?
    {
        switch (a, b) {
        case (.success(let x), .success(let y)):
            return x == y ? nil : "re-encodings differ: \(Hex.encode(x)) vs \(Hex.encode(y))"
        case (.failure, .failure): return nil  // largeInt: not encodable either way
        default: return "one encoder fails"
        }
    }

    func testAgreesWithTheValueModelOnEveryVector() throws {
        let directory = VectorTests.vectorsDirectory
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter {
                $0.hasPrefix("s") && $0.hasSuffix(".json") && $0.dropFirst().first?.isNumber == true
            }
        guard !names.isEmpty else { throw XCTSkip("no vectors in \(directory.path)") }
        var inputs = 0
        var problems: [String] = []
        for name in names.sorted() {
            let file = try JSONParser.parse(
                [UInt8](try Data(contentsOf: directory.appendingPathComponent(name))))
            for vector in file["vectors"]?.arrayValue ?? [] {
                let entry: String
                switch vector["kind"]?.stringValue ?? "" {
                case "method_call": entry = "call"
                case "success_envelope", "error_envelope", "envelope": entry = "envelope"
                default: entry = "message"
                }
                var hexes = [vector["canonical"]?.stringValue, vector["hex"]?.stringValue]
                    .compactMap { $0 }
                hexes += (vector["accepted"]?.arrayValue ?? []).compactMap {
                    $0["hex"]?.stringValue
                }
                for hex in hexes {
                    guard let wire = Hex.decode(hex) else { continue }
                    for codec in [flutterCodec, strictCodec] {
                        inputs += 1
                        if let problem = Self.disagreement(wire, entry: entry, codec: codec) {
                            problems.append(
                                "\(vector["id"]?.stringValue ?? "?") \(codec.options.mode) \(hex): \(problem)"
                            )
                        }
                    }
                }
            }
        }
        print(
            "flat form vs value model: \(inputs) decodes compared, \(problems.count) disagreements")
        for p in problems.prefix(20) { print("  \(p)") }
        XCTAssertTrue(problems.isEmpty, "\(problems.count) disagreement(s)")
        XCTAssertGreaterThan(inputs, 3000)
    }

    private let sample: SMCValue = .custom(
        tag: 129,
        value: .list([
            .bool(true), .int32(-7), .int64(3_000_000_000), .double(1.5), .string("héllo"),
            .uint8List([1, 2, 3]), .int32List([1, -2]), .int64List([5]), .doubles([0.25]),
            .floats([2.5]),
            .list([.null, .string("a")]), .map([(.string("k"), .int32(1)), (.null, .list([]))]),
            .custom(tag: 130, value: .int32(2)),
        ]))

    func testNodesGiveTheirValues() throws {
        let root = try flutterCodec.decodeMessageNode(try flutterCodec.encodeMessage(sample))
        XCTAssertEqual(root.kind, .custom)
        XCTAssertEqual(root.customTag, 129)
        XCTAssertEqual(root.count, 1)
        let fields = Array(try XCTUnwrap(root.payload).elements)
        XCTAssertEqual(fields.count, 13)
        XCTAssertEqual(fields[0].boolValue, true)
        XCTAssertEqual(fields[1].int32Value, -7)
        XCTAssertNil(fields[1].int64Value, "widths stay distinct (spec §4.2)")
        XCTAssertEqual(fields[2].int64Value, 3_000_000_000)
        XCTAssertEqual(fields[3].doubleValue, 1.5)
        XCTAssertEqual(fields[4].stringValue, "héllo")
        XCTAssertEqual(fields[5].bytes, [1, 2, 3])
        XCTAssertEqual(fields[6].int32s, [1, -2])
        XCTAssertEqual(fields[7].int64s, [5])
        XCTAssertEqual(fields[8].doubles, [0.25])
        XCTAssertEqual(fields[9].float32BitsList, [Float(2.5).bitPattern])
        XCTAssertEqual(fields[10].elements.map(\.kind), [.null, .string])
        let entries = Array(fields[11].entries)
        XCTAssertEqual(entries.map { $0.key.kind }, [.string, .null])
        XCTAssertEqual(entries[0].value.int32Value, 1)
        XCTAssertEqual(entries[1].value.count, 0)
        XCTAssertEqual(fields[12].payload?.int32Value, 2)
        XCTAssertEqual(root.value, sample)
        // Any node re-encodes as a message of its own: padding follows its new offset.
        XCTAssertEqual(
            try flutterCodec.encodeMessage(fields[3]), try flutterCodec.encodeMessage(.double(1.5)))
        XCTAssertEqual(
            try flutterCodec.encodeMessage(fields[11]),
            try flutterCodec.encodeMessage(fields[11].value))
    }

    func testNonCanonicalInputReencodesCanonically() throws {
        // Flutter mode accepts a 3-byte size for a 1-byte string (spec §2.2); re-encoding
        // writes the short size, which moves the float64 two bytes back and gives it two
        // bytes of padding where the input had none.
        let wire = bytes("0c02 07fe0100 61 06 000000000000f03f")
        let node = try flutterCodec.decodeMessageNode(wire)
        let canonical = try flutterCodec.encodeMessage(.list([.string("a"), .double(1.0)]))
        XCTAssertEqual(Hex.encode(try flutterCodec.encodeMessage(node)), Hex.encode(canonical))
        XCTAssertNil(Self.disagreement(wire, entry: "message", codec: flutterCodec))
        XCTAssertThrowsError(try strictCodec.decodeMessageNode(wire)) {
            XCTAssertEqual($0 as? SMCDecodingError, SMCDecodingError(.notCanonical, at: 3, ""))
        }
        // The bound of the output covers the worst case: every padded item needing 7 more.
        XCTAssertGreaterThanOrEqual(node.tree.encodeBound, canonical.count)
        // Non-zero padding (spec §3.3) is accepted in flutter mode and written as zeros.
        let padded = bytes("06 01020304050607 000000000000f03f")
        XCTAssertEqual(
            Hex.encode(try flutterCodec.encodeMessage(try flutterCodec.decodeMessageNode(padded))),
            "0600000000000000000000000000f03f")
    }

    func testTheTreeOwnsItsBytes() throws {
        let long = String(repeating: "owned bytes ", count: 10)
        let value: SMCValue = .list([
            .string(long), .uint8List([UInt8](repeating: 9, count: 100)),
            .int64List([1, 2, 3]), .string("x"),
        ])
        let wire = try flutterCodec.encodeMessage(value)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: wire.count, alignment: 16)
        defer { buffer.deallocate() }
        buffer.copyBytes(from: wire)
        let node = try flutterCodec.decodeMessageNode(unsafeBytes: UnsafeRawBufferPointer(buffer))
        buffer.initializeMemory(as: UInt8.self, repeating: 0xAA)
        XCTAssertEqual(node.value, value)
        XCTAssertEqual(try flutterCodec.encodeMessage(node), wire)
    }

    func testLargeIntIsNotEncodable() throws {
        let node = try flutterCodec.decodeMessageNode(bytes("0502 3166"))
        XCTAssertEqual(node.kind, .largeInt)
        XCTAssertEqual(node.stringValue, "1f")
        XCTAssertThrowsError(try flutterCodec.encodeMessage(node)) {
            XCTAssertTrue($0 is SMCEncodingError)
        }
    }
}
