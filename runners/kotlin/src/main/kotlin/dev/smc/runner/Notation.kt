package dev.smc.runner

import dev.smc.codec.CustomValue
import dev.smc.codec.Envelope
import dev.smc.codec.ErrorEnvelope
import dev.smc.codec.LargeInt
import dev.smc.codec.MapPairs
import dev.smc.codec.MethodCall
import dev.smc.codec.SuccessEnvelope

/**
 * Notation the runner cannot read, or a host value it cannot write as notation. Never the
 * codec's doing: the runner answers `skipped` (PROTOCOL.md P.3, P.6), never an error class.
 */
class NotationException(message: String) : RuntimeException(message)

/**
 * The value notation of spec/notation.md, converted to and from the JVM host values of the
 * codec. Reading is strict (N.4): anything that is not exactly notation is a
 * [NotationException].
 */
object Notation {
    private val DECIMAL = Regex("-?(0|[1-9][0-9]*)")

    fun badNotation(why: String): NotationException = NotationException("bad notation: $why")

    // ---- notation -> host ----

    fun toHost(node: JNode, adapter: HostAdapter = GenericAdapter): Any? {
        val items = (node as? JArray)?.items ?: throw badNotation("a value must be a JSON array")
        if (items.isEmpty()) throw badNotation("a value needs a type word")
        val word = (items[0] as? JString)?.text ?: throw badNotation("the type word must be a string")
        if (word == "null") {
            expectCount(items, 1, word)
            return null
        }
        expectCount(items, if (word == "custom") 3 else 2, word)
        val arg = items[1]
        return when (word) {
            "bool" -> (arg as? JBool)?.value ?: throw badNotation("bool needs true or false")
            "i32" -> int32(arg)
            "i64" -> int64(arg)
            "largeint" -> LargeInt(string(arg, word))
            "f64" -> java.lang.Double.longBitsToDouble(hexBits(arg, 16))
            "str" -> string(arg, word)
            "u8s" -> hexBytes(string(arg, word))
            "i32s" -> array(arg, word).let { a -> IntArray(a.size) { int32(a[it]) } }
            "i64s" -> array(arg, word).let { a -> LongArray(a.size) { int64(a[it]) } }
            "f64s" -> array(arg, word).let { a -> DoubleArray(a.size) { java.lang.Double.longBitsToDouble(hexBits(a[it], 16)) } }
            "f32s" -> array(arg, word).let { a -> FloatArray(a.size) { java.lang.Float.intBitsToFloat(hexBits(a[it], 8).toInt()) } }
            "list" -> array(arg, word).mapTo(ArrayList()) { toHost(it, adapter) }
            "map" -> {
                val entries = array(arg, word)
                val pairs = MapPairs(entries.size)
                for (entry in entries) {
                    val kv = (entry as? JArray)?.items
                    if (kv == null || kv.size != 2) throw badNotation("a map entry must be [key, value]")
                    pairs.add(toHost(kv[0], adapter), toHost(kv[1], adapter))
                }
                pairs
            }
            "custom" -> {
                val tag = int32(arg)
                if (tag < 128 || tag > 255) throw badNotation("custom tag $tag outside 128..255")
                adapter.toHost(CustomValue(tag, toHost(items[2], adapter)))
            }
            else -> throw badNotation("unknown type word \"$word\"")
        }
    }

    fun toMethodCall(node: JNode, adapter: HostAdapter = GenericAdapter): MethodCall {
        val items = (node as? JArray)?.items ?: throw badNotation("a call must be a JSON array")
        if (items.size != 3 || (items[0] as? JString)?.text != "call") throw badNotation("expected [\"call\", NAME, V]")
        return MethodCall(string(items[1], "call"), toHost(items[2], adapter))
    }

    fun toEnvelope(node: JNode, adapter: HostAdapter = GenericAdapter): Envelope {
        val items = (node as? JArray)?.items ?: throw badNotation("an envelope must be a JSON array")
        return when ((items.firstOrNull() as? JString)?.text) {
            "success" -> {
                expectCount(items, 2, "success")
                SuccessEnvelope(toHost(items[1], adapter))
            }
            "error" -> {
                if (items.size != 4 && items.size != 5) throw badNotation("error needs 4 or 5 elements")
                val code = string(items[1], "error code")
                val message = nullableString(items[2])
                val details = toHost(items[3], adapter)
                if (items.size == 5) ErrorEnvelope(code, message, details, true, nullableString(items[4]))
                else ErrorEnvelope(code, message, details)
            }
            else -> throw badNotation("expected a success or error form")
        }
    }

    private fun expectCount(items: List<JNode>, n: Int, word: String) {
        if (items.size != n) throw badNotation("$word takes ${n - 1} argument(s), got ${items.size - 1}")
    }

    private fun string(node: JNode, word: String): String =
        (node as? JString)?.text ?: throw badNotation("$word needs a JSON string")

    private fun nullableString(node: JNode): String? =
        if (node === JNull) null else string(node, "message/stacktrace")

    private fun array(node: JNode, word: String): List<JNode> =
        (node as? JArray)?.items ?: throw badNotation("$word needs a JSON array")

    private fun int32(node: JNode): Int {
        val raw = (node as? JNumber)?.raw ?: throw badNotation("i32 needs a JSON integer")
        if (!DECIMAL.matches(raw) || raw.length > 11) throw badNotation("i32 $raw is not an integer")
        val v = raw.toLong()
        if (v < Int.MIN_VALUE || v > Int.MAX_VALUE) throw badNotation("i32 $raw out of range")
        return v.toInt()
    }

