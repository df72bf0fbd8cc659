/// The error classes of spec/errors.md §14.1. Raw values are the exact class strings.
public enum SMCErrorClass: String, CaseIterable, Sendable {
    // Decoder classes.
    case truncated
    case trailingBytes = "trailing_bytes"
    case unknownTag = "unknown_tag"
    case badUTF8 = "bad_utf8"
    case depthLimit = "depth_limit"
    case notCanonical = "not_canonical"
    case badEnvelope = "bad_envelope"
    // Encoder class.
    case notEncodable = "not_encodable"
}

/// A rejected input: one class and one byte offset (spec/errors.md).
///
/// `offset` counts from the first byte given to the entry point. For `truncated` it is
/// always the input length (the first missing byte).
public struct SMCDecodingError: Error, Equatable, CustomStringConvertible, Sendable {
    public let errorClass: SMCErrorClass
    public let offset: Int
    /// Informative only; never compared (spec/errors.md).
    public let message: String

    public init(_ errorClass: SMCErrorClass, at offset: Int, _ message: String) {
        self.errorClass = errorClass
        self.offset = offset
        self.message = message
    }

    public var description: String { "\(errorClass.rawValue) at offset \(offset): \(message)" }

    public static func == (lhs: SMCDecodingError, rhs: SMCDecodingError) -> Bool {
        lhs.errorClass == rhs.errorClass && lhs.offset == rhs.offset
    }
}

/// A value the encoder refuses (spec/errors.md §14.1 `not_encodable`): a largeInt, a size
/// above 2^32−1, a custom tag below 128, or a host object with no wire type.
public struct SMCEncodingError: Error, CustomStringConvertible, Sendable {
    public let errorClass: SMCErrorClass
    public let message: String

    public init(_ message: String) {
        self.errorClass = .notEncodable
        self.message = message
    }

    public var description: String { "\(errorClass.rawValue): \(message)" }
}

/// Decoder settings (spec §1.2 modes, §15.1 depth).
public struct SMCDecodingOptions: Sendable {
    public enum Mode: String, Sendable {
        /// Accepts what Flutter's decoders accept: non-minimal sizes, any padding content,
        /// largeInt (tag 5).
        case flutter
        /// Canonical bytes only: non-minimal size or non-zero padding → `not_canonical`;
        /// tag 5 → `unknown_tag`.
        case strict
    }

    public var mode: Mode
    /// Deepest allowed container nesting; a top-level container is level 1 (spec §15.1).
    public var maxDepth: Int
    /// When false, tags 128...255 are `unknown_tag` (a codec without extensions, spec §8.1).
    public var allowsCustomTags: Bool

    public init(mode: Mode = .flutter, maxDepth: Int = 128, allowsCustomTags: Bool = true) {
        self.mode = mode
        self.maxDepth = maxDepth
        self.allowsCustomTags = allowsCustomTags
    }

    public static let flutter = SMCDecodingOptions()
    public static let strict = SMCDecodingOptions(mode: .strict)
}
