package dev.smc.codec

/** A decoded method call (spec §10): the name and the one arguments value. */
class MethodCall(val method: String, val arguments: Any?)

/** A decoded result envelope (spec §11). */
sealed class Envelope

class SuccessEnvelope(val result: Any?) : Envelope()

/**
 * An error envelope (spec §11.2, §11.3). [message] null (wire `00`) and "" (wire `0700`) are
 * different. [hasStacktrace] says whether the optional 4th element is present; when it is,
 * [stacktrace] may still be null (wire `00`).
 */
class ErrorEnvelope(
    val code: String,
    val message: String?,
    val details: Any?,
    val hasStacktrace: Boolean = false,
    val stacktrace: String? = null
) : Envelope()

/**
 * StandardMethodCodec over a [StandardMessageCodec] (custom types included). Each entry point
 * encodes into one buffer, so alignment counts from the method name's first byte or from the
 * envelope flag (spec §3.1). Fixed-type elements have their tag checked before they are
 * decoded (spec §14.2), giving `bad_envelope` rather than `unknown_tag`.
 */
class StandardMethodCodec(val messageCodec: StandardMessageCodec) {

    fun encodeMethodCall(call: MethodCall): ByteArray = SmcWriter.encode { writer ->
        messageCodec.writeValue(writer, call.method)
        messageCodec.writeValue(writer, call.arguments)
    }

    fun decodeMethodCall(
        bytes: ByteArray,
        offset: Int = 0,
        length: Int = bytes.size - offset,
        mode: DecodeMode = DecodeMode.FLUTTER
    ): MethodCall {
        val reader = messageCodec.newReader(bytes, offset, length, mode)
        val name = readStringElement(reader, "the method name", nullable = false)!!
        val arguments = messageCodec.readValue(reader)
        messageCodec.requireFullyRead(reader, "the method call")
        return MethodCall(name, arguments)
    }

    fun encodeEnvelope(envelope: Envelope): ByteArray = SmcWriter.encode { writer ->
        when (envelope) {
            is SuccessEnvelope -> {
                writer.write(SUCCESS_FLAG)
                messageCodec.writeValue(writer, envelope.result)
            }
            is ErrorEnvelope -> {
                writer.write(ERROR_FLAG)
                messageCodec.writeValue(writer, envelope.code)
                messageCodec.writeValue(writer, envelope.message)
                messageCodec.writeValue(writer, envelope.details)
                if (envelope.hasStacktrace) messageCodec.writeValue(writer, envelope.stacktrace)
            }
        }
    }

    fun decodeEnvelope(
        bytes: ByteArray,
        offset: Int = 0,
        length: Int = bytes.size - offset,
        mode: DecodeMode = DecodeMode.FLUTTER
    ): Envelope {
        val reader = messageCodec.newReader(bytes, offset, length, mode)
        val flagOffset = reader.position
        val envelope = when (val flag = reader.readUnsignedByte("an envelope (its flag is missing)")) {
            SUCCESS_FLAG -> SuccessEnvelope(messageCodec.readValue(reader))
            ERROR_FLAG -> {
                val code = readStringElement(reader, "the error code", nullable = false)!!
                val message = readStringElement(reader, "the error message", nullable = true)
                val details = messageCodec.readValue(reader)
                // spec §11.3: a 4th element (stacktrace) is present iff bytes remain.
                if (reader.remaining > 0) {
                    val stacktrace = readStringElement(reader, "the error stacktrace", nullable = true)
                    ErrorEnvelope(code, message, details, true, stacktrace)
                } else {
                    ErrorEnvelope(code, message, details)
                }
            }
            else -> throw SmcException(
                ErrorClass.BAD_ENVELOPE, flagOffset,
                "envelope flag 0x%02x is neither 00 nor 01 (spec §11.4)".format(flag)
            )
        }
        messageCodec.requireFullyRead(reader, "the envelope")
        return envelope
    }

    /** Checks the tag (07, or 00 when [nullable]) before decoding the element (spec §14.2). */
    private fun readStringElement(reader: SmcReader, what: String, nullable: Boolean): String? {
        reader.checkStringElementTag(what, nullable)
        return messageCodec.readValue(reader) as String?
    }

    companion object {
        const val SUCCESS_FLAG = 0x00
        const val ERROR_FLAG = 0x01
    }
}
