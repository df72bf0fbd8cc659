package dev.smc.codec

/**
 * A decoded map as its entries in wire order, duplicates included (spec §7.2, §7.3).
 * A host Map would merge duplicate keys and, for HashMap, lose the order; this keeps both
 * so a decode-then-encode reproduces the bytes. The encoder writes it in this order.
 */
class MapPairs(initialCapacity: Int = 0) {
    val keys = ArrayList<Any?>(initialCapacity)
    val values = ArrayList<Any?>(initialCapacity)

    val size: Int get() = keys.size

    fun add(key: Any?, value: Any?) {
        keys.add(key)
        values.add(value)
    }

    /** Java's view of the same map: a duplicate key keeps the last value (HashMap.put). */
    fun toLinkedHashMap(): LinkedHashMap<Any?, Any?> {
        val map = LinkedHashMap<Any?, Any?>()
        for (i in 0 until keys.size) map[keys[i]] = values[i]
        return map
    }
}
