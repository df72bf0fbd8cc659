import Foundation
import StandardMessageCodec

// Benchmark (not a test) of the Swift codec on the payloads of bench/payloads.json; fields and
// definitions are in bench/README.md. One JSON object per payload and operation on stdout.
//
// Usage: smc-swift-bench [--samples N] [--warmup-ms N] [--min-sample-us N] [--ops LIST]
//                        [--entry message|call|envelope] [--typed] [--profile-iterations N]
//                        FILE...
//   generic ops (default): decode, encode, roundtrip over the SMCValue tree; --entry picks
//     the entry point (spec §9, §10, §11) for every file of the run.
//   --typed: typed_decode, typed_encode over generated-code-shaped records (TypedRecords.swift)
//     instead; every file must be a record payload (a record or a List of records).
//   --flat: the generic ops over the flat form (SMCNode) instead of SMCValue; codec
//     "smc-swift-flat".
//   --profile-iterations N: run each op N times, untimed, and print nothing (for callgrind).
// Default files: bench/payloads/*.bin (run from the repository root). Build with
// `swift build -c release` before trusting the numbers.

struct Options {
    var samples = 200
    var warmupNs: UInt64 = 100_000_000
    var minSampleNs: UInt64 = 50_000
    var ops: Set<String>? = nil
    var entry = "message"
    var typed = false
    var flat = false
    var profileIterations = 0
    var paths: [String] = []
}

func parseOptions() -> Options {
    var o = Options()
    var arguments = CommandLine.arguments.dropFirst()
    func number(_ name: String) -> Int {
        guard let text = arguments.popFirst(), let n = Int(text), n >= 0 else {
            fail("\(name) needs a non-negative number")
        }
        return n
    }
    while let argument = arguments.popFirst() {
        switch argument {
        case "--samples": o.samples = max(number(argument), 1)
        case "--warmup-ms": o.warmupNs = UInt64(number(argument)) * 1_000_000
        case "--min-sample-us": o.minSampleNs = UInt64(number(argument)) * 1_000
        case "--profile-iterations": o.profileIterations = number(argument)
        case "--ops", "--op":
            o.ops = Set((arguments.popFirst() ?? "").split(separator: ",").map(String.init))
        case "--typed": o.typed = true
        case "--flat": o.flat = true
        case "--entry":
            guard let next = arguments.popFirst(), ["message", "call", "envelope"].contains(next)
            else {
                fail("--entry needs message, call or envelope")
            }
            o.entry = next
        default:
            if argument.hasPrefix("--") { fail("unknown option \(argument)") }
            o.paths.append(argument)
        }
    }
    if o.paths.isEmpty {
        let directory = "bench/payloads"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        o.paths = names.filter { $0.hasSuffix(".bin") }.sorted().map { "\(directory)/\($0)" }
    }
    return o
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("smc-swift-bench: \(message)\n".utf8))
    exit(2)
}

let options = parseOptions()
let codecName = options.flat ? "smc-swift-flat" : "smc-swift"

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

var sink = 0  // keeps results observable so the optimiser cannot drop the work

/// Per-operation nanoseconds of `options.samples` samples, sorted: a warm-up that also sizes
/// the batch so one sample lasts at least `minSampleNs`, then one batch per sample.
func measure(_ body: () throws -> Int) rethrows -> (samples: [Double], perSample: Int) {
    if options.profileIterations > 0 {
        for _ in 0..<options.profileIterations { sink &+= try body() }
        return ([], options.profileIterations)
    }
    var iterations = 1
    let warmupEnd = now() + options.warmupNs
    while true {
        let start = now()
        for _ in 0..<iterations { sink &+= try body() }
        let elapsed = now() - start
        if elapsed < options.minSampleNs && iterations < 1 << 30 {
            iterations *= 2
        } else if now() >= warmupEnd {
            break
        }
    }
    var samples: [Double] = []
    samples.reserveCapacity(options.samples)
    for _ in 0..<options.samples {
        let start = now()
        for _ in 0..<iterations { sink &+= try body() }
        samples.append(Double(now() - start) / Double(iterations))
    }
    return (samples.sorted(), iterations)
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    let index = min(sorted.count - 1, max(0, Int((p * Double(sorted.count - 1)).rounded())))
    return sorted[index]
}

/// `text` as a JSON string literal.
func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

