package dev.smc.codec

import java.nio.ByteBuffer
import java.nio.ByteOrder

/**
 * A cursor over bytes[base, base + length) — one entry point's input. Every position and
 * every error offset is relative to [base], so alignment is counted from the message start
 * (spec §3.1) whatever the slice's place in the array. Little-endian reads are written out by
 * hand (spec §2.1); typed lists use a ByteBuffer view only as a bulk copy, never for
 * positions or alignment (nothing is address-based).
 */
class SmcReader(
    private val bytes: ByteArray,
    private val base: Int,
    /** The input length; also the offset of every `truncated` error (spec §14.1). */
    val length: Int,
    val mode: DecodeMode,
    val maxDepth: Int
) {
    init {
        require(base >= 0 && length >= 0 && base <= bytes.size - length) {
            "slice [$base, $base+$length) outside an array of ${bytes.size} bytes"
        }
    }

    /** Offset of the next byte to read, from the first byte of the input. */
    var position: Int = 0
        private set

    /** Containers currently open (spec §15.1: a top-level container is level 1). */
    var depth: Int = 0
        internal set

    val remaining: Int get() = length - position

    val isStrict: Boolean get() = mode == DecodeMode.STRICT

    fun truncated(what: String): SmcException =
        SmcException(ErrorClass.TRUNCATED, length, "input ends inside $what (spec §14.1)")

    /** Fails with `truncated` unless [count] more bytes are present. */
    fun need(count: Long, what: String) {
        if (count > remaining) throw truncated(what)
    }

    fun readUnsignedByte(what: String): Int {
        if (position >= length) throw truncated(what)
        return bytes[base + position++].toInt() and 0xff
    }

    /** The byte at the cursor without consuming it, or -1 at the end of the input. */
    fun peekUnsignedByte(): Int =
        if (position < length) bytes[base + position].toInt() and 0xff else -1

    fun readInt16LE(what: String): Int {
        need(2, what)
        val p = base + position
        position += 2
        return (bytes[p].toInt() and 0xff) or ((bytes[p + 1].toInt() and 0xff) shl 8)
    }

    fun readInt32LE(what: String): Int {
        need(4, what)
        val v = int32At(base + position)
        position += 4
        return v
    }

    fun readInt64LE(what: String): Long {
        need(8, what)
        val v = int64At(base + position)
        position += 8
        return v
    }

    /**
     * Skips the padding that brings [position] to a multiple of [alignment] (spec §3.3):
     * missing padding is `truncated`; in strict mode a non-zero pad byte is `not_canonical`.
     */
    fun skipPadding(alignment: Int, what: String) {
        val pad = paddingFor(alignment)
        if (pad > remaining) throw truncated("the padding of $what")
        if (isStrict) {
            for (i in 0 until pad) {
                if (bytes[base + position + i].toInt() != 0) {
                    throw SmcException(
                        ErrorClass.NOT_CANONICAL, position + i,
                        "non-zero padding byte in $what (spec §3.3, strict mode)"
                    )
                }
            }
        }
        position += pad
    }

    /** Padding bytes needed at the cursor to reach a multiple of [alignment] (a power of 2). */
    fun paddingFor(alignment: Int): Int = (-position) and (alignment - 1)

    fun readByteArray(count: Int): ByteArray {
        requireAvailable(count, 1, "a Uint8List")
        val p = base + position
        position += count
        return bytes.copyOfRange(p, p + count)
    }

    // Typed lists (spec §6): the codec has checked the count against the remaining bytes
    // (with the spec's error offset) and skipped the padding before calling; requireAvailable
    // only guards direct callers, before anything is allocated. Short lists
    // are read element by element; longer ones go through a little-endian ByteBuffer view,
    // whose bulk get is one memory copy on current JDKs (raw bits: NaN payloads survive, spec
    // §4.3) and an element loop on JRE 8. The view starts at the cursor's array index,
    // which may be unaligned in memory; alignment is a wire property counted from [base].

    fun readIntArray(count: Int): IntArray {
        requireAvailable(count, 4, "an Int32List")
        val out = IntArray(count)
        var p = base + position
        if (count >= BULK_MIN_ELEMENTS) {
            littleEndianView(p, 4 * count).asIntBuffer().get(out)
        } else {
            for (i in 0 until count) {
                out[i] = int32At(p)
                p += 4
            }
        }
        position += 4 * count
        return out
    }

    fun readLongArray(count: Int): LongArray {
        requireAvailable(count, 8, "an Int64List")
        val out = LongArray(count)
        var p = base + position
        if (count >= BULK_MIN_ELEMENTS) {
            littleEndianView(p, 8 * count).asLongBuffer().get(out)
        } else {
            for (i in 0 until count) {
                out[i] = int64At(p)
                p += 8
            }
        }
        position += 8 * count
        return out
    }

    fun readDoubleArray(count: Int): DoubleArray {
        requireAvailable(count, 8, "a Float64List")
        val out = DoubleArray(count)
        var p = base + position
        if (count >= BULK_MIN_ELEMENTS) {
            littleEndianView(p, 8 * count).asDoubleBuffer().get(out)
        } else {
            for (i in 0 until count) {
                out[i] = java.lang.Double.longBitsToDouble(int64At(p))
                p += 8
            }
        }
        position += 8 * count
        return out
    }

    fun readFloatArray(count: Int): FloatArray {
        requireAvailable(count, 4, "a Float32List")
        val out = FloatArray(count)
        var p = base + position
        if (count >= BULK_MIN_ELEMENTS) {
            littleEndianView(p, 4 * count).asFloatBuffer().get(out)
        } else {
            for (i in 0 until count) {
                out[i] = java.lang.Float.intBitsToFloat(int32At(p))
                p += 4
            }
        }
        position += 4 * count
        return out
    }

    /**
     * A guard for direct callers (a custom codec's hook): the codec has already checked the
     * count with the right error offset, so this never fires on its path; without it an
     * unchecked count would read past the slice into the rest of the array.
     */
    private fun requireAvailable(count: Int, elementSize: Int, what: String) {
        require(count >= 0) { "negative element count $count" }
        need(elementSize.toLong() * count, what)
    }

    /** bytes[index, index + byteCount) as a little-endian buffer (spec §2.1). */
    private fun littleEndianView(index: Int, byteCount: Int): ByteBuffer =
        ByteBuffer.wrap(bytes, index, byteCount).order(ByteOrder.LITTLE_ENDIAN)

    /**
     * Reads [count] bytes (already known to be present) as well-formed UTF-8 (spec §5.3);
     * `bad_utf8` at the first byte of the first ill-formed subsequence otherwise.
     */
    fun readUtf8(count: Int, what: String): String {
        val start = base + position
        if (isAsciiAt(start, count)) {
            position += count
            return Utf8.latin1String(bytes, start, count)
        }
        // The JDK's decoder replaces every ill-formed subsequence with U+FFFD and is exact on
        // well-formed input, so a result without U+FFFD came from well-formed bytes: the
        // common non-ASCII string is scanned once, by the JDK. Only a result holding U+FFFD
        // (ill-formed input, or a U+FFFD that was on the wire) is checked by firstIllFormed,
        // which finds the offset of the error.
        val text = Utf8.decodeWellFormed(bytes, start, count)
        if (text.indexOf('\uFFFD') >= 0) {
            val bad = Utf8.firstIllFormed(bytes, start, start + count)
            if (bad >= 0) {
                throw SmcException(
                    ErrorClass.BAD_UTF8, bad - base,
                    "$what is not well-formed UTF-8 (spec §5.3)"
                )
            }
        }
        position += count
        return text
    }

    // ---- sizes (spec §2.2) and the bound checks of spec §14.2 step 3 ----

    /**
     * Reads a size field as an unsigned 32-bit number — never negative, unlike Java's codec
     * (wire-format-notes §2.6). Strict mode rejects a longer form than needed.
     */
    fun readSize(what: String): Long {
        val escapeOffset = position
        val first = readUnsignedByte(what)
        val size: Long
        val minimumForForm: Long
        when (first) {
            254 -> { size = readInt16LE(what).toLong(); minimumForForm = 254 }
            255 -> { size = readInt32LE(what).toLong() and 0xffffffffL; minimumForForm = 0x10000 }
            else -> return first.toLong()
        }
        if (isStrict && size < minimumForForm) {
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
    fun readCheckedSize(unit: Int, what: String): Int {
        val n = readSize(what)
        // Messages are built only on failure: this is the hot path.
        if (unit * n > remaining) throw truncated("$what of declared size $n")
        return n.toInt()
    }

    /** Count, bound check including the alignment padding, then the padding itself (§6). */
    fun readTypedListCount(elementSize: Int, what: String): Int {
        val n = readSize(what)
        if (paddingFor(elementSize) + elementSize * n > remaining) {
            throw truncated("$what of declared count $n")
        }
        skipPadding(elementSize, what)
        return n.toInt()
    }

    // ---- typed reads, for generated code ----
    //
    // Pigeon's Kotlin code reads a data class as `readValue(buffer) as List<Any?>` and casts
    // each field (`list[0] as Long?`): every field is boxed into the list first. These read
    // one field straight into its type: null -> null, the expected wire type -> the value,
    // any other well-formed value -> SmcTypeException. Malformed bytes fail with the
    // SmcException (class + offset) the generic decoder reports, after the same checks in the
    // same order (spec/errors.md §14.2); containers count against the depth limit (§15.1).

    //
    // Each read has a fast path for the common case: the tag and a payload of known size
    // (a one-byte size for strings and containers; flutter-mode padding for float64) behind
    // one bounds check, with no field stored but the position. Anything else (null, another
    // tag, a short input, a longer size form, strict mode's checks) takes the full path,
    // which makes every check of spec/errors.md §14.2 in order, so errors and offsets are
    // those of the generic decoder either way.

    private fun readTypedTag(): Int {
        if (position >= length) throw truncated("a value (its tag is missing)")
        return bytes[base + position++].toInt() and 0xff
    }

    /**
     * The error for an unexpected tag: unknown_tag if no value carries it, else a mismatch.
     * Called right after [readTypedTag], so the tag is the byte before the cursor.
     */
    private fun unexpected(tag: Int, expected: String): RuntimeException {
        val tagOffset = position - 1
        val known = tag <= StandardMessageCodec.FLOAT32_LIST &&
            !(tag == StandardMessageCodec.LARGE_INT && isStrict) || tag >= 0x80
        if (!known) {
            return SmcException(ErrorClass.UNKNOWN_TAG, tagOffset, "unknown tag 0x%02x".format(tag))
        }
        return SmcTypeException(tagOffset, tag, expected)
    }

    /** The tag at the cursor if at least [count] bytes (the tag's included) are left, else -1. */
    private fun tagWithAtLeast(count: Int): Int =
        if (length - position >= count) bytes[base + position].toInt() and 0xff else -1

    fun readBooleanOrNull(): Boolean? =
        when (val tag = readTypedTag()) {
            StandardMessageCodec.NULL -> null
            StandardMessageCodec.TRUE -> true
            StandardMessageCodec.FALSE -> false
            else -> throw unexpected(tag, "bool")
        }

    fun readIntOrNull(): Int? {
        if (tagWithAtLeast(5) == StandardMessageCodec.INT32) {
            val p = base + position
            position += 5
            return int32At(p + 1)
        }
        return readIntOrNullFull()
    }

    private fun readIntOrNullFull(): Int? =
        when (val tag = readTypedTag()) {
            StandardMessageCodec.NULL -> null
            StandardMessageCodec.INT32 -> readInt32LE("an int32")
            else -> throw unexpected(tag, "int32")
        }

    /** int64, or an int32 widened (Pigeon's Kotlin int fields are Long). */
    fun readLongOrNull(): Long? {
        if (tagWithAtLeast(9) == StandardMessageCodec.INT64) {
            val p = base + position
            position += 9
            return int64At(p + 1)
        }
        return readLongOrNullFull()
    }

    private fun readLongOrNullFull(): Long? =
        when (val tag = readTypedTag()) {
            StandardMessageCodec.NULL -> null
            StandardMessageCodec.INT64 -> readInt64LE("an int64")
            StandardMessageCodec.INT32 -> readInt32LE("an int32").toLong()
            else -> throw unexpected(tag, "int64")
        }

    fun readDoubleOrNull(): Double? {
        val p = position
        if (float64FastAt(p)) return readFloat64At(p)
        return readDoubleOrNullFull()
    }

    /**
     * A float64 that generated code declares non-null (a LatLng's coordinates): the value
     * unboxed. Null, like any other tag, is a mismatch ([SmcTypeException]); malformed
     * bytes fail as in [readDoubleOrNull].
     */
    fun readDouble(): Double {
        val p = position
        if (float64FastAt(p)) return readFloat64At(p)
        val tag = readTypedTag()
        if (tag != StandardMessageCodec.FLOAT64) throw unexpected(tag, "float64 (not null)")
        return readFloat64Payload()
    }

    /**
     * The float64 reads' fast path applies at [p]: a float64 tag with room for its padding
     * and payload (at most 16 bytes), in flutter mode, where padding bytes are not checked
     * (spec §3.3).
     */
    private fun float64FastAt(p: Int): Boolean =
        length - p >= 16 && bytes[base + p].toInt() == StandardMessageCodec.FLOAT64 && !isStrict

    /** The float64 whose tag is at [p] ([float64FastAt] held): padding skipped, 8 bytes read. */
    private fun readFloat64At(p: Int): Double {
        val at = p + 1 + ((-(p + 1)) and 7)
        position = at + 8
        return java.lang.Double.longBitsToDouble(int64At(base + at))
    }

    private fun readFloat64Payload(): Double {
        skipPadding(8, "a float64")
        return java.lang.Double.longBitsToDouble(readInt64LE("a float64"))
    }

    private fun readDoubleOrNullFull(): Double? =
        when (val tag = readTypedTag()) {
            StandardMessageCodec.NULL -> null
            StandardMessageCodec.FLOAT64 -> readFloat64Payload()
            else -> throw unexpected(tag, "float64")
        }

    fun readStringOrNull(): String? {
        // Fast path: tag 7, a one-byte size, and that many bytes present.
        if (tagWithAtLeast(2) == StandardMessageCodec.STRING) {
            val count = bytes[base + position + 1].toInt() and 0xff
            if (count < 254 && count <= length - position - 2) {
                position += 2
                return readUtf8(count, "a string")
            }
        }
        return readStringOrNullFull()
    }

    private fun readStringOrNullFull(): String? =
        when (val tag = readTypedTag()) {
            StandardMessageCodec.NULL -> null
            StandardMessageCodec.STRING -> readUtf8(readCheckedSize(1, "a string"), "a string")
            else -> throw unexpected(tag, "string")
        }

    fun readByteArrayOrNull(): ByteArray? =
        when (val tag = readTypedTag()) {
            StandardMessageCodec.NULL -> null
            StandardMessageCodec.UINT8_LIST -> readByteArray(readCheckedSize(1, "a Uint8List"))
            else -> throw unexpected(tag, "Uint8List")
        }

    fun readIntArrayOrNull(): IntArray? =
        when (val tag = readTypedTag()) {
            StandardMessageCodec.NULL -> null
            StandardMessageCodec.INT32_LIST -> readIntArray(readTypedListCount(4, "an Int32List"))
            else -> throw unexpected(tag, "Int32List")
        }

    fun readLongArrayOrNull(): LongArray? =
        when (val tag = readTypedTag()) {
            StandardMessageCodec.NULL -> null
            StandardMessageCodec.INT64_LIST -> readLongArray(readTypedListCount(8, "an Int64List"))
            else -> throw unexpected(tag, "Int64List")
        }

    fun readDoubleArrayOrNull(): DoubleArray? =
        when (val tag = readTypedTag()) {
            StandardMessageCodec.NULL -> null
            StandardMessageCodec.FLOAT64_LIST -> readDoubleArray(readTypedListCount(8, "a Float64List"))
            else -> throw unexpected(tag, "Float64List")
        }

    fun readFloatArrayOrNull(): FloatArray? =
        when (val tag = readTypedTag()) {
            StandardMessageCodec.NULL -> null
            StandardMessageCodec.FLOAT32_LIST -> readFloatArray(readTypedListCount(4, "a Float32List"))
            else -> throw unexpected(tag, "Float32List")
        }

    /**
     * Opens a List (tag 12) and returns its element count (checked against the bytes left,
     * spec §14.3), or -1 for null. The caller reads exactly that many values, then calls
     * [closeContainer]. This is how a data class's field list is read.
     */
    fun openListOrNull(): Int = openContainerOrNull(StandardMessageCodec.LIST, 1)

    /** As [openListOrNull] for a Map (tag 13): the entry count; 2 × count values follow. */
    fun openMapOrNull(): Int = openContainerOrNull(StandardMessageCodec.MAP, 2)

    /**
     * A List or Map header: fast path for a one-byte count whose [unit] × count bytes are
     * present (spec §14.3); the full path otherwise.
     */
    private fun openContainerOrNull(containerTag: Int, unit: Int): Int {
        if (tagWithAtLeast(2) == containerTag) {
            val count = bytes[base + position + 1].toInt() and 0xff
            if (count < 254 && unit * count <= length - position - 2) {
                position++
                enterContainer()
                position++
                return count
            }
        }
        return if (containerTag == StandardMessageCodec.LIST) openListOrNullFull() else openMapOrNullFull()
    }

    private fun openListOrNullFull(): Int =
        when (val tag = readTypedTag()) {
            StandardMessageCodec.NULL -> -1
            StandardMessageCodec.LIST -> {
                enterContainer()
                readCheckedSize(1, "a List")
            }
            else -> throw unexpected(tag, "List")
        }

    private fun openMapOrNullFull(): Int =
        when (val tag = readTypedTag()) {
            StandardMessageCodec.NULL -> -1
            StandardMessageCodec.MAP -> {
                enterContainer()
                readCheckedSize(2, "a Map")
            }
            else -> throw unexpected(tag, "Map")
        }

    /**
     * Opens a custom value with tag [customTag] (128..255, spec §8): returns true, and the
     * caller reads its one nested value then calls [closeContainer]; false for null.
     */
    fun openCustomOrNull(customTag: Int): Boolean {
        val tag = readTypedTag()
        if (tag == StandardMessageCodec.NULL) return false
        if (tag != customTag || tag < 0x80) throw unexpected(tag, "custom $customTag")
        enterContainer()
        return true
    }

    /** Closes the container the last open… call opened. */
    fun closeContainer() {
        depth--
    }

    /** Counts a container whose tag is the byte before the cursor (spec §15.1). */
    private fun enterContainer() {
        if (depth >= maxDepth) {
            throw SmcException(
                ErrorClass.DEPTH_LIMIT, position - 1,
                "container nested deeper than $maxDepth levels (spec §15.1)"
            )
        }
        depth++
    }

    /**
     * Little-endian loads through a ByteBuffer over the whole array (made once per reader):
     * the JIT turns getInt/getLong into one unaligned load, where four byte loads and shifts
     * cost a few nanoseconds per int (spec §2.1; positions stay the cursor's own).
     */
    private val littleEndian: ByteBuffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN)

    /**
     * Checks [count] bytes (already known to be present) as well-formed UTF-8 (spec §5.3)
     * and steps over them, without building a String: [readUtf8]'s checks and offsets.
     */
    fun validateUtf8(count: Int, what: String) {
        val start = base + position
        if (!isAsciiAt(start, count)) {
            val bad = Utf8.firstIllFormed(bytes, start, start + count)
            if (bad >= 0) {
                throw SmcException(
                    ErrorClass.BAD_UTF8, bad - base,
                    "$what is not well-formed UTF-8 (spec §5.3)"
                )
            }
        }
        position += count
    }

    /**
     * The tag of a string element of a method call or envelope (07, or 00 when [nullable]),
     * checked before the element is decoded (spec §14.2): a missing element is truncated, a
     * wrong tag bad_envelope (not unknown_tag). Consumes nothing.
     */
    fun checkStringElementTag(what: String, nullable: Boolean): Int {
        val tag = peekUnsignedByte()
        if (tag < 0) throw truncated(what)
        val allowed = tag == StandardMessageCodec.STRING || (nullable && tag == StandardMessageCodec.NULL)
        if (!allowed) {
            throw SmcException(
                ErrorClass.BAD_ENVELOPE, position,
                "$what has tag 0x%02x, expected %s (spec §10, §11)".format(tag, if (nullable) "07 or 00" else "07")
            )
        }
        return tag
    }

    /** Steps over [count] bytes whose presence was already checked. */
    fun skip(count: Int) {
        require(count >= 0 && count <= remaining) { "skip($count) past the input" }
        position += count
    }

    /**
     * [Utf8.isAscii] over bytes[start, start + count) eight bytes at a time: the OR of the
     * words (the last one overlapping the one before when count is not a multiple of 8) has
     * no high bit set. Shorter strings are tested byte by byte.
     */
    private fun isAsciiAt(start: Int, count: Int): Boolean {
        if (count < 8) return Utf8.isAscii(bytes, start, start + count)
        var bits = littleEndian.getLong(start + count - 8)
        var i = start
        val lastWord = start + count - 8
        while (i < lastWord) {
            bits = bits or littleEndian.getLong(i)
            i += 8
        }
        return bits and HIGH_BITS == 0L
    }

    private fun int32At(p: Int): Int = littleEndian.getInt(p)

    private fun int64At(p: Int): Long = littleEndian.getLong(p)

    companion object {
        /**
         * Typed lists with at least this many elements use the bulk ByteBuffer path; below
         * it, wrapping costs more than the loop saves.
         */
        const val BULK_MIN_ELEMENTS = 16

        /** The high bit of each byte of a word (0x8080808080808080). */
        private const val HIGH_BITS = -0x7f7f7f7f7f7f7f80L
    }
}
