import Foundation

/// StandardMessageCodec and StandardMethodCodec over the lossless `SMCValue` model.
///
/// Decoding reads the input in place for the duration of the call and copies every
/// decoded payload out of it, so nothing decoded refers to the input. `unsafeBytes:`
/// overloads take a raw buffer the caller guarantees for the duration of the call (the
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
        try Self.withInputBytes(of: data) { try decodeMessage(unsafeBytes: $0) }
    }

    public func decodeMessage(_ bytes: [UInt8]) throws -> SMCValue {
        try Self.withInputBytes(of: bytes) { try decodeMessage(unsafeBytes: $0) }
    }

    public func decodeMessage(unsafeBytes bytes: UnsafeRawBufferPointer) throws -> SMCValue {
        var decoder = ValueDecoder(bytes: bytes, options: options)
        return try decoder.decodeMessage()
    }

    public func encodeMessage(_ value: SMCValue) throws -> [UInt8] {
        try Self.encode(
            capacityHint: value.encodedSizeHint,
            hintIsUpperBound: value.encodedSizeHintIsUpperBound
        ) { try $0.writeValue(value) }
    }

    public func encodeMessageData(_ value: SMCValue) throws -> Data {
        Data(try encodeMessage(value))
    }

    // MARK: Method calls (spec §10)

    public func decodeMethodCall(_ data: Data) throws -> SMCMethodCall {
        try Self.withInputBytes(of: data) { try decodeMethodCall(unsafeBytes: $0) }
    }

    public func decodeMethodCall(_ bytes: [UInt8]) throws -> SMCMethodCall {
        try Self.withInputBytes(of: bytes) { try decodeMethodCall(unsafeBytes: $0) }
    }

    public func decodeMethodCall(unsafeBytes bytes: UnsafeRawBufferPointer) throws
        -> SMCMethodCall
    {
        var decoder = ValueDecoder(bytes: bytes, options: options)
        return try decoder.decodeMethodCall()
    }

    public func encodeMethodCall(_ call: SMCMethodCall) throws -> [UInt8] {
        try Self.encode(
            capacityHint: 6 &+ call.name.utf8.count &+ call.arguments.encodedSizeHint,
            hintIsUpperBound: call.arguments.encodedSizeHintIsUpperBound
        ) {
            try $0.writeMethodCall(call)
        }
    }

    // MARK: Envelopes (spec §11)

    public func decodeEnvelope(_ data: Data) throws -> SMCEnvelope {
        try Self.withInputBytes(of: data) { try decodeEnvelope(unsafeBytes: $0) }
    }

    public func decodeEnvelope(_ bytes: [UInt8]) throws -> SMCEnvelope {
        try Self.withInputBytes(of: bytes) { try decodeEnvelope(unsafeBytes: $0) }
    }

    public func decodeEnvelope(unsafeBytes bytes: UnsafeRawBufferPointer) throws -> SMCEnvelope {
        var decoder = ValueDecoder(bytes: bytes, options: options)
        return try decoder.decodeEnvelope()
    }

    public func encodeEnvelope(_ envelope: SMCEnvelope) throws -> [UInt8] {
        try Self.encode(
            capacityHint: envelope.encodedSizeHint,
            hintIsUpperBound: envelope.encodedSizeHintIsUpperBound
        ) {
            try $0.writeEnvelope(envelope)
        }
    }

    // MARK: The flat form (SMCNode): two allocations per decode, whatever the message

    public func decodeMessageNode(_ data: Data) throws -> SMCNode {
        try Self.withInputBytes(of: data) { try decodeMessageNode(unsafeBytes: $0) }
    }

    public func decodeMessageNode(_ bytes: [UInt8]) throws -> SMCNode {
        try Self.withInputBytes(of: bytes) { try decodeMessageNode(unsafeBytes: $0) }
    }

    /// Reads `bytes` in place for the duration of the call; the tree keeps its own copy.
    public func decodeMessageNode(unsafeBytes bytes: UnsafeRawBufferPointer) throws -> SMCNode {
        try NodeDecoder.decodeMessage(bytes, options)
    }

    public func decodeMethodCallNode(_ data: Data) throws -> SMCNodeMethodCall {
        try Self.withInputBytes(of: data) { try NodeDecoder.decodeMethodCall($0, options) }
    }

    public func decodeMethodCallNode(unsafeBytes bytes: UnsafeRawBufferPointer) throws
        -> SMCNodeMethodCall
    {
        try NodeDecoder.decodeMethodCall(bytes, options)
    }

    public func decodeEnvelopeNode(_ data: Data) throws -> SMCNodeEnvelope {
        try Self.withInputBytes(of: data) { try NodeDecoder.decodeEnvelope($0, options) }
    }

    public func decodeEnvelopeNode(unsafeBytes bytes: UnsafeRawBufferPointer) throws
        -> SMCNodeEnvelope
    {
        try NodeDecoder.decodeEnvelope(bytes, options)
    }

    /// A node's subtree as a message (any node: a whole decoded message, or a part of one).
    public func encodeMessage(_ node: SMCNode) throws -> [UInt8] {
        let end = node.tree.end(of: node.index)
        return try Self.encode(capacityHint: node.tree.encodeBound, hintIsUpperBound: true) {
            try NodeEncoder.write(node.tree, node.index, end, to: $0.out)
        }
    }

    public func encodeMethodCall(_ call: SMCNodeMethodCall) throws -> [UInt8] {
        let args = call.arguments
        let end = args.tree.end(of: args.index)
        let size = 6 &+ call.name.utf8.count &+ args.tree.encodeBound
        return try Self.encode(capacityHint: size, hintIsUpperBound: true) { encoder in
            encoder.out.append(WireTag.string)
            try encoder.writeUTF8(call.name)
            try NodeEncoder.write(args.tree, args.index, end, to: encoder.out)
        }
    }

    public func encodeEnvelope(_ envelope: SMCNodeEnvelope) throws -> [UInt8] {
        switch envelope {
        case .success(let result):
            let end = result.tree.end(of: result.index)
            return try Self.encode(
                capacityHint: 1 &+ result.tree.encodeBound, hintIsUpperBound: true
            ) { encoder in
                encoder.out.append(0)
                try NodeEncoder.write(result.tree, result.index, end, to: encoder.out)
            }
        case .error(let code, let message, let details, let stacktrace):
            let end = details.tree.end(of: details.index)
            // Flag, then each string's tag + longest size field + bytes, then the details.
            var size =
                19 &+ code.utf8.count &+ (message?.utf8.count ?? 0) &+ details.tree.encodeBound
            if case .text(let text)? = stacktrace { size = size &+ text.utf8.count }
            return try Self.encode(capacityHint: size, hintIsUpperBound: true) { encoder in
                encoder.out.append(1)
                encoder.out.append(WireTag.string)
                try encoder.writeUTF8(code)
                if let message = message {
                    encoder.out.append(WireTag.string)
                    try encoder.writeUTF8(message)
                } else {
                    encoder.out.append(WireTag.null)
                }
                try NodeEncoder.write(details.tree, details.index, end, to: encoder.out)
                switch stacktrace {
                case nil: break
                case .null?: encoder.out.append(WireTag.null)
                case .text(let text)?:
                    encoder.out.append(WireTag.string)
                    try encoder.writeUTF8(text)
                }
            }
        }
    }

    // MARK: Output and input access

    /// The direct-to-array encoding of large flat values (`OutputBuffer.encodesDirectly`).
    /// One encode path for every entry point: large flat values whose size hint is an upper
    /// bound go straight into the returned array; everything else into a growing buffer.
    static func encode(
        capacityHint hint: Int, hintIsUpperBound: Bool,
        _ write: (ValueEncoder) throws -> Void
    ) throws -> [UInt8] {
        if OutputBuffer.encodesDirectly(capacityHint: hint, hintIsUpperBound: hintIsUpperBound) {
            return try encodeDirectly(capacityHint: hint, write)
        }
        if hintIsUpperBound {
            // An exact-size block: one malloc, no growth; cheaper here than the thread's
            // buffer (its two pthread calls), per callgrind and the bench (flat encodes).
            let encoder = ValueEncoder(capacityHint: hint)
            try write(encoder)
            return encoder.out.bytes
        }
        // A guessed size (SMCValue): the thread's buffer, already grown by earlier messages.
        return try OutputBuffer.withReusable { out in
            try write(ValueEncoder(out: out))
            return out.bytes
        }
    }

    static func encodeDirectly(
        capacityHint: Int,
        _ write: (ValueEncoder) throws -> Void
    ) throws -> [UInt8] {
        try OutputBuffer.encodeToArray(capacityHint: capacityHint) { out in
            try write(ValueEncoder(out: out))
        }
    }

    // MARK: Input access

    /// Runs `body` over the bytes of `source` in place, without a private copy: `Data` and
    /// `[UInt8]` are values that cannot change while borrowed, and a whole-input copy would
    /// double the cost of bulk payloads (two 1 MiB copies and allocations per 1 MiB
    /// Uint8List instead of one). Even a caller that races a write into the memory behind
    /// its value (e.g. `Data(bytesNoCopy:)`) cannot make the decoder read out of bounds:
    /// the decoder never writes to the input, every read is checked against the length
    /// fixed on entry, each length or tag it acts on is read once into a local, and
    /// strings are built with `String(decoding:)`, which repairs rather than trusts.
    static func withInputBytes<Source: ContiguousBytes, Result>(
        of source: Source, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) throws -> Result {
        try source.withUnsafeBytes { try body($0) }
    }
}
