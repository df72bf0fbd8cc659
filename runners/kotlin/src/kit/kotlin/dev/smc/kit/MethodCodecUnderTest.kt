package dev.smc.kit

import dev.smc.codec.Envelope
import dev.smc.codec.MethodCall
import java.nio.ByteBuffer

/**
 * A codec with a method codec too (spec §10, §11): declare the entries "call" and
 * "envelope" in [describe] (`CodecDescription.entries`) and the kit sends their vectors
 * here. The exchange types are dev.smc.codec's: `MethodCall(method, arguments)`,
 * `SuccessEnvelope(result)` and `ErrorEnvelope(code, message, details, hasStacktrace,
 * stacktrace)`, with host values as for [CodecUnderTest]; a runner for Flutter's
 * `StandardMethodCodec` converts its `MethodCall`, its result and its `FlutterException` to
 * and from them. Placement, ownership, [rejection] and "no message" are as for messages.
 */
interface MethodCodecUnderTest : CodecUnderTest {
    fun decodeMethodCall(input: ByteBuffer, strict: Boolean): MethodCall

    fun encodeMethodCall(call: MethodCall): ByteArray?

    fun decodeEnvelope(input: ByteBuffer, strict: Boolean): Envelope

    fun encodeEnvelope(envelope: Envelope): ByteArray?
}
