package dev.smc.tests

import dev.smc.codec.SmcException
import dev.smc.codec.SmcWriter
import dev.smc.codec.StandardMessageCodec
import dev.smc.kit.CodecDescription
import dev.smc.kit.HostCodecUnderTest
import dev.smc.kit.Kit
import dev.smc.kit.Rejection
import java.nio.ByteBuffer

/**
 * This project's codec with the host bugs of real ports (issue 25), chosen by name: "float4"
 * writes a Float as tag 6 and its 4 bytes, "long-by-value" a Long that fits 32 bits as an
 * int32, "bytes-twice" a byte array's bytes twice.
 */
class BuggyCodec(private val bugs: Set<String>) : StandardMessageCodec() {
    override fun writeValue(writer: SmcWriter, value: Any?) {
        when {
            value is Float && "float4" in bugs -> {
                writer.write(6)
                writer.writeInt32LE(java.lang.Float.floatToRawIntBits(value))
            }
            value is Long && "long-by-value" in bugs && value in Int.MIN_VALUE..Int.MAX_VALUE -> writer.putInt(value.toInt())
            value is ByteArray && "bytes-twice" in bugs -> writer.putByteArray(value + value)
            else -> super.writeValue(writer, value)
        }
    }
}

/** The documented rejection of [ScriptedPlugin]. */
class ScriptedRejection : RuntimeException("scripted rejection")

/**
 * The JVM kit's scripted plug-in (runners/protocol-cases.json "behaviours", driven by
 * scripts/tests/kit_cases.py): [behaviour] decides what every call does, [options] and
 * [hosts] are what it declares (no [hosts]: it has a host hook but speaks nothing, which the
 * kit must treat as no hook). "host-bugs" is [BuggyCodec] with the bugs [bugs].
 */
class ScriptedPlugin(
    private val behaviour: String,
    private val options: List<String>,
    private val hosts: List<String>,
    bugs: Set<String>,
    private val without: Map<String, List<String>> = emptyMap()
) : HostCodecUnderTest {
    private val codec = BuggyCodec(bugs)

    override fun describe(): CodecDescription = CodecDescription("scripted-plugin", "0", "Kotlin")
        .decodes("int32", "int64", "int64-distinct", "float64", "float32list", "typed-lists")
        .encodes("int32", "int64", "int64-distinct", "float64", "float32list", "typed-lists")
        .options(*options.toTypedArray())

    private fun scriptedFailure() {
        when (behaviour) {
            "reject" -> throw ScriptedRejection()
            "throw-unexpected" -> throw IllegalStateException("scripted: not a documented rejection")
            "throw-platform-error" -> throw StackOverflowError("scripted")
        }
    }

    private fun bytesOf(input: ByteBuffer): ByteArray = ByteArray(input.remaining()).also { input.get(it) }

    override fun decodeMessage(input: ByteBuffer, strict: Boolean): Any? {
        scriptedFailure()
        return if (behaviour == "host-bugs") bytesOf(input).let { codec.decodeMessage(it, 0, it.size) } else null
    }

    override fun encodeMessage(value: Any?): ByteArray? {
        scriptedFailure()
        return when (behaviour) {
            "no-bytes" -> null
            "host-bugs" -> codec.encodeMessage(value)
            else -> byteArrayOf(0)
        }
    }

    override fun hostVocabularies(): List<String> = hosts

    override fun hostTypesWithout(): Map<String, List<String>> = without

    override fun encodeHost(value: Any?): ByteArray? {
        scriptedFailure()
        return when (behaviour) {
            "no-bytes" -> null
            "host-bugs" -> codec.encodeMessage(value)
            else -> byteArrayOf(0xaa.toByte())
        }
    }

    override fun decodeHost(input: ByteBuffer): Any? {
        scriptedFailure()
        return if (behaviour == "host-bugs") bytesOf(input).let { codec.decodeMessage(it, 0, it.size) } else "hook"
    }

    override fun rejection(error: Throwable): Rejection? = when (error) {
        is ScriptedRejection -> Rejection("truncated", 1)
        is SmcException -> Rejection(error.errorClass, error.offset.toLong())
        else -> null
    }

    companion object {
        private fun words(name: String): List<String> =
            (System.getenv(name) ?: "").split(",").filter { it.isNotEmpty() }

        /** The plug-in the environment describes (SMC_PLUGIN_BEHAVIOUR, _OPTIONS, _HOSTS,
         *  _HOSTS_WITHOUT as "vocabulary:Type" words, SMC_HOST_BUGS). */
        fun fromEnvironment() = ScriptedPlugin(System.getenv("SMC_PLUGIN_BEHAVIOUR") ?: "value",
            words("SMC_PLUGIN_OPTIONS"), words("SMC_PLUGIN_HOSTS"), words("SMC_HOST_BUGS").toSet(),
            words("SMC_PLUGIN_HOSTS_WITHOUT").filter { ':' in it }
                .groupBy({ it.substringBefore(':') }, { it.substringAfter(':') }))
    }
}

/** `smc-jvm-scripted-plugin`: the kit serving [ScriptedPlugin.fromEnvironment]. */
object ScriptedPluginMain {
    @JvmStatic
    fun main(args: Array<String>) = Kit.serve(ScriptedPlugin.fromEnvironment())
}
