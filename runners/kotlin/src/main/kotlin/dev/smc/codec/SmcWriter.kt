package dev.smc.codec

import java.nio.ByteBuffer
import java.nio.ByteOrder

/**
 * A growable little-endian byte sink for one encode call. [size] is the offset from the
 * first byte written, which is what alignment counts from (spec §3.1). [write] mirrors
 * ByteArrayOutputStream.write(int) so Pigeon-generated `stream.write(129)` ports unchanged.
 */
class SmcWriter(initialCapacity: Int = 64) {
    private var buf = ByteArray(if (initialCapacity < 16) 16 else initialCapacity)

    /**
     * [buf] as little-endian numbers (spec §2.1): the JIT turns putInt/putLong into one
     * unaligned store, where four or eight byte stores each had their own bounds check.
     * Made again whenever [buf] is replaced.
     */
    private var littleEndian: ByteBuffer = wrapLittleEndian(buf)

    var size: Int = 0
        private set

    /** [buf] was returned by [toByteArray] and is the caller's now: never return it again. */
    private var handedOver = false

    private fun ensure(extra: Int) {
        val needed = size + extra
        if (needed < 0) throw OutOfMemoryError("encoded message larger than 2 GiB")
        if (needed <= buf.size) return
        var cap = buf.size * 2
        if (cap < needed || cap < 0) cap = needed
        setBuffer(buf.copyOf(cap))
        handedOver = false
    }

