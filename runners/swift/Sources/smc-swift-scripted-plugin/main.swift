import Foundation
import SMCNotation
import SMCRunnerKit
import StandardMessageCodec

// The Swift kit's scripted plug-in (runners/protocol-cases.json "behaviours", driven by
// scripts/tests/kit_cases.py): what every call does, the options it declares and its host
// hook come from the environment, the same variables in every kit: SMC_PLUGIN_BEHAVIOUR,
// SMC_PLUGIN_OPTIONS, SMC_PLUGIN_HOSTS (empty: no host hook) and, for `host-bugs`,
// SMC_HOST_BUGS. `host-bugs` is this package's SMCWriter/SMCReader with the host bugs of real
// ports: `float4` (a Float written as tag 6 and its 4 bytes), `long-by-value` (an Int64 that
// fits 32 bits written as an int32), `bytes-twice` (a Data written twice).

let environment = ProcessInfo.processInfo.environment
let behaviour = environment["SMC_PLUGIN_BEHAVIOUR"] ?? "value"

func words(_ name: String) -> [String] {
    (environment[name] ?? "").split(separator: ",").map(String.init)
}

/// The plug-in's documented rejection.
struct ScriptedRejection: Error {}
/// An error type the plug-in does not document.
struct UndocumentedError: Error {}

func scriptedFailure() throws {
    switch behaviour {
    case "reject": throw ScriptedRejection()
    case "throw-unexpected": throw UndocumentedError()
    // A trap ends the process (spec §1.4): the kit can neither catch it nor answer for it.
    case "crash": fatalError("scripted trap")
    default: break
    }
}

final class BuggyWriter: SMCWriter {
    let bugs: Set<String>

    init(bugs: Set<String>) {
        self.bugs = bugs
        super.init()
    }

    override func writeValue(_ value: Any?) throws {
        if let value = value {
            let type = ObjectIdentifier(Swift.type(of: value))
            if bugs.contains("float4"), type == ObjectIdentifier(Float.self),
                let number = value as? Float
            {
                writeByte(6)
                withUnsafeBytes(of: number.bitPattern.littleEndian) {
                    for byte in $0 { writeByte(byte) }
                }
                return
            }
            if bugs.contains("long-by-value"), type == ObjectIdentifier(Int64.self),
                let number = value as? Int64, let narrow = Int32(exactly: number)
            {
                try super.writeValue(narrow)
                return
            }
            if bugs.contains("bytes-twice"), type == ObjectIdentifier(Data.self),
                let bytes = value as? Data
            {
                try super.writeValue(bytes + bytes)
                return
            }
        }
        try super.writeValue(value)
    }
}

struct ScriptedHostHook: RunnerHostHook {
    let hostVocabularies: [String]
    let bugs: Set<String>
    let hostTypesWithout: [String: [String]]

    func hostEncode(_ value: Any?) throws -> [UInt8]? {
        try scriptedFailure()
        switch behaviour {
        case "no-bytes": return nil
        case "host-bugs":
            let writer = BuggyWriter(bugs: bugs)
            try writer.writeValue(value)
            return writer.bytes
        default: return [0xaa]
        }
    }

    func hostDecode(_ message: Data) throws -> Any? {
        try scriptedFailure()
        guard behaviour == "host-bugs" else { return "hook" }
        let reader = SMCReader(data: message)
        let value = try reader.readValue()
        try reader.finish()
        return value
    }
}

struct ScriptedBackend: RunnerBackend {
    let codecName = "scripted-plugin"
    let entries: [Entry] = [.message]
    let decodeCapabilities = ["int32", "int64", "float64", "float32list", "typed-lists"]
    var encodeCapabilities: [String] { decodeCapabilities }
    let options: RunnerOptions
    let hostHook: RunnerHostHook?

    func decode(_ input: PlacedInput, entry: Entry, mode: SMCDecodingOptions.Mode) throws
        -> DecodedItem
    {
        try scriptedFailure()
        return DecodedItem(
            summary: { ValueSummary(of: SMCValue.null) },
            notation: { Notation.json(SMCValue.null) },
            reencode: { [0] })
    }

    func encode(_ notation: JSONValue, entry: Entry) throws -> [UInt8]? {
        try scriptedFailure()
        return behaviour == "no-bytes" ? nil : [0]
    }

    func rejection(_ error: Error) -> RunnerRejection? {
        guard error is ScriptedRejection else { return nil }
        return RunnerRejection(errorClass: "truncated", offset: 1, message: "scripted rejection")
    }
}

let chosen = words("SMC_PLUGIN_OPTIONS")
let hosts = words("SMC_PLUGIN_HOSTS")
let backend = ScriptedBackend(
    options: RunnerOptions(
        errorClasses: chosen.contains("error-classes"),
        errorOffsets: chosen.contains("error-offsets"),
        placement: chosen.contains("shift"), borrowsInput: chosen.contains("borrows-input"),
        pigeonInt64: chosen.contains("pigeon-int64")),
    hostHook: hosts.isEmpty
        ? nil
        : ScriptedHostHook(
            hostVocabularies: hosts, bugs: Set(words("SMC_HOST_BUGS")),
            // spec §17.1: "vocabulary:Type" words, P.1 hosts_without
            hostTypesWithout: Dictionary(
                words("SMC_PLUGIN_HOSTS_WITHOUT").compactMap { word in
                    word.firstIndex(of: ":").map {
                        (String(word[..<$0]), [String(word[word.index(after: $0)...])])
                    }
                }, uniquingKeysWith: +)))
serveRunnerProtocol(RequestHandler(backend: backend))
