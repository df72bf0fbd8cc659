package dev.smc.tests

import dev.smc.codec.CustomValue
import dev.smc.codec.CustomValueCodec
import dev.smc.codec.FlatCodec
import dev.smc.codec.SmcException
import dev.smc.codec.StandardMessageCodec
import dev.smc.runner.JArray
import dev.smc.runner.JNumber
import dev.smc.runner.JObject
import dev.smc.runner.JString
import dev.smc.runner.Json
import java.io.File

/**
 * The codec's wire-type table against spec/wire-types.json (the one list every codec here
 * checks its own against): each tag constant, the tag and length the encoder writes for each
 * scalar and typed list (three elements, after the padding of the listed alignment), and the
 * widths both decoders read (a typed list of exactly that length decodes, one byte less is
 * truncated).
 */
class WireTypesTests(private val file: File) {
    private class WireType(val word: String, val tag: Int, val tagLast: Int, val payload: String,
                           val scalarWidth: Int, val elementWidth: Int, val alignment: Int)

    private fun load(): List<WireType> {
        val root = Json.parse(file.readText(Charsets.UTF_8)) as JObject
        return (root.fields["types"] as JArray).items.map { node ->
            val f = (node as JObject).fields
            fun int(name: String) = (f[name] as JNumber).raw.toInt()
            WireType((f["word"] as JString).text, int("tag"), int("tag_last"),
                (f["payload"] as JString).text, int("scalar_width"), int("element_width"),
                int("alignment"))
        }
    }

    /** The codec's constant for the first tag of each type word (and FALSE for bool's last). */
    private val firstTag = mapOf(
        "null" to StandardMessageCodec.NULL, "bool" to StandardMessageCodec.TRUE,
        "i32" to StandardMessageCodec.INT32, "i64" to StandardMessageCodec.INT64,
        "largeint" to StandardMessageCodec.LARGE_INT, "f64" to StandardMessageCodec.FLOAT64,
        "str" to StandardMessageCodec.STRING, "u8s" to StandardMessageCodec.UINT8_LIST,
        "i32s" to StandardMessageCodec.INT32_LIST, "i64s" to StandardMessageCodec.INT64_LIST,
        "f64s" to StandardMessageCodec.FLOAT64_LIST, "list" to StandardMessageCodec.LIST,
        "map" to StandardMessageCodec.MAP, "f32s" to StandardMessageCodec.FLOAT32_LIST,
        "custom" to CustomValueCodec.FIRST_CUSTOM_TAG
    )

    /** A host value of each scalar and typed list type: three elements for the lists. */
    private val samples = mapOf<String, Any>(
        "i32" to 7, "i64" to 7L, "f64" to 1.0,
        "i32s" to IntArray(3), "i64s" to LongArray(3), "f64s" to DoubleArray(3), "f32s" to FloatArray(3)
    )

    private fun padded(offset: Int, alignment: Int) = (offset + alignment - 1) / alignment * alignment

    fun run(t: Check) {
        val types = try {
            load()
        } catch (e: Exception) {
            t.fail(file.path, "cannot read the wire types: $e")
            return
        }
        t.equal("every type word has a constant", firstTag.keys, types.map { it.word }.toSet())
        val codec = CustomValueCodec()
        for (w in types) {
            t.equal("${w.word}: tag", w.tag, firstTag[w.word])
            val sample = samples[w.word]
            if (w.payload == "typed_list" || w.payload == "scalar") {
                if (sample == null) {
                    t.fail(w.word, "no sample value")
                    continue
                }
                val bytes = codec.encodeMessage(sample)
                t.equal("${w.word}: encoded tag", w.tag, bytes[0].toInt() and 0xff)
                val length = if (w.payload == "scalar") padded(1, w.alignment) + w.scalarWidth
                    else padded(2, w.alignment) + 3 * w.elementWidth
                t.equal("${w.word}: encoded length", length, bytes.size)
            }
            if (w.payload == "typed_list") {
                val exact = ByteArray(padded(2, w.alignment) + 3 * w.elementWidth)
                exact[0] = w.tag.toByte()
                exact[1] = 3
                for ((name, decode) in listOf<Pair<String, (ByteArray) -> Unit>>(
                    "StandardMessageCodec" to { b -> codec.decodeMessage(b) },
                    "FlatCodec" to { b -> FlatCodec().decodeMessage(b) }
                )) {
                    t.isTrue("${w.word}: $name reads ${exact.size} bytes", error(decode, exact) == null,
                        "error ${error(decode, exact)}")
                    t.equal("${w.word}: $name, one byte short", "truncated", error(decode, exact.copyOf(exact.size - 1)))
                }
            }
        }
        t.equal("bool: last tag", types.first { it.word == "bool" }.tagLast, StandardMessageCodec.FALSE)
        val custom = types.first { it.word == "custom" }
        t.equal("custom: encoded tag", custom.tag, codec.encodeMessage(CustomValue(custom.tag, null))[0].toInt() and 0xff)
        t.equal("custom: last tag", custom.tagLast,
            codec.encodeMessage(CustomValue(custom.tagLast, null))[0].toInt() and 0xff)
    }

    private fun error(decode: (ByteArray) -> Unit, bytes: ByteArray): String? = try {
        decode(bytes)
        null
    } catch (e: SmcException) {
        e.errorClass
    }
}
