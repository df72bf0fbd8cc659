package dev.smc.tests

import dev.smc.codec.CustomValueCodec
import dev.smc.codec.DecodeMode
import dev.smc.codec.FlatCodec
import dev.smc.codec.MapPairs
import dev.smc.codec.SmcException
import dev.smc.codec.StandardMethodCodec
import dev.smc.runner.Hex
import java.util.Random

/**
 * The flat form (FlatCodec / SmcNode) agrees with the host-value decoder on every input: the
 * same error class and offset (spec/errors.md), or values that re-encode to the same bytes,
 * at every entry point, in both modes, at two shifts; plus its accessors and ownership.
 */
object FlatCodecTests {
    private val hostCodec = CustomValueCodec()
    private val methodCodec = StandardMethodCodec(hostCodec)
    private val flat = FlatCodec()

    private fun outcome(body: () -> ByteArray): String =
        try {
            Hex.encode(body())
        } catch (e: SmcException) {
            "error ${e.errorClass} @${e.offset}"
        }

    /** Host decode + re-encode vs flat decode + re-encode of input[shift, shift + n). */
    fun agree(entry: String, input: ByteArray, mode: DecodeMode, shift: Int): String? {
        val buffer = ByteArray(shift + input.size + 2)
        System.arraycopy(input, 0, buffer, shift, input.size)
        val n = input.size
        val (host, flatOne) = when (entry) {
            "call" -> outcome { methodCodec.encodeMethodCall(methodCodec.decodeMethodCall(buffer, shift, n, mode)) } to
                outcome { flat.encodeMethodCall(flat.decodeMethodCall(buffer, shift, n, mode)) }
            "envelope" -> outcome { methodCodec.encodeEnvelope(methodCodec.decodeEnvelope(buffer, shift, n, mode)) } to
                outcome { flat.encodeEnvelope(flat.decodeEnvelope(buffer, shift, n, mode)) }
            else -> outcome { hostCodec.encodeMessage(hostCodec.decodeMessage(buffer, shift, n, mode)) } to
                outcome { flat.encodeMessage(flat.decodeMessage(buffer, shift, n, mode)) }
        }
        return if (host == flatOne) null else "host <$host> flat <$flatOne>"
    }

    fun run(t: Check, corpus: List<Pair<String, String>>, iterations: Int, seed: Long) {
        var compared = 0
        var mismatches = 0
        fun compare(entry: String, input: ByteArray) {
            for (mode in DecodeMode.values()) for (shift in intArrayOf(0, 3)) {
                compared++
                val problem = agree(entry, input, mode, shift) ?: continue
                mismatches++
                if (mismatches <= 10) t.fail("flat $entry $mode ${Hex.encode(input)}", problem)
            }
        }
        for ((entry, hex) in corpus) compare(entry, Hex.decode(hex))
        val random = Random(seed)
        for (i in 0 until iterations) {
            val (entry, hex) = corpus[random.nextInt(corpus.size)]
            val bytes = Hex.decode(hex).toMutableList()
            when (random.nextInt(3)) {
                0 -> if (bytes.isNotEmpty()) bytes[random.nextInt(bytes.size)] = random.nextInt(256).toByte()
                1 -> if (bytes.isNotEmpty()) bytes.removeAt(random.nextInt(bytes.size))
                else -> bytes.add(random.nextInt(bytes.size + 1), intArrayOf(0x05, 0x0c, 0x0d, 0x80, 0xfe, 0xff)[random.nextInt(6)].toByte())
            }
            compare(entry, bytes.toByteArray())
        }
        System.out.println("flat form vs host decoder: $compared decodes compared, $mismatches disagreements")
        t.isTrue("flat form agrees with the host decoder", mismatches == 0, "$mismatches disagreements")
        t.isTrue("compared the corpus", compared > 10000, "only $compared")
        accessors(t)
        ownership(t)
    }

    private fun accessors(t: Check) {
        val pairs = MapPairs()
        pairs.add("k", 1)
        pairs.add(null, listOf<Any?>())
        val value = listOf(true, -7, 3000000000L, 1.5, "héllo", byteArrayOf(1, 2, 3), intArrayOf(1, -2),
            longArrayOf(5), doubleArrayOf(0.25), floatArrayOf(2.5f), listOf(null, "a"), pairs)
        val wire = hostCodec.encodeMessage(value)
        val root = flat.decodeMessage(wire)
        val f = root.elements
        t.equal("count", 12, root.count)
        t.equal("bool", true, f[0].booleanValue)
        t.equal("int32", -7, f[1].intValue)
        t.equal("int32 is not int64", null, f[1].longValue)
        t.equal("int64", 3000000000L, f[2].longValue)
        t.equal("float64", 1.5, f[3].doubleValue)
        t.equal("string", "héllo", f[4].stringValue)
        t.equal("bytes", "010203", Hex.encode(f[5].bytes!!))
        t.equal("Int32List", listOf(1, -2), f[6].intArray!!.toList())
        t.equal("Int64List", listOf(5L), f[7].longArray!!.toList())
        t.equal("Float64List", listOf(0.25), f[8].doubleArray!!.toList())
        t.equal("Float32List", listOf(2.5f), f[9].floatArray!!.toList())
        t.equal("list elements", listOf(0, 7), f[10].elements.map { it.tag })
        t.equal("map entries", listOf("k" to 1, null to 0), f[11].entries.map { it.first.stringValue to (it.second.intValue ?: it.second.count) })
        t.equal("toHost re-encodes", Hex.encode(wire), Hex.encode(hostCodec.encodeMessage(root.toHost())))
        t.equal("a node re-encodes alone", Hex.encode(hostCodec.encodeMessage(1.5)), Hex.encode(flat.encodeMessage(f[3])))
        val custom = flat.decodeMessage(Hex.decode("810305000000"))
        t.equal("custom", listOf(0x81, 5), listOf(custom.customTag, custom.payload!!.intValue))
    }

    /** The input is overwritten right after decoding; the tree keeps its own copy. */
    private fun ownership(t: Check) {
        val long = "owned bytes ".repeat(10)
        val wire = hostCodec.encodeMessage(listOf(long, ByteArray(100) { 9 }, longArrayOf(1, 2, 3)))
        val expected = Hex.encode(wire)
        val root = flat.decodeMessage(wire)
        wire.fill(0xAA.toByte())
        t.equal("flat tree owns its bytes", expected, Hex.encode(flat.encodeMessage(root)))
        t.equal("flat string after overwrite", long, root.elements[0].stringValue)
    }
}
