package dev.smc.kit

import dev.smc.codec.CustomValue
import dev.smc.codec.MapPairs

/**
 * The notation's host values (dev.smc.runner.Notation keeps every map as [MapPairs], in wire
 * order with duplicates) in the types Flutter's Java and Kotlin codecs take: a map whose keys
 * are distinct by Java's `equals` becomes a LinkedHashMap in the same order; one with a
 * repeated key stays MapPairs, which a java.util.Map codec refuses (the feature
 * `duplicate-map-keys` then decides what the judge expects).
 */
internal object JavaHost {
    fun of(value: Any?): Any? = when (value) {
        is MapPairs -> {
            val map = LinkedHashMap<Any?, Any?>(value.size * 2)
            val pairs = MapPairs(value.size)
            for (i in 0 until value.size) {
                val key = of(value.keys[i])
                val item = of(value.values[i])
                map[key] = item
                pairs.add(key, item)
            }
            if (map.size == value.size) map else pairs
        }
        is List<*> -> value.mapTo(ArrayList(value.size)) { of(it) }
        is CustomValue -> CustomValue(value.tag, of(value.value))
        else -> value
    }
}
