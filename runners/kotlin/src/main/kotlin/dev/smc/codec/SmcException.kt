package dev.smc.codec

/**
 * The error classes of spec/errors.md §14.1, spelled exactly as the judge compares them.
 */
object ErrorClass {
    const val TRUNCATED = "truncated"
    const val TRAILING_BYTES = "trailing_bytes"
    const val UNKNOWN_TAG = "unknown_tag"
    const val BAD_UTF8 = "bad_utf8"
    const val DEPTH_LIMIT = "depth_limit"
    const val NOT_CANONICAL = "not_canonical"
    const val BAD_ENVELOPE = "bad_envelope"
    const val NOT_ENCODABLE = "not_encodable"
    const val BAD_NOTATION = "bad_notation"
}

/**
 * Every rejection by the codec: one class and one byte offset from the first byte of the
 * entry point's input (spec §14). Encoder errors have no offset ([NO_OFFSET]).
 */
class SmcException(
    val errorClass: String,
    val offset: Int,
    message: String
) : RuntimeException(message) {
    companion object {
        const val NO_OFFSET = -1
    }
}

/**
 * A well-formed value of another wire type than a typed read expects (a schema error, not a
 * malformed message): [offset] is the value's tag, [tag] the tag found.
 */
class SmcTypeException(
    val offset: Int,
    val tag: Int,
    val expected: String
) : RuntimeException("tag 0x%02x at offset %d, expected %s or null".format(tag, offset, expected))
