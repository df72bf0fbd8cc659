import Foundation

/// Makes readers and writers, like Flutter's `FlutterStandardReaderWriter`: a Pigeon-style
/// codec subclasses it to return its reader and writer subclasses.
open class SMCReaderWriter {
    public init() {}

    open func reader(with data: Data) -> SMCReader { SMCReader(data: data) }

    /// A reader over bytes that stay valid while it is used (`SMCReader(unsafeBytes:)`).
    /// A subclass that returns its own reader from `reader(with:)` should override this too;
    /// until it does, this falls back to `reader(with:)` on a copy, so its reader is kept.
    open func reader(unsafeBytes bytes: UnsafeRawBufferPointer) -> SMCReader {
        if type(of: self) == SMCReaderWriter.self { return SMCReader(unsafeBytes: bytes) }
        return reader(with: Data(bytes))
    }

    open func writer() -> SMCWriter { SMCWriter() }
}

/// A message codec over host values (`Any?`), like `FlutterStandardMessageCodec`, with
/// spec behaviour where Flutter's diverges: an empty message is `truncated` at 0 (spec
/// §9.2), a top-level nil encodes to `00` (spec §9.3), trailing bytes are rejected.
public final class SMCHostMessageCodec {
    public let readerWriter: SMCReaderWriter
    public var options: SMCDecodingOptions
    public var mapStyle: SMCMapStyle

    public init(
        readerWriter: SMCReaderWriter = SMCReaderWriter(),
        options: SMCDecodingOptions = .flutter, mapStyle: SMCMapStyle = .dictionary
    ) {
        self.readerWriter = readerWriter
        self.options = options
        self.mapStyle = mapStyle
    }

    public func encode(_ message: Any?) throws -> Data {
        let writer = readerWriter.writer()
        try writer.writeValue(message)
        return writer.takeData()
    }

    /// Reads `message` in place (no copy of the input); every value returned owns its bytes.
    public func decode(_ message: Data) throws -> Any? {
        try message.withUnsafeBytes { bytes in
            let reader = readerWriter.reader(unsafeBytes: bytes)
            reader.options = options
            reader.mapStyle = mapStyle
            let value = try reader.readValue()
            try reader.finish()
            return value
        }
    }
}
