package dev.smc.codec

/**
 * UTF-8 exactly as RFC 3629 defines it (spec §5.3). The JDK decoder is not used for
 * validation because it replaces ill-formed input with U+FFFD instead of failing.
 */
object Utf8 {
    /**
     * The index of the first byte of the first ill-formed subsequence in bytes[start, end),
     * or -1 when the range is well-formed: no stray continuation bytes, no overlong forms,
     * no encoded surrogates (U+D800..U+DFFF), nothing above U+10FFFF, no cut-off sequence.
     */
    fun firstIllFormed(bytes: ByteArray, start: Int, end: Int): Int {
        var i = start
        while (i < end) {
            val b0 = bytes[i].toInt() and 0xff
            if (b0 < 0x80) {
                i++
                continue
            }
            val lead = i
            // The allowed range of the second byte depends on the lead byte (RFC 3629 §4).
            val length: Int
            var lo = 0x80
            var hi = 0xbf
            when {
                b0 in 0xc2..0xdf -> length = 2
                b0 == 0xe0 -> { length = 3; lo = 0xa0 }
                b0 in 0xe1..0xec || b0 == 0xee || b0 == 0xef -> length = 3
                b0 == 0xed -> { length = 3; hi = 0x9f }
                b0 == 0xf0 -> { length = 4; lo = 0x90 }
                b0 in 0xf1..0xf3 -> length = 4
                b0 == 0xf4 -> { length = 4; hi = 0x8f }
                else -> return lead
            }
            if (lead + length > end) return lead
            val b1 = bytes[lead + 1].toInt() and 0xff
            if (b1 < lo || b1 > hi) return lead
            for (k in 2 until length) {
                val bk = bytes[lead + k].toInt() and 0xff
                if (bk < 0x80 || bk > 0xbf) return lead
            }
            i = lead + length
        }
        return -1
    }

    /** True when bytes[start, end) is all ASCII (so well-formed UTF-8). */
    fun isAscii(bytes: ByteArray, start: Int, end: Int): Boolean {
        var bits = 0
        for (i in start until end) bits = bits or bytes[i].toInt()
        return bits >= 0
    }

    /**
     * A string of bytes all below 0x80 (ASCII is ISO-8859-1 too). The JDK's hibyte
     * constructor makes a Latin-1 string with one array copy and no charset dispatch (the
     * Charset constructor costs more than the copy for short strings); the UTF-8 decoder
     * would scan the bytes once more first.
     */
    @Suppress("DEPRECATION", "PLATFORM_CLASS_MAPPED_TO_KOTLIN")
    fun latin1String(bytes: ByteArray, start: Int, count: Int): String =
        java.lang.String(bytes, 0, start, count) as String

    /** Decodes bytes already checked by [firstIllFormed]; the JDK decoder is exact on them. */
    fun decodeWellFormed(bytes: ByteArray, start: Int, count: Int): String =
        String(bytes, start, count, Charsets.UTF_8)

    /**
     * The UTF-8 byte count of [s]. A lone surrogate has no UTF-8 form (spec §5.3: encoders
     * MUST write well-formed UTF-8), so it is `not_encodable` rather than replaced.
     */
    fun encodedLength(s: String): Int {
        val n = s.length
        var i = 0
        // ASCII prefix: one byte per char (charAt is cheaper than codePointAt).
        while (i < n && s[i] < '\u0080') i++
        var total = i.toLong()
        while (i < n) {
            val cp = s.codePointAt(i)
            when {
                cp < 0x80 -> { total += 1; i += 1 }
                cp < 0x800 -> { total += 2; i += 1 }
                cp in 0xd800..0xdfff -> throw loneSurrogate(i)
                cp < 0x10000 -> { total += 3; i += 1 }
                else -> { total += 4; i += 2 }
            }
        }
        if (total > Int.MAX_VALUE) {
            throw SmcException(
                ErrorClass.NOT_ENCODABLE, SmcException.NO_OFFSET,
                "string of $total UTF-8 bytes does not fit a JVM array"
            )
        }
        return total.toInt()
    }

