package dev.smc.tests

import dev.smc.codec.DecodeMode
import dev.smc.codec.ErrorClass
import dev.smc.codec.SmcException
import dev.smc.runner.Entries
import dev.smc.runner.Hex
import dev.smc.runner.Json
import java.util.Random

/**
 * A seeded random-mutation loop (no-crash property, spec §14: every input is either a value
 * or one error class with an offset inside the input). Also checks that whatever decodes
 * re-encodes to bytes that strict mode decodes to the same value (spec §13).
 */
object FuzzTests {
    private val INTERESTING = intArrayOf(0x00, 0x01, 0x05, 0x07, 0x0c, 0x0d, 0x0e, 0x7f, 0x80, 0xfd, 0xfe, 0xff)

    fun run(t: Check, seeds: List<Pair<String, String>>, iterations: Int, seed: Long) {
        val random = Random(seed)
        val entries = Entries()
        var unexpected = 0
        var badOffsets = 0
        var unstable = 0
        var decoded = 0
        val corpus = seeds.map { it.first to Hex.decode(it.second) }
        for (i in 0 until iterations) {
            val (seedEntry, original) = corpus[random.nextInt(corpus.size)]
            val input = mutate(original, random)
            val entry = if (random.nextInt(4) == 0) Entries.NAMES[random.nextInt(3)] else seedEntry
            for (mode in DecodeMode.values()) {
                try {
                    val first = entries.decode(entry, input, 0, input.size, mode)!!
                    decoded++
                    val again = try {
                        first.reencode()
                    } catch (e: SmcException) {
                        // Only a largeInt may refuse to re-encode (spec §4.4).
                        if (e.errorClass != ErrorClass.NOT_ENCODABLE || !Json.toText(first.value).contains("\"largeint\"")) {
                            unstable++
                            report(unstable, "re-encode of ${Hex.encode(input)} failed: ${e.errorClass} ${e.message}")
                        }
                        null
                    }
                    if (again != null) {
                        val second = entries.decode(entry, again, 0, again.size, DecodeMode.STRICT)!!
                        if (!Json.equal(first.value, second.value)) {
                            unstable++
                            report(unstable, "${Hex.encode(input)} -> ${Hex.encode(again)} changed the value")
                        }
                    }
                } catch (e: SmcException) {
                    val ok = if (e.errorClass == ErrorClass.TRUNCATED) e.offset == input.size else e.offset in 0 until input.size
                    if (!ok) {
                        badOffsets++
                        report(badOffsets, "${Hex.encode(input)} ($entry, $mode): ${e.errorClass} @${e.offset}")
                    }
                } catch (e: Throwable) {
                    unexpected++
                    report(unexpected, "${Hex.encode(input)} ($entry, $mode): unexpected $e")
                }
            }
        }
        System.out.println("fuzz: $iterations inputs x 2 modes, $decoded decoded, seed $seed")
        t.isTrue("fuzz: no unexpected exception", unexpected == 0, "$unexpected inputs")
        t.isTrue("fuzz: error offsets inside the input", badOffsets == 0, "$badOffsets inputs")
        t.isTrue("fuzz: decode -> encode -> strict decode is stable", unstable == 0, "$unstable inputs")
    }

    private fun report(count: Int, what: String) {
        if (count <= 5) System.out.println("  fuzz finding: $what")
    }

    private fun mutate(original: ByteArray, random: Random): ByteArray {
        var bytes = original
        val rounds = 1 + random.nextInt(3)
        for (r in 0 until rounds) {
            val n = bytes.size
            bytes = when (random.nextInt(6)) {
                0 -> if (n == 0) bytes else bytes.copyOf().also { it[random.nextInt(n)] = random.nextInt(256).toByte() }
                1 -> if (n == 0) bytes else bytes.copyOf().also { it[random.nextInt(n)] = INTERESTING[random.nextInt(INTERESTING.size)].toByte() }
                2 -> bytes.copyOf(random.nextInt(n + 1)) // truncate
                3 -> { // insert one byte
                    val at = random.nextInt(n + 1)
                    val out = ByteArray(n + 1)
                    System.arraycopy(bytes, 0, out, 0, at)
                    out[at] = INTERESTING[random.nextInt(INTERESTING.size)].toByte()
                    System.arraycopy(bytes, at, out, at + 1, n - at)
                    out
                }
                4 -> if (n == 0) bytes else { // delete one byte
                    val at = random.nextInt(n)
                    val out = ByteArray(n - 1)
                    System.arraycopy(bytes, 0, out, 0, at)
                    System.arraycopy(bytes, at + 1, out, at, n - 1 - at)
                    out
                }
                else -> if (n == 0) bytes else bytes.copyOf().also { it[random.nextInt(n)] = (it[random.nextInt(n)].toInt() xor (1 shl random.nextInt(8))).toByte() }
            }
        }
        return bytes
    }
}