func emit(_ fields: [(String, String)]) {
    print("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
}

func report(
    _ file: String, _ op: String, _ bytes: Int, _ values: Int,
    _ result: (samples: [Double], perSample: Int)
) {
    guard options.profileIterations == 0 else { return }
    let median = percentile(result.samples, 0.5)
    emit([
        ("codec", jsonString(codecName)), ("payload", jsonString(file)), ("op", jsonString(op)),
        ("bytes", "\(bytes)"), ("values", "\(values)"), ("samples", "\(result.samples.count)"),
        ("iterations_per_sample", "\(result.perSample)"),
        ("median_ns", String(format: "%.1f", median)),
        ("p10_ns", String(format: "%.1f", percentile(result.samples, 0.1))),
        ("p90_ns", String(format: "%.1f", percentile(result.samples, 0.9))),
        ("mb_per_s", String(format: "%.1f", Double(bytes) / median * 1e9 / 1e6)),
        ("ns_per_value", String(format: "%.2f", median / Double(max(values, 1)))),
    ])
}

/// One payload's operations: name → body returning something observable.
typealias Operation = (name: String, body: () throws -> Int)

struct PayloadFailure: Error, CustomStringConvertible {
    let description: String
}

/// The generic ops over `SMCValue` at the chosen entry point; checks the re-encoding first.
func genericOperations(_ data: Data) throws -> (values: Int, ops: [Operation]) {
    let codec = SMCCodec()
    let values: Int
    let decode: () throws -> Int
    let encode: () throws -> [UInt8]
    let roundtrip: () throws -> Int
    switch options.entry {
    case "call":
        let call = try codec.decodeMethodCall(data)
        values = countValues(call)
        decode = { try codec.decodeMethodCall(data).name.utf8.count }
        encode = { try codec.encodeMethodCall(call) }
        roundtrip = { try codec.encodeMethodCall(try codec.decodeMethodCall(data)).count }
    case "envelope":
        let envelope = try codec.decodeEnvelope(data)
        values = countValues(envelope)
        decode = {
            if case .error = try codec.decodeEnvelope(data) { return 1 }
            return 0
        }
        encode = { try codec.encodeEnvelope(envelope) }
        roundtrip = { try codec.encodeEnvelope(try codec.decodeEnvelope(data)).count }
    default:
        let value = try codec.decodeMessage(data)
        values = countValues(value)
        decode = {
            if case .list(let items) = try codec.decodeMessage(data) { return items.count }
            return 1
        }
        encode = { try codec.encodeMessage(value) }
        roundtrip = { try codec.encodeMessage(try codec.decodeMessage(data)).count }
    }
    // The payloads are canonical, so re-encoding must give the input back.
    guard try encode() == [UInt8](data) else {
        throw PayloadFailure(description: "re-encoding differs from the input")
    }
    return (
        values, [("decode", decode), ("encode", { try encode().count }), ("roundtrip", roundtrip)]
    )
}

/// The generic ops over the flat form (SMCNode) at the chosen entry point.
func flatOperations(_ data: Data) throws -> (values: Int, ops: [Operation]) {
    let codec = SMCCodec()
    let values: Int
    let decode: () throws -> Int
    let encode: () throws -> [UInt8]
    let roundtrip: () throws -> Int
    switch options.entry {
    case "call":
        let call = try codec.decodeMethodCallNode(data)
        values = countValues(try codec.decodeMethodCall(data))
        decode = { try codec.decodeMethodCallNode(data).arguments.count }
        encode = { try codec.encodeMethodCall(call) }
        roundtrip = { try codec.encodeMethodCall(try codec.decodeMethodCallNode(data)).count }
    case "envelope":
        let envelope = try codec.decodeEnvelopeNode(data)
        values = countValues(try codec.decodeEnvelope(data))
        decode = {
            if case .error = try codec.decodeEnvelopeNode(data) { return 1 }
            return 0
        }
        encode = { try codec.encodeEnvelope(envelope) }
        roundtrip = { try codec.encodeEnvelope(try codec.decodeEnvelopeNode(data)).count }
    default:
        let node = try codec.decodeMessageNode(data)
        values = countValues(node.value)
        decode = { try codec.decodeMessageNode(data).count }
        encode = { try codec.encodeMessage(node) }
        roundtrip = { try codec.encodeMessage(try codec.decodeMessageNode(data)).count }
    }
    guard try encode() == [UInt8](data) else {
        throw PayloadFailure(description: "re-encoding differs from the input")
    }
    return (
        values, [("decode", decode), ("encode", { try encode().count }), ("roundtrip", roundtrip)]
    )
}

/// The typed ops: decode into records (TypedRecords.swift) and encode them back.
func typedOperations(_ data: Data) throws -> (values: Int, ops: [Operation]) {
    let values = countValues(try SMCCodec().decodeMessage(data))
    let (decode, encode) = try RecordShape(of: data).operations(data)
    // The same records through the hooks alone (readValue(ofType:) / writeValue(_:) of the
    // reader and writer subclasses), as values inside `Any`: the same bytes again.
    let hooks = SMCHostMessageCodec(readerWriter: RecordsReaderWriter(), mapStyle: .orderedPairs)
    guard try hooks.encode(try hooks.decode(data)) == data else {
        throw PayloadFailure(
            description: "re-encoding through the reader/writer hooks differs from the input")
    }
    return (values, [("typed_decode", decode), ("typed_encode", encode)])
}

var failures = 0
for path in options.paths {
    let name = URL(fileURLWithPath: path).lastPathComponent
    do {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let (values, ops) =
            try options.typed
            ? typedOperations(data)
            : options.flat ? flatOperations(data) : genericOperations(data)
        for op in ops where options.ops?.contains(op.name) ?? true {
            report(name, op.name, data.count, values, try measure(op.body))
        }
    } catch {
        emit([
            ("codec", jsonString(codecName)), ("payload", jsonString(name)),
            ("error", jsonString("\(error)")),
        ])
        failures += 1
    }
}
FileHandle.standardError.write(Data("checksum \(sink)\n".utf8))
exit(failures == 0 ? 0 : 1)
