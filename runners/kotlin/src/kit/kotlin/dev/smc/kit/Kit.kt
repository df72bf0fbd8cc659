package dev.smc.kit

import dev.smc.codec.DecodeMode
import dev.smc.codec.SmcException
import dev.smc.runner.Entries
import dev.smc.runner.JNode
import dev.smc.runner.Notation
import dev.smc.runner.NotationException
import dev.smc.runner.RunnerOptions
import dev.smc.runner.serve
import java.nio.ByteBuffer

/** Serves the runner protocol on stdin/stdout for a [CodecUnderTest] (see its documentation). */
object Kit {
    @JvmStatic
    fun serve(codec: CodecUnderTest) {
        val d = codec.describe()
        serve(CodecEntries(codec), RunnerOptions(
            errorClasses = "error-classes" in d.options,
            errorOffsets = "error-offsets" in d.options,
            placement = "shift" in d.options,
            borrowsInput = "borrows-input" in d.options,
            decodeCapabilities = d.decodeCapabilities.toList(),
            encodeCapabilities = d.encodeCapabilities.toList(),
            codecName = d.name,
            codecVersion = d.version,
            codecLanguage = d.language,
            entryNames = listOf("message"),
            pigeonInt64 = "pigeon-int64" in d.options
        ))
    }
}

/**
 * The message entry point over a [CodecUnderTest]. What the codec throws becomes an
 * [SmcException] (an `error` answer) only when [CodecUnderTest.rejection] says it is a
 * documented rejection; anything else propagates, and the runner answers `crash` (P.6).
 */
internal class CodecEntries(private val codec: CodecUnderTest) : Entries() {
    override fun decode(entry: String, bytes: ByteArray, offset: Int, length: Int, mode: DecodeMode): Decoded? {
        if (entry != "message") throw NotationException("the JVM kit judges the message entry point only")
        // A slice: position 0 is the message's first byte, whatever its place in the array.
        val input = ByteBuffer.wrap(bytes, offset, length).slice()
        val host = rejected { codec.decodeMessage(input, mode == DecodeMode.STRICT) }
        return Decoded(host, { Notation.fromHost(host) }) { rejected { codec.encodeMessage(host) } }
    }

    override fun encode(entry: String, value: JNode): ByteArray? {
        if (entry != "message") throw NotationException("the JVM kit judges the message entry point only")
        // notation the host cannot take is skipped, never the codec's fault
        val host = JavaHost.of(Notation.toHost(value))
        return rejected { codec.encodeMessage(host) }
    }

    private inline fun <T> rejected(call: () -> T): T =
        try {
            call()
        } catch (e: Throwable) {
            val r = codec.rejection(e) ?: throw e
            throw SmcException(r.errorClass ?: "", if (r.offset in 0..Int.MAX_VALUE) r.offset.toInt() else SmcException.NO_OFFSET,
                e.toString())
        }
}
