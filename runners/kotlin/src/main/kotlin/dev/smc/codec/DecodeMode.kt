package dev.smc.codec

/** Decoder modes of spec §1.2. */
enum class DecodeMode {
    /** Accepts what Flutter's decoders accept: non-minimal sizes, any padding, largeInt. */
    FLUTTER,

    /** Canonical bytes only (spec §2.2, §3.3, §4.4). */
    STRICT
}

/** How the decoder represents a map (spec §7.2, §7.3). */
enum class MapStyle {
    /** [MapPairs]: wire order and duplicate keys survive. What the conformance runner uses. */
    PAIRS,

    /**
     * LinkedHashMap: wire order of first occurrence; a duplicate key keeps the last value,
     * as Java's HashMap.put does. What generated Pigeon code expects (`as Map<K, V>`).
     */
    LINKED_HASH_MAP
}
