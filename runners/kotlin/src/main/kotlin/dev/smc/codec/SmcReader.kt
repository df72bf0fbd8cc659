package dev.smc.codec

/**
 * A cursor over bytes[base, base + length) — one entry point's input. Every position and
 * every error offset is relative to [base], so alignment is counted from the message start
 * (spec §3.1) whatever the slice's place in the array. Little-endian reads are written out by
 * hand (spec §2.1); there is no ByteBuffer, no address-based alignment.
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
        val p = base + position
        position += count
        return bytes.copyOfRange(p, p + count)
    }

    fun readIntArray(count: Int): IntArray {
        val out = IntArray(count)
        var p = base + position
        for (i in 0 until count) {
            out[i] = int32At(p)
            p += 4
        }
        position += 4 * count
        return out
    }

    fun readLongArray(count: Int): LongArray {
        val out = LongArray(count)
        var p = base + position
        for (i in 0 until count) {
            out[i] = int64At(p)
            p += 8
        }
        position += 8 * count
        return out
    }

    fun readDoubleArray(count: Int): DoubleArray {
        val out = DoubleArray(count)
        var p = base + position
        for (i in 0 until count) {
            out[i] = java.lang.Double.longBitsToDouble(int64At(p))
            p += 8
        }
        position += 8 * count
        return out
    }

    fun readFloatArray(count: Int): FloatArray {
        val out = FloatArray(count)
        var p = base + position
        for (i in 0 until count) {
            out[i] = java.lang.Float.intBitsToFloat(int32At(p))
            p += 4
        }
        position += 4 * count
        return out
    }

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
}