    /**
     * Writes s[from, s.length) into [out] at [pos] (room for 3 bytes per char is there);
     * returns the end offset. A lone surrogate is not_encodable, as in [encodedLength]; the
     * bytes already stored past [pos] are then garbage the caller does not count.
     *
     * One pass over the chars, a surrogate pair joined by hand: a first pass that checked
     * the surrogates with `codePointAt` before encoding cost a fifth of a short non-ASCII
     * string's encode (bench/README.md, issue #33 seventh round).
     */
    fun encodeCheckedInto(s: String, from: Int, out: ByteArray, pos: Int): Int {
        var p = pos
        var i = from
        val n = s.length
        while (i < n) {
            val c = s[i] - '\u0000'
            if (c < 0x80) {
                out[p++] = c.toByte()
            } else if (c < 0x800) {
                out[p++] = (0xc0 or (c shr 6)).toByte()
                out[p++] = (0x80 or (c and 0x3f)).toByte()
            } else if (c < 0xd800 || c > 0xdfff) {
                out[p++] = (0xe0 or (c shr 12)).toByte()
                out[p++] = (0x80 or ((c shr 6) and 0x3f)).toByte()
                out[p++] = (0x80 or (c and 0x3f)).toByte()
            } else {
                // A high surrogate (D800..DBFF) followed by a low one (DC00..DFFF), else lone.
                val low = if (c <= 0xdbff && i + 1 < n) s[i + 1] - '\u0000' else -1
                if (low < 0xdc00 || low > 0xdfff) throw loneSurrogate(i)
                val cp = 0x10000 + ((c - 0xd800) shl 10) + (low - 0xdc00)
                out[p++] = (0xf0 or (cp shr 18)).toByte()
                out[p++] = (0x80 or ((cp shr 12) and 0x3f)).toByte()
                out[p++] = (0x80 or ((cp shr 6) and 0x3f)).toByte()
                out[p++] = (0x80 or (cp and 0x3f)).toByte()
                i++
            }
            i++
        }
        return p
    }

    private fun loneSurrogate(index: Int): SmcException = SmcException(
        ErrorClass.NOT_ENCODABLE, SmcException.NO_OFFSET,
        "string has a lone surrogate at index $index; UTF-8 cannot carry it (spec §5.3)"
    )

    /** Writes [s] (checked by [encodedLength]) into [out] at [pos]; returns the end offset. */
    fun encodeInto(s: String, out: ByteArray, pos: Int): Int = encodeInto(s, 0, out, pos)

    /** Writes s[from, s.length), checked, into [out] at [pos]; returns the end offset. */
    fun encodeInto(s: String, from: Int, out: ByteArray, pos: Int): Int {
        var p = pos
        var i = from
        val n = s.length
        while (i < n) {
            val c = s[i]
            if (c >= '\u0080') break
            out[p++] = (c - '\u0000').toByte()
            i++
        }
        while (i < n) {
            val cp = s.codePointAt(i)
            if (cp < 0x80) {
                out[p++] = cp.toByte()
                i += 1
            } else if (cp < 0x800) {
                out[p++] = (0xc0 or (cp shr 6)).toByte()
                out[p++] = (0x80 or (cp and 0x3f)).toByte()
                i += 1
            } else if (cp < 0x10000) {
                out[p++] = (0xe0 or (cp shr 12)).toByte()
                out[p++] = (0x80 or ((cp shr 6) and 0x3f)).toByte()
                out[p++] = (0x80 or (cp and 0x3f)).toByte()
                i += 1
            } else {
                out[p++] = (0xf0 or (cp shr 18)).toByte()
                out[p++] = (0x80 or ((cp shr 12) and 0x3f)).toByte()
                out[p++] = (0x80 or ((cp shr 6) and 0x3f)).toByte()
                out[p++] = (0x80 or (cp and 0x3f)).toByte()
                i += 2
            }
        }
        return p
    }
}
