package dev.smc.runner

import dev.smc.codec.DecodeMode
import dev.smc.codec.SmcException
import java.io.BufferedReader
import java.io.InputStreamReader
import java.io.OutputStreamWriter
import java.io.BufferedWriter

/**
 * What the kit declares beyond the capabilities (runners/PROTOCOL.md P.1): [placement] is the
 * `shift` option (turn it off where the bytes cannot be placed), [borrowsInput] says decoded
 * values may be views into the input (the ownership check is then skipped), [errorClasses]
 * and [errorOffsets] whether the codec's [SmcException]s carry spec classes and offsets.
 */
class RunnerOptions(
    val errorClasses: Boolean = true,
    val errorOffsets: Boolean = true,
    val placement: Boolean = true,
    val borrowsInput: Boolean = false,
    val decodeCapabilities: List<String> = Runner.DECODE_CAPABILITIES,
    val encodeCapabilities: List<String> = Runner.ENCODE_CAPABILITIES,
    /** The hello's `codec` and `entries` (the JVM kit's CodecUnderTest names its own). */
    val codecName: String = "smc-kotlin",
    val codecVersion: String = "0.1.0",
    val codecLanguage: String = "Kotlin",
    val entryNames: List<String> = Entries.NAMES,
    /** The encoder writes every integer as int64 (option `pigeon-int64`). */
    val pigeonInt64: Boolean = false,
    /** The host vocabularies of spec §17 whose values [Entries.hostEncode] and
     *  [Entries.hostDecode] take (P.1 `hosts`); empty: host-type vectors are not applicable. */
    val hosts: List<String> = HostTypes.VOCABULARIES,
    /** spec §17.1, P.1 `hosts_without`: per vocabulary, the host types the codec's API cannot
     *  take or give; a host value holding one is skipped before it is built. Empty: none. */
    val hostsWithout: Map<String, List<String>> = emptyMap()
) {
    val words: List<String>
        get() = listOfNotNull(
            if (errorClasses) "error-classes" else null,
            if (errorOffsets) "error-offsets" else null,
            if (placement) "shift" else null,
            if (borrowsInput) "borrows-input" else null,
            if (pigeonInt64) "pigeon-int64" else null
        )
}

/**
 * The runner side of runners/PROTOCOL.md (version 2): one JSON request in, one JSON response
 * out. Thin by design (P.6): parse notation, place the input, call the codec, overwrite the
 * input, print what the codec returned. [SmcException] is the codec's documented rejection;
 * anything else it throws (StackOverflowError, IndexOutOfBounds..., OutOfMemoryError) is
 * answered as `crash`, never mapped to an error class.
 */
class Runner(private val entries: Entries = Entries(), private val options: RunnerOptions = RunnerOptions()) {
    /** Set once a `bye` request has been answered. */
    var finished = false
        private set

    fun handle(line: String): String {
        var seq: JNode = JNull
        val fields = LinkedHashMap<String, JNode>()
        var summary: ValueSummary? = null
        try {
            val request = Json.parse(line) as? JObject
                ?: throw Notation.badNotation("a request must be a JSON object")
            seq = request.fields["seq"] ?: JNull
            fields["seq"] = seq
            when (val op = (request.fields["op"] as? JString)?.text) {
                "hello" -> hello(fields)
                "decode" -> summary = decode(request, fields, reencode = false)
                "roundtrip" -> summary = decode(request, fields, reencode = true)
                "encode" -> encode(request, fields)
                "host_encode" -> hostEncode(request, fields)
                "host_decode" -> hostDecode(request, fields)
                "bye" -> { fields["status"] = JString("ok"); finished = true }
                else -> skipped(fields, "unknown op ${op ?: "(none)"}")
            }
        } catch (e: SmcException) {
            reset(fields, seq, "error")
            fields["class"] = if (options.errorClasses) JString(e.errorClass) else JNull
            if (e.offset >= 0 && options.errorOffsets) fields["offset"] = JNumber(e.offset.toString())
            fields["message"] = JString(e.message ?: "")
        } catch (e: NotationException) {
            reset(fields, seq, "skipped")
            fields["reason"] = JString(e.message ?: "notation the runner cannot read")
        } catch (e: JsonSyntaxError) {
            reset(fields, seq, "skipped")
            fields["reason"] = JString("request is not valid JSON: ${e.message}")
        } catch (e: Throwable) {
            // P.3, P.6: not the codec's documented rejection. The process lives on (a
            // StackOverflowError has unwound by now); which status it gets is the platform's line.
            reset(fields, seq, unexpectedFailureStatus(e))
            fields["kind"] = JString(e.javaClass.simpleName)
            fields["message"] = JString((e.message ?: e.toString()).take(500))
        }
        val text = Json.toText(JObject(fields))
        if (text.length > ValueSummary.PRINTABLE_LINE_CHARS && summary != null) {
            // P.3: too long for the judge's line limit; answer what the value holds.
            return Json.toText(JObject(linkedMapOf("seq" to seq, "status" to JString("ok"), "summary" to summary.toJson())))
        }
        return text
    }

