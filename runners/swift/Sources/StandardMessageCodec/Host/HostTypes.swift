import Foundation

/// A custom value (tags 128...255, spec §8) that no reader subclass claimed: the tag and
/// its decoded payload. `SMCWriter` writes it back unchanged, so a codec without
/// extensions still round-trips Pigeon traffic.
public struct SMCCustomValue {
    public var tag: UInt8
    public var value: Any?

    public init(tag: UInt8, value: Any?) {
        self.tag = tag
        self.value = value
    }
}

/// A map in wire order with duplicates kept (spec §7.2, §7.3). Returned by `SMCReader`
/// when `mapStyle == .orderedPairs`; accepted by `SMCWriter`, which writes the entries in
/// this order.
public struct SMCOrderedMap {
    public var entries: [(key: Any?, value: Any?)]

    public init(_ entries: [(key: Any?, value: Any?)] = []) {
        self.entries = entries
    }
}

/// A largeInt (tag 5) read in flutter mode: its payload text, kept verbatim (spec §4.4).
/// Writing it back fails with `not_encodable`, as the spec forbids writing tag 5.
public struct SMCLargeInt: Hashable {
    public var text: String
    public init(text: String) { self.text = text }
}

/// A map key whose host value is not `Hashable` (a list, a map, a custom value), wrapped so
/// it can sit in a `[AnyHashable: Any?]`. Keys compare by identity: two equal-looking
/// list keys stay two entries. Use `.orderedPairs` to get wire order and value keys.
public final class SMCUnhashableKey: Hashable {
    public let value: Any?

    public init(_ value: Any?) { self.value = value }

    public static func == (lhs: SMCUnhashableKey, rhs: SMCUnhashableKey) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// The key a null map key becomes in a `[AnyHashable: Any?]` (Swift dictionaries cannot
/// hold a nil key). Not `NSNull`: on Linux two `AnyHashable(NSNull())` compare equal but
/// hash differently, so lookups fail. `SMCWriter` writes it as null.
public struct SMCNull: Hashable, Sendable {
    public init() {}
}

/// How `SMCReader` returns maps (tag 13).
public enum SMCMapStyle: Sendable {
    /// `[AnyHashable: Any?]`, the shape Pigeon's Swift code casts to. A null key becomes
    /// `SMCNull()` (Flutter's Darwin codec uses NSNull), an unhashable key an `SMCUnhashableKey`;
    /// duplicate keys keep the last value; order is lost.
    case dictionary
    /// `SMCOrderedMap`: wire order, duplicates kept, keys as decoded.
    case orderedPairs
}

/// Unwraps any depth of `Optional` hidden inside an `Any` (an `Int32?` passed as `Any?`
/// arrives as `Optional<Any>.some(Optional<Int32>)`).
protocol SMCOptionalUnwrapping {
    var smcUnwrapped: Any? { get }
}

extension Optional: SMCOptionalUnwrapping {
    var smcUnwrapped: Any? {
        switch self {
        case .none: return nil
        case .some(let wrapped):
            if let inner = wrapped as? SMCOptionalUnwrapping { return inner.smcUnwrapped }
            return wrapped
        }
    }
}
