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
    fun encodeMessage(value: Any?): ByteArray {
        val writer = SmcWriter()
        writeValue(writer, value)
        return writer.toByteArray()
    }

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

    /**
     * Reads a size field (spec §2.2) as an unsigned 32-bit number — never negative, unlike
     * Java's codec (wire-format-notes §2.6). Strict mode rejects a longer form than needed.
     */
    fun readSize(reader: SmcReader, what: String): Long {
        val escapeOffset = reader.position
        val first = reader.readUnsignedByte(what)
        val size: Long
        val minimumForForm: Long
        when (first) {
            254 -> { size = reader.readInt16LE(what).toLong(); minimumForForm = 254 }
            255 -> { size = reader.readInt32LE(what).toLong() and 0xffffffffL; minimumForForm = 0x10000 }
            else -> return first.toLong()
        }
        if (reader.isStrict && size < minimumForForm) {
            throw SmcException(
                ErrorClass.NOT_CANONICAL, escapeOffset,
                "size $size of $what written in a longer form than needed (spec §2.2, strict mode)"
            )
        }
        return size
    }

    /**
     * Reads a size and checks, before anything is allocated, that the remaining input can
     * hold [unit] × size bytes (spec §14.2 step 3, §14.3); returns the size.
     * The product cannot overflow: size < 2^32 and unit <= 8.
     */
    private fun readCheckedSize(reader: SmcReader, unit: Int, what: String): Int {
        val n = readSize(reader, what)
        // Messages are built only on failure: this is the hot path.
        if (unit * n > reader.remaining) throw reader.truncated("$what of declared size $n")
        return n.toInt()
    }

    /** Count, bound check including the alignment padding, then the padding itself (§6). */
    private fun readTypedListCount(reader: SmcReader, elementSize: Int, what: String): Int {
        val n = readSize(reader, what)
        if (reader.paddingFor(elementSize) + elementSize * n > reader.remaining) {
            throw reader.truncated("$what of declared count $n")
        }
        reader.skipPadding(elementSize, what)
        return n.toInt()
    }

    /**
     * Writes one value with the tag of its JVM type (spec §4.2: Int → int32 and Long → int64
     * whatever the number; Byte/Short → int32 and Float → float64 as Flutter's Android codec
     * does). Subclasses write their own types and delegate the rest here.
     */
    open fun writeValue(writer: SmcWriter, value: Any?) {
        when (value) {
            null -> writer.write(NULL)
            is Boolean -> writer.write(if (value) TRUE else FALSE)
            is Int -> { writer.write(INT32); writer.writeInt32LE(value) }
            is Long -> { writer.write(INT64); writer.writeInt64LE(value) }
            is Byte -> { writer.write(INT32); writer.writeInt32LE(value.toInt()) }
            is Short -> { writer.write(INT32); writer.writeInt32LE(value.toInt()) }
            is Double -> writeFloat64(writer, value)
            is Float -> writeFloat64(writer, value.toDouble())
            is String -> writeString(writer, value)
            is CharSequence -> writeString(writer, value.toString())
            is ByteArray -> {
                writer.write(UINT8_LIST)
                writeSize(writer, value.size.toLong())
                writer.writeBytes(value)
            }
            is IntArray -> {
                writer.write(INT32_LIST)
                writeSize(writer, value.size.toLong())
                writer.writePadding(4)
                writer.writeIntArray(value)
            }
            is LongArray -> {
                writer.write(INT64_LIST)
                writeSize(writer, value.size.toLong())
                writer.writePadding(8)
                writer.writeLongArray(value)
            }
            is DoubleArray -> {
                writer.write(FLOAT64_LIST)
                writeSize(writer, value.size.toLong())
                writer.writePadding(8)
                writer.writeDoubleArray(value)
            }
            is FloatArray -> {
                writer.write(FLOAT32_LIST)
                writeSize(writer, value.size.toLong())
                writer.writePadding(4)
                writer.writeFloatArray(value)
            }
            is List<*> -> {
                writer.write(LIST)
                writeSize(writer, value.size.toLong())
                for (element in value) writeValue(writer, element)
            }
            is MapPairs -> {
                writer.write(MAP)
                writeSize(writer, value.size.toLong())
                for (i in 0 until value.size) {
                    writeValue(writer, value.keys[i])
                    writeValue(writer, value.values[i])
                }
            }
            is Map<*, *> -> {
                writer.write(MAP)
                writeSize(writer, value.size.toLong())
                for ((k, v) in value) {
                    writeValue(writer, k)
                    writeValue(writer, v)
                }
            }
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

    private fun writeFloat64(writer: SmcWriter, value: Double) {
        writer.write(FLOAT64)
        writer.writePadding(8)
        // Raw bits: NaN payloads survive (spec §4.3); Java's codec canonicalises them.
        writer.writeInt64LE(java.lang.Double.doubleToRawLongBits(value))
    }

    private fun writeString(writer: SmcWriter, value: String) {
        val byteCount = Utf8.encodedLength(value)
        writer.write(STRING)
        writeSize(writer, byteCount.toLong())
        writer.writeUtf8(value, byteCount)
    }

    /** The shortest size form (spec §2.2, §13); sizes above 2^32−1 are not encodable. */
    fun writeSize(writer: SmcWriter, size: Long) {
        when {
            size < 0 || size > 0xffffffffL -> throw SmcException(
                ErrorClass.NOT_ENCODABLE, SmcException.NO_OFFSET,
                "size $size outside 0..2^32-1 (spec §15.2)"
            )
            size < 254 -> writer.write(size.toInt())
            size <= 0xffff -> {
                writer.write(254)
                writer.write(size.toInt())
                writer.write((size shr 8).toInt())
            }
            else -> {
                writer.write(255)
                writer.writeInt32LE(size.toInt())
            }
        }
    }

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
