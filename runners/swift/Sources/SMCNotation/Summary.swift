import StandardMessageCodec

/// The `summary` answer of runners/PROTOCOL.md P.3: what a decoded value too large to print
/// holds (nested deeper than `printableDepth` containers, or a response longer than
/// `printableLineBytes`), instead of its notation.
///
/// Measured with an explicit stack, so a value nested 100,000 levels deep is summarised
/// without the runner overflowing its stack where the codec did not.
public struct ValueSummary: Equatable {
    /// Container depth of spec §15.1: a top-level list is 1, a scalar 0.
    public var depth: Int
    /// Values in the tree: itself, every element, map key, map value and custom payload.
    public var values: Int
    /// Bytes of its strings (UTF-8), byte arrays, largeInt texts and typed-list elements.
    public var bytes: Int

    public static let printableDepth = 500
    public static let printableLineBytes = 16 << 20

    public init(depth: Int, values: Int, bytes: Int) {
        self.depth = depth
        self.values = values
        self.bytes = bytes
    }

    /// The summary of a value (for a call: its arguments; an envelope: result or details).
    public init(of root: SMCValue) {
        var depth = 0
        var values = 0
        var bytes = 0
        var pending: [(SMCValue, Int)] = [(root, 0)]
        while let (value, level) = pending.popLast() {
            values += 1
            switch value {
            case .null, .bool, .int32, .int64, .float64: break
            case .largeInt(let text), .string(let text): bytes += text.utf8.count
            case .uint8List(let b): bytes += b.count
            case .int32List(let a): bytes += 4 * a.count
            case .float32List(let a): bytes += 4 * a.count
            case .int64List(let a): bytes += 8 * a.count
            case .float64List(let a): bytes += 8 * a.count
            case .list(let elements):
                depth = max(depth, level + 1)
                for element in elements { pending.append((element, level + 1)) }
            case .map(let entries):
                depth = max(depth, level + 1)
                for (key, element) in entries {
                    pending.append((key, level + 1))
                    pending.append((element, level + 1))
                }
            case .custom(_, let payload):
                depth = max(depth, level + 1)
                pending.append((payload, level + 1))
            }
        }
        self.init(depth: depth, values: values, bytes: bytes)
    }

    /// `{"depth": D, "values": C, "bytes": B}`.
    public var json: JSONValue {
        .object([
            ("depth", .number(String(depth))), ("values", .number(String(values))),
            ("bytes", .number(String(bytes))),
        ])
    }
}
