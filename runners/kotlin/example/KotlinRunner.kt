import dev.smc.codec.DecodeMode
import dev.smc.codec.SmcException
import dev.smc.codec.StandardMessageCodec
import dev.smc.kit.CodecDescription
import dev.smc.kit.CodecUnderTest
import dev.smc.kit.Kit
import dev.smc.kit.Rejection
import java.nio.ByteBuffer

/**
 * The same kit from Kotlin: this repository's Kotlin message codec (in the kit jar) plugged
 * in as a CodecUnderTest. Its errors carry spec classes and offsets (SmcException).
 */
class KotlinRunner : CodecUnderTest {
    private val codec = StandardMessageCodec()

    override fun describe(): CodecDescription =
        CodecDescription("smc-kotlin-through-the-kit", "0.1.0", "Kotlin")
            .decodes("int32", "int64", "int64-distinct", "float64", "float32list", "typed-lists", "nan-payload",
                "embedded-nul", "largeint", "duplicate-map-keys", "map-order", "strict-mode", "depth-limit")
            .encodes("int32", "int64", "int64-distinct", "float64", "float32list", "typed-lists", "nan-payload",
                "embedded-nul", "duplicate-map-keys", "map-order", "depth-limit")
            .options("error-classes", "error-offsets", "shift")

    override fun decodeMessage(input: ByteBuffer, strict: Boolean): Any? =
        codec.decodeMessage(input.array(), input.arrayOffset() + input.position(), input.remaining(),
            if (strict) DecodeMode.STRICT else DecodeMode.FLUTTER)

    override fun encodeMessage(value: Any?): ByteArray? = codec.encodeMessage(value)

    override fun rejection(error: Throwable): Rejection? =
        (error as? SmcException)?.let { Rejection(it.errorClass, it.offset.toLong()) }
}

fun main() = Kit.serve(KotlinRunner())
