import Foundation
import XCTest

@testable import StandardMessageCodec

/// The codec's wire-type table against spec/wire-types.json, the one list every codec here
/// checks its own against: each `WireTag` constant, the tag and length the encoder writes for
/// each scalar and typed list (three elements after the padding of the listed alignment), and
/// the widths both decoders read (a typed list of exactly that length decodes, one byte less
/// is truncated). File: $SMC_WIRE_TYPES, or spec/wire-types.json beside the vectors directory.
final class WireTypesTests: XCTestCase {
    static var typesFile: URL {
        if let override = ProcessInfo.processInfo.environment["SMC_WIRE_TYPES"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        return VectorTests.vectorsDirectory.deletingLastPathComponent()
            .appendingPathComponent("spec/wire-types.json")
    }

    /// The codec's constant for the first tag of each type word.
    static let firstTag: [String: UInt8] = [
        "null": WireTag.null, "bool": WireTag.true, "i32": WireTag.int32, "i64": WireTag.int64,
        "largeint": WireTag.largeInt, "f64": WireTag.float64, "str": WireTag.string,
        "u8s": WireTag.uint8List, "i32s": WireTag.int32List, "i64s": WireTag.int64List,
        "f64s": WireTag.float64List, "list": WireTag.list, "map": WireTag.map,
        "f32s": WireTag.float32List, "custom": WireTag.firstCustom,
    ]

    /// A value of each scalar and typed list type: three elements for the lists.
    static let samples: [String: SMCValue] = [
        "i32": .int32(7), "i64": .int64(7), "f64": .float64(0x3ff0_0000_0000_0000),
        "i32s": .int32List([1, 2, 3]), "i64s": .int64List([1, 2, 3]),
        "f64s": .float64List([0, 0, 0]), "f32s": .float32List([0, 0, 0]),
    ]

    private func types() throws -> [[String: Any]] {
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.typesFile))
        return try XCTUnwrap((root as? [String: Any])?["types"] as? [[String: Any]])
    }

    private func padded(_ offset: Int, _ alignment: Int) -> Int {
        (offset + alignment - 1) / alignment * alignment
    }

    /// The error class `body` throws (nil when it returns), or the other error's text.
    private func errorClass(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as SMCDecodingError {
            return error.errorClass.rawValue
        } catch {
            return "\(error)"
        }
    }

    func testTagConstants() throws {
        let types = try types()
        XCTAssertEqual(Set(types.compactMap { $0["word"] as? String }), Set(Self.firstTag.keys))
        for t in types {
            let word = try XCTUnwrap(t["word"] as? String)
            XCTAssertEqual(Self.firstTag[word].map(Int.init), t["tag"] as? Int, word)
            if word == "bool" { XCTAssertEqual(Int(WireTag.false), t["tag_last"] as? Int) }
        }
    }

    func testEncoderAndDecoderWidths() throws {
        let codec = SMCCodec()
        for t in try types() {
            let word = try XCTUnwrap(t["word"] as? String)
            let payload = try XCTUnwrap(t["payload"] as? String)
            let tag = try XCTUnwrap(t["tag"] as? Int)
            let alignment = try XCTUnwrap(t["alignment"] as? Int)
            guard payload == "scalar" || payload == "typed_list" else { continue }
            let sample = try XCTUnwrap(Self.samples[word], "a sample value for \(word)")
            let length =
                payload == "scalar"
                ? padded(1, alignment) + (try XCTUnwrap(t["scalar_width"] as? Int))
                : padded(2, alignment) + 3 * (try XCTUnwrap(t["element_width"] as? Int))
            let bytes = try codec.encodeMessage(sample)
            XCTAssertEqual(bytes.first.map(Int.init), tag, word)
            XCTAssertEqual(bytes.count, length, word)
            if payload == "typed_list" {
                var exact = [UInt8](repeating: 0, count: length)
                exact[0] = UInt8(tag)
                exact[1] = 3
                let short = Array(exact.dropLast())
                XCTAssertNil(errorClass { _ = try codec.decodeMessage(exact) }, word)
                XCTAssertNil(errorClass { _ = try codec.decodeMessageNode(exact) }, word)
                XCTAssertEqual(errorClass { _ = try codec.decodeMessage(short) }, "truncated", word)
                XCTAssertEqual(
                    errorClass { _ = try codec.decodeMessageNode(short) }, "truncated", word)
            }
        }
    }
}
