import SMCNotation
import StandardMessageCodec
import XCTest

/// Hex → bytes for test literals; fails the test on a typo instead of crashing.
func bytes(_ hex: String, file: StaticString = #filePath, line: UInt = #line) -> [UInt8] {
    let compact = hex.filter { !$0.isWhitespace }
    guard let decoded = Hex.decode(compact) else {
        XCTFail("bad hex literal \(hex)", file: file, line: line)
        return []
    }
    return decoded
}

let flutterCodec = SMCCodec()
let strictCodec = SMCCodec(options: .strict)

/// Asserts that `hex` decodes (message entry) to `value` and `value` encodes to `hex`.
func assertCanonical(
    _ value: SMCValue, _ hex: String,
    file: StaticString = #filePath, line: UInt = #line
) {
    let wire = bytes(hex, file: file, line: line)
    XCTAssertEqual(try flutterCodec.decodeMessage(wire), value, "decode", file: file, line: line)
    XCTAssertEqual(
        try strictCodec.decodeMessage(wire), value, "strict decode", file: file, line: line)
    XCTAssertEqual(
        Hex.encode(try flutterCodec.encodeMessage(value)),
        Hex.encode(wire), "encode", file: file, line: line)
}

/// Asserts that decoding `hex` with `codec` fails with exactly `errorClass` at `offset`.
func assertRejects(
    _ hex: String, _ errorClass: SMCErrorClass, at offset: Int,
    codec: SMCCodec = flutterCodec, entry: String = "message",
    file: StaticString = #filePath, line: UInt = #line
) {
    let wire = bytes(hex, file: file, line: line)
    do {
        switch entry {
        case "call": _ = try codec.decodeMethodCall(wire)
        case "envelope": _ = try codec.decodeEnvelope(wire)
        default: _ = try codec.decodeMessage(wire)
        }
        XCTFail(
            "\(hex) decoded; expected \(errorClass.rawValue) at \(offset)", file: file, line: line)
    } catch let error as SMCDecodingError {
        XCTAssertEqual(
            error.errorClass, errorClass, "class for \(hex): \(error)", file: file, line: line)
        XCTAssertEqual(error.offset, offset, "offset for \(hex): \(error)", file: file, line: line)
    } catch {
        XCTFail("unexpected error \(error)", file: file, line: line)
    }
}

/// Deterministic PRNG (SplitMix64) so robustness tests replay exactly.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
