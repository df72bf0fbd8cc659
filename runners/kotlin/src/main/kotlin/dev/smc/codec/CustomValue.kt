package dev.smc.codec

/**
 * A custom value (tags 0x80..0xff, spec §8.1) kept generic: the tag and its one nested value.
 * Used by [CustomValueCodec] when no generated class is known for the tag.
 */
class CustomValue(val tag: Int, val value: Any?) {
    override fun toString(): String = "CustomValue($tag, $value)"
}

/**
 * A codec that reads and writes every custom tag 128..255 as a [CustomValue], through the
 * same hooks a Pigeon-generated Kotlin codec overrides. The conformance runner and the
 * benchmark use it; a generated codec replaces it (see README.md).
 */
open class CustomValueCodec(
    maxDepth: Int = DEFAULT_MAX_DEPTH,
    mapStyle: MapStyle = MapStyle.PAIRS
) : StandardMessageCodec(maxDepth, mapStyle) {

    override fun readValueOfType(type: Byte, reader: SmcReader): Any? {
        val tag = type.toInt() and 0xff
        if (tag >= FIRST_CUSTOM_TAG) return CustomValue(tag, readValue(reader))
        return super.readValueOfType(type, reader)
    }

    override fun writeValue(writer: SmcWriter, value: Any?) {
        if (value is CustomValue) {
            if (value.tag < FIRST_CUSTOM_TAG || value.tag > 0xff) {
                throw SmcException(
                    ErrorClass.NOT_ENCODABLE, SmcException.NO_OFFSET,
                    "custom tag ${value.tag} is outside 128..255 (spec §8.1)"
                )
            }
            writer.write(value.tag)
            writeValue(writer, value.value)
            return
        }
        super.writeValue(writer, value)
    }

    companion object {
        const val FIRST_CUSTOM_TAG = 0x80
    }
}
