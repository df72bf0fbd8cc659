import StandardMessageCodec

// Values (bench/README.md "Definitions"): every tagged value counts once, plus every element
// of a typed list or Uint8List (a map entry is two values: key and value). The table takes
// the count from the C bench; this one is printed for cross-checking.

func countValues(_ value: SMCValue) -> Int {
    switch value {
    case .list(let items): return 1 + items.reduce(0) { $0 + countValues($1) }
    case .map(let entries):
        return 1 + entries.reduce(0) { $0 + countValues($1.0) + countValues($1.1) }
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
    case .error(_, _, let details, let stacktrace):
        return 2 + countValues(details) + (stacktrace == nil ? 0 : 1)
    }
}
