package dev.smc.kit

import java.nio.ByteBuffer

/**
 * The host hook (spec §17): a [CodecUnderTest] whose codec takes and returns host values of a
 * vocabulary of spec §17 implements this too, and the kit sends it the host-type vectors of
 * those vocabularies. For `host_encode` the kit builds the JVM object of exactly the type a
 * vector names (dev.smc.runner.HostTypes: Integer, Long, Float, BigInteger, byte[], float[],
 * ArrayList, LinkedHashMap, HashMap, ...) and hands it to [encodeHost]; for `host_decode` it
 * names the type of every node [decodeHost] returns. Without this interface every host-type
 * vector is not applicable: the kit never answers one with another codec. What [encodeHost]
 * and [decodeHost] throw is sorted by [CodecUnderTest.rejection], as for messages.
 */
interface HostCodecUnderTest : CodecUnderTest {
    /** The vocabularies the codec's host types are: "kotlin" (spec §17.4) and/or "any" (§17.9). */
    fun hostVocabularies(): List<String>

    /** Encodes a host value as a message, as the codec's own API does; null: no message. */
    fun encodeHost(value: Any?): ByteArray?

    /** Decodes the message in [input] (position 0 to limit) into the codec's host values. */
    fun decodeHost(input: ByteBuffer): Any?

    /**
     * The host types of its vocabularies the codec's API cannot take or give (spec §17.1,
     * P.1 `hosts_without`), e.g. `mapOf("kotlin" to listOf("Set"))`: the hello states them and
     * a host value holding one is answered `skipped` without being built. Only the types
     * runners/protocol.schema.json lists may be stated. Default: none.
     */
    fun hostTypesWithout(): Map<String, List<String>> = emptyMap()
}
