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
            JSONWriter.write(
                .object([
                    ("seq", response["seq"] ?? .null), ("status", .string("ok")),
                    ("summary", summary.json),
                ]), into: &bytes)
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

    /// The vocabularies of the backend's host hook (P.1 `hosts`); nil without a hook.
    private var hosts: [String]? {
        guard let words = backend.hostHook?.hostVocabularies, !words.isEmpty else { return nil }
        return words
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
        return .object(
            [
                ("seq", seq), ("status", .string("ok")), ("protocol", .number("2")),
                (
                    "codec",
                    .object([
                        ("name", .string(backend.codecName)),
                        ("version", .string(backend.codecVersion)),
                        ("language", .string(backend.language)),
                    ])
                ),
                ("entries", words(backend.entries.map(\.rawValue))),
                (
                    "capabilities",
                    .object([
                        ("decode", words(backend.decodeCapabilities)),
                        ("encode", words(backend.encodeCapabilities)),
                    ])
                ),
                ("options", words(options)),
            ] + (hosts.map { [("hosts", words($0))] } ?? []) + hostsWithout)
    }

    /// spec §17.1, P.1 `hosts_without`: the types the hook says its codec's API lacks, for
    /// the vocabularies it speaks, in their order; nothing when it states none.
    private var hostsWithout: [(String, JSONValue)] {
        guard let hook = backend.hostHook else { return [] }
        let stated: [(String, JSONValue)] = hook.hostVocabularies.compactMap { vocab in
            guard let types = hook.hostTypesWithout[vocab], !types.isEmpty else { return nil }
            return (vocab, .array(types.map { .string($0) }))
        }
        return stated.isEmpty ? [] : [("hosts_without", .object(stated))]
    }

    /// The first type of host value `node` the hook states its codec's API lacks, or nil.
    private func statedAbsent(_ node: JSONValue, in types: [String], depth: Int = 0) -> String? {
        guard depth <= 64 else { return nil }
        if let type = node["type"]?.stringValue, types.contains(type) { return type }
        for element in node["value"]?.arrayValue ?? [] {
            for part in element.arrayValue ?? [element] where part["type"] != nil {
                if let found = statedAbsent(part, in: types, depth: depth + 1) { return found }
            }
        }
        return nil
    }

    /// spec §17: build the host value of exactly its type; the backend's host hook encodes it.
    private func hostEncode(_ request: JSONValue, seq: JSONValue) -> JSONValue {
        guard let hook = backend.hostHook, let vocab = request["host"]?.stringValue,
            hook.hostVocabularies.contains(vocab), let node = request["host_value"]
        else {
            return skipped(seq: seq, "the codec has no host hook for this vocabulary")
        }
        if let absent = statedAbsent(node, in: hook.hostTypesWithout[vocab] ?? []) {
            return skipped(seq: seq, "the codec's API has no \(absent) (hosts_without)")
        }
        do {
            let bytes = try hook.hostEncode(try HostTypes.build(vocab, node))
            return .object([
                ("seq", seq), ("status", .string("ok")),
                ("hex", bytes.map { .string(Hex.encode($0)) } ?? .null),
            ])
        } catch {
            return response(for: error, seq: seq)
        }
    }

    /// spec §17: the host hook decodes; the answer names the host type of every node.
    private func hostDecode(_ request: JSONValue, seq: JSONValue) -> JSONValue {
        guard let hook = backend.hostHook, request["host"]?.stringValue == "swift",
            hook.hostVocabularies.contains("swift")
        else {
            return skipped(seq: seq, "the codec has no host hook decoding into this vocabulary")
        }
        guard let hex = request["hex"]?.stringValue, let bytes = Hex.decode(hex) else {
            return skipped(seq: seq, "hex is missing or not hex")
        }
        do {
            let value = try hook.hostDecode(Data(bytes))
            return .object([
                ("seq", seq), ("status", .string("ok")),
                ("host_value", HostTypes.describe(value)),
            ])
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
        guard let hex = request["hex"]?.stringValue,
            let bytes = Hex.decode(hex, allowUpperCase: true)
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
                members.append(
                    ("hex", try item.reencode().map { .string(Hex.encode($0)) } ?? .null))
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
            return .object([
                ("seq", seq), ("status", .string("ok")),
                ("hex", bytes.map { .string(Hex.encode($0)) } ?? .null),
            ])
        } catch {
            return response(for: error, seq: seq)
        }
    }

    /// P.6: the codec's documented errors are `error`, what the runner cannot run is
    /// `skipped`, and anything else is an unclassified rejection, never an error class.
    private func response(for error: Error, seq: JSONValue) -> JSONValue {
        if let rejection = backend.rejection(error) {
            return errorResponse(
                seq: seq, rejection.errorClass, rejection.offset, rejection.message)
        }
        switch error {
        case let failure as SMCDecodingError:
            return errorResponse(
                seq: seq, failure.errorClass.rawValue, failure.offset,
                failure.message)
        case let failure as SMCEncodingError:
            return errorResponse(seq: seq, failure.errorClass.rawValue, nil, failure.message)
        case let failure as NotApplicable:
            return skipped(seq: seq, failure.reason)
        case let failure as NotationError:
            return skipped(seq: seq, "the request's notation cannot be read: \(failure.message)")
        default:
            return .object([
                ("seq", seq), ("status", .string(Self.undocumentedErrorStatus)),
                ("kind", .string(String(describing: type(of: error)))),
                ("message", .string(String(describing: error))),
            ])
        }
    }

    /// The status of a thrown error the codec does not document (P.3, spec §1.4's Swift
    /// line): the platform's channel code calls the codec in a `do`/`catch` and survives any
    /// thrown `Error`, so it is an unclassified rejection. A trap (precondition, index out of
    /// range, overflow, force unwrap) ends the process, which the judge sees as a crash.
    public static let undocumentedErrorStatus = "rejected"

    private func errorResponse(
        seq: JSONValue, _ errorClass: String?, _ offset: Int?,
        _ message: String
    ) -> JSONValue {
        .object([
            ("seq", seq), ("status", .string("error")),
            ("class", errorClass.map { .string($0) } ?? .null),
            ("offset", offset.map { .number(String($0)) } ?? .null),
            ("message", .string(message)),
        ])
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
