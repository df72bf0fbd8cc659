package dev.smc.kit

import dev.smc.codec.DecodeMode
import dev.smc.codec.ErrorEnvelope
import dev.smc.codec.MethodCall
import dev.smc.codec.SmcException
import dev.smc.codec.SuccessEnvelope
import dev.smc.runner.Entries
import dev.smc.runner.HostTypes
import dev.smc.runner.JNode
import dev.smc.runner.Notation
import dev.smc.runner.NotationException
import dev.smc.runner.Runner
import dev.smc.runner.RunnerOptions
import dev.smc.runner.serve
import java.nio.ByteBuffer

/** Serves the runner protocol on stdin/stdout for a [CodecUnderTest] (see its documentation). */
object Kit {
    @JvmStatic
    fun serve(codec: CodecUnderTest) {
        val (entries, options) = plumbing(codec)
        serve(entries, options)
    }

    /** The protocol side for [codec]: what [serve] runs, and what the kit's tests ask. */
    internal fun runner(codec: CodecUnderTest): Runner {
        val (entries, options) = plumbing(codec)
        return Runner(entries, options)
    }

    private fun hostVocabularies(codec: CodecUnderTest): List<String> {
        val words = (codec as? HostCodecUnderTest)?.hostVocabularies() ?: return emptyList()
        for (word in words) {
            require(word in HostTypes.VOCABULARIES) {
                "unknown host vocabulary \"$word\" (this kit builds: ${HostTypes.VOCABULARIES.joinToString()})"
            }
        }
        return words.toList()
    }

    // Every option is the plug-in's word (CodecDescription): none is on by default.
    private fun plumbing(codec: CodecUnderTest): Pair<Entries, RunnerOptions> {
        val d = codec.describe()
        require(d.entries == listOf("message") || codec is MethodCodecUnderTest) {
            "the entries ${d.entries} need a MethodCodecUnderTest"
        }
        return CodecEntries(codec) to RunnerOptions(
            errorClasses = "error-classes" in d.options,
            errorOffsets = "error-offsets" in d.options,
            placement = "shift" in d.options,
            borrowsInput = "borrows-input" in d.options,
            decodeCapabilities = d.decodeCapabilities.toList(),
            encodeCapabilities = d.encodeCapabilities.toList(),
            codecName = d.name,
            codecVersion = d.version,
            codecLanguage = d.language,
            entryNames = d.entries.toList(),
            pigeonInt64 = "pigeon-int64" in d.options,
            hosts = hostVocabularies(codec),
            hostsWithout = (codec as? HostCodecUnderTest)?.hostTypesWithout() ?: emptyMap()
        )
    }
}

/**
 * The entry points over a [CodecUnderTest] (and its [MethodCodecUnderTest] part). What the
 * codec throws becomes an [SmcException] (an `error` answer) only when [CodecUnderTest.rejection] says it is a
 * documented rejection; anything else propagates, and the runner answers `crash` (P.6).
 */
internal class CodecEntries(private val codec: CodecUnderTest) : Entries() {
    private val methodPart = codec as? MethodCodecUnderTest

    override fun decode(entry: String, bytes: ByteArray, offset: Int, length: Int, mode: DecodeMode): Decoded? {
        // A slice: position 0 is the message's first byte, whatever its place in the array.
        val input = ByteBuffer.wrap(bytes, offset, length).slice()
        val strict = mode == DecodeMode.STRICT
        return when (entry) {
            "message" -> {
                val host = rejected { codec.decodeMessage(input, strict) }
                Decoded(host, { Notation.fromHost(host) }) { rejected { codec.encodeMessage(host) } }
            }
            "call" -> {
                val methods = methodCodec(entry)
                val call = rejected { methods.decodeMethodCall(input, strict) }
                Decoded(call.arguments, { Notation.fromMethodCall(call) }) { rejected { methods.encodeMethodCall(call) } }
            }
            else -> {
                val methods = methodCodec(entry)
                val envelope = rejected { methods.decodeEnvelope(input, strict) }
                val carried = when (envelope) {
                    is SuccessEnvelope -> envelope.result
                    is ErrorEnvelope -> envelope.details
                }
                Decoded(carried, { Notation.fromEnvelope(envelope) }) { rejected { methods.encodeEnvelope(envelope) } }
            }
        }
    }

    // Notation the host cannot take is skipped, never the codec's fault: it is read before
    // the codec is called.
    override fun encode(entry: String, value: JNode): ByteArray? = when (entry) {
        "message" -> {
            val host = JavaHost.of(Notation.toHost(value))
            rejected { codec.encodeMessage(host) }
        }
        "call" -> {
            val methods = methodCodec(entry)
            val call = Notation.toMethodCall(value).let { MethodCall(it.method, JavaHost.of(it.arguments)) }
            rejected { methods.encodeMethodCall(call) }
        }
        else -> {
            val methods = methodCodec(entry)
            val envelope = when (val e = Notation.toEnvelope(value)) {
                is SuccessEnvelope -> SuccessEnvelope(JavaHost.of(e.result))
                is ErrorEnvelope -> ErrorEnvelope(e.code, e.message, JavaHost.of(e.details), e.hasStacktrace, e.stacktrace)
            }
            rejected { methods.encodeEnvelope(envelope) }
        }
    }

    // spec §17: host values reach the codec under test itself, never this project's codec.
    // The runner asks only for the vocabularies the hook declared (RunnerOptions.hosts).
    private val hostPart = codec as? HostCodecUnderTest

    override fun hostEncode(vocab: String, host: Any?): ByteArray? =
        rejected { hostHook().encodeHost(host) }

    override fun hostDecode(vocab: String, bytes: ByteArray): Any? =
        rejected { hostHook().decodeHost(ByteBuffer.wrap(bytes).slice()) }

    private fun hostHook(): HostCodecUnderTest =
        hostPart ?: throw NotationException("the codec has no host hook (HostCodecUnderTest)")

    private fun methodCodec(entry: String): MethodCodecUnderTest =
        methodPart ?: throw NotationException("the codec has no method codec for the $entry entry point")

    private inline fun <T> rejected(call: () -> T): T =
        try {
            call()
        } catch (e: Throwable) {
            val r = codec.rejection(e) ?: throw e
            throw SmcException(r.errorClass ?: "", if (r.offset in 0..Int.MAX_VALUE) r.offset.toInt() else SmcException.NO_OFFSET,
                e.toString())
        }
}