    private fun reset(fields: MutableMap<String, JNode>, seq: JNode, status: String) {
        fields.clear()
        fields["seq"] = seq
        fields["status"] = JString(status)
    }

    private fun hello(fields: MutableMap<String, JNode>) {
        fields["status"] = JString("ok")
        fields["protocol"] = JNumber("2")
        fields["codec"] = JObject(linkedMapOf<String, JNode>(
            "name" to JString(options.codecName),
            "version" to JString(options.codecVersion),
            "language" to JString(options.codecLanguage)
        ))
        fields["entries"] = strings(options.entryNames)
        fields["capabilities"] = JObject(linkedMapOf<String, JNode>(
            "decode" to strings(options.decodeCapabilities),
            "encode" to strings(options.encodeCapabilities)
        ))
        fields["options"] = strings(options.words)
        if (options.hosts.isNotEmpty()) fields["hosts"] = strings(options.hosts)
        val stated = options.hosts.filter { !options.hostsWithout[it].isNullOrEmpty() }
        if (stated.isNotEmpty()) {
            fields["hosts_without"] = JObject(stated.associateWithTo(linkedMapOf<String, JNode>()) {
                strings(options.hostsWithout.getValue(it))
            })
        }
    }

    /** The first type of host value [node] among [types] (P.1 hosts_without), or null. */
    private fun statedAbsent(node: JNode, types: List<String>, depth: Int = 0): String? {
        if (depth > 64 || node !is JObject) return null
        val type = (node.fields["type"] as? JString)?.text
        if (type != null && type in types) return type
        for (element in (node.fields["value"] as? JArray)?.items ?: emptyList()) {
            for (part in (element as? JArray)?.items ?: listOf(element)) {
                statedAbsent(part, types, depth + 1)?.let { return it }
            }
        }
        return null
    }

    /** spec §17: build the host value of exactly its type and let the codec encode it. */
    private fun hostEncode(request: JObject, fields: MutableMap<String, JNode>) {
        val vocab = (request.fields["host"] as? JString)?.text ?: ""
        if (vocab !in options.hosts) return skipped(fields, "the codec has no host hook for host vocabulary $vocab")
        val absent = statedAbsent(request.fields["host_value"] ?: JNull, options.hostsWithout[vocab] ?: emptyList())
        if (absent != null) return skipped(fields, "the codec's API has no $absent (hosts_without)")
        val host = HostTypes.build(vocab, request.fields["host_value"] ?: JNull)
        val bytes = entries.hostEncode(vocab, host)
        fields["status"] = JString("ok")
        fields["hex"] = bytes?.let { JString(Hex.encode(it)) } ?: JNull
    }

    /** spec §17: decode with the codec and name the host type of every node it returned. */
    private fun hostDecode(request: JObject, fields: MutableMap<String, JNode>) {
        val vocab = (request.fields["host"] as? JString)?.text ?: ""
        if (vocab != "kotlin" || vocab !in options.hosts) {
            return skipped(fields, "the codec has no host hook decoding into host vocabulary $vocab")
        }
        val input = Hex.decode((request.fields["hex"] as? JString)?.text
            ?: throw Notation.badNotation("host_decode needs hex"))
        val host = entries.hostDecode(vocab, input)
        fields["status"] = JString("ok")
        fields["host_value"] = HostTypes.describe(host)
    }

    /** Answers a decode or round trip; returns the value's summary when it printed the value. */
    private fun decode(request: JObject, fields: MutableMap<String, JNode>, reencode: Boolean): ValueSummary? {
        val entry = (request.fields["entry"] as? JString)?.text ?: "message"
        if (entry !in Entries.NAMES) {
            skipped(fields, "unknown entry $entry")
            return null
        }
        val mode = when (val m = request.fields["mode"]) {
            null, JNull -> DecodeMode.FLUTTER
            is JString -> when (m.text) {
                "flutter" -> DecodeMode.FLUTTER
                "strict" -> DecodeMode.STRICT
                else -> {
                    skipped(fields, "unknown mode ${m.text}")
                    return null
                }
            }
            else -> throw Notation.badNotation("mode must be a string")
        }
        val shift = when (val s = request.fields["shift"]) {
            null, JNull -> 0
            is JNumber -> s.raw.toIntOrNull() ?: throw Notation.badNotation("bad shift ${s.raw}")
            else -> throw Notation.badNotation("shift must be a number")
        }
        if (shift < 0 || shift > 7) throw Notation.badNotation("shift $shift outside 0..7")
        val input = Hex.decode((request.fields["hex"] as? JString)?.text
            ?: throw Notation.badNotation("decode needs hex"))
        // P.2 placement: without shift the array is exactly the input, so reading past its
        // end throws; with shift K the input sits at offset K of a larger array whose last
        // GUARD_BYTES bytes are zeros, so a codec that reads past `offset + length` (or
        // counts padding from the array index) decodes another value.
        val buffer = if (shift == 0) input else ByteArray(shift + input.size + GUARD_BYTES)
        if (shift != 0) System.arraycopy(input, 0, buffer, shift, input.size)
        val decoded = entries.decode(entry, buffer, shift, input.size, mode)!!
        // P.2 ownership: the codec's values must not be views into the caller's bytes.
        if (!options.borrowsInput) for (i in buffer.indices) buffer[i] = (buffer[i].toInt() xor 0xff).toByte()
        val summary = ValueSummary.of(decoded.payload, entries.adapter)
        fields["status"] = JString("ok")
        if (summary.depth > ValueSummary.PRINTABLE_DEPTH) {
            fields["summary"] = summary.toJson()
        } else {
            fields["value"] = decoded.value
        }
        if (reencode) fields["hex"] = decoded.reencode()?.let { JString(Hex.encode(it)) } ?: JNull
        return summary
    }