    private fun setBuffer(b: ByteArray) {
        buf = b
        littleEndian = wrapLittleEndian(b)
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
        putInt64(size, v)
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

    // Typed lists (spec §6), after the caller's padding: capacity is ensured once, then short
    // lists are written element by element and longer ones through a little-endian ByteBuffer
    // view over [buf] at [size], whose bulk put is one memory copy on current JDKs (raw bits:
    // NaN payloads survive, spec §4.3, unlike Java's codec) and an element loop on JRE 8.

    fun writeIntArray(values: IntArray) {
        val byteCount = byteCountOf(values.size, 4)
        ensure(byteCount)
        if (values.size >= SmcReader.BULK_MIN_ELEMENTS) {
            littleEndianView(byteCount).asIntBuffer().put(values)
        } else {
            var p = size
            for (v in values) {
                putInt32(p, v)
                p += 4
            }
        }
        size += byteCount
    }

    fun writeLongArray(values: LongArray) {
        val byteCount = byteCountOf(values.size, 8)
        ensure(byteCount)
        if (values.size >= SmcReader.BULK_MIN_ELEMENTS) {
            littleEndianView(byteCount).asLongBuffer().put(values)
        } else {
            var p = size
            for (v in values) {
                putInt64(p, v)
                p += 8
            }
        }
        size += byteCount
    }

    fun writeDoubleArray(values: DoubleArray) {
        val byteCount = byteCountOf(values.size, 8)
        ensure(byteCount)
        if (values.size >= SmcReader.BULK_MIN_ELEMENTS) {
            littleEndianView(byteCount).asDoubleBuffer().put(values)
        } else {
            var p = size
            for (v in values) {
                putInt64(p, java.lang.Double.doubleToRawLongBits(v))
                p += 8
            }
        }
        size += byteCount
    }

    fun writeFloatArray(values: FloatArray) {
        val byteCount = byteCountOf(values.size, 4)
        ensure(byteCount)
        if (values.size >= SmcReader.BULK_MIN_ELEMENTS) {
            littleEndianView(byteCount).asFloatBuffer().put(values)
        } else {
            var p = size
            for (v in values) {
                putInt32(p, java.lang.Float.floatToRawIntBits(v))
                p += 4
            }
        }
        size += byteCount
    }

    /** buf[size, size + byteCount) as a little-endian buffer (spec §2.1); capacity ensured. */
    private fun littleEndianView(byteCount: Int): ByteBuffer =
        ByteBuffer.wrap(buf, size, byteCount).order(ByteOrder.LITTLE_ENDIAN)

    /** [count] × [elementSize] as an Int; a product past 2^31 − 1 cannot be an array. */
    private fun byteCountOf(count: Int, elementSize: Int): Int {
        val bytes = count.toLong() * elementSize
        if (bytes > Int.MAX_VALUE) throw OutOfMemoryError("encoded message larger than 2 GiB")
        return bytes.toInt()
    }

    /** Writes [s] as UTF-8; [byteCount] is Utf8.encodedLength(s), already checked. */
    fun writeUtf8(s: String, byteCount: Int) {
        ensure(byteCount)
        size = Utf8.encodeInto(s, buf, size)
    }

    /** The shortest size form (spec §2.2, §13); sizes above 2^32−1 are not encodable. */
    fun writeSize(n: Long) {
        when {
            n < 0 || n > 0xffffffffL -> throw SmcException(
                ErrorClass.NOT_ENCODABLE, SmcException.NO_OFFSET,
                "size $n outside 0..2^32-1 (spec §15.2)"
            )
            n < 254 -> write(n.toInt())
            n <= 0xffff -> {
                ensure(3)
                buf[size] = 254.toByte()
                buf[size + 1] = n.toByte()
                buf[size + 2] = (n shr 8).toByte()
                size += 3
            }
            else -> {
                write(255)
                writeInt32LE(n.toInt())
            }
        }
    }

    // ---- typed writes, for generated code: one field from its type, null as 00 ----

    fun putNull() = write(StandardMessageCodec.NULL)

    fun putBoolean(value: Boolean?) =
        write(if (value == null) StandardMessageCodec.NULL else if (value) StandardMessageCodec.TRUE else StandardMessageCodec.FALSE)

    fun putInt(value: Int?) {
        if (value == null) return putNull()
        ensure(5)
        buf[size] = StandardMessageCodec.INT32.toByte()
        putInt32(size + 1, value)
        size += 5
    }

    fun putLong(value: Long?) {
        if (value == null) return putNull()
        ensure(9)
        buf[size] = StandardMessageCodec.INT64.toByte()
        putInt64(size + 1, value)
        size += 9
    }

    /** Raw bits: NaN payloads survive (spec §4.3); Java's codec canonicalises them. */
    fun putDouble(value: Double?) {
        if (value == null) return putNull()
        putFloat64(value)
    }

    /**
     * A float64 from a non-null field, unboxed: tag, padding, payload behind one capacity
     * check; the padding (at most 7 bytes) zeroed with one 8-byte store the payload then
     * partly overwrites.
     */
    fun putDouble(value: Double) = putFloat64(value)

    private fun putFloat64(value: Double) {
        ensure(16)
        val p = size
        buf[p] = StandardMessageCodec.FLOAT64.toByte()
        littleEndian.putLong(p + 1, 0L)
        val at = p + 1 + ((-(p + 1)) and 7)
        littleEndian.putLong(at, java.lang.Double.doubleToRawLongBits(value))
        size = at + 8
    }

    /**
     * Tag 7, size, UTF-8 (spec §5). A lone surrogate has no UTF-8 form (spec §5.3: encoders
     * MUST write well-formed UTF-8), so it is not_encodable rather than replaced. Strings of
     * up to 84 chars (at most 252 bytes: a one-byte size) are written in one pass with the
     * size filled in afterwards; longer ones are measured first.
     */
    fun putString(value: String?) {
        if (value == null) return putNull()
        val n = value.length
        if (n <= 84) {
            ensure(2 + 3 * n)
            buf[size] = StandardMessageCodec.STRING.toByte()
            val start = size + 2
            val end = encodeShort(value, n, start)
            buf[size + 1] = (end - start).toByte()
            size = end
            return
        }
        val byteCount = Utf8.encodedLength(value)
        write(StandardMessageCodec.STRING)
        writeSize(byteCount.toLong())
        writeUtf8(value, byteCount)
    }

    /**
     * A short string char by char: its ASCII prefix stored as it is read, the rest (if any)
     * by [Utf8.encodeCheckedInto] in one pass; returns the end offset. Copying an ASCII
     * string with `String.getBytes(int, int, byte[], int)` after a loop proving its chars
     * below 0x80 was faster alone on strings of 8 chars or more and slower in the records'
     * encode (bench/README.md, issue #33 seventh round).
     */
    private fun encodeShort(value: String, n: Int, start: Int): Int {
        var p = start
        var i = 0
        while (i < n) {
            val c = value[i]
            if (c >= '\u0080') break
            buf[p++] = (c - '\u0000').toByte()
            i++
        }
        return if (i < n) Utf8.encodeCheckedInto(value, i, buf, p) else p
    }

    fun putByteArray(value: ByteArray?) {
        if (value == null) return putNull()
        write(StandardMessageCodec.UINT8_LIST)
        writeSize(value.size.toLong())
        writeBytes(value)
    }

    fun putIntArray(value: IntArray?) {
        if (value == null) return putNull()
        write(StandardMessageCodec.INT32_LIST)
        writeSize(value.size.toLong())
        writePadding(4)
        writeIntArray(value)
    }

    fun putLongArray(value: LongArray?) {
        if (value == null) return putNull()
        write(StandardMessageCodec.INT64_LIST)
        writeSize(value.size.toLong())
        writePadding(8)
        writeLongArray(value)
    }

    fun putDoubleArray(value: DoubleArray?) {
        if (value == null) return putNull()
        write(StandardMessageCodec.FLOAT64_LIST)
        writeSize(value.size.toLong())
        writePadding(8)
        writeDoubleArray(value)
    }

    fun putFloatArray(value: FloatArray?) {
        if (value == null) return putNull()
        write(StandardMessageCodec.FLOAT32_LIST)
        writeSize(value.size.toLong())
        writePadding(4)
        writeFloatArray(value)
    }

    /** The header of a List of [count] elements (spec §7.1); exactly [count] values follow. */
    fun putListHeader(count: Int) = putHeader(StandardMessageCodec.LIST, count)

    /** The header of a Map of [count] entries (spec §7.2); exactly [count] pairs follow. */
    fun putMapHeader(count: Int) = putHeader(StandardMessageCodec.MAP, count)

    /** [tag] and the size [count]: a one-byte size behind one capacity check (spec §2.2). */
    private fun putHeader(tag: Int, count: Int) {
        if (count in 0..253) {
            ensure(2)
            buf[size] = tag.toByte()
            buf[size + 1] = count.toByte()
            size += 2
            return
        }
        write(tag)
        writeSize(count.toLong())
    }

    /**
     * The bytes written so far. When the buffer is exactly full (as after one bulk array,
     * whose growth is sized to fit) it is handed over without a copy; that is safe because
     * no write ever changes bytes below [size], and any later write grows into a new array
     * first (the buffer is full). A second call, or a call after more writes, copies.
     */
    fun toByteArray(): ByteArray {
        if (size == buf.size && !handedOver) {
            handedOver = true
            return buf
        }
        return buf.copyOf(size)
    }

    /** True while an encode call of this thread uses this (reusable) writer. */
    private var inUse = false

    /**
     * The bytes written as a new array of exactly [size] bytes (one copy), after which this
     * thread's writer is free for the next encode call; see [acquire].
     */
    @PublishedApi
    internal fun finish(): ByteArray {
        val out = buf.copyOf(size)
        release()
        return out
    }

    /** Frees this thread's writer without taking the bytes (an encode call that failed). */
    @PublishedApi
    internal fun release() {
        inUse = false
        size = 0
        if (buf.size > KEEP_MAX) setBuffer(ByteArray(INITIAL))
    }

    companion object {
        private const val INITIAL = 256

        /** The largest buffer a thread keeps between encode calls (4 MiB). */
        private const val KEEP_MAX = 4 shl 20

        private val scratch = ThreadLocal<SmcWriter>()

        /**
         * A writer for one encode call: this thread's reusable one when it is free, else a
         * new one (a nested encode from inside a custom writeValue). Reusing one buffer saves
         * the growth copies of every message (64 bytes doubling up to the message size) and
         * keeps the writes in memory that is still in cache; [finish] copies the result out,
         * so no caller ever shares the buffer.
         */
        @PublishedApi
        internal fun acquire(): SmcWriter {
            val w = scratch.get()
            if (w != null && !w.inUse) {
                w.inUse = true
                return w
            }
            val fresh = SmcWriter(INITIAL)
            fresh.inUse = true
            if (w == null) scratch.set(fresh)
            return fresh
        }

        /**
         * Runs [body] with a writer from [acquire] and returns the bytes it wrote: how the
         * codec's encode entry points (and a generated codec's) get their writer.
         */
        inline fun encode(body: (SmcWriter) -> Unit): ByteArray {
            val w = acquire()
            try {
                body(w)
            } catch (e: Throwable) {
                w.release()
                throw e
            }
            return w.finish()
        }
    }

    private fun putInt64(p: Int, v: Long) {
        littleEndian.putLong(p, v)
    }

    private fun putInt32(p: Int, v: Int) {
        littleEndian.putInt(p, v)
    }
}

private fun wrapLittleEndian(b: ByteArray): ByteBuffer = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN)
