package dev.smc.runner

import dev.smc.codec.CustomValue

/**
 * Connects a codec's own custom host types (Pigeon-generated enums and data classes) to the
 * notation's `["custom", T, V]` form (notation.md N.1, spec §8). The generic codec needs no
 * mapping: its host type for custom values is [CustomValue] itself.
 */
interface HostAdapter {
    /** The host object to encode for a notation custom value (or the CustomValue itself). */
    fun toHost(custom: CustomValue): Any?

    /** The custom form of a decoded host object, or null when it is not a custom type. */
    fun toCustom(value: Any): CustomValue?
}

object GenericAdapter : HostAdapter {
    override fun toHost(custom: CustomValue): Any? = custom
    override fun toCustom(value: Any): CustomValue? = value as? CustomValue
}
