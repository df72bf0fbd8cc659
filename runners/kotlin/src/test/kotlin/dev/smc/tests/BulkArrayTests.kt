package dev.smc.tests

import dev.smc.codec.DecodeMode
import dev.smc.codec.SmcException
import dev.smc.codec.SmcReader
import dev.smc.codec.SmcWriter
import dev.smc.codec.StandardMessageCodec
import dev.smc.runner.Hex

/**
 * Typed lists (spec §6) on both sides of SmcReader.BULK_MIN_ELEMENTS, where the codec switches
 * from an element loop to ByteBuffer bulk copies. Expected bytes are built here by shifting
 * bits, independently of the codec; floats are compared as raw bits so NaN payloads
 * (signalling ones included) and -0.0 must survive exactly (spec §4.3).
 */
object BulkArrayTests {
    private val codec = StandardMessageCodec()

    // Written as hex text so each pattern reads as what it is.
    private val DOUBLE_BITS = listOf(
        "7ff0000000000001", // signalling NaN, lowest payload
        "7ff4000000000000", // signalling NaN
        "fff8000000000123", // negative quiet NaN with a payload
        "8000000000000000", // -0.0
        "7ff8000000000000", // the canonical quiet NaN
        "0000000000000001", // smallest subnormal
        "ffffffffffffffff", // NaN, every payload bit set
        "3ff0000000000000" // 1.0
    ).map { java.lang.Long.parseUnsignedLong(it, 16) }

    private val FLOAT_BITS = listOf(
        "7f800001", // signalling NaN
        "7fa00000", // signalling NaN
        "fffc0123", // negative quiet NaN with a payload
        "80000000", // -0.0f
        "7fc00000", // the canonical quiet NaN
        "00000001", // smallest subnormal
        "ffffffff", // NaN, every payload bit set
        "3f800000" // 1.0f
    ).map { java.lang.Integer.parseUnsignedInt(it, 16) }

    fun run(t: Check) {
        val b = SmcReader.BULK_MIN_ELEMENTS
        for (n in intArrayOf(0, 3, b - 1, b, b + 1, 64, 300)) {
            doubles(t, n)
            floats(t, n)
            ints(t, n)
            longs(t, n)
        }
        truncatedBulk(t)
        directReaderCalls(t)
        writerHandOver(t)
    }

    // ---- expected wire bytes (spec §2.1 little-endian, §2.2 sizes, §3 padding, §6) ----

    private fun sizeBytes(n: Int): List<Int> = when {
        n < 254 -> listOf(n)
        n <= 0xffff -> listOf(254, n and 0xff, n shr 8)
        else -> listOf(255, n and 0xff, (n shr 8) and 0xff, (n shr 16) and 0xff, n ushr 24)
    }

    /** [prefix] then a typed list of [elements] (each [width] bytes, as a little-endian Long). */
    private fun typedList(prefix: List<Int>, tag: Int, width: Int, elements: LongArray): ByteArray {
        val out = ArrayList<Int>(prefix)
        out.add(tag)
        out.addAll(sizeBytes(elements.size))
        while (out.size % width != 0) out.add(0) // padding counts from the message start
        for (e in elements) for (i in 0 until width) out.add(((e ushr (8 * i)) and 0xff).toInt())
        return ByteArray(out.size) { out[it].toByte() }
    }

    /** [bytes] at index [shift] of a larger array, with slack after it. */
    private fun placed(bytes: ByteArray, shift: Int): ByteArray {
        val buffer = ByteArray(shift + bytes.size + 7) { 0x55 }
        System.arraycopy(bytes, 0, buffer, shift, bytes.size)
        return buffer
    }

    /** The list ["abc", array]: the array's tag sits at offset 7, so its padding is not 0. */
    private val LIST_PREFIX = listOf(0x0c, 2, 0x07, 3, 0x61, 0x62, 0x63)

    /**
     * Encodes [value] alone and inside a list, compares with the hand-built bytes, then decodes
     * both at several array shifts (so the bulk copy starts at every address alignment) and
     * hands each decoded array to [sameBits].
     */
    private fun check(t: Check, name: String, value: Any, tag: Int, width: Int, elements: LongArray, sameBits: (Any?) -> Boolean) {
        val alone = typedList(emptyList(), tag, width, elements)
        val inList = typedList(LIST_PREFIX, tag, width, elements)
        t.equal("$name encode", Hex.encode(alone), Hex.encode(codec.encodeMessage(value)))
        t.equal("$name encode in list", Hex.encode(inList), Hex.encode(codec.encodeMessage(listOf("abc", value))))
        for (shift in intArrayOf(0, 1, 3, 5)) {
            for (mode in DecodeMode.values()) {
                val a = codec.decodeMessage(placed(alone, shift), shift, alone.size, mode)
                t.isTrue("$name decode shift $shift $mode", sameBits(a), "bits differ")
                val l = codec.decodeMessage(placed(inList, shift), shift, inList.size, mode) as List<*>
                t.isTrue("$name decode in list shift $shift $mode", l.size == 2 && l[0] == "abc" && sameBits(l[1]), "bits differ")
            }
        }
    }

