import Foundation
import SMCNotation
import StandardMessageCodec

/// Answers one runner-protocol request (runners/PROTOCOL.md version 2, P.2/P.3). Thin by
/// design (P.6): parse notation, place the input, call the codec, overwrite the input, write
/// notation; never checks its own answers.
public struct RequestHandler {
    public static let codecVersion = "0.1.0"
    public let backend: RunnerBackend
    /// The `shift` option (P.1): off where the bytes cannot be placed (`--no-shift`).
    public var placement: Bool
    /// The `borrows-input` option: decoded values may be views into the input, so it is
    /// not overwritten (P.2 ownership check).
    public var borrowsInput: Bool

    /// The options start as the backend chooses them (`RunnerBackend.options`).
    public init(backend: RunnerBackend) {
        self.backend = backend
        placement = backend.options.placement
        borrowsInput = backend.options.borrowsInput
    }

    /// The response line (without the newline) and whether the runner should exit after it.
    public func answer(_ line: [UInt8]) -> ([UInt8], Bool) {
        let (response, summary, shouldExit) = respond(to: line)
        var bytes: [UInt8] = []
        JSONWriter.write(response, into: &bytes)
        if bytes.count > ValueSummary.printableLineBytes, let summary = summary {
            // P.3: too long for the judge's line limit; answer what the value holds.
            bytes.removeAll()
            JSONWriter.write(.object([("seq", response["seq"] ?? .null), ("status", .string("ok")),
                                      ("summary", summary.json)]), into: &bytes)
        }
        return (bytes, shouldExit)
    }

    /// The response object, the summary of a printed decoded value, and whether to exit.
    public func respond(to line: [UInt8]) -> (JSONValue, ValueSummary?, Bool) {
        let request: JSONValue
        do {
            request = try JSONParser.parse(line)
        } catch {
            return (skipped(seq: .null, "request is not JSON: \(error)"), nil, false)
        }
        let seq = request["seq"] ?? .null
        switch request["op"]?.stringValue {
        case "hello"?:
            return (hello(seq: seq), nil, false)
        case "bye"?:
            return (.object([("seq", seq), ("status", .string("ok"))]), nil, true)
        case "decode"?:
            let (answer, summary) = decode(request, seq: seq, reencode: false)
            return (answer, summary, false)
        case "roundtrip"?:
            let (answer, summary) = decode(request, seq: seq, reencode: true)
            return (answer, summary, false)
        case "encode"?:
            return (encode(request, seq: seq), nil, false)
        case "host_encode"?:
            return (hostEncode(request, seq: seq), nil, false)
        case "host_decode"?:
            return (hostDecode(request, seq: seq), nil, false)
        default:
            return (skipped(seq: seq, "unknown op"), nil, false)
        }
    }

    private func hello(seq: JSONValue) -> JSONValue {
        func words(_ list: [String]) -> JSONValue { .array(list.map { .string($0) }) }
        let chosen = backend.options
        var options: [String] = []
        if chosen.errorClasses { options.append("error-classes") }
        if chosen.errorOffsets { options.append("error-offsets") }
        if placement { options.append("shift") }
        if borrowsInput { options.append("borrows-input") }
        if chosen.pigeonInt64 { options.append("pigeon-int64") }
        return .object([
            ("seq", seq), ("status", .string("ok")), ("protocol", .number("2")),
            ("codec", .object([("name", .string(backend.codecName)),
                               ("version", .string(backend.codecVersion)),
                               ("language", .string(backend.language))])),
            ("entries", words(backend.entries.map(\.rawValue))),
            ("capabilities", .object([("decode", words(backend.decodeCapabilities)),
                                      ("encode", words(backend.encodeCapabilities))])),
            ("options", words(options)),
            ("hosts", words(HostTypes.vocabularies)),
        ])
    }

    /// spec §17: build the host value of exactly its type; `SMCWriter` encodes it.
    private func hostEncode(_ request: JSONValue, seq: JSONValue) -> JSONValue {
        guard let vocab = request["host"]?.stringValue, HostTypes.vocabularies.contains(vocab),
              let node = request["host_value"]
        else {
            return skipped(seq: seq, "a host vocabulary this runner does not speak")
        }
        do {
            let writer = SMCWriter()
            try writer.writeValue(try HostTypes.build(vocab, node))
            return .object([("seq", seq), ("status", .string("ok")),
                            ("hex", .string(Hex.encode(writer.bytes)))])
        } catch {
            return response(for: error, seq: seq)
        }
    }

