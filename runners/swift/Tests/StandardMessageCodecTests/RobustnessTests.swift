import Foundation
import SMCNotation
import StandardMessageCodec
import XCTest

/// No crash on any input (errors.md: every rejected input gets one class and one offset),
/// with fixed seeds so a failure replays. Each accepted input is also checked against the
/// canonical-form properties of spec §13.
final class RobustnessTests: XCTestCase {
    /// Iterations per test: 3000 by default (fast enough for every `swift test`);
    /// SMC_FUZZ_ITERATIONS raises it for an occasional longer run.
    private let iterations =
        Int(ProcessInfo.processInfo.environment["SMC_FUZZ_ITERATIONS"] ?? "")
        ?? 3000

    private func randomValue(_ rng: inout SplitMix64, depth: Int) -> SMCValue {
        let pick = Int(rng.next() % (depth > 3 ? 12 : 15))
        func count(_ limit: UInt64) -> Int { Int(rng.next() % limit) }
        switch pick {
        case 0: return .null
        case 1: return .bool(rng.next() & 1 == 0)
        case 2: return .int32(Int32(truncatingIfNeeded: rng.next()))
        case 3: return .int64(Int64(bitPattern: rng.next()))
        case 4: return .float64(rng.next())
        case 5:
            let scalars = (0..<count(6)).map { _ -> Character in
                let choices: [UInt32] = [0x41, 0x0, 0xE9, 0x263A, 0x1F602, 0x7F, 0xFFFD]
                return Character(Unicode.Scalar(choices[Int(rng.next() % 7)]) ?? "x")
            }
            return .string(String(scalars))
        case 6:
            return .uint8List((0..<count(300)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        case 7: return .int32List((0..<count(5)).map { _ in Int32(truncatingIfNeeded: rng.next()) })
        case 8: return .int64List((0..<count(5)).map { _ in Int64(bitPattern: rng.next()) })
        case 9: return .float64List((0..<count(5)).map { _ in rng.next() })
        case 10:
            return .float32List((0..<count(5)).map { _ in UInt32(truncatingIfNeeded: rng.next()) })
        case 11: return .string(String(repeating: "y", count: count(3) == 0 ? 300 : 3))
        case 12: return .list((0..<count(5)).map { _ in randomValue(&rng, depth: depth + 1) })
        case 13:
            return .map(
                (0..<count(4)).map { _ in
                    (randomValue(&rng, depth: depth + 1), randomValue(&rng, depth: depth + 1))
                })
        default:
            return .custom(
                tag: UInt8(128 + rng.next() % 128), value: randomValue(&rng, depth: depth + 1))
        }
    }

    private func mutate(_ input: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = input
        switch rng.next() % 5 {
        case 0 where !bytes.isEmpty:
            bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next())
        case 1 where !bytes.isEmpty:
            bytes.removeLast(Int(rng.next() % UInt64(bytes.count)) + 1)
        case 2:
            bytes.insert(
                UInt8(truncatingIfNeeded: rng.next()), at: Int(rng.next() % UInt64(bytes.count + 1))
            )
        case 3 where !bytes.isEmpty:
            bytes.remove(at: Int(rng.next() % UInt64(bytes.count)))
        default:
            let interesting: [UInt8] = [0xfe, 0xff, 0x0c, 0x0d, 0x05, 0x07, 0x80, 0x0f]
            let at = Int(rng.next() % UInt64(bytes.count + 1))
            bytes.insert(interesting[Int(rng.next() % 8)], at: at)
        }
        return bytes
    }

    /// Inputs seen / accepted per mode, printed so a run shows both paths were exercised.
    private var seen = 0, acceptedFlutter = 0, acceptedStrict = 0

    private func summary(_ name: String) {
        print(
            "\(name): \(seen) inputs, \(acceptedFlutter) accepted (flutter), "
                + "\(acceptedStrict) accepted (strict), \(seen - acceptedFlutter) rejected (flutter)"
        )
    }

    /// Decodes `input` in both modes and with the host reader; checks the invariants.
    private func check(_ input: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        let flutter = Result { try flutterCodec.decodeMessage(input) }
        let strict = Result { try strictCodec.decodeMessage(input) }
        seen += 1
        if case .success = flutter { acceptedFlutter += 1 }
        if case .success = strict { acceptedStrict += 1 }
        // spec §13: strict mode accepts canonical bytes only, so re-encoding is the identity.
        if case .success(let value) = strict {
            XCTAssertEqual(
                Hex.encode(try strictCodec.encodeMessage(value)), Hex.encode(input),
                "strict-accepted input must be canonical", file: file, line: line)
        }
        // Whatever flutter mode accepts must survive encode → decode (except tag 5).
        if case .success(let value) = flutter,
            let reencoded = try? flutterCodec.encodeMessage(value)
        {
            XCTAssertEqual(try flutterCodec.decodeMessage(reencoded), value, file: file, line: line)
        }
        // Every error is a decoder class with an offset inside the input (or its length).
        for outcome in [flutter, strict] {
            if case .failure(let error) = outcome {
                guard let failure = error as? SMCDecodingError else {
                    XCTFail("non-SMC error \(error)", file: file, line: line)
                    continue
                }
                XCTAssertTrue((0...input.count).contains(failure.offset), file: file, line: line)
                XCTAssertNotEqual(failure.errorClass, .notEncodable, file: file, line: line)
            }
        }
        // The flat form (SMCNode) agrees with the value model: value or class and offset.
        for codec in [flutterCodec, strictCodec] {
            if let problem = NodeTests.disagreement(input, entry: "message", codec: codec) {
                XCTFail("flat form: \(problem) on \(Hex.encode(input))", file: file, line: line)
            }
        }
        // The host reader applies the same checks: same acceptance, same class and offset.
        let host = Result { try SMCHostMessageCodec().decode(Data(input)) }
        switch (flutter, host) {
        case (.success, .success): break
        case (.failure(let a), .failure(let b)):
            XCTAssertEqual(
                a as? SMCDecodingError, b as? SMCDecodingError,
                "host reader disagrees on \(Hex.encode(input))", file: file, line: line)
        default:
            XCTFail(
                "host reader and SMCCodec disagree on \(Hex.encode(input))", file: file, line: line)
        }
    }

    func testRandomValuesRoundTrip() throws {
        var rng = SplitMix64(seed: 0x5EED_0001)
        for _ in 0..<iterations {
            let value = randomValue(&rng, depth: 0)
            let wire = try flutterCodec.encodeMessage(value)
            XCTAssertEqual(try strictCodec.decodeMessage(wire), value)
            check(wire)
        }
        summary("random values")
        XCTAssertEqual(acceptedStrict, seen)
    }

    func testMutatedCanonicalInputsNeverCrash() throws {
        var rng = SplitMix64(seed: 0x5EED_0002)
        for _ in 0..<iterations {
            var wire = try flutterCodec.encodeMessage(randomValue(&rng, depth: 0))
            for _ in 0..<Int(1 + rng.next() % 3) { wire = mutate(wire, &rng) }
            check(wire)
        }
        summary("mutated inputs")
        XCTAssertGreaterThan(acceptedFlutter, 0)
        XCTAssertGreaterThan(seen - acceptedFlutter, 0)
    }

    func testRandomBytesNeverCrash() {
        var rng = SplitMix64(seed: 0x5EED_0003)
        for _ in 0..<iterations {
            let length = Int(rng.next() % 40)
            // Bias towards the tag range so the decoder gets past the first byte.
            let input = (0..<length).map { _ -> UInt8 in
                let raw = UInt8(truncatingIfNeeded: rng.next())
                return raw & 0x80 == 0 ? raw % 0x10 : raw
            }
            check(input)
            for entry in ["call", "envelope"] {
                if let problem = NodeTests.disagreement(input, entry: entry, codec: flutterCodec) {
                    XCTFail("flat form (\(entry)): \(problem) on \(Hex.encode(input))")
                }
            }
        }
        summary("random bytes")
        XCTAssertGreaterThan(acceptedFlutter, 0)
        XCTAssertGreaterThan(seen - acceptedFlutter, 0)
    }
}
