import dev.smc.codec.DecodeMode
import dev.smc.codec.Envelope
import dev.smc.codec.MethodCall
import dev.smc.codec.SmcException
import dev.smc.codec.StandardMessageCodec
import dev.smc.codec.StandardMethodCodec
import dev.smc.kit.CodecDescription
import dev.smc.kit.Kit
import dev.smc.kit.MethodCodecUnderTest
import dev.smc.kit.Rejection
import java.nio.ByteBuffer

/**
 * The same kit from Kotlin: this repository's Kotlin message and method codecs (in the kit
 * jar) plugged in as a MethodCodecUnderTest, every entry point. Their errors carry spec
 * classes and offsets (SmcException).
 */
class KotlinRunner : MethodCodecUnderTest {
    private val codec = StandardMessageCodec()
    private val methods = StandardMethodCodec(codec)

    override fun describe(): CodecDescription =
        CodecDescription("smc-kotlin-through-the-kit", "0.1.0", "Kotlin")
            .entries("message", "call", "envelope")
            .decodes("int32", "int64", "int64-distinct", "float64", "float32list", "typed-lists", "nan-payload",
                "embedded-nul", "largeint", "duplicate-map-keys", "map-order", "method-codec", "error-stacktrace",
                "strict-mode", "depth-limit")
            .encodes("int32", "int64", "int64-distinct", "float64", "float32list", "typed-lists", "nan-payload",
                "embedded-nul", "duplicate-map-keys", "map-order", "method-codec", "error-stacktrace", "depth-limit")
            .options("error-classes", "error-offsets", "shift")

    override fun decodeMessage(input: ByteBuffer, strict: Boolean): Any? =
        codec.decodeMessage(input.array(), start(input), input.remaining(), mode(strict))

    override fun decodeMethodCall(input: ByteBuffer, strict: Boolean): MethodCall =
        methods.decodeMethodCall(input.array(), start(input), input.remaining(), mode(strict))

    override fun decodeEnvelope(input: ByteBuffer, strict: Boolean): Envelope =
        methods.decodeEnvelope(input.array(), start(input), input.remaining(), mode(strict))

    override fun encodeMethodCall(call: MethodCall): ByteArray? = methods.encodeMethodCall(call)

    override fun encodeEnvelope(envelope: Envelope): ByteArray? = methods.encodeEnvelope(envelope)

    /** The slice's first byte in its array (the kit hands a heap buffer). */
    private fun start(input: ByteBuffer) = input.arrayOffset() + input.position()

    private fun mode(strict: Boolean) = if (strict) DecodeMode.STRICT else DecodeMode.FLUTTER

    override fun encodeMessage(value: Any?): ByteArray? = codec.encodeMessage(value)

    override fun rejection(error: Throwable): Rejection? =
        (error as? SmcException)?.let { Rejection(it.errorClass, it.offset.toLong()) }
}

fun main() = Kit.serve(KotlinRunner())
