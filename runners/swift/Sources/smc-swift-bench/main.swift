import Foundation
import StandardMessageCodec

// Benchmark (not a test): decode, encode and round-trip timings for canonical payloads.
// Usage: smc-swift-bench [--samples N] [--op decode|encode|roundtrip] [file.bin ...]
// Default files: /work/shared/bench-payloads/*.bin. One JSON object per payload and
// operation on stdout. Build with `swift build -c release` before trusting the numbers.

let defaultDirectory = "/work/shared/bench-payloads"
var sampleCount = 200
var paths: [String] = []
var onlyOp: String? = nil
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    if argument == "--samples", let next = arguments.popFirst(), let n = Int(next), n > 0 {
        sampleCount = max(n, 1)
    } else if argument == "--op", let next = arguments.popFirst() {
        onlyOp = next
    } else {
        paths.append(argument)
    }
}
if paths.isEmpty {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: defaultDirectory)) ?? []
    paths = names.filter { $0.hasSuffix(".bin") }.sorted().map { "\(defaultDirectory)/\($0)" }
}

/// Values in a decoded tree: every node counts once (a typed list is one value; a map
/// entry is two: key and value).
func countValues(_ value: SMCValue) -> Int {
    switch value {
    case .list(let items): return 1 + items.reduce(0) { $0 + countValues($1) }
    case .map(let entries): return 1 + entries.reduce(0) { $0 + countValues($1.0) + countValues($1.1) }
    case .custom(_, let payload): return 1 + countValues(payload)
    default: return 1
    }
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

var sink = 0  // keeps results observable so the optimiser cannot drop the work

/// Times `body` (one operation): warm-up, then `sampleCount` samples, each running the
/// operation enough times to last ≥ 20 µs; returns per-operation nanoseconds, sorted.
func measure(_ body: () throws -> Int) rethrows -> (samples: [Double], perSample: Int) {
    var iterations = 1
    let warmupEnd = now() + 100_000_000
    while true {  // warm-up ≥ 100 ms (and calibrate iterations per sample)
        let start = now()
        for _ in 0 ..< iterations { sink &+= try body() }
        let elapsed = now() - start
        if elapsed < 20_000 { iterations *= 2 } else if now() >= warmupEnd { break }
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
        let value = try codec.decodeMessage(data)
        let values = countValues(value)
        // Sanity: the payloads are canonical, so the round trip must be the identity.
        if try codec.encodeMessage(value) != [UInt8](data) {
            FileHandle.standardError.write(Data("\(name): re-encoding differs from the input\n".utf8))
            failures += 1
        }
        if wanted("decode") {
            report(name, "decode", data.count, values, try measure {
                if case .list(let items) = try codec.decodeMessage(data) { return items.count }
                return 1
            })
        }
        if wanted("encode") {
            report(name, "encode", data.count, values, try measure { try codec.encodeMessage(value).count })
        }
        if wanted("roundtrip") {
            report(name, "roundtrip", data.count, values, try measure {
                try codec.encodeMessage(try codec.decodeMessage(data)).count
            })
        }
    } catch {
        FileHandle.standardError.write(Data("\(name): \(error)\n".utf8))
        failures += 1
    }
}
FileHandle.standardError.write(Data("checksum \(sink)\n".utf8))
exit(failures == 0 ? 0 : 1)
