package dev.smc.tests

import dev.smc.codec.CustomValue
import dev.smc.codec.DecodeMode
import dev.smc.codec.MapStyle
import dev.smc.codec.SmcException
import dev.smc.codec.SmcReader
import dev.smc.codec.SmcWriter
import dev.smc.codec.StandardMessageCodec
import dev.smc.runner.Entries
import dev.smc.runner.Hex
import dev.smc.runner.HostAdapter
import dev.smc.runner.Json

// An example of what Pigeon (>= 26.0.5) generates for Kotlin, ported to this codec: the same
// overrides, with ByteBuffer -> SmcReader and ByteArrayOutputStream -> SmcWriter.
// spec §8.2: enums first (129), then classes (130); §8.4 classes as a field list;
// §8.5 Kotlin enums written as int64.

enum class ExampleColor(val raw: Int) {
    RED(0), GREEN(1), BLUE(2);

    companion object {
        fun ofRaw(raw: Int): ExampleColor? = values().firstOrNull { it.raw == raw }
    }
}

data class ExamplePoint(val x: Long, val y: Long, val label: String?, val color: ExampleColor?) {
    fun toList(): List<Any?> = listOf(x, y, label, color)

    companion object {
        fun fromList(list: List<Any?>): ExamplePoint =
            ExamplePoint(list[0] as Long, list[1] as Long, list[2] as String?, list[3] as ExampleColor?)
    }
}

class ExamplePigeonCodec : StandardMessageCodec(mapStyle = MapStyle.LINKED_HASH_MAP) {
    override fun readValueOfType(type: Byte, reader: SmcReader): Any? =
        when (type) {
            129.toByte() -> (readValue(reader) as Long?)?.let { ExampleColor.ofRaw(it.toInt()) }
            130.toByte() -> {
                @Suppress("UNCHECKED_CAST")
                (readValue(reader) as? List<Any?>)?.let { ExamplePoint.fromList(it) }
            }
            else -> super.readValueOfType(type, reader)
        }

    override fun writeValue(writer: SmcWriter, value: Any?) {
        when (value) {
            is ExampleColor -> {
                writer.write(129)
                writeValue(writer, value.raw.toLong())
            }
            is ExamplePoint -> {
                writer.write(130)
                writeValue(writer, value.toList())
            }
            else -> super.writeValue(writer, value)
        }
    }
}

/** What plugging the example codec into the runner takes: custom notation <-> generated types. */
object ExampleAdapter : HostAdapter {
    override fun toHost(custom: CustomValue): Any? =
        when (custom.tag) {
            129 -> ExampleColor.ofRaw((custom.value as Long).toInt())
            130 -> {
                @Suppress("UNCHECKED_CAST")
                ExamplePoint.fromList(custom.value as List<Any?>)
            }
            else -> custom
        }

    override fun toCustom(value: Any): CustomValue? =
        when (value) {
            is ExampleColor -> CustomValue(129, value.raw.toLong())
            is ExamplePoint -> CustomValue(130, value.toList())
            else -> null
        }
}

object PigeonExampleTests {
    fun run(t: Check) {
        val codec = ExamplePigeonCodec()
        // wire-format-notes §4.4: Kotlin enum index 1 with tag 129 is 81 04 0100000000000000.
        t.equal("enum encodes as int64", "81040100000000000000", Hex.encode(codec.encodeMessage(ExampleColor.GREEN)))
        t.equal("enum decodes", ExampleColor.GREEN, codec.decodeMessage(Hex.decode("81040100000000000000")))
        val point = ExamplePoint(1, -2, "x", ExampleColor.BLUE)
        val pointHex = "820c04" + "040100000000000000" + "04feffffffffffffff" + "070178" + "81040200000000000000"
        t.equal("data class encodes as field list", pointHex, Hex.encode(codec.encodeMessage(point)))
        t.equal("data class decodes", point, codec.decodeMessage(Hex.decode(pointHex)))
        val absent = ExamplePoint(0, 0, null, null)
        t.equal("nullable fields absent as 00", absent,
            codec.decodeMessage(codec.encodeMessage(absent)))
        // The same codec behind the runner's entry points (README: plugging a codec in).
        val entries = Entries(ExamplePigeonCodec(), ExampleAdapter)
        val notation = """["custom", 130, ["list", [["i64", "1"], ["i64", "-2"], ["str", "x"], ["custom", 129, ["i64", "2"]]]]]"""
        t.equal("plugged codec decodes to notation", Cases.canon(notation),
            Json.toText(entries.decode("message", Hex.decode(pointHex), 0, pointHex.length / 2, DecodeMode.FLUTTER)!!.value))
        t.equal("plugged codec encodes notation", pointHex, Hex.encode(entries.encode("message", Json.parse(notation))!!))
        // Generated codecs delegate unknown custom tags to super: unknown_tag at the tag.
        try {
            codec.decodeMessage(Hex.decode("0c01" + "8300"))
            t.fail("unhandled tag 131", "decoded")
        } catch (e: SmcException) {
            t.equal("unhandled tag 131", "error unknown_tag @2", Cases.errorText(e))
        }
        // Depth is enforced before the hook runs: custom values count as levels (spec §15.1).
        var value = codec.decodeMessage(Hex.decode("0c01".repeat(127) + "81040000000000000000"))
        for (level in 1..127) value = (value as List<*>)[0]
        t.equal("custom value at level 128", ExampleColor.RED, value)
        try {
            codec.decodeMessage(Hex.decode("0c01".repeat(128) + "81040000000000000000"))
            t.fail("custom value at level 129", "decoded")
        } catch (e: SmcException) {
            t.equal("custom value at level 129", "error depth_limit @256", Cases.errorText(e))
        }
    }
}
