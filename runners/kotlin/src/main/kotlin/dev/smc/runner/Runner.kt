package dev.smc.runner

import dev.smc.codec.DecodeMode
import dev.smc.codec.SmcException
import java.io.BufferedReader
import java.io.BufferedWriter
import java.io.InputStreamReader
import java.io.OutputStreamWriter

/**
 * The runner side of runners/PROTOCOL.md (version 1): one JSON request in, one JSON response
 * out. Thin by design (P.6): parse notation, call the codec, print what it returned.
 */
class Runner(private val entries: Entries = Entries()) {
    /** Set once a `bye` request has been answered. */
    var finished = false
        private set

    fun handle(line: String): String {
        var seq: JNode = JNull
        val fields = LinkedHashMap<String, JNode>()
        try {
            val request = Json.parse(line) as? JObject
                ?: throw Notation.badNotation("a request must be a JSON object")
            seq = request.fields["seq"] ?: JNull
            fields["seq"] = seq
            when (val op = (request.fields["op"] as? JString)?.text) {
                "hello" -> hello(fields)
                "decode" -> decode(request, fields, reencode = false)
                "roundtrip" -> decode(request, fields, reencode = true)
                "encode" -> encode(request, fields)
                "bye" -> { fields["status"] = JString("ok"); finished = true }
                else -> skipped(fields, "unknown op ${op ?: "(none)"}")
            }
        } catch (e: SmcException) {
            fields.clear()
            fields["seq"] = seq
            fields["status"] = JString("error")
            fields["class"] = JString(e.errorClass)
            if (e.offset >= 0) fields["offset"] = JNumber(e.offset.toString())
            fields["message"] = JString(e.message ?: "")
        } catch (e: JsonSyntaxError) {
            fields.clear()
            fields["seq"] = seq
            fields["status"] = JString("error")
            fields["class"] = JString("bad_notation")
            fields["message"] = JString("request is not valid JSON: ${e.message}")
        } catch (e: Throwable) {
            // Never expected: a codec bug. Reported as such instead of killing the process.
            fields.clear()
            fields["seq"] = seq
            fields["status"] = JString("error")
            fields["class"] = JString("crash")
            fields["message"] = JString("runner/codec bug: unexpected $e")
        }
        return Json.toText(JObject(fields))
    }

    private fun hello(fields: MutableMap<String, JNode>) {
        fields["status"] = JString("ok")
        fields["protocol"] = JNumber("1")
        fields["codec"] = JObject(linkedMapOf<String, JNode>(
            "name" to JString("smc-kotlin"),
            "version" to JString("0.1.0"),
            "language" to JString("Kotlin")
        ))
        fields["entries"] = strings(Entries.NAMES)
        fields["capabilities"] = JObject(linkedMapOf<String, JNode>(
            "decode" to strings(DECODE_CAPABILITIES),
            "encode" to strings(ENCODE_CAPABILITIES)
        ))
        fields["options"] = strings(listOf("error-offsets", "shift"))
    }

    private fun decode(request: JObject, fields: MutableMap<String, JNode>, reencode: Boolean) {
        val entry = (request.fields["entry"] as? JString)?.text ?: "message"
        val mode = when (val m = request.fields["mode"]) {
            null, JNull -> DecodeMode.FLUTTER
            is JString -> when (m.text) {
                "flutter" -> DecodeMode.FLUTTER
                "strict" -> DecodeMode.STRICT
                else -> return skipped(fields, "unknown mode ${m.text}")
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
        // P.2 shift: the codec sees the bytes at a non-zero array offset and must still
        // count alignment from the first byte of the input (spec §3.3).
        val buffer = ByteArray(shift + input.size)
        System.arraycopy(input, 0, buffer, shift, input.size)
        val decoded = entries.decode(entry, buffer, shift, input.size, mode)
            ?: return skipped(fields, "unknown entry $entry")
        fields["status"] = JString("ok")
        fields["value"] = decoded.value
        if (reencode) fields["hex"] = JString(Hex.encode(decoded.reencode()))
    }

    private fun encode(request: JObject, fields: MutableMap<String, JNode>) {
        val entry = (request.fields["entry"] as? JString)?.text ?: "message"
        val value = request.fields["value"] ?: throw Notation.badNotation("encode needs value")
        val bytes = entries.encode(entry, value) ?: return skipped(fields, "unknown entry $entry")
        fields["status"] = JString("ok")
        fields["hex"] = JString(Hex.encode(bytes))
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
    }
}

fun main() = serve(Entries())

/**
 * Serves the protocol on stdin/stdout until `bye` or end of input. A runner for another codec
 * (e.g. a Pigeon-generated one, see README.md) is `fun main() = serve(Entries(codec, adapter))`.
 */
fun serve(entries: Entries) {
    val input = BufferedReader(InputStreamReader(System.`in`, Charsets.UTF_8))
    val output = BufferedWriter(OutputStreamWriter(System.out, Charsets.UTF_8))
    val runner = Runner(entries)
    while (true) {
        val line = input.readLine() ?: break
        if (line.isBlank()) continue
        output.write(runner.handle(line))
        output.write("\n")
        output.flush()
        if (runner.finished) break
    }
}
