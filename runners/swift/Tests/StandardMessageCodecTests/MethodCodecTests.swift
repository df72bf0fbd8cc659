import SMCNotation
import StandardMessageCodec
import XCTest

/// spec §10–§11 with GLib's literal method-codec bytes (wire-format-notes §3.5).
final class MethodCodecTests: XCTestCase {
    func testMethodCalls() throws {
        let cases: [(SMCMethodCall, String)] = [
            (SMCMethodCall(name: "hello", arguments: .null), "070568656c6c6f00"),
            (
                SMCMethodCall(name: "hello", arguments: .string("world")),
                "070568656c6c6f0705776f726c64"
            ),
            (
                SMCMethodCall(name: "hello", arguments: .list([.string("count"), .int32(42)])),
                "070568656c6c6f0c020705636f756e74032a000000"
            ),
        ]
        for (call, hex) in cases {
            XCTAssertEqual(Hex.encode(try flutterCodec.encodeMethodCall(call)), hex)
            XCTAssertEqual(try strictCodec.decodeMethodCall(bytes(hex)), call)
        }
    }

    func testEnvelopes() throws {
        let cases: [(SMCEnvelope, String)] = [
            (.success(.null), "0000"),
            (.success(.string("hello")), "00070568656c6c6f"),
            (.error(code: "", message: nil, details: .null, stacktrace: nil), "0107000000"),
            (
                .error(code: "error", message: "message", details: .null, stacktrace: nil),
                "0107056572726f7207076d65737361676500"
            ),
            (
                .error(code: "error", message: "", details: .null, stacktrace: nil),
                "0107056572726f72070000"
            ),
            (
                .error(code: "error", message: "boom", details: .null, stacktrace: .text("st")),
                "0107056572726f720704626f6f6d0007027374"
            ),
            (
                .error(code: "error", message: nil, details: .null, stacktrace: .null),
                "0107056572726f72000000"
            ),
        ]
        for (envelope, hex) in cases {
            XCTAssertEqual(Hex.encode(try flutterCodec.encodeEnvelope(envelope)), hex)
            XCTAssertEqual(try strictCodec.decodeEnvelope(bytes(hex)), envelope)
        }
        XCTAssertNotEqual(
            SMCEnvelope.error(code: "e", message: nil, details: .null, stacktrace: nil),
            SMCEnvelope.error(code: "e", message: "", details: .null, stacktrace: nil))
        XCTAssertNotEqual(
            SMCEnvelope.error(code: "e", message: nil, details: .null, stacktrace: nil),
            SMCEnvelope.error(code: "e", message: nil, details: .null, stacktrace: .null))
    }
}
