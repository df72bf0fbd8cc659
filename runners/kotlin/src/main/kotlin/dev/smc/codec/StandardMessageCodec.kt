package dev.smc.codec

import java.math.BigInteger

const val DEFAULT_MAX_DEPTH = 128

/**
 * Flutter's StandardMessageCodec wire format (spec v0) with the JVM types of Flutter's Android
 * codec: null, Boolean, Int (tag 3) and Long (tag 4) kept apart both ways, Double, String,
 * ByteArray, IntArray, LongArray, DoubleArray, FloatArray, List, Map. Decoding adds
 * [LargeInt] (tag 5) and, with [MapStyle.PAIRS], [MapPairs].
 *
 * Extension follows the shape Pigeon generates for Kotlin: a subclass overrides
 * [readValueOfType] for its tags (>= 128) and calls `readValue(reader)` for the payload, and
 * overrides [writeValue], writing its tag with `writer.write(tag)` then `writeValue(...)`.
 * Depth (spec §15.1) is enforced by [readValue] before the hook runs, so hooks need no care.
 *
 * Decoding never allocates more than a constant times the input (spec §15.3): every size is
 * checked against the remaining bytes first (spec §14.2 step 3).
 */
open class StandardMessageCodec(
    /** Deepest container nesting accepted (spec §15.1); deeper is `depth_limit`. */
    val maxDepth: Int = DEFAULT_MAX_DEPTH,
    val mapStyle: MapStyle = MapStyle.PAIRS
) {
    // ---- entry point: message (spec §9) ----

    /** Encodes one value; a top-level null gives `00` (spec §9.3). */
    fun encodeMessage(value: Any?): ByteArray = SmcWriter.encode { writeValue(it, value) }

    /** Decodes exactly one value from bytes[offset, offset + length) (spec §9.1, §9.2). */
    fun decodeMessage(
        bytes: ByteArray,
        offset: Int = 0,
        length: Int = bytes.size - offset,
        mode: DecodeMode = DecodeMode.FLUTTER
    ): Any? {
        val reader = newReader(bytes, offset, length, mode)
        val value = readValue(reader)
        requireFullyRead(reader, "the message value")
        return value
    }

    fun newReader(bytes: ByteArray, offset: Int, length: Int, mode: DecodeMode): SmcReader =
        SmcReader(bytes, offset, length, mode, maxDepth)

    /** spec §9.1 / §14.2 step 6: nothing may follow the complete top-level item. */
    fun requireFullyRead(reader: SmcReader, item: String) {
        if (reader.remaining > 0) {
            throw SmcException(
                ErrorClass.TRAILING_BYTES, reader.position,
                "${reader.remaining} byte(s) after $item (spec §9.1)"
            )
        }
    }

    // ---- values ----

    /**
     * Reads one tagged value (spec §14.2 step 1): the tag, then the depth check for
     * containers (list, map, custom), then [readValueOfType].
     */
    fun readValue(reader: SmcReader): Any? {
        if (reader.remaining == 0) throw reader.truncated("a value (its tag is missing)")
        val tagOffset = reader.position
        val tag = reader.readUnsignedByte("a tag")
        if (tag == LIST || tag == MAP || tag >= 0x80) {
            if (reader.depth >= reader.maxDepth) {
                throw SmcException(
                    ErrorClass.DEPTH_LIMIT, tagOffset,
                    "container nested deeper than ${reader.maxDepth} levels (spec §15.1)"
                )
            }
            reader.depth++
            val value = readValueOfType(tag.toByte(), reader)
            reader.depth--
            return value
        }
        return readValueOfType(tag.toByte(), reader)
    }

    /**
     * Reads the payload of a value whose tag byte ([type], signed as in Pigeon's generated
     * Kotlin: compare with `129.toByte()`) was just consumed. Subclasses handle their custom
     * tags and delegate the rest here; an unhandled custom tag is `unknown_tag` (spec §8.1).
     */
    open fun readValueOfType(type: Byte, reader: SmcReader): Any? {
        val tag = type.toInt() and 0xff
        val tagOffset = reader.position - 1
        when (tag) {
            NULL -> return null
            TRUE -> return true
            FALSE -> return false
            INT32 -> return reader.readInt32LE("an int32")
            INT64 -> return reader.readInt64LE("an int64")
            LARGE_INT -> {
                if (reader.isStrict) throw unknownTag(tag, tagOffset, " (largeInt is off in strict mode, spec §4.4)")
                val n = readCheckedSize(reader, 1, "a largeInt")
                return LargeInt(reader.readUtf8(n, "a largeInt"))
            }
            FLOAT64 -> {
                reader.skipPadding(8, "a float64")
                return java.lang.Double.longBitsToDouble(reader.readInt64LE("a float64"))
            }
            STRING -> {
                val n = readCheckedSize(reader, 1, "a string")
                return reader.readUtf8(n, "a string")
            }
            UINT8_LIST -> return reader.readByteArray(readCheckedSize(reader, 1, "a Uint8List"))
            INT32_LIST -> return reader.readIntArray(readTypedListCount(reader, 4, "an Int32List"))
            INT64_LIST -> return reader.readLongArray(readTypedListCount(reader, 8, "an Int64List"))
            FLOAT64_LIST -> return reader.readDoubleArray(readTypedListCount(reader, 8, "a Float64List"))
            FLOAT32_LIST -> return reader.readFloatArray(readTypedListCount(reader, 4, "a Float32List"))
            LIST -> {
                // spec §14.3: every element takes at least its tag byte.
                val n = readCheckedSize(reader, 1, "a List")
                val list = ArrayList<Any?>(n)
                for (i in 0 until n) list.add(readValue(reader))
                return list
            }
            MAP -> {
                // spec §14.3: every entry takes at least two tag bytes.
                val n = readCheckedSize(reader, 2, "a Map")
                return if (mapStyle == MapStyle.PAIRS) {
                    val pairs = MapPairs(n)
                    for (i in 0 until n) {
                        val key = readValue(reader)
                        pairs.add(key, readValue(reader))
                    }
                    pairs
                } else {
                    val map = LinkedHashMap<Any?, Any?>()
                    for (i in 0 until n) {
                        val key = readValue(reader)
                        map[key] = readValue(reader)
                    }
                    map
                }
            }
            else -> throw unknownTag(tag, tagOffset, "")
        }
    }

    private fun unknownTag(tag: Int, offset: Int, why: String): SmcException =
        SmcException(ErrorClass.UNKNOWN_TAG, offset, "unknown tag 0x%02x%s".format(tag, why))

    /** A size field (spec §2.2) as an unsigned 32-bit number; see [SmcReader.readSize]. */
    fun readSize(reader: SmcReader, what: String): Long = reader.readSize(what)

    private fun readCheckedSize(reader: SmcReader, unit: Int, what: String): Int =
        reader.readCheckedSize(unit, what)

    private fun readTypedListCount(reader: SmcReader, elementSize: Int, what: String): Int =
        reader.readTypedListCount(elementSize, what)

    /**
     * Writes one value with the tag of its JVM type (spec §4.2: Int → int32 and Long → int64
     * whatever the number; Byte/Short → int32 and Float → float64 as Flutter's Android codec
     * does). Subclasses write their own types and delegate the rest here.
     */
    open fun writeValue(writer: SmcWriter, value: Any?) {
        // The commonest types first, exact classes (one pointer compare each) before the
        // interface tests (List, Map, CharSequence), which scan the class's interfaces.
        when (value) {
            null -> writer.write(NULL)
            is String -> writer.putString(value)
            is Int -> writer.putInt(value)
            is Long -> writer.putLong(value)
            is Double -> writer.putDouble(value)
            is Boolean -> writer.write(if (value) TRUE else FALSE)
            is ArrayList<*> -> writeList(writer, value)
            is MapPairs -> {
                writer.putMapHeader(value.size)
                for (i in 0 until value.size) {
                    writeValue(writer, value.keys[i])
                    writeValue(writer, value.values[i])
                }
            }
            is ByteArray -> writer.putByteArray(value)
            is IntArray -> writer.putIntArray(value)
            is LongArray -> writer.putLongArray(value)
            is DoubleArray -> writer.putDoubleArray(value)
            is FloatArray -> writer.putFloatArray(value)
            is Byte -> writer.putInt(value.toInt())
            is Short -> writer.putInt(value.toInt())
            is Float -> writer.putDouble(value.toDouble())
            is List<*> -> writeList(writer, value)
            is Map<*, *> -> {
                writer.putMapHeader(value.size)
                for ((k, v) in value) {
                    writeValue(writer, k)
                    writeValue(writer, v)
                }
            }
            is CharSequence -> writer.putString(value.toString())
            is LargeInt, is BigInteger -> throw SmcException(
                ErrorClass.NOT_ENCODABLE, SmcException.NO_OFFSET,
                "largeInt (tag 5) is never written (spec §4.4)"
            )
            else -> throw SmcException(
                ErrorClass.NOT_ENCODABLE, SmcException.NO_OFFSET,
                "unsupported value of type ${value.javaClass.name}"
            )
        }
    }

    /** A List (spec §7.1); indexed access for random-access lists (no iterator). */
    private fun writeList(writer: SmcWriter, value: List<*>) {
        writer.putListHeader(value.size)
        if (value is java.util.RandomAccess) {
            for (i in 0 until value.size) writeValue(writer, value[i])
        } else {
            for (element in value) writeValue(writer, element)
        }
    }

    /** The shortest size form (spec §2.2, §13); sizes above 2^32−1 are not encodable. */
    fun writeSize(writer: SmcWriter, size: Long) = writer.writeSize(size)

    companion object {
        const val NULL = 0x00
        const val TRUE = 0x01
        const val FALSE = 0x02
        const val INT32 = 0x03
        const val INT64 = 0x04
        const val LARGE_INT = 0x05
        const val FLOAT64 = 0x06
        const val STRING = 0x07
        const val UINT8_LIST = 0x08
        const val INT32_LIST = 0x09
        const val INT64_LIST = 0x0a
        const val FLOAT64_LIST = 0x0b
        const val LIST = 0x0c
        const val MAP = 0x0d
        const val FLOAT32_LIST = 0x0e
    }
}
