package dev.smc.kit

import java.nio.ByteBuffer

/**
 * A JVM codec judged by `smc conformance` (runners/PROTOCOL.md): implement this in Java or
 * Kotlin and call [Kit.serve]. The kit speaks the protocol, converts notation to and from host
 * values, places the input, overwrites it after each decode (the ownership check) and answers
 * values too large to print with their summary; the codec never sees JSON.
 *
 * Host values are those of Flutter's Java and Kotlin codecs: null, Boolean, Integer, Long,
 * Double, String, byte[], int[], long[], double[], float[], java.util.List and java.util.Map
 * (a decoded map may be any Map; for encoding the kit builds a LinkedHashMap in the wire's
 * order, or dev.smc.codec.MapPairs when a key repeats), and dev.smc.codec.CustomValue for a
 * custom value (tag and payload) the codec decodes without a host class of its own.
 *
 * Every method is called from one thread, one request at a time. Every method is abstract,
 * so a Java class implements the interface directly (no Kotlin default methods).
 */
interface CodecUnderTest {
    /** Name, version, language, capabilities and options, as the hello says them (P.1). */
    fun describe(): CodecDescription

    /**
     * Decode the message in [input], from its position 0 to its limit, as the codec's own API
     * does, and return its host value. [input] is a slice: for the placement check it is a
     * view at offset 1..7 of a larger array whose next 64 bytes are guard bytes, and the
     * array is overwritten as soon as this returns. [strict] only if "strict-mode" is a
     * declared decode capability. Throw what the codec throws: [rejection] sorts it.
     */
    fun decodeMessage(input: ByteBuffer, strict: Boolean): Any?

    /**
     * Encode a host value as the codec does; null when the codec returns no message at all
     * (Flutter's Java codec for a top-level null), which is not an empty one. Also used for
     * round trips, with the value [decodeMessage] returned just before.
     */
    fun encodeMessage(value: Any?): ByteArray?

    /**
     * The codec's documented rejection, or null. Given what [decodeMessage] or [encodeMessage]
     * threw: a [Rejection] when it is the way the codec's API says it rejects malformed input
     * or refuses a value (Flutter's Java codec: IllegalArgumentException and
     * BufferUnderflowException), null for anything else, which the kit answers as a crash of
     * the codec. Never read a class out of a message text.
     */
    fun rejection(error: Throwable): Rejection?
}

/**
 * A documented rejection: the class of spec/errors.md when the codec's errors carry one
 * (declare "error-classes"), and the offset of spec/errors.md when it knows it (declare
 * "error-offsets"), or -1.
 */
class Rejection @JvmOverloads constructor(val errorClass: String? = null, val offset: Long = -1)
