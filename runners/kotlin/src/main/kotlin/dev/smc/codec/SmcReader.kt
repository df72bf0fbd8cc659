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
        val bad = Utf8.firstIllFormed(bytes, start, start + count)
        if (bad >= 0) {
            throw SmcException(
                ErrorClass.BAD_UTF8, bad - base,
                "$what is not well-formed UTF-8 (spec §5.3)"
            )
        }
        position += count
        return Utf8.decodeWellFormed(bytes, start, count)
    }

    private fun int32At(p: Int): Int =
        (bytes[p].toInt() and 0xff) or
            ((bytes[p + 1].toInt() and 0xff) shl 8) or
            ((bytes[p + 2].toInt() and 0xff) shl 16) or
            (bytes[p + 3].toInt() shl 24)

    private fun int64At(p: Int): Long =
        (int32At(p).toLong() and 0xffffffffL) or (int32At(p + 4).toLong() shl 32)

    companion object {
        /**
         * Typed lists with at least this many elements use the bulk ByteBuffer path; below
         * it, wrapping costs more than the loop saves.
         */
        const val BULK_MIN_ELEMENTS = 16
    }
}
