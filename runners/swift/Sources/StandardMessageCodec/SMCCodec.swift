import Foundation

/// StandardMessageCodec and StandardMethodCodec over the lossless `SMCValue` model.
///
/// Decoding copies the input into memory the call owns and frees it before returning;
/// nothing decoded refers to the input or to that copy. `unsafeBytes:` overloads decode
/// in place for callers that guarantee the buffer for the duration of the call (the
/// runner uses them to honour `shift`, runners/PROTOCOL.md P.2).
///
/// Every entry point throws `SMCDecodingError` (class + offset, spec/errors.md) on bad
/// input and `SMCEncodingError` (`not_encodable`) on a value the format cannot carry.
public struct SMCCodec: Sendable {
    public var options: SMCDecodingOptions

    public init(options: SMCDecodingOptions = .flutter) {
        self.options = options
    }

    // MARK: Messages (spec §9)

    public func decodeMessage(_ data: Data) throws -> SMCValue {
        try Self.withOwnedCopy(of: data) { try decodeMessage(unsafeBytes: $0) }
    }

    public func decodeMessage(_ bytes: [UInt8]) throws -> SMCValue {
        try Self.withOwnedCopy(of: bytes) { try decodeMessage(unsafeBytes: $0) }
    }

    public func decodeMessage(unsafeBytes bytes: UnsafeRawBufferPointer) throws -> SMCValue {
        var decoder = ValueDecoder(bytes: bytes, options: options)
        return try decoder.decodeMessage()
    }

    public func encodeMessage(_ value: SMCValue) throws -> [UInt8] {
        let encoder = ValueEncoder(capacityHint: value.encodedSizeHint)
        try encoder.writeValue(value)
        return encoder.out.bytes
    }

    public func encodeMessageData(_ value: SMCValue) throws -> Data {
        Data(try encodeMessage(value))
    }

    // MARK: Method calls (spec §10)

    public func decodeMethodCall(_ data: Data) throws -> SMCMethodCall {
        try Self.withOwnedCopy(of: data) { try decodeMethodCall(unsafeBytes: $0) }
    }

    public func decodeMethodCall(_ bytes: [UInt8]) throws -> SMCMethodCall {
        try Self.withOwnedCopy(of: bytes) { try decodeMethodCall(unsafeBytes: $0) }
    }

    public func decodeMethodCall(unsafeBytes bytes: UnsafeRawBufferPointer) throws
        -> SMCMethodCall
    {
        var decoder = ValueDecoder(bytes: bytes, options: options)
        return try decoder.decodeMethodCall()
    }

    public func encodeMethodCall(_ call: SMCMethodCall) throws -> [UInt8] {
        let encoder = ValueEncoder(capacityHint: 6 &+ call.name.utf8.count &+ call.arguments.encodedSizeHint)
        try encoder.writeMethodCall(call)
        return encoder.out.bytes
    }

    // MARK: Envelopes (spec §11)

    public func decodeEnvelope(_ data: Data) throws -> SMCEnvelope {
        try Self.withOwnedCopy(of: data) { try decodeEnvelope(unsafeBytes: $0) }
    }

    public func decodeEnvelope(_ bytes: [UInt8]) throws -> SMCEnvelope {
        try Self.withOwnedCopy(of: bytes) { try decodeEnvelope(unsafeBytes: $0) }
    }

    public func decodeEnvelope(unsafeBytes bytes: UnsafeRawBufferPointer) throws -> SMCEnvelope {
        var decoder = ValueDecoder(bytes: bytes, options: options)
        return try decoder.decodeEnvelope()
    }

    public func encodeEnvelope(_ envelope: SMCEnvelope) throws -> [UInt8] {
        let encoder = ValueEncoder()
        try encoder.writeEnvelope(envelope)
        return encoder.out.bytes
    }

    // MARK: Ownership

    /// Runs `body` over a private copy of `source` that lives exactly as long as the call,
    /// so a caller mutating or freeing its buffer (e.g. a bridged NSMutableData) cannot
    /// affect the decode, and no pointer into it can escape.
    static func withOwnedCopy<Source: ContiguousBytes, Result>(
        of source: Source, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) throws -> Result {
        try source.withUnsafeBytes { borrowed in
            let owned = UnsafeMutableRawBufferPointer.allocate(byteCount: borrowed.count,
                                                               alignment: 16)
            defer { owned.deallocate() }
            owned.copyMemory(from: borrowed)
            return try body(UnsafeRawBufferPointer(owned))
        }
    }
}
