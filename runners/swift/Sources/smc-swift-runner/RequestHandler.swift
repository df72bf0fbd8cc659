import SMCNotation
import StandardMessageCodec

/// Answers one runner-protocol request (runners/PROTOCOL.md P.2/P.3). Thin by design
/// (P.6): parse notation, call the codec, write notation; never checks its own answers.
struct RequestHandler {
    static let codecVersion = "0.1.0"
    let backend: RunnerBackend

    /// Returns the response object and whether the runner should exit after writing it.
    func respond(to line: [UInt8]) -> (JSONValue, Bool) {
        let request: JSONValue
        do {
            request = try JSONParser.parse(line)
        } catch {
            return (errorResponse(seq: .null, "bad_notation", nil, "request is not JSON: \(error)"),
                    false)
        }
        let seq = request["seq"] ?? .null
        switch request["op"]?.stringValue {
        case "hello"?:
            return (hello(seq: seq, protocolVersion: request["protocol"]), false)
        case "bye"?:
            return (.object([("seq", seq), ("status", .string("ok"))]), true)
        case "decode"?:
            return (decode(request, seq: seq, reencode: false), false)
        case "roundtrip"?:
            return (decode(request, seq: seq, reencode: true), false)
        case "encode"?:
            return (encode(request, seq: seq), false)
        default:
            return (skipped(seq: seq, "unknown op"), false)
        }
    }

    private func hello(seq: JSONValue, protocolVersion: JSONValue?) -> JSONValue {
        func words(_ list: [String]) -> JSONValue { .array(list.map { .string($0) }) }
        return .object([
            ("seq", seq), ("status", .string("ok")), ("protocol", .number("1")),
            ("codec", .object([("name", .string(backend.codecName)),
                               ("version", .string(Self.codecVersion)),
                               ("language", .string("Swift"))])),
            ("entries", words(backend.entries.map(\.rawValue))),
            ("capabilities", .object([("decode", words(backend.decodeCapabilities)),
                                      ("encode", words(backend.encodeCapabilities))])),
            ("options", words(["error-offsets", "shift"])),
        ])
    }

    private func decode(_ request: JSONValue, seq: JSONValue, reencode: Bool) -> JSONValue {
        guard let entry = request["entry"]?.stringValue.flatMap(Entry.init(rawValue:)) else {
            return skipped(seq: seq, "unknown entry point")
        }
        guard let hex = request["hex"]?.stringValue, let bytes = Hex.decode(hex, allowUpperCase: true)
        else {
            return errorResponse(seq: seq, "bad_notation", nil, "hex is missing or not hex")
        }
        let mode: SMCDecodingOptions.Mode
        switch request["mode"]?.stringValue ?? "flutter" {
        case "flutter": mode = .flutter
        case "strict": mode = .strict
        case let other: return skipped(seq: seq, "unknown mode \(other)")
        }
        let shift = request["shift"]?.intValue ?? 0
        guard (0...7).contains(shift) else { return skipped(seq: seq, "shift outside 0..7") }
        do {
            let decoded = try Self.withShiftedCopy(bytes, shift: shift) { raw in
                try backend.decode(raw, entry: entry, mode: mode, reencode: reencode)
            }
            var members: [(String, JSONValue)] = [("seq", seq), ("status", .string("ok")),
                                                  ("value", decoded.0)]
            if let encoded = decoded.1 { members.append(("hex", .string(Hex.encode(encoded)))) }
            return .object(members)
        } catch {
            return response(for: error, seq: seq)
        }
    }

    private func encode(_ request: JSONValue, seq: JSONValue) -> JSONValue {
        guard let entry = request["entry"]?.stringValue.flatMap(Entry.init(rawValue:)) else {
            return skipped(seq: seq, "unknown entry point")
        }
        guard let notation = request["value"] else {
            return errorResponse(seq: seq, "bad_notation", nil, "request has no value")
        }
        do {
            let bytes = try backend.encode(notation, entry: entry)
            return .object([("seq", seq), ("status", .string("ok")),
                            ("hex", .string(Hex.encode(bytes)))])
        } catch {
            return response(for: error, seq: seq)
        }
    }

    /// Copies `bytes` to `shift` bytes past an 8-aligned address (P.2 `shift`), so a codec
    /// that aligned by address instead of message offset would read the wrong bytes.
    static func withShiftedCopy<R>(_ bytes: [UInt8], shift: Int,
                                   _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count + 8,
                                                           alignment: 8)
        defer { block.deallocate() }
        let window = UnsafeMutableRawBufferPointer(rebasing: block[shift ..< shift + bytes.count])
        bytes.withUnsafeBytes { window.copyMemory(from: $0) }
        return try body(UnsafeRawBufferPointer(window))
    }

    private func response(for error: Error, seq: JSONValue) -> JSONValue {
        switch error {
        case let failure as SMCDecodingError:
            return errorResponse(seq: seq, failure.errorClass.rawValue, failure.offset,
                                 failure.message)
        case let failure as SMCEncodingError:
            return errorResponse(seq: seq, failure.errorClass.rawValue, nil, failure.message)
        case let failure as NotApplicable:
            return skipped(seq: seq, failure.reason)
        case let failure as NotationError:
            return errorResponse(seq: seq, "bad_notation", nil, failure.message)
        default:
            return errorResponse(seq: seq, "bad_notation", nil, "unexpected error: \(error)")
        }
    }

    private func errorResponse(seq: JSONValue, _ errorClass: String, _ offset: Int?,
                               _ message: String) -> JSONValue {
        .object([("seq", seq), ("status", .string("error")), ("class", .string(errorClass)),
                 ("offset", offset.map { .number(String($0)) } ?? .null),
                 ("message", .string(message))])
    }

    private func skipped(seq: JSONValue, _ reason: String) -> JSONValue {
        .object([("seq", seq), ("status", .string("skipped")), ("reason", .string(reason))])
    }
}
