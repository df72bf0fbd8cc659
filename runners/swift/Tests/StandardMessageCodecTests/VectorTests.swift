import Foundation
import SMCNotation
import StandardMessageCodec
import XCTest

/// Runs every golden vector (vectors/sNN-*.json, spec/vectors.md) through the codec
/// directly, with the checks of runners/PROTOCOL.md P.5. Directory: $SMC_VECTORS_DIR, or
/// ../../vectors relative to this package.
final class VectorTests: XCTestCase {
    /// What the codec can express (spec/vectors.md V.3); the runner declares the same.
    static let decodeFeatures: Set<String> = [
        "int32", "int64", "int64-distinct", "float64", "float32list", "typed-lists",
        "nan-payload", "embedded-nul", "custom-types", "largeint", "duplicate-map-keys",
        "map-order", "method-codec", "error-stacktrace", "strict-mode", "depth-limit",
    ]
    static let encodeFeatures = decodeFeatures.subtracting(["largeint"])

    static var vectorsDirectory: URL {
        if let override = ProcessInfo.processInfo.environment["SMC_VECTORS_DIR"], !override.isEmpty
        {
            return URL(fileURLWithPath: override)
        }
        // Tests/StandardMessageCodecTests/VectorTests.swift → package root → ../../vectors
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("../../vectors").standardized
    }

    private enum Entry { case message, call, envelope }

    private struct Tally {
        var passed = 0
        var failed: [String] = []
        var skipped: [String: [String]] = [:]  // reason → ids
        var decodeOnly = 0
    }

    func testGoldenVectors() throws {
        let directory = Self.vectorsDirectory
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { name in  // sNN-<topic>.json (spec/vectors.md V.1), not schema.json
                name.hasPrefix("s") && name.hasSuffix(".json")
                    && name.dropFirst().first.map { $0.isNumber } == true
            }
            .sorted()
        if names.isEmpty {
            let reason = "no s*.json vector files in \(directory.path) (set SMC_VECTORS_DIR)"
            print("vectors: 0 passed, 0 failed, 0 skipped — \(reason)")
            throw XCTSkip(reason)
        }
        var tally = Tally()
        for name in names {
            let url = directory.appendingPathComponent(name)
            let file: JSONValue
            do {
                file = try JSONParser.parse([UInt8](try Data(contentsOf: url)))
            } catch {
                tally.failed.append("\(name): unreadable vector file: \(error)")
                continue
            }
            for vector in file["vectors"]?.arrayValue ?? [] {
                run(vector, into: &tally)
            }
        }
        let skippedCount = tally.skipped.values.reduce(0) { $0 + $1.count }
        print(
            "vectors: \(tally.passed) passed, \(tally.failed.count) failed, \(skippedCount) skipped"
                + " (\(tally.decodeOnly) of the passes are decode-only: encode not applicable)")
        for (reason, ids) in tally.skipped.sorted(by: { $0.key < $1.key }) {
            print(
                "  skipped \(ids.count): \(reason): \(ids.prefix(8).joined(separator: ", "))"
                    + (ids.count > 8 ? ", …" : ""))
        }
        for failure in tally.failed { print("  FAILED \(failure)") }
        XCTAssertTrue(tally.failed.isEmpty, "\(tally.failed.count) vector(s) failed; see the log")
        XCTAssertGreaterThan(tally.passed, 0)
    }

