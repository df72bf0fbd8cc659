package dev.smc.runner

import com.google.gson.stream.JsonReader
import com.google.gson.stream.JsonToken
import java.io.StringReader

/**
 * A minimal JSON tree. Numbers keep their source text so an i32 is read exactly, never
 * through a double (spec notation.md N.3); booleans stay distinct from numbers.
 */
sealed class JNode
class JArray(val items: List<JNode>) : JNode()
class JObject(val fields: Map<String, JNode>) : JNode()
class JString(val text: String) : JNode()
class JNumber(val raw: String) : JNode()
class JBool(val value: Boolean) : JNode()
object JNull : JNode()

class JsonSyntaxError(message: String) : Exception(message)

object Json {
    /**
     * Parses one JSON text strictly (Gson's JsonReader, non-lenient, after [checkLexically]).
     * A string holding a lone surrogate escape is rejected (notation.md N.4).
     * Note: Gson 2.10 has no nesting limit; Gson >= 2.11 defaults to 255, below the ~400
     * levels notation.md N.4 requires, and would need JsonReader.setNestingLimit.
     */
    fun parse(text: String): JNode {
        checkLexically(text)
        val reader = JsonReader(StringReader(text))
        reader.isLenient = false
        try {
            val node = read(reader)
            if (reader.peek() != JsonToken.END_DOCUMENT) throw JsonSyntaxError("text after the JSON value")
            return node
        } catch (e: java.io.IOException) {
            throw JsonSyntaxError(e.message ?: e.toString())
        } catch (e: IllegalStateException) {
            throw JsonSyntaxError(e.message ?: e.toString())
        } catch (e: NumberFormatException) {
            throw JsonSyntaxError(e.message ?: e.toString())
        }
    }

    /**
     * What Gson's non-lenient reader still lets through (spec/notation-cases.json found both):
     * a raw control character inside a string, and `true`, `false`, `null` in another case
     * (`True`). RFC 8259 allows neither.
     */
    private fun checkLexically(text: String) {
        var inString = false
        var i = 0
        while (i < text.length) {
            val c = text[i]
            if (inString) {
                when {
                    c == '\\' -> i++ // the escaped character cannot end the string
                    c == '"' -> inString = false
                    c < ' ' -> throw JsonSyntaxError("control character in a string at $i")
                }
            } else if (c == '"') {
                inString = true
            } else if (c == '-' || c in '0'..'9') {
                while (i + 1 < text.length && text[i + 1] in NUMBER_CHARS) i++ // 1e2 holds a letter
            } else if (c.isLetter()) {
                var end = i
                while (end < text.length && text[end].isLetter()) end++
                val word = text.substring(i, end)
                if (word != "true" && word != "false" && word != "null") {
                    throw JsonSyntaxError("\"$word\" at $i is not a JSON literal")
                }
                i = end - 1
            }
            i++
        }
    }

    private fun read(reader: JsonReader): JNode =
        when (reader.peek()) {
            JsonToken.BEGIN_ARRAY -> {
                reader.beginArray()
                val items = ArrayList<JNode>()
                while (reader.hasNext()) items.add(read(reader))
                reader.endArray()
                JArray(items)
            }
            JsonToken.BEGIN_OBJECT -> {
                reader.beginObject()
                val fields = LinkedHashMap<String, JNode>()
                while (reader.hasNext()) {
                    val name = checkedString(reader.nextName())
                    fields[name] = read(reader)
                }
                reader.endObject()
                JObject(fields)
            }
            JsonToken.STRING -> JString(checkedString(reader.nextString()))
            // nextString() on a NUMBER returns the literal text, not a double.
            JsonToken.NUMBER -> JNumber(reader.nextString())
            JsonToken.BOOLEAN -> JBool(reader.nextBoolean())
            JsonToken.NULL -> { reader.nextNull(); JNull }
            else -> throw JsonSyntaxError("unexpected ${reader.peek()}")
        }

    private fun checkedString(s: String): String {
        var i = 0
        while (i < s.length) {
            val cp = s.codePointAt(i)
            if (cp in 0xd800..0xdfff) throw JsonSyntaxError("string with a lone surrogate escape")
            i += if (cp >= 0x10000) 2 else 1
        }
        return s
    }

    /** Appends [s] as a JSON string: raw UTF-8, escaping only `"`, `\` and controls (N.4). */
    fun appendString(out: StringBuilder, s: String) {
        out.append('"')
        var i = 0
        while (i < s.length) {
            val cp = s.codePointAt(i)
            when {
                cp == 0x22 -> out.append("\\\"")
                cp == 0x5c -> out.append("\\\\")
                cp == 0x0a -> out.append("\\n")
                cp == 0x0d -> out.append("\\r")
                cp == 0x09 -> out.append("\\t")
                cp == 0x08 -> out.append("\\b")
                cp == 0x0c -> out.append("\\f")
                cp < 0x20 -> out.append("\\u00").append(HEX[cp shr 4]).append(HEX[cp and 0xf])
                else -> out.appendCodePoint(cp)
            }
            i += if (cp >= 0x10000) 2 else 1
        }
        out.append('"')
    }

    fun write(out: StringBuilder, node: JNode) {
        when (node) {
            is JArray -> {
                out.append('[')
                for ((i, item) in node.items.withIndex()) {
                    if (i > 0) out.append(',')
                    write(out, item)
                }
                out.append(']')
            }
            is JObject -> {
                out.append('{')
                var first = true
                for ((k, v) in node.fields) {
                    if (!first) out.append(',')
                    first = false
                    appendString(out, k)
                    out.append(':')
                    write(out, v)
                }
                out.append('}')
            }
            is JString -> appendString(out, node.text)
            is JNumber -> out.append(node.raw)
            is JBool -> out.append(if (node.value) "true" else "false")
            JNull -> out.append("null")
        }
    }

    fun toText(node: JNode): String {
        val sb = StringBuilder()
        write(sb, node)
        return sb.toString()
    }

    /** Structural equality; numbers compare by exact decimal value (N.4). */
    fun equal(a: JNode, b: JNode): Boolean =
        when (a) {
            is JArray -> b is JArray && a.items.size == b.items.size &&
                a.items.indices.all { equal(a.items[it], b.items[it]) }
            is JObject -> b is JObject && a.fields.keys == b.fields.keys &&
                a.fields.all { (k, v) -> equal(v, b.fields.getValue(k)) }
            is JString -> b is JString && a.text == b.text
            is JNumber -> b is JNumber &&
                java.math.BigDecimal(a.raw).compareTo(java.math.BigDecimal(b.raw)) == 0
            is JBool -> b is JBool && a.value == b.value
            JNull -> b === JNull
        }

    private const val NUMBER_CHARS = "0123456789+-.eE"

    private val HEX = arrayOf("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f")
}
