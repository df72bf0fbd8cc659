package dev.smc.tests

import java.io.File
import kotlin.system.exitProcess

/**
 * Runs every test and ends with the line "N passed, N failed, N skipped" (exit 1 on any
 * failure). Usage: TestMainKt [VECTORS_DIR]; default $SMC_VECTORS_DIR, then ../../vectors. The
 * shared notation cases: $SMC_NOTATION_CASES, else spec/notation-cases.json beside VECTORS_DIR;
 * the wire types: $SMC_WIRE_TYPES, else spec/wire-types.json beside it.
 */
fun main(args: Array<String>) {
    val dir = File(args.firstOrNull() ?: System.getenv("SMC_VECTORS_DIR") ?: "../../vectors")
    fun section(name: String, body: (Check) -> Unit): Check {
        val c = Check(name)
        body(c)
        System.out.println("[$name] ${c.summary()}")
        return c
    }
    val sections = ArrayList<Check>()
    sections.add(section("codec") { CodecTests.run(it) })
    sections.add(section("bulk-arrays") { BulkArrayTests.run(it) })
    sections.add(section("pigeon-example") { PigeonExampleTests.run(it) })
    sections.add(section("runner") { RunnerTests.run(it) })
    sections.add(section("typed-fields") { TypedFieldTests.run(it) })
    val vectors = VectorTests(dir)
    sections.add(section("vectors ${dir.path}") { vectors.run(it) })
    sections.add(section("kit host hook") { KitHostTests(dir).run(it) })
    for ((reason, n) in vectors.partialSkips) System.out.println("  (check skipped in $n vectors: $reason)")
    val notationCases = File(System.getenv("SMC_NOTATION_CASES")
        ?: File(dir.absoluteFile.parentFile, "spec/notation-cases.json").path)
    sections.add(section("notation-cases ${notationCases.path}") { NotationCasesTests(notationCases).run(it) })
    val wireTypes = File(System.getenv("SMC_WIRE_TYPES")
        ?: File(dir.absoluteFile.parentFile, "spec/wire-types.json").path)
    sections.add(section("wire-types ${wireTypes.path}") { WireTypesTests(wireTypes).run(it) })
    val seeds = ArrayList(vectors.corpus)
    for (hex in FUZZ_SEEDS) seeds.add("message" to hex)
    seeds.add("call" to "070568656c6c6f0c020705636f756e74032a000000")
    seeds.add("envelope" to "0107056572726f720704626f6f6d0007027374")
    sections.add(section("fuzz") { FuzzTests.run(it, seeds, 4000, 0x5eedL) })
    sections.add(section("flat-form") { FlatCodecTests.run(it, seeds, 4000, 0xf1a7L) })
    var passed = 0
    var failed = 0
    var skipped = 0
    for (c in sections) {
        passed += c.passed
        failed += c.failed
        skipped += c.skipped
    }
    System.out.println("$passed passed, $failed failed, $skipped skipped")
    exitProcess(if (failed == 0) 0 else 1)
}

private val FUZZ_SEEDS = listOf(
    "0c0500070568656c6c6f0600000000001f85eb51b81e0940032f0000000c02032a00000007066e6573746564",
    "0d070007046e756c6c010704626f6f6c032a0000000703696e74060000000000182d4454fb2109400705666c6f6174070568656c6c6f0706737472696e670c0007046c6973740d0007036d6170",
    "0c030009000000000307000000",
    "0a02000000000000efcdab9078563412ffffffffffffffff",
    "0e020000d80f494000007a44",
    "820c04040100000000000000070178810402000000000000000000",
    "05022d31",
    "07fe02006162"
)
