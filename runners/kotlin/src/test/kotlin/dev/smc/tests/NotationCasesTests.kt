package dev.smc.tests

import dev.smc.runner.JArray
import dev.smc.runner.JNode
import dev.smc.runner.JObject
import dev.smc.runner.JString
import dev.smc.runner.Json
import dev.smc.runner.JsonSyntaxError
import dev.smc.runner.Notation
import dev.smc.runner.NotationException
import java.io.File

/**
 * The shared notation cases (spec/notation-cases.json), read by the runner's notation reader
 * (Json + Notation): every text reads and writes back as its `canonical` text, or is rejected
 * with a JsonSyntaxError or NotationException (any other exception fails the case). The
 * reader reports no offsets, so only the rejection is checked; the C suite checks the offsets
 * of the same cases. Cases that need the decode-only `strbytes` form are skipped with their
 * count: a runner never receives it (runners/PROTOCOL.md P.2).
 */
class NotationCasesTests(private val file: File) {
    private fun readAndWrite(text: String, entry: String): String {
        val json = Json.parse(text)
        val back: JNode = when (entry) {
            "message" -> Notation.fromHost(Notation.toHost(json))
            "call" -> Notation.fromMethodCall(Notation.toMethodCall(json))
            "envelope" -> Notation.fromEnvelope(Notation.toEnvelope(json))
            else -> throw IllegalArgumentException("unknown entry $entry")
        }
        return Json.toText(back)
    }

    fun run(t: Check) {
        val root = try {
            Json.parse(file.readText(Charsets.UTF_8)) as JObject
        } catch (e: Exception) {
            t.fail(file.path, "cannot read the notation cases: $e")
            return
        }
        val cases = (root.fields["cases"] as? JArray)?.items ?: emptyList()
        t.isTrue("${file.path} holds the cases", cases.size > 100, "only ${cases.size} cases")
        for (node in cases) {
            val c = node as? JObject
            val id = (c?.fields?.get("id") as? JString)?.text ?: "<no id>"
            val text = (c?.fields?.get("text") as? JString)?.text
            val entry = (c?.fields?.get("entry") as? JString)?.text
            if (c == null || text == null || entry == null) {
                t.fail(id, "no text or entry")
                continue
            }
            val needs = (c.fields["needs"] as? JArray)?.items ?: emptyList()
            if (needs.any { (it as? JString)?.text == "strbytes" }) {
                t.skip("needs strbytes, which a runner never receives (PROTOCOL.md P.2)")
                continue
            }
            val canonical = (c.fields["canonical"] as? JString)?.text
            var written: String? = null
            var rejected = false
            var threw: String? = null
            try {
                written = readAndWrite(text, entry)
            } catch (e: NotationException) {
                rejected = true
            } catch (e: JsonSyntaxError) {
                rejected = true
            } catch (e: Exception) {
                threw = e.toString()
            }
            when {
                threw != null -> t.fail("$id $text", "threw $threw, not a JsonSyntaxError or NotationException")
                canonical != null -> t.equal("$id $text", canonical, if (rejected) "(rejected)" else written)
                rejected -> t.pass()
                else -> t.fail("$id $text", "accepted as $written; the notation forbids it")
            }
        }
    }
}
