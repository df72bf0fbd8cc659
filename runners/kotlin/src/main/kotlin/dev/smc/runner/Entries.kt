package dev.smc.runner

import dev.smc.codec.CustomValueCodec
import dev.smc.codec.DecodeMode
import dev.smc.codec.Envelope
import dev.smc.codec.MethodCall
import dev.smc.codec.StandardMessageCodec
import dev.smc.codec.StandardMethodCodec

/** The three entry points of spec §9–§11, speaking notation on one side (PROTOCOL.md P.2). */
class Entries(
    val messageCodec: StandardMessageCodec = CustomValueCodec(),
    /** Maps a plugged-in codec's generated classes to and from `custom` notation. */
    val adapter: HostAdapter = GenericAdapter,
    val methodCodec: StandardMethodCodec = StandardMethodCodec(messageCodec)
) {
    /** A decoded input: its notation and a function that re-encodes the same host value. */
    class Decoded(val value: JNode, val reencode: () -> ByteArray)

    /** Returns null when [entry] is not one of `message`, `call`, `envelope`. */
    fun decode(entry: String, bytes: ByteArray, offset: Int, length: Int, mode: DecodeMode): Decoded? =
        when (entry) {
            "message" -> {
                val host = messageCodec.decodeMessage(bytes, offset, length, mode)
                Decoded(Notation.fromHost(host, adapter)) { messageCodec.encodeMessage(host) }
            }
            "call" -> {
                val call: MethodCall = methodCodec.decodeMethodCall(bytes, offset, length, mode)
                Decoded(Notation.fromMethodCall(call, adapter)) { methodCodec.encodeMethodCall(call) }
            }
            "envelope" -> {
                val envelope: Envelope = methodCodec.decodeEnvelope(bytes, offset, length, mode)
                Decoded(Notation.fromEnvelope(envelope, adapter)) { methodCodec.encodeEnvelope(envelope) }
            }
            else -> null
        }

    /** Returns null when [entry] is unknown; `bad_notation` / `not_encodable` as exceptions. */
    fun encode(entry: String, value: JNode): ByteArray? =
        when (entry) {
            "message" -> messageCodec.encodeMessage(Notation.toHost(value, adapter))
            "call" -> methodCodec.encodeMethodCall(Notation.toMethodCall(value, adapter))
            "envelope" -> methodCodec.encodeEnvelope(Notation.toEnvelope(value, adapter))
            else -> null
        }

    companion object {
        val NAMES = listOf("message", "call", "envelope")
    }
}
