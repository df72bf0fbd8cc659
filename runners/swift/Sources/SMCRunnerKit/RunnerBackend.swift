import Foundation
import SMCNotation
import StandardMessageCodec

/// The entry points of runners/PROTOCOL.md P.2.
public enum Entry: String { case message, call, envelope }

/// A decoded input as the codec returned it (runners/PROTOCOL.md version 2). The handler
/// overwrites the input before it asks for any of these (the ownership check, P.2).
public struct DecodedItem {
    /// The value the item carries (message, arguments, result or details), summarised.
    public let summary: () throws -> ValueSummary
    /// The item in notation; asked only when the summary shows a printable depth.
    public let notation: () throws -> JSONValue
    /// The same host item encoded again with the same codec (P.2 `roundtrip`); nil: no bytes.
    public let reencode: () throws -> [UInt8]?

    public init(
        summary: @escaping () throws -> ValueSummary, notation: @escaping () throws -> JSONValue,
        reencode: @escaping () throws -> [UInt8]?
    ) {
        self.summary = summary
        self.notation = notation
        self.reencode = reencode
    }
}

/// A codec the runner can drive: the plug-in protocol of the Swift runner kit, as
/// `smc_runner_codec.h` is the C kit's. This repository's runner has two (the lossless value
/// model and the Pigeon-shaped host-value reader/writer, `--host`); an outside codec
/// implements it in its own package and calls `serveRunnerProtocol` (README.md, "Judge your
/// codec in 15 minutes").
///
/// Errors: `SMCDecodingError` and `SMCEncodingError` are the codec's documented rejection
/// (answered `error`), and so is any error `rejection(_:)` recognises; `NotApplicable` and
/// `NotationError` are a request the runner cannot run (`skipped`); anything else a backend
/// throws is an unclassified rejection, `rejected` (P.3, spec §1.4: a thrown Swift error is
/// caught by the channel code that called the codec; a trap ends the process, a crash).
public protocol RunnerBackend {
    var codecName: String { get }
    /// Default: this package's version.
    var codecVersion: String { get }
    /// Default: "Swift".
    var language: String { get }
    var entries: [Entry] { get }
    var decodeCapabilities: [String] { get }
    var encodeCapabilities: [String] { get }
    /// The options of P.1 the codec author chooses. Default: `RunnerOptions()`.
    var options: RunnerOptions { get }
    /// Decodes the placed input (P.2) and keeps the codec's own decoded host item.
    func decode(_ input: PlacedInput, entry: Entry, mode: SMCDecodingOptions.Mode) throws
        -> DecodedItem
    /// Encodes the notation; nil when the codec wrote no message at all.
    func encode(_ notation: JSONValue, entry: Entry) throws -> [UInt8]?
    /// The codec's own documented rejection, for a codec whose errors are not
    /// `SMCDecodingError`/`SMCEncodingError`: a `RunnerRejection` for what its API says it
    /// throws on malformed input or an unsupported value, nil for anything else (then a
    /// crash). Never read a class out of a message text. Default: nil.
    func rejection(_ error: Error) -> RunnerRejection?
    /// The host hook (spec §17), or nil: host-type vectors then are not applicable, never
    /// answered by another codec. Default: nil.
    var hostHook: RunnerHostHook? { get }
}

/// How host-type vectors (spec §17, runners/PROTOCOL.md P.2 `host_encode`/`host_decode`) reach
/// the codec under test in its own host types: the kit builds the Swift value of exactly the
/// type a vector names (`HostTypes.build`: `Int64`, `Float`, `Data`, `[Int32]`, `[String: Any]`
/// with `AnyHashable` keys, ...) and hands it to `hostEncode`; `hostDecode` returns what the
/// codec decodes, whose node types the kit names (`HostTypes.describe`). Errors are sorted as
/// for `RunnerBackend` (`rejection(_:)`).
public protocol RunnerHostHook {
    /// The vocabularies the hook speaks: "swift" (spec §17.5) and/or "any" (§17.9, encode only).
    var hostVocabularies: [String] { get }
    /// Encodes a host value with the codec as a message; nil when it wrote no message at all.
    func hostEncode(_ value: Any?) throws -> [UInt8]?
    /// Decodes a message with the codec into its host values.
    func hostDecode(_ message: Data) throws -> Any?
    /// The host types of its vocabularies the codec's API cannot take or give (spec §17.1,
    /// P.1 `hosts_without`), e.g. `["swift": ["NSNull"]]` for a Codable-only codec. The hello
    /// states them, and a host value holding one is answered `skipped` without being built.
    /// Only the types runners/protocol.schema.json lists may be stated. Default: none.
    var hostTypesWithout: [String: [String]] { get }
}

extension RunnerHostHook {
    public var hostTypesWithout: [String: [String]] { [:] }
}

/// The options of runners/PROTOCOL.md P.1, chosen by the codec author.
public struct RunnerOptions {
    /// Decode errors carry the classes of spec/errors.md (`error-classes`).
    public var errorClasses: Bool
    /// Decode errors carry the offsets of spec/errors.md (`error-offsets`).
    public var errorOffsets: Bool
    /// The runner places the input as asked (`shift`); off where the bytes cannot be placed.
    public var placement: Bool
    /// Decoded values may be views into the input: it is not overwritten (`borrows-input`).
    public var borrowsInput: Bool
    /// The encoder writes every integer as int64, as Pigeon's do (`pigeon-int64`).
    public var pigeonInt64: Bool

    /// Every option is off unless the codec author turns it on (the same modest defaults in
    /// every kit): the judge never expects classes, offsets or placement nobody claimed.
    public init(
        errorClasses: Bool = false, errorOffsets: Bool = false, placement: Bool = false,
        borrowsInput: Bool = false, pigeonInt64: Bool = false
    ) {
        self.errorClasses = errorClasses
        self.errorOffsets = errorOffsets
        self.placement = placement
        self.borrowsInput = borrowsInput
        self.pigeonInt64 = pigeonInt64
    }
}

/// A documented rejection (P.3 `error`): the class of spec/errors.md when the codec's errors
/// carry one, and the offset when it knows it.
public struct RunnerRejection {
    public var errorClass: String?
    public var offset: Int?
    public var message: String

    public init(errorClass: String? = nil, offset: Int? = nil, message: String) {
        self.errorClass = errorClass
        self.offset = offset
        self.message = message
    }
}

extension RunnerBackend {
    public var codecVersion: String { RequestHandler.codecVersion }
    public var language: String { "Swift" }
    public var options: RunnerOptions { RunnerOptions() }
    public func rejection(_ error: Error) -> RunnerRejection? { nil }
    public var hostHook: RunnerHostHook? { nil }
}

/// A request the backend cannot express (answered as `skipped`, P.3).
public struct NotApplicable: Error {
    public let reason: String
    public init(reason: String) { self.reason = reason }
}

/// Every feature word of spec/vectors.md V.3.
public let allFeatures = [
    "int32", "int64", "int64-distinct", "float64", "float32list", "typed-lists",
    "nan-payload", "embedded-nul", "custom-types", "largeint", "duplicate-map-keys",
    "map-order", "method-codec", "error-stacktrace", "strict-mode", "depth-limit",
]
