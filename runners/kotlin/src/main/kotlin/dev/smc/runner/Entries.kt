package dev.smc.runner

import dev.smc.codec.CustomValueCodec
import dev.smc.codec.DecodeMode
import dev.smc.codec.Envelope
import dev.smc.codec.ErrorEnvelope
import dev.smc.codec.MethodCall
import dev.smc.codec.StandardMessageCodec
import dev.smc.codec.StandardMethodCodec
import dev.smc.codec.SuccessEnvelope

/**
 * The three entry points of spec §9–§11, speaking notation on one side (PROTOCOL.md P.2).
 * Open so a runner for a codec with another API can override [decode] and [encode].
 */
open class Entries(
    val messageCodec: StandardMessageCodec = CustomValueCodec(),
    /** Maps a plugged-in codec's generated classes to and from `custom` notation. */
    val adapter: HostAdapter = GenericAdapter,
    val methodCodec: StandardMethodCodec = StandardMethodCodec(messageCodec),
    /** The codec the host-type ops of spec §17 use, on plain JVM values (`Map` = LinkedHashMap). */
    val hostCodec: StandardMessageCodec = HostTypes.defaultCodec
) {
    /**
     * A decoded input as the codec returned it. [payload] is the host value the item carries
     * (the message, the arguments, the result or the details), for the summary of
     * PROTOCOL.md P.3; [value] is the item in notation, converted on first use, and
     * [reencode] encodes the same host item again with the same codec (P.2 `roundtrip`).
     * The runner overwrites the input between the decode and either (the ownership check).
     */
    class Decoded(val payload: Any?, notation: () -> JNode, val reencode: () -> ByteArray?) {
        val value: JNode by lazy(notation)
    }

    /** Returns null when [entry] is not one of `message`, `call`, `envelope`. */
    open fun decode(entry: String, bytes: ByteArray, offset: Int, length: Int, mode: DecodeMode): Decoded? =
        when (entry) {
            "message" -> {
                val host = messageCodec.decodeMessage(bytes, offset, length, mode)
                Decoded(host, { Notation.fromHost(host, adapter) }) { messageCodec.encodeMessage(host) }
            }
            "call" -> {
                val call: MethodCall = methodCodec.decodeMethodCall(bytes, offset, length, mode)
                Decoded(call.arguments, { Notation.fromMethodCall(call, adapter) }) { methodCodec.encodeMethodCall(call) }
            }
            "envelope" -> {
                val envelope: Envelope = methodCodec.decodeEnvelope(bytes, offset, length, mode)
                val value = when (envelope) {
                    is SuccessEnvelope -> envelope.result
                    is ErrorEnvelope -> envelope.details
                }
                Decoded(value, { Notation.fromEnvelope(envelope, adapter) }) { methodCodec.encodeEnvelope(envelope) }
            }
            else -> null
        }

    /**
     * Encodes the item [value] in notation for [entry] (one of [NAMES]). Returns null when
     * the codec wrote no message at all (PROTOCOL.md P.3 "no bytes"; this project's codec
     * always writes one, a plugged-in one may not). Notation the host cannot take is a
     * [NotationException]; the codec's refusal an `SmcException` (`not_encodable`).
     */
    open fun encode(entry: String, value: JNode): ByteArray? =
        when (entry) {
            "message" -> messageCodec.encodeMessage(Notation.toHost(value, adapter))
            "call" -> methodCodec.encodeMethodCall(Notation.toMethodCall(value, adapter))
            "envelope" -> methodCodec.encodeEnvelope(Notation.toEnvelope(value, adapter))
            else -> throw IllegalArgumentException("unknown entry $entry")
        }

    /**
     * spec §17 host_encode: encode a host value [HostTypes.build] made (P.2). The project's
     * own runner answers with [hostCodec]; a kit overrides this with the codec under test.
     */
    open fun hostEncode(vocab: String, host: Any?): ByteArray? = hostCodec.encodeMessage(host)

    /** spec §17 host_decode: the codec's host value of a message, for [HostTypes.describe]. */
    open fun hostDecode(vocab: String, bytes: ByteArray): Any? = hostCodec.decodeMessage(bytes, 0, bytes.size)

    companion object {
        val NAMES = listOf("message", "call", "envelope")
    }
}