    private func run(_ vector: JSONValue, into tally: inout Tally) {
        let id = vector["id"]?.stringValue ?? "<no id>"
        let features = Set((vector["features"]?.arrayValue ?? []).compactMap(\.stringValue))
        let entry: Entry
        switch vector["kind"]?.stringValue ?? "" {
        case "message", "pigeon_request", "pigeon_reply": entry = .message
        case "method_call": entry = .call
        case "success_envelope", "error_envelope", "envelope": entry = .envelope
        case "host_encode", "host_decode":
            // spec §17: the bytes of a host-type vector are a message vector of their own;
            // its host value is the runner's to build or report (the judge checks that).
            guard vector["canonical"] != nil else {
                tally.skipped[
                    "host value refused (spec §17): no bytes, judged through the runner",
                    default: []
                ].append(id)
                return
            }
            entry = .message
        case let other:
            tally.skipped["unknown kind \(other)", default: []].append(id)
            return
        }
        let missing = features.subtracting(Self.decodeFeatures)
        if !missing.isEmpty {
            tally.skipped[
                "decode lacks feature(s) \(missing.sorted().joined(separator: ","))",
                default: []
            ].append(id)
            return
        }
        let canEncode = features.isSubset(of: Self.encodeFeatures)
        var problems: [String] = []

        if let canonicalHex = vector["canonical"]?.stringValue, let valueJSON = vector["value"] {
            guard let canonical = Hex.decode(canonicalHex) else {
                tally.failed.append("\(id): canonical is not hex")
                return
            }
            let expected: JSONValue
            do {
                expected = try normalised(valueJSON, entry)
            } catch {
                tally.failed.append("\(id): value is not valid notation: \(error)")
                return
            }
            // P.5.1: decode canonical → value.
            check(
                decode(canonical, entry, .flutter), equals: expected, "decode canonical", &problems)
            if canEncode {
                // P.5.2 and P.5.3: encode value → canonical; decode → encode reproduces it.
                switch encode(valueJSON, entry) {
                case .success(let bytes) where bytes == canonical: break
                case .success(let bytes):
                    problems.append("encode gave \(Hex.encode(bytes)), want \(canonicalHex)")
                case .failure(let error): problems.append("encode failed: \(error)")
                }
                if case .success(let bytes) = roundTrip(canonical, entry), bytes != canonical {
                    problems.append("roundtrip gave \(Hex.encode(bytes))")
                }
            }
            // P.5.4: accepted encodings.
            for accepted in vector["accepted"]?.arrayValue ?? [] {
                guard let hex = accepted["hex"]?.stringValue, let wire = Hex.decode(hex) else {
                    problems.append("accepted entry without hex")
                    continue
                }
                check(
                    decode(wire, entry, .flutter), equals: expected, "accepted \(hex) (flutter)",
                    &problems)
                if let strictClass = accepted["strict"]?.stringValue {
                    checkError(
                        decode(wire, entry, .strict), strictClass, nil, "accepted \(hex) (strict)",
                        &problems)
                } else {
                    check(
                        decode(wire, entry, .strict), equals: expected, "accepted \(hex) (strict)",
                        &problems)
                }
            }
        } else if let hex = vector["hex"]?.stringValue, let error = vector["error"] {
            guard let wire = Hex.decode(hex), let errorClass = error["class"]?.stringValue else {
                tally.failed.append("\(id): malformed reject vector")
                return
            }
            let modes = (error["modes"]?.arrayValue ?? []).compactMap(\.stringValue)
            for mode in modes {
                let decodingMode: SMCDecodingOptions.Mode = mode == "strict" ? .strict : .flutter
                checkError(
                    decode(wire, entry, decodingMode), errorClass, error["offset"]?.intValue,
                    "\(mode) decode", &problems)
            }
            // A strict-only reject decodes to its value in flutter mode (spec/vectors.md V.2).
            if !modes.contains("flutter"), let valueJSON = vector["value"],
                let expected = try? normalised(valueJSON, entry)
            {
                check(decode(wire, entry, .flutter), equals: expected, "flutter decode", &problems)
            }
        } else {
            tally.skipped["neither valid nor reject vector", default: []].append(id)
            return
        }

        if problems.isEmpty {
            tally.passed += 1
            if !canEncode { tally.decodeOnly += 1 }
        } else {
            tally.failed.append("\(id): " + problems.joined(separator: "; "))
        }
    }

    // MARK: Codec calls, results in notation

    private func decode(
        _ wire: [UInt8], _ entry: Entry,
        _ mode: SMCDecodingOptions.Mode
    ) -> Result<JSONValue, Error> {
        let codec = SMCCodec(options: SMCDecodingOptions(mode: mode))
        return Result {
            switch entry {
            case .message: return Notation.json(try codec.decodeMessage(wire))
            case .call: return Notation.json(try codec.decodeMethodCall(wire))
            case .envelope: return Notation.json(try codec.decodeEnvelope(wire))
            }
        }
    }

    private func encode(_ notation: JSONValue, _ entry: Entry) -> Result<[UInt8], Error> {
        Result {
            switch entry {
            case .message: return try flutterCodec.encodeMessage(try Notation.value(from: notation))
            case .call:
                return try flutterCodec.encodeMethodCall(try Notation.methodCall(from: notation))
            case .envelope:
                return try flutterCodec.encodeEnvelope(try Notation.envelope(from: notation))
            }
        }
    }

    private func roundTrip(_ wire: [UInt8], _ entry: Entry) -> Result<[UInt8], Error> {
        Result {
            switch entry {
            case .message:
                return try flutterCodec.encodeMessage(try flutterCodec.decodeMessage(wire))
            case .call:
                return try flutterCodec.encodeMethodCall(try flutterCodec.decodeMethodCall(wire))
            case .envelope:
                return try flutterCodec.encodeEnvelope(try flutterCodec.decodeEnvelope(wire))
            }
        }
    }

    /// The expected value parsed and re-written, so the comparison is on one form.
    private func normalised(_ notation: JSONValue, _ entry: Entry) throws -> JSONValue {
        switch entry {
        case .message: return Notation.json(try Notation.value(from: notation))
        case .call: return Notation.json(try Notation.methodCall(from: notation))
        case .envelope: return Notation.json(try Notation.envelope(from: notation))
        }
    }

    private func check(
        _ outcome: Result<JSONValue, Error>, equals expected: JSONValue,
        _ what: String, _ problems: inout [String]
    ) {
        switch outcome {
        case .success(let got) where got == expected: break
        case .success(let got):
            problems.append(
                "\(what) gave \(JSONWriter.string(got)), want \(JSONWriter.string(expected))")
        case .failure(let error): problems.append("\(what) failed: \(error)")
        }
    }

    private func checkError(
        _ outcome: Result<JSONValue, Error>, _ errorClass: String, _ offset: Int?,
        _ what: String, _ problems: inout [String]
    ) {
        switch outcome {
        case .success(let got):
            problems.append("\(what) accepted as \(JSONWriter.string(got)), want \(errorClass)")
        case .failure(let error as SMCDecodingError):
            if error.errorClass.rawValue != errorClass {
                problems.append("\(what): \(error.errorClass.rawValue), want \(errorClass)")
            } else if let offset = offset, offset != error.offset {
                problems.append("\(what): offset \(error.offset), want \(offset)")
            }
        case .failure(let error): problems.append("\(what): unexpected \(error)")
        }
    }
}
