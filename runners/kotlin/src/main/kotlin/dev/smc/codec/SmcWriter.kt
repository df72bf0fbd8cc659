package dev.smc.codec

/**
 * A growable little-endian byte sink for one encode call. [size] is the offset from the
 * first byte written, which is what alignment counts from (spec §3.1). [write] mirrors
 * ByteArrayOutputStream.write(int) so Pigeon-generated `stream.write(129)` ports unchanged.
 */
class SmcWriter(initialCapacity: Int = 64) {
    private var buf = ByteArray(if (initialCapacity < 16) 16 else initialCapacity)

    var size: Int = 0
        private set

    private fun ensure(extra: Int) {
        val needed = size + extra
        if (needed < 0) throw OutOfMemoryError("encoded message larger than 2 GiB")
        if (needed <= buf.size) return
        var cap = buf.size * 2
        if (cap < needed || cap < 0) cap = needed
        buf = buf.copyOf(cap)
    }

    /** Writes the low 8 bits of [b]. */
    fun write(b: Int) {
        ensure(1)
        buf[size++] = b.toByte()
    }

    fun writeInt32LE(v: Int) {
        ensure(4)
        putInt32(size, v)
        size += 4
    }

    fun writeInt64LE(v: Long) {
        ensure(8)
        putInt32(size, v.toInt())
        putInt32(size + 4, (v ushr 32).toInt())
        size += 8
    }

    fun writeBytes(src: ByteArray, offset: Int = 0, count: Int = src.size) {
        ensure(count)
        System.arraycopy(src, offset, buf, size, count)
        size += count
    }

    /** Zero padding up to a multiple of [alignment] (spec §3.2: always 0x00). */
    fun writePadding(alignment: Int) {
        val pad = (-size) and (alignment - 1)
        ensure(pad)
        for (i in 0 until pad) buf[size++] = 0
    }

    fun writeIntArray(values: IntArray) {
        ensure(4 * values.size)
        for (v in values) {
            putInt32(size, v)
            size += 4
        }
    }

    fun writeLongArray(values: LongArray) {
        ensure(8 * values.size)
        for (v in values) {
            putInt32(size, v.toInt())
            putInt32(size + 4, (v ushr 32).toInt())
            size += 8
        }
    }

    /** Raw bits (doubleToRawLongBits): NaN payloads survive, unlike Java's codec. */
    fun writeDoubleArray(values: DoubleArray) {
        ensure(8 * values.size)
        for (v in values) {
            val bits = java.lang.Double.doubleToRawLongBits(v)
            putInt32(size, bits.toInt())
            putInt32(size + 4, (bits ushr 32).toInt())
            size += 8
        }
    }

    fun writeFloatArray(values: FloatArray) {
        ensure(4 * values.size)
        for (v in values) {
            putInt32(size, java.lang.Float.floatToRawIntBits(v))
            size += 4
        }
    }

    /** Writes [s] as UTF-8; [byteCount] is Utf8.encodedLength(s), already checked. */
    fun writeUtf8(s: String, byteCount: Int) {
        ensure(byteCount)
        size = Utf8.encodeInto(s, buf, size)
    }

    fun toByteArray(): ByteArray = buf.copyOf(size)

    private fun putInt32(p: Int, v: Int) {
        buf[p] = v.toByte()
        buf[p + 1] = (v shr 8).toByte()
        buf[p + 2] = (v shr 16).toByte()
        buf[p + 3] = (v shr 24).toByte()
    }
}