    private fun int64(node: JNode): Long {
        val raw = (node as? JString)?.text ?: throw badNotation("i64 needs a decimal string")
        if (!DECIMAL.matches(raw) || raw == "-0") throw badNotation("i64 \"$raw\" is not canonical decimal")
        return try {
            java.lang.Long.parseLong(raw)
        } catch (e: NumberFormatException) {
            throw badNotation("i64 \"$raw\" out of range")
        }
    }

    private fun hexBits(node: JNode, digits: Int): Long {
        val h = (node as? JString)?.text ?: throw badNotation("bit pattern must be a string")
        if (h.length != digits || !isLowerHex(h)) throw badNotation("\"$h\" is not $digits lower-case hex digits")
        return java.lang.Long.parseUnsignedLong(h, 16)
    }

    private fun isLowerHex(h: String): Boolean = h.all { it in '0'..'9' || it in 'a'..'f' }

    private fun hexBytes(h: String): ByteArray {
        if (h.length % 2 != 0 || !isLowerHex(h)) throw badNotation("u8s needs an even number of lower-case hex digits")
        return Hex.decode(h)
    }

    // ---- host -> notation ----

    fun fromHost(value: Any?, adapter: HostAdapter = GenericAdapter): JNode =
        when (value) {
            null -> form("null")
            is Boolean -> form("bool", JBool(value))
            is Int -> form("i32", JNumber(value.toString()))
            is Long -> form("i64", JString(value.toString()))
            is LargeInt -> form("largeint", JString(value.text))
            // What Android's codec decodes tag 5 into (BigInteger(text, 16)): printed as the
            // hex text it holds now, so a text the host cannot keep (upper case, a leading
            // zero) shows as the codec's loss instead of a skip (issue 25).
            is java.math.BigInteger -> form("largeint", JString(value.toString(16)))
            is Double -> form("f64", JString(hex16(java.lang.Double.doubleToRawLongBits(value))))
            is String -> form("str", JString(value))
            is ByteArray -> form("u8s", JString(Hex.encode(value)))
            is IntArray -> form("i32s", JArray(value.map { JNumber(it.toString()) }))
            is LongArray -> form("i64s", JArray(value.map { JString(it.toString()) }))
            is DoubleArray -> form("f64s", JArray(value.map { JString(hex16(java.lang.Double.doubleToRawLongBits(it))) }))
            is FloatArray -> form("f32s", JArray(value.map { JString(hex8(java.lang.Float.floatToRawIntBits(it))) }))
            is List<*> -> form("list", JArray(value.map { fromHost(it, adapter) }))
            is MapPairs -> form("map", JArray((0 until value.size).map {
                JArray(listOf(fromHost(value.keys[it], adapter), fromHost(value.values[it], adapter)))
            }))
            is Map<*, *> -> form("map", JArray(value.entries.map { JArray(listOf(fromHost(it.key, adapter), fromHost(it.value, adapter))) }))
            is CustomValue -> JArray(listOf(JString("custom"), JNumber(value.tag.toString()), fromHost(value.value, adapter)))
            else -> {
                val custom = adapter.toCustom(value)
                    ?: throw NotationException("host value of type ${value.javaClass.name} has no notation")
                fromHost(custom, adapter)
            }
        }

    fun fromMethodCall(call: MethodCall, adapter: HostAdapter = GenericAdapter): JNode =
        JArray(listOf(JString("call"), JString(call.method), fromHost(call.arguments, adapter)))

    fun fromEnvelope(envelope: Envelope, adapter: HostAdapter = GenericAdapter): JNode =
        when (envelope) {
            is SuccessEnvelope -> JArray(listOf(JString("success"), fromHost(envelope.result, adapter)))
            is ErrorEnvelope -> {
                val items = arrayListOf(
                    JString("error"), JString(envelope.code),
                    nullableNode(envelope.message), fromHost(envelope.details, adapter)
                )
                if (envelope.hasStacktrace) items.add(nullableNode(envelope.stacktrace))
                JArray(items)
            }
        }

    private fun nullableNode(s: String?): JNode = if (s == null) JNull else JString(s)

    private fun form(word: String, vararg args: JNode): JNode = JArray(listOf(JString(word)) + args)

    fun hex16(bits: Long): String = java.lang.Long.toHexString(bits).padStart(16, '0')

    fun hex8(bits: Int): String = Integer.toHexString(bits).padStart(8, '0')
}

object Hex {
    private const val DIGITS = "0123456789abcdef"

    fun encode(bytes: ByteArray, offset: Int = 0, count: Int = bytes.size): String {
        val sb = StringBuilder(2 * count)
        for (i in offset until offset + count) {
            val b = bytes[i].toInt() and 0xff
            sb.append(DIGITS[b shr 4]).append(DIGITS[b and 0xf])
        }
        return sb.toString()
    }

    /** Lower-case hex only (notation.md N.1); anything else is `bad_notation`. */
    fun decode(h: String): ByteArray {
        if (h.length % 2 != 0) throw Notation.badNotation("odd number of hex digits")
        val out = ByteArray(h.length / 2)
        for (i in out.indices) out[i] = ((digit(h[2 * i]) shl 4) or digit(h[2 * i + 1])).toByte()
        return out
    }

    private fun digit(c: Char): Int =
        when (c) {
            in '0'..'9' -> c - '0'
            in 'a'..'f' -> c - 'a' + 10
            else -> throw Notation.badNotation("'$c' is not a lower-case hex digit")
        }
}