    private fun encode(request: JObject, fields: MutableMap<String, JNode>) {
        val entry = (request.fields["entry"] as? JString)?.text ?: "message"
        if (entry !in Entries.NAMES) return skipped(fields, "unknown entry $entry")
        val value = request.fields["value"] ?: throw Notation.badNotation("encode needs value")
        val bytes = entries.encode(entry, value)
        fields["status"] = JString("ok")
        fields["hex"] = bytes?.let { JString(Hex.encode(it)) } ?: JNull
    }

    private fun skipped(fields: MutableMap<String, JNode>, reason: String) {
        fields["status"] = JString("skipped")
        fields["reason"] = JString(reason)
    }

    private fun strings(items: List<String>): JNode = JArray(items.map { JString(it) })

    companion object {
        /** Every feature word of spec/vectors.md V.3: the codec decodes all of them. */
        val DECODE_CAPABILITIES = listOf(
            "int32", "int64", "int64-distinct", "float64", "float32list", "typed-lists",
            "nan-payload", "embedded-nul", "custom-types", "largeint", "duplicate-map-keys",
            "map-order", "method-codec", "error-stacktrace", "strict-mode", "depth-limit"
        )

        /** The same minus `largeint`: tag 5 is never written (spec §4.4). */
        val ENCODE_CAPABILITIES = DECODE_CAPABILITIES.filter { it != "largeint" }

        /** Zero bytes after the input of a shifted decode (PROTOCOL.md P.2). */
        const val GUARD_BYTES = 64
    }
}

/**
 * The status of a failure that is not the codec's documented rejection (runners/PROTOCOL.md
 * P.3, spec §1.4): Android's message dispatcher catches every `Exception` a handler throws
 * (logs it, replies empty) and rethrows every `Error`, so an `Exception` is an unclassified
 * rejection (`rejected`) and an `Error` (StackOverflowError, OutOfMemoryError) a `crash`.
 */
fun unexpectedFailureStatus(e: Throwable): String = if (e is Exception) "rejected" else "crash"

/** `smc-kotlin-runner [--no-shift]`: `--no-shift` leaves the placement option out. */
fun main(args: Array<String>) = serve(Entries(), RunnerOptions(placement = "--no-shift" !in args))

/**
 * Serves the protocol on stdin/stdout until `bye` or end of input. A runner for another codec
 * (e.g. a Pigeon-generated one, see README.md) is
 * `fun main() = serve(Entries(codec, adapter), RunnerOptions(...))`.
 */
fun serve(entries: Entries, options: RunnerOptions = RunnerOptions()) {
    // runners/PROTOCOL.md P.2 "Stack": the codec runs on the stack of the thread that decodes
    // channel messages on its platform, Android's main thread (8 MiB), never on what a
    // launcher's -Xss happens to give the JVM's main thread.
    var failure: Throwable? = null
    val worker = Thread(null, {
        try {
            serveOnThisThread(entries, options)
        } catch (e: Throwable) {
            failure = e
        }
    }, "smc-codec", CODEC_STACK_BYTES)
    worker.start()
    worker.join()
    failure?.let { throw it }
}

/** The stack of the thread the codec decodes on (runners/PROTOCOL.md P.2): Android's main thread's. */
const val CODEC_STACK_BYTES = 8L shl 20

private fun serveOnThisThread(entries: Entries, options: RunnerOptions) {
    val input = BufferedReader(InputStreamReader(System.`in`, Charsets.UTF_8))
    val output = BufferedWriter(OutputStreamWriter(System.out, Charsets.UTF_8))
    val runner = Runner(entries, options)
    while (true) {
        val line = input.readLine() ?: break
        if (line.isBlank()) continue
        output.write(runner.handle(line))
        output.write("\n")
        output.flush()
        if (runner.finished) break
    }
}
