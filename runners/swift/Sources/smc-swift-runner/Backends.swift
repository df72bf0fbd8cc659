import Foundation
import SMCNotation
import SMCRunnerKit
import StandardMessageCodec

/// `SMCCodec` over `SMCValue`: every feature when decoding; encode lacks `largeint`
/// because tag 5 is never written (spec §4.4) and answers `not_encodable`. It reads the
/// input through a raw pointer, so `shift` moves the address it sees.
struct ValueModelBackend: RunnerBackend {
    let codecName = "smc-swift"
    /// This project's codec reports classes and offsets, and is placed (P.1): said explicitly.
    let options = RunnerOptions(errorClasses: true, errorOffsets: true, placement: true)
    let hostHook: RunnerHostHook? = ProjectHostHook()
    let entries: [Entry] = [.message, .call, .envelope]
    let decodeCapabilities = allFeatures
    let encodeCapabilities = allFeatures.filter { $0 != "largeint" }

    func decode(_ input: PlacedInput, entry: Entry, mode: SMCDecodingOptions.Mode) throws
        -> DecodedItem
    {
        let codec = SMCCodec(options: SMCDecodingOptions(mode: mode))
        switch entry {
        case .message:
            let value = try codec.decodeMessage(unsafeBytes: input.bytes)
            return DecodedItem(
                summary: { ValueSummary(of: value) },
                notation: { Notation.json(value) },
                reencode: { try codec.encodeMessage(value) })
        case .call:
            let call = try codec.decodeMethodCall(unsafeBytes: input.bytes)
            return DecodedItem(
                summary: { ValueSummary(of: call.arguments) },
                notation: { Notation.json(call) },
                reencode: { try codec.encodeMethodCall(call) })
        case .envelope:
            let envelope = try codec.decodeEnvelope(unsafeBytes: input.bytes)
            let carried: SMCValue
            switch envelope {
            case .success(let result): carried = result
            case .error(_, _, let details, _): carried = details
            }
            return DecodedItem(
                summary: { ValueSummary(of: carried) },
                notation: { Notation.json(envelope) },
                reencode: { try codec.encodeEnvelope(envelope) })
        }
    }

    func encode(_ notation: JSONValue, entry: Entry) throws -> [UInt8]? {
        let codec = SMCCodec()
        switch entry {
        case .message: return try codec.encodeMessage(try Notation.value(from: notation))
        case .call: return try codec.encodeMethodCall(try Notation.methodCall(from: notation))
        case .envelope: return try codec.encodeEnvelope(try Notation.envelope(from: notation))
        }
    }
}

/// `SMCHostMessageCodec` over host values (`Any?`), messages only. Host values have no
/// notation of their own, so both directions pass through the host types:
/// decode = reader → host value → writer → bytes → notation;
/// encode = notation → bytes → reader → host value → writer → bytes.
/// A reader/writer pair that loses information (e.g. a Pigeon enum read from int32 and
/// written back as int64) therefore shows up as a failing vector, which is the point.
/// It reads the input as a `Data` slice (`PlacedInput.data`): with `shift` its indices do
/// not start at 0 and guard bytes follow its end.
struct HostModelBackend: RunnerBackend {
    let readerWriter: SMCReaderWriter
    let codecName = "smc-swift-host"
    let options = RunnerOptions(errorClasses: true, errorOffsets: true, placement: true)
    let hostHook: RunnerHostHook? = ProjectHostHook()
    let entries: [Entry] = [.message]
    /// No largeint (SMCLargeInt cannot be written back) and no method codec.
    let decodeCapabilities = allFeatures.filter {
        $0 != "largeint" && $0 != "method-codec"
            && $0 != "error-stacktrace"
    }
    var encodeCapabilities: [String] { decodeCapabilities }

    private func codec(_ mode: SMCDecodingOptions.Mode) -> SMCHostMessageCodec {
        SMCHostMessageCodec(
            readerWriter: readerWriter, options: SMCDecodingOptions(mode: mode),
            mapStyle: .orderedPairs)
    }

    /// The host value written back: its bytes (the host round trip).
    private func written(_ host: Any?, _ codec: SMCHostMessageCodec) throws -> [UInt8] {
        do {
            return [UInt8](try codec.encode(host))
        } catch let error as SMCEncodingError {
            throw NotApplicable(
                reason: "decoded host value cannot be written back: \(error.message)")
        }
    }

    func decode(_ input: PlacedInput, entry: Entry, mode: SMCDecodingOptions.Mode) throws
        -> DecodedItem
    {
        guard entry == .message else { throw NotApplicable(reason: "host backend: messages only") }
        let codec = codec(mode)
        let host = try codec.decode(input.data)
        let value = { try SMCCodec().decodeMessage(try written(host, codec)) }
        return DecodedItem(
            summary: { ValueSummary(of: try value()) },
            notation: { Notation.json(try value()) },
            reencode: { try written(host, codec) })
    }

    func encode(_ notation: JSONValue, entry: Entry) throws -> [UInt8]? {
        guard entry == .message else { throw NotApplicable(reason: "host backend: messages only") }
        let wire = try SMCCodec().encodeMessage(try Notation.value(from: notation))
        let codec = codec(.flutter)
        return try written(try codec.decode(Data(wire)), codec)
    }
}

/// The host hook of this project's runners (spec §17.5, §17.9): its own host-value codec,
/// `SMCWriter` and `SMCReader`, which take and return the Swift types of the swift table.
struct ProjectHostHook: RunnerHostHook {
    let hostVocabularies = HostTypes.vocabularies

    func hostEncode(_ value: Any?) throws -> [UInt8]? {
        let writer = SMCWriter()
        try writer.writeValue(value)
        return writer.bytes
    }

    func hostDecode(_ message: Data) throws -> Any? {
        let reader = SMCReader(bytes: [UInt8](message))
        let value = try reader.readValue()
        try reader.finish()
        return value
    }
}