    private fun doubles(t: Check, n: Int) {
        val bits = LongArray(n) { if (it < DOUBLE_BITS.size) DOUBLE_BITS[it] else java.lang.Double.doubleToRawLongBits(it * -0.5) }
        val value = DoubleArray(n) { java.lang.Double.longBitsToDouble(bits[it]) }
        // Guard the fixture itself: the JVM must hand the patterns through unchanged.
        t.isTrue("f64 fixture $n keeps bits", (0 until n).all { java.lang.Double.doubleToRawLongBits(value[it]) == bits[it] })
        check(t, "f64s[$n]", value, 0x0b, 8, bits) { d ->
            d is DoubleArray && d.size == n && (0 until n).all { java.lang.Double.doubleToRawLongBits(d[it]) == bits[it] }
        }
    }

    private fun floats(t: Check, n: Int) {
        val bits = IntArray(n) { if (it < FLOAT_BITS.size) FLOAT_BITS[it] else java.lang.Float.floatToRawIntBits(it * -0.25f) }
        val value = FloatArray(n) { java.lang.Float.intBitsToFloat(bits[it]) }
        t.isTrue("f32 fixture $n keeps bits", (0 until n).all { java.lang.Float.floatToRawIntBits(value[it]) == bits[it] })
        check(t, "f32s[$n]", value, 0x0e, 4, LongArray(n) { bits[it].toLong() }) { d ->
            d is FloatArray && d.size == n && (0 until n).all { java.lang.Float.floatToRawIntBits(d[it]) == bits[it] }
        }
    }

    private fun ints(t: Check, n: Int) {
        val value = IntArray(n) { if (it % 3 == 0) Int.MIN_VALUE + it else -it * 0x01020304 }
        check(t, "i32s[$n]", value, 0x09, 4, LongArray(n) { value[it].toLong() }) { d ->
            d is IntArray && d.contentEquals(value)
        }
    }

    private fun longs(t: Check, n: Int) {
        val value = LongArray(n) { if (it % 3 == 0) Long.MIN_VALUE + it else -it * 0x0102030405060708L }
        check(t, "i64s[$n]", value, 0x0a, 8, value) { d -> d is LongArray && d.contentEquals(value) }
    }

    /** spec §14.1, §14.3: a bulk-sized list one byte short is `truncated` at the input length. */
    private fun truncatedBulk(t: Check) {
        val n = SmcReader.BULK_MIN_ELEMENTS * 2
        for ((tag, width) in listOf(0x09 to 4, 0x0a to 8, 0x0b to 8, 0x0e to 4)) {
            val full = typedList(emptyList(), tag, width, LongArray(n) { it.toLong() })
            val short = full.copyOf(full.size - 1)
            for (shift in intArrayOf(0, 3)) {
                val got = try {
                    codec.decodeMessage(placed(short, shift), shift, short.size)
                    "decoded"
                } catch (e: SmcException) {
                    Cases.errorText(e)
                }
                t.equal("tag %02x x$n one byte short, shift $shift".format(tag), "error truncated @${short.size}", got)
            }
        }
    }

    /** A custom codec's hook may call the reader directly: a count past the input is refused. */
    private fun directReaderCalls(t: Check) {
        val reader = SmcReader(ByteArray(40), 4, 32, DecodeMode.FLUTTER, 128)
        val got = try {
            reader.readDoubleArray(5)
            "read"
        } catch (e: SmcException) {
            Cases.errorText(e)
        }
        t.equal("readDoubleArray past the slice", "error truncated @32", got)
        t.equal("reader position unchanged after refusal", 0, reader.position)
        val negative = try {
            reader.readIntArray(-1)
            "read"
        } catch (e: IllegalArgumentException) {
            "refused"
        }
        t.equal("readIntArray(-1)", "refused", negative)
        t.equal("readLongArray(4) fills the slice", 4, reader.readLongArray(4).size)
    }

    /** toByteArray hands over a full buffer once; the caller's array never changes afterwards. */
    private fun writerHandOver(t: Check) {
        val w = SmcWriter(16)
        w.writeDoubleArray(DoubleArray(2) { 1.0 })
        val first = w.toByteArray()
        val second = w.toByteArray()
        t.isTrue("second toByteArray is a copy", first !== second && first.contentEquals(second))
        val before = first.copyOf()
        w.write(0x7f)
        w.writeInt64LE(-1L)
        t.isTrue("writes after hand-over leave the returned array alone", first.contentEquals(before))
        val third = w.toByteArray()
        t.equal("writer continues after hand-over", Hex.encode(before) + "7f" + "ff".repeat(8), Hex.encode(third))
        first[0] = 9
        t.equal("caller's edit does not reach the writer", Hex.encode(third), Hex.encode(w.toByteArray()))
    }
}
