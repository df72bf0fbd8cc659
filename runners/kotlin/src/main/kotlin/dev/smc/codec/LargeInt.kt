package dev.smc.codec

import java.math.BigInteger

/**
 * A decoded tag-5 value (spec §4.4). Flutter's Android codec turns the payload into
 * `BigInteger(text, 16)`; the payload is kept verbatim here because the notation reports the
 * text itself and because the text need not be valid hex (then [value] is null).
 * Encoding a LargeInt is refused with `not_encodable` (tag 5 is never written).
 */
class LargeInt(val text: String) {
    /** The number Java's codec would produce, or null when the text is not a hex integer. */
    val value: BigInteger? = parseHex(text)

    override fun equals(other: Any?): Boolean = other is LargeInt && other.text == text
    override fun hashCode(): Int = text.hashCode()
    override fun toString(): String = "LargeInt($text)"

    private companion object {
        fun parseHex(text: String): BigInteger? =
            try {
                BigInteger(text, 16)
            } catch (e: NumberFormatException) {
                null
            }
    }
}