    /// spec §17: `SMCReader` decodes; the answer names the host type of every node.
    private func hostDecode(_ request: JSONValue, seq: JSONValue) -> JSONValue {
        guard request["host"]?.stringValue == "swift" else {
            return skipped(seq: seq, "decodes into the swift host vocabulary only")
        }
        guard let hex = request["hex"]?.stringValue, let bytes = Hex.decode(hex) else {
            return skipped(seq: seq, "hex is missing or not hex")
        }
        do {
            let reader = SMCReader(bytes: bytes)
            let value = try reader.readValue()
            try reader.finish()
            return .object([("seq", seq), ("status", .string("ok")),
                            ("host_value", HostTypes.describe(value))])
        } catch {
            return response(for: error, seq: seq)
        }
    }

    private func decode(_ request: JSONValue, seq: JSONValue, reencode: Bool)
        -> (JSONValue, ValueSummary?)
    {
        guard let entry = request["entry"]?.stringValue.flatMap(Entry.init(rawValue:)) else {
            return (skipped(seq: seq, "unknown entry point"), nil)
        }
        guard let hex = request["hex"]?.stringValue, let bytes = Hex.decode(hex, allowUpperCase: true)
        else {
            return (skipped(seq: seq, "hex is missing or not hex"), nil)
        }
        let mode: SMCDecodingOptions.Mode
        switch request["mode"]?.stringValue ?? "flutter" {
        case "flutter": mode = .flutter
        case "strict": mode = .strict
        case let other: return (skipped(seq: seq, "unknown mode \(other)"), nil)
        }
        let shift = request["shift"]?.intValue ?? 0
        guard (0...7).contains(shift) else { return (skipped(seq: seq, "shift outside 0..7"), nil) }
        do {
            let placed = PlacedInput(bytes, shift: shift)
            let item = try backend.decode(placed, entry: entry, mode: mode)
            if !borrowsInput { placed.overwrite() }
            let summary = try item.summary()
            var members: [(String, JSONValue)] = [("seq", seq), ("status", .string("ok"))]
            if summary.depth > ValueSummary.printableDepth {
                members.append(("summary", summary.json))
            } else {
                members.append(("value", try item.notation()))
            }
            if reencode {
                members.append(("hex", try item.reencode().map { .string(Hex.encode($0)) } ?? .null))
            }
            return (.object(members), summary)
        } catch {
            return (response(for: error, seq: seq), nil)
        }
    }

    private func encode(_ request: JSONValue, seq: JSONValue) -> JSONValue {
        guard let entry = request["entry"]?.stringValue.flatMap(Entry.init(rawValue:)) else {
            return skipped(seq: seq, "unknown entry point")
        }
        guard let notation = request["value"] else {
            return skipped(seq: seq, "request has no value")
        }
        do {
            let bytes = try backend.encode(notation, entry: entry)
            return .object([("seq", seq), ("status", .string("ok")),
                            ("hex", bytes.map { .string(Hex.encode($0)) } ?? .null)])
        } catch {
            return response(for: error, seq: seq)
        }
    }

    /// P.6: the codec's documented errors are `error`, what the runner cannot run is
    /// `skipped`, and anything else is a crash of the codec, never an error class.
    private func response(for error: Error, seq: JSONValue) -> JSONValue {
        if let rejection = backend.rejection(error) {
            return errorResponse(seq: seq, rejection.errorClass, rejection.offset, rejection.message)
        }
        switch error {
        case let failure as SMCDecodingError:
            return errorResponse(seq: seq, failure.errorClass.rawValue, failure.offset,
                                 failure.message)
        case let failure as SMCEncodingError:
            return errorResponse(seq: seq, failure.errorClass.rawValue, nil, failure.message)
        case let failure as NotApplicable:
            return skipped(seq: seq, failure.reason)
        case let failure as NotationError:
            return skipped(seq: seq, "the request's notation cannot be read: \(failure.message)")
        default:
            return .object([("seq", seq), ("status", .string("crash")),
                            ("kind", .string(String(describing: type(of: error)))),
                            ("message", .string(String(describing: error)))])
        }
    }

    private func errorResponse(seq: JSONValue, _ errorClass: String?, _ offset: Int?,
                               _ message: String) -> JSONValue {
        .object([("seq", seq), ("status", .string("error")),
                 ("class", errorClass.map { .string($0) } ?? .null),
                 ("offset", offset.map { .number(String($0)) } ?? .null),
                 ("message", .string(message))])
    }

    private func skipped(seq: JSONValue, _ reason: String) -> JSONValue {
        .object([("seq", seq), ("status", .string("skipped")), ("reason", .string(reason))])
    }
}

/// Serves the protocol on stdin/stdout until `bye` or the end of input: one JSON request per
/// line, one JSON response per line, written (unbuffered) as soon as it is ready.
public func serveRunnerProtocol(_ handler: RequestHandler) -> Never {
    let output = FileHandle.standardOutput
    while let line = readLine(strippingNewline: true) {
        if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
        var (bytes, shouldExit) = handler.answer(Array(line.utf8))
        bytes.append(0x0A)
        output.write(Data(bytes))
        if shouldExit { exit(0) }
    }
    exit(0)
}
