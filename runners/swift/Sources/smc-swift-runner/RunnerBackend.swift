import Foundation
import SMCNotation
import StandardMessageCodec

/// The entry points of runners/PROTOCOL.md P.2.
enum Entry: String { case message, call, envelope }

/// A codec the runner can drive. Two exist: the lossless value model (default) and the
/// Pigeon-shaped host-value reader/writer (`--host`), which is where a generated codec
/// subclass plugs in (README.md, "Plugging in a Pigeon codec").
protocol RunnerBackend {
    var codecName: String { get }
    var entries: [Entry] { get }
    var decodeCapabilities: [String] { get }
    var encodeCapabilities: [String] { get }
    /// Decodes `bytes`; returns the notation and, when `reencode`, the re-encoded bytes.
    func decode(_ bytes: UnsafeRawBufferPointer, entry: Entry, mode: SMCDecodingOptions.Mode,
                reencode: Bool) throws -> (JSONValue, [UInt8]?)
    func encode(_ notation: JSONValue, entry: Entry) throws -> [UInt8]
}

/// A request the backend cannot express (answered as `skipped`, P.3).
struct NotApplicable: Error { let reason: String }

let allFeatures = [
    "int32", "int64", "int64-distinct", "float64", "float32list", "typed-lists",
    "nan-payload", "embedded-nul", "custom-types", "largeint", "duplicate-map-keys",
    "map-order", "method-codec", "error-stacktrace", "strict-mode", "depth-limit",
]

/// `SMCCodec` over `SMCValue`: every feature when decoding; encode lacks `largeint`
/// because tag 5 is never written (spec §4.4) and answers `not_encodable`.
struct ValueModelBackend: RunnerBackend {
    let codecName = "smc-swift"
    let entries: [Entry] = [.message, .call, .envelope]
    let decodeCapabilities = allFeatures
    let encodeCapabilities = allFeatures.filter { $0 != "largeint" }

    func decode(_ bytes: UnsafeRawBufferPointer, entry: Entry, mode: SMCDecodingOptions.Mode,
                reencode: Bool) throws -> (JSONValue, [UInt8]?) {
        let codec = SMCCodec(options: SMCDecodingOptions(mode: mode))
        switch entry {
        case .message:
            let value = try codec.decodeMessage(unsafeBytes: bytes)
            return (Notation.json(value), reencode ? try codec.encodeMessage(value) : nil)
        case .call:
            let call = try codec.decodeMethodCall(unsafeBytes: bytes)
            return (Notation.json(call), reencode ? try codec.encodeMethodCall(call) : nil)
        case .envelope:
            let envelope = try codec.decodeEnvelope(unsafeBytes: bytes)
            return (Notation.json(envelope), reencode ? try codec.encodeEnvelope(envelope) : nil)
        }
    }

    func encode(_ notation: JSONValue, entry: Entry) throws -> [UInt8] {
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
struct HostModelBackend: RunnerBackend {
    let readerWriter: SMCReaderWriter
    let codecName = "smc-swift-host"
    let entries: [Entry] = [.message]
    /// No largeint (SMCLargeInt cannot be written back) and no method codec.
    let decodeCapabilities = allFeatures.filter { $0 != "largeint" && $0 != "method-codec"
        && $0 != "error-stacktrace" }
    var encodeCapabilities: [String] { decodeCapabilities }

    private func hostRoundTrip(_ data: Data, mode: SMCDecodingOptions.Mode) throws -> [UInt8] {
        let codec = SMCHostMessageCodec(readerWriter: readerWriter,
                                        options: SMCDecodingOptions(mode: mode),
                                        mapStyle: .orderedPairs)
        let host = try codec.decode(data)
        do {
            return [UInt8](try codec.encode(host))
        } catch let error as SMCEncodingError {
            throw NotApplicable(reason: "decoded host value cannot be written back: \(error.message)")
        }
    }

    func decode(_ bytes: UnsafeRawBufferPointer, entry: Entry, mode: SMCDecodingOptions.Mode,
                reencode: Bool) throws -> (JSONValue, [UInt8]?) {
        guard entry == .message else { throw NotApplicable(reason: "host backend: messages only") }
        let written = try hostRoundTrip(Data(bytes), mode: mode)
        let value = try SMCCodec().decodeMessage(written)
        return (Notation.json(value), reencode ? written : nil)
    }

    func encode(_ notation: JSONValue, entry: Entry) throws -> [UInt8] {
        guard entry == .message else { throw NotApplicable(reason: "host backend: messages only") }
        let wire = try SMCCodec().encodeMessage(try Notation.value(from: notation))
        return try hostRoundTrip(Data(wire), mode: .flutter)
    }
}
