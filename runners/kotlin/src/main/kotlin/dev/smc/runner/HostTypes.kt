package dev.smc.runner

import dev.smc.codec.MapStyle
import dev.smc.codec.StandardMessageCodec
import java.math.BigInteger

/**
 * Host values of spec §17 (`{"type": T, "value": X}`) for the vocabularies this runner
 * speaks: `kotlin` (§17.4) and `any` (§17.9). [build] makes a JVM object of exactly the type
 * named, for the codec to encode as it would any such object; [describe] names the type of
 * each node the codec decoded. The runner never chooses a wire type itself: that is the
 * codec's job, and what the host-type vectors test. A type name this runner does not know is
 * a [NotationException] (answered `skipped`).
 */
object HostTypes {
    val VOCABULARIES = listOf("kotlin", "any")

    /** The codec host ops use when the runner is not given one: maps decode into a
     *  `LinkedHashMap`, the `Map` of the §17.4 table. */
    val defaultCodec: StandardMessageCodec = StandardMessageCodec(mapStyle = MapStyle.LINKED_HASH_MAP)

    fun build(vocab: String, node: JNode): Any? {
        val obj = node as? JObject ?: throw Notation.badNotation("a host value is an object")
        val type = (obj.fields["type"] as? JString)?.text ?: throw Notation.badNotation("host value without type")
        val x = obj.fields["value"] ?: throw Notation.badNotation("host value without value")
        val name = if (vocab == "any") ANY[type] ?: throw Notation.badNotation("no Kotlin type for any:$type") else type
        return when (name) {
            "null" -> null
            "Boolean" -> (x as? JBool)?.value ?: throw Notation.badNotation("Boolean literal")
            "Byte" -> text(x).toByte()
            "Short" -> text(x).toShort()
            "Int" -> text(x).toInt()
            "Long" -> text(x).toLong()
            "Float" -> java.lang.Float.intBitsToFloat(text(x).toLong(16).toInt())
            "Double" -> java.lang.Double.longBitsToDouble(java.lang.Long.parseUnsignedLong(text(x), 16))
            "String" -> string(x)
            "Char" -> text(x).single()
            "BigInteger" -> BigInteger(text(x))
            "ByteArray" -> Hex.decode(text(x))
            "IntArray" -> items(x).map { text(it).toInt() }.toIntArray()
            "LongArray" -> items(x).map { text(it).toLong() }.toLongArray()
            "ShortArray" -> items(x).map { text(it).toShort() }.toShortArray()
            "FloatArray" -> items(x).map { java.lang.Float.intBitsToFloat(text(it).toLong(16).toInt()) }.toFloatArray()
            "DoubleArray" -> items(x).map { java.lang.Double.longBitsToDouble(java.lang.Long.parseUnsignedLong(text(it), 16)) }.toDoubleArray()
            "List" -> ArrayList(items(x).map { build(vocab, it) })
            "Set" -> LinkedHashSet(items(x).map { build(vocab, it) })
            "LinkedHashMap" -> LinkedHashMap<Any?, Any?>().also { fill(vocab, it, x) }
            "HashMap" -> HashMap<Any?, Any?>().also { fill(vocab, it, x) }
            else -> throw Notation.badNotation("unknown $vocab host type $type")
        }
    }

    /** The §17.4 decode table: the host type of each node the codec returned. */
    fun describe(value: Any?): JNode = when (value) {
        null -> hv("null", JNull)
        is Boolean -> hv("Boolean", JBool(value))
        is Int -> hv("Int", JString(value.toString()))
        is Long -> hv("Long", JString(value.toString()))
        is Double -> hv("Double", JString(Notation.hex16(java.lang.Double.doubleToRawLongBits(value))))
        is String -> hv("String", stringLiteral(value))
        is ByteArray -> hv("ByteArray", JString(Hex.encode(value)))
        is IntArray -> hv("IntArray", JArray(value.map { JString(it.toString()) }))
        is LongArray -> hv("LongArray", JArray(value.map { JString(it.toString()) }))
        is FloatArray -> hv("FloatArray", JArray(value.map { JString(Notation.hex8(java.lang.Float.floatToRawIntBits(it))) }))
        is DoubleArray -> hv("DoubleArray", JArray(value.map { JString(Notation.hex16(java.lang.Double.doubleToRawLongBits(it))) }))
        is List<*> -> hv("List", JArray(value.map { describe(it) }))
        is Map<*, *> -> hv("Map", JArray(value.entries.map { JArray(listOf(describe(it.key), describe(it.value))) }))
        else -> hv(value.javaClass.simpleName, JNull) // a type outside the table: shown as it is
    }

    private val ANY = mapOf("null" to "null", "bool" to "Boolean", "int32" to "Int", "float32" to "Float",
        "float64" to "Double", "string" to "String", "bytes" to "ByteArray")

    private fun hv(type: String, value: JNode) = JObject(linkedMapOf("type" to JString(type), "value" to value))
    private fun text(x: JNode) = (x as? JString)?.text ?: throw Notation.badNotation("a literal is a string")
    private fun items(x: JNode) = (x as? JArray)?.items ?: throw Notation.badNotation("a literal is an array")

    /**
     * A `String` literal (spec §17.1): a JSON string, whose lone-surrogate escapes the JSON
     * reader keeps refusing, or `{"utf16": H}`, the code units themselves, 4 lower-case hex
     * digits each: the one way a lone surrogate reaches the codec. A Kotlin `String` is
     * UTF-16, so the units become its chars as they are, a pair or not.
     */
    fun string(x: JNode): String {
        val obj = x as? JObject ?: return text(x)
        val h = (obj.fields["utf16"] as? JString)?.text
        if (obj.fields.size != 1 || h == null || h.length % 4 != 0 || !h.all { it in '0'..'9' || it in 'a'..'f' })
            throw Notation.badNotation("a utf16 literal is {\"utf16\": H}, 4 lower-case hex digits per code unit")
        return String(CharArray(h.length / 4) { h.substring(4 * it, 4 * it + 4).toInt(16).toChar() })
    }

    /** The literal of a decoded `String`: `{"utf16": H}` only if it holds a lone surrogate
     *  (spec §17.1: one literal per value), else a JSON string. */
    fun stringLiteral(s: String): JNode {
        var i = 0
        while (i < s.length) {
            val c = s[i]
            val paired = Character.isHighSurrogate(c) && i + 1 < s.length && Character.isLowSurrogate(s[i + 1])
            if (!paired && Character.isSurrogate(c))
                return JObject(linkedMapOf("utf16" to JString(s.map { "%04x".format(it.toInt()) }.joinToString(""))))
            i += if (paired) 2 else 1
        }
        return JString(s)
    }

    private fun fill(vocab: String, map: MutableMap<Any?, Any?>, x: JNode) {
        for (pair in items(x)) {
            val kv = (pair as? JArray)?.items ?: throw Notation.badNotation("a map entry is a pair")
            if (kv.size != 2) throw Notation.badNotation("a map entry is a pair")
            map[build(vocab, kv[0])] = build(vocab, kv[1])
        }
    }
}
