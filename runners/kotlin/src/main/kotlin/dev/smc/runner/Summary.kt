package dev.smc.runner

import dev.smc.codec.CustomValue
import dev.smc.codec.LargeInt
import dev.smc.codec.MapPairs

/**
 * The `summary` answer of runners/PROTOCOL.md P.3: the depth (spec §15.1 containers), the
 * number of values and the payload bytes of a decoded host value, for a value too large to
 * print (deeper than [PRINTABLE_DEPTH], or a response longer than [PRINTABLE_LINE_CHARS]).
 *
 * Measured with an explicit stack, so a value a plugged-in codec without a depth limit built
 * 100,000 levels deep never overflows the runner's stack where the codec's did not.
 */
class ValueSummary(val depth: Int, val values: Long, val bytes: Long) {
    fun toJson(): JNode = JObject(linkedMapOf<String, JNode>(
        "depth" to JNumber(depth.toString()),
        "values" to JNumber(values.toString()),
        "bytes" to JNumber(bytes.toString())
    ))

    companion object {
        const val PRINTABLE_DEPTH = 500
        const val PRINTABLE_LINE_CHARS = 16 shl 20

        /** Walks a host value of the codec ([adapter] maps generated custom classes). */
        fun of(root: Any?, adapter: HostAdapter = GenericAdapter): ValueSummary {
            var depth = 0
            var values = 0L
            var bytes = 0L
            val pending = ArrayList<Any?>()
            val levels = ArrayList<Int>()
            pending.add(root)
            levels.add(0)
            while (pending.isNotEmpty()) {
                val value = pending.removeAt(pending.size - 1)
                val level = levels.removeAt(levels.size - 1)
                values++
                val inner = level + 1
                when (value) {
                    is java.math.BigInteger -> bytes += value.toString(16).length
                    null, is Boolean, is Number -> {}
                    is String -> bytes += value.toByteArray(Charsets.UTF_8).size
                    is LargeInt -> bytes += value.text.toByteArray(Charsets.UTF_8).size
                    is ByteArray -> bytes += value.size
                    is IntArray -> bytes += 4L * value.size
                    is FloatArray -> bytes += 4L * value.size
                    is LongArray -> bytes += 8L * value.size
                    is DoubleArray -> bytes += 8L * value.size
                    is List<*> -> {
                        depth = maxOf(depth, inner)
                        for (element in value) {
                            pending.add(element)
                            levels.add(inner)
                        }
                    }
                    is MapPairs -> {
                        depth = maxOf(depth, inner)
                        for (i in 0 until value.size) {
                            pending.add(value.keys[i])
                            levels.add(inner)
                            pending.add(value.values[i])
                            levels.add(inner)
                        }
                    }
                    is Map<*, *> -> {
                        depth = maxOf(depth, inner)
                        for ((k, v) in value) {
                            pending.add(k)
                            levels.add(inner)
                            pending.add(v)
                            levels.add(inner)
                        }
                    }
                    is CustomValue -> {
                        depth = maxOf(depth, inner)
                        pending.add(value.value)
                        levels.add(inner)
                    }
                    else -> adapter.toCustom(value)?.let {
                        depth = maxOf(depth, inner)
                        pending.add(it.value)
                        levels.add(inner)
                    }
                }
            }
            return ValueSummary(depth, values, bytes)
        }
    }
}
