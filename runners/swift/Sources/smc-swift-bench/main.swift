import Foundation
import StandardMessageCodec

// Benchmark (not a test): decode, encode and round-trip timings for canonical payloads.
// Usage: smc-swift-bench [--samples N] [--op decode|encode|roundtrip]
//                        [--entry message|call|envelope] [file.bin ...]
// --entry picks the entry point (spec §9, §10, §11) for every file of the run.
// Default files: bench/payloads/*.bin (run from the repository root). One JSON object per payload and
// operation on stdout. Build with `swift build -c release` before trusting the numbers.

let defaultDirectory = "bench/payloads"  // relative to the repository root
var sampleCount = 200
var entry = "message"
var paths: [String] = []
var onlyOp: String? = nil
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    if argument == "--samples", let next = arguments.popFirst(), let n = Int(next), n > 0 {
        sampleCount = max(n, 1)
    } else if argument == "--op", let next = arguments.popFirst() {
        onlyOp = next
    } else if argument == "--entry", let next = arguments.popFirst(),
              ["message", "call", "envelope"].contains(next) {
        entry = next
    } else {
        paths.append(argument)
    }
}
if paths.isEmpty {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: defaultDirectory)) ?? []
    paths = names.filter { $0.hasSuffix(".bin") }.sorted().map { "\(defaultDirectory)/\($0)" }
}

/// Values (bench/README.md): every tagged value counts once, plus every element of a
/// typed list or Uint8List (a map entry is two values: key and value).
func countValues(_ value: SMCValue) -> Int {
    switch value {
    case .list(let items): return 1 + items.reduce(0) { $0 + countValues($1) }
    case .map(let entries): return 1 + entries.reduce(0) { $0 + countValues($1.0) + countValues($1.1) }
    case .custom(_, let payload): return 1 + countValues(payload)
    case .uint8List(let a): return 1 + a.count
    case .int32List(let a): return 1 + a.count
    case .int64List(let a): return 1 + a.count
    case .float64List(let a): return 1 + a.count
    case .float32List(let a): return 1 + a.count
    default: return 1
    }
}

/// Method calls and envelopes: the name, code, message and stacktrace strings count too.
func countValues(_ call: SMCMethodCall) -> Int { 1 + countValues(call.arguments) }
func countValues(_ envelope: SMCEnvelope) -> Int {
    switch envelope {
    case .success(let v): return countValues(v)
    case .error(_, _, let details, let stacktrace): return 2 + countValues(details) + (stacktrace == nil ? 0 : 1)
    }
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

var sink = 0  // keeps results observable so the optimiser cannot drop the work

/// Times `body` (one operation): warm-up, then `sampleCount` samples, each running the
/// operation enough times to last ≥ 50 µs; returns per-operation nanoseconds, sorted.
func measure(_ body: () throws -> Int) rethrows -> (samples: [Double], perSample: Int) {
    var iterations = 1
    let warmupEnd = now() + 100_000_000
    while true {  // warm-up ≥ 100 ms (and calibrate iterations per sample)
        let start = now()
        for _ in 0 ..< iterations { sink &+= try body() }
        let elapsed = now() - start
        if elapsed < 50_000 { iterations *= 2 } else if now() >= warmupEnd { break }
    }
    var samples: [Double] = []
    samples.reserveCapacity(sampleCount)
    for _ in 0 ..< sampleCount {
        let start = now()
        for _ in 0 ..< iterations { sink &+= try body() }
        samples.append(Double(now() - start) / Double(iterations))
    }
    return (samples.sorted(), iterations)
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    let index = min(sorted.count - 1, max(0, Int((p * Double(sorted.count - 1)).rounded())))
    return sorted[index]
}

func wanted(_ op: String) -> Bool { onlyOp == nil || onlyOp == op }

func report(_ file: String, _ op: String, _ bytes: Int, _ values: Int,
            _ result: (samples: [Double], perSample: Int)) {
    let median = percentile(result.samples, 0.5)
    let fields: [(String, String)] = [
        ("codec", "\"smc-swift\""), ("payload", "\"\(file)\""), ("op", "\"\(op)\""),
        ("bytes", "\(bytes)"), ("values", "\(values)"), ("samples", "\(result.samples.count)"),
        ("iterations_per_sample", "\(result.perSample)"),
        ("median_ns", String(format: "%.0f", median)),
        ("p10_ns", String(format: "%.0f", percentile(result.samples, 0.1))),
        ("p90_ns", String(format: "%.0f", percentile(result.samples, 0.9))),
        ("mb_per_s", String(format: "%.1f", Double(bytes) / median * 1e9 / 1e6)),
        ("ns_per_value", String(format: "%.2f", median / Double(max(values, 1)))),
    ]
    print("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
}

let codec = SMCCodec()
var failures = 0
for path in paths {
    let name = URL(fileURLWithPath: path).lastPathComponent
    do {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        // One decode / encode pair per entry point (spec §9, §10, §11).
        let decode: () throws -> Int
        let encode: () throws -> [UInt8]
        let roundtrip: () throws -> Int
        let values: Int
        switch entry {
        case "call":
            let call = try codec.decodeMethodCall(data)
            values = countValues(call)
            decode = { try codec.decodeMethodCall(data).name.utf8.count }
            encode = { try codec.encodeMethodCall(call) }
            roundtrip = { try codec.encodeMethodCall(try codec.decodeMethodCall(data)).count }
        case "envelope":
            let envelope = try codec.decodeEnvelope(data)
            values = countValues(envelope)
            decode = { if case .error = try codec.decodeEnvelope(data) { return 1 }; return 0 }
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
        // Sanity: the payloads are canonical, so the round trip must be the identity.
        if try encode() != [UInt8](data) {
            FileHandle.standardError.write(Data("\(name): re-encoding differs from the input\n".utf8))
            failures += 1
        }
        if wanted("decode") { report(name, "decode", data.count, values, try measure(decode)) }
        if wanted("encode") { report(name, "encode", data.count, values, try measure { try encode().count }) }
        if wanted("roundtrip") { report(name, "roundtrip", data.count, values, try measure(roundtrip)) }
    } catch {
        FileHandle.standardError.write(Data("\(name): \(error)\n".utf8))
        failures += 1
    }
}
FileHandle.standardError.write(Data("checksum \(sink)\n".utf8))
exit(failures == 0 ? 0 : 1)
