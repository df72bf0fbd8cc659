import Foundation
import SMCNotation
import XCTest

/// The shared notation cases (spec/notation-cases.json), read by this package's notation
/// reader (SMCNotation): every text reads and writes back as its `canonical` text, or is
/// rejected. The reader reports no offsets, so only the rejection is checked; the C suite
/// checks the offsets of the same cases. Cases that need the decode-only `strbytes` form are
/// left out and counted: a runner never receives it (runners/PROTOCOL.md P.2). File:
/// $SMC_NOTATION_CASES, or spec/notation-cases.json beside the vectors directory.
final class NotationCasesTests: XCTestCase {
    static var casesFile: URL {
        if let override = ProcessInfo.processInfo.environment["SMC_NOTATION_CASES"],
            !override.isEmpty
        {
            return URL(fileURLWithPath: override)
        }
        return VectorTests.vectorsDirectory.deletingLastPathComponent()
            .appendingPathComponent("spec/notation-cases.json")
    }

    /// The canonical text of `text` read as notation of `entry`.
    private func readAndWrite(_ text: String, _ entry: String) throws -> String {
        let json = try JSONParser.parse(text)
        switch entry {
        case "message": return JSONWriter.string(Notation.json(try Notation.value(from: json)))
        case "call": return JSONWriter.string(Notation.json(try Notation.methodCall(from: json)))
        case "envelope": return JSONWriter.string(Notation.json(try Notation.envelope(from: json)))
        default: throw NotationError("unknown entry \(entry)")
        }
    }

    func testSharedNotationCases() throws {
        let file = try JSONParser.parse([UInt8](try Data(contentsOf: Self.casesFile)))
        let cases = file["cases"]?.arrayValue ?? []
        var valid = 0
        var rejected = 0
        var leftOut = 0
        var failures: [String] = []
        for item in cases {
            let id = item["id"]?.stringValue ?? "<no id>"
            guard let text = item["text"]?.stringValue, let entry = item["entry"]?.stringValue
            else {
                failures.append("\(id): no text or entry")
                continue
            }
            if (item["needs"]?.arrayValue ?? []).contains(.string("strbytes")) {
                leftOut += 1
                continue
            }
            if let canonical = item["canonical"]?.stringValue {
                do {
                    let written = try readAndWrite(text, entry)
                    if written.utf8.elementsEqual(canonical.utf8) {
                        valid += 1
                    } else {
                        failures.append(
                            "\(id): \(text) writes back as \(written), not \(canonical)")
                    }
                } catch {
                    failures.append("\(id): \(text) rejected: \(error)")
                }
            } else if let written = try? readAndWrite(text, entry) {
                failures.append("\(id): \(text) accepted as \(written); the notation forbids it")
            } else {
                rejected += 1
            }
        }
        print(
            "notation cases: \(valid) valid and \(rejected) rejected as the file says, "
                + "\(failures.count) failed, \(leftOut) left out (strbytes: never sent to a runner)"
        )
        for failure in failures { print("  FAILED \(failure)") }
        XCTAssertTrue(failures.isEmpty, "\(failures.count) notation case(s) failed; see the log")
        XCTAssertGreaterThan(valid + rejected, 100)
    }
}
