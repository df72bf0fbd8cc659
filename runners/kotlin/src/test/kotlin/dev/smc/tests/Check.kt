package dev.smc.tests

import dev.smc.codec.CustomValueCodec
import dev.smc.codec.DecodeMode
import dev.smc.codec.SmcException
import dev.smc.runner.Entries
import dev.smc.runner.NotationException
import dev.smc.runner.Hex
import dev.smc.runner.JNode
import dev.smc.runner.JsonSyntaxError
import dev.smc.runner.Json

/**
 * A tiny test ledger: counts passes, failures (printed with a reason) and skips (grouped by
 * reason). No test may pass without an assertion: every `pass` comes from a comparison.
 */
class Check(private val section: String) {
    var passed = 0
        private set
    var failed = 0
        private set
    val skipReasons = LinkedHashMap<String, Int>()
    val skipped: Int get() = skipReasons.values.sum()

    fun pass() { passed++ }

    fun fail(name: String, why: String) {
        failed++
        System.out.println("FAIL [$section] $name: $why")
    }

    fun skip(reason: String) {
        skipReasons[reason] = (skipReasons[reason] ?: 0) + 1
    }

    fun isTrue(name: String, condition: Boolean, why: String = "condition is false") {
        if (condition) pass() else fail(name, why)
    }

    fun equal(name: String, expected: Any?, actual: Any?) {
        if (expected == actual) pass() else fail(name, "expected <$expected> got <$actual>")
    }

    fun summary(): String {
        val base = "$passed passed, $failed failed, $skipped skipped"
        return if (skipReasons.isEmpty()) base
        else base + "\n" + skipReasons.entries.joinToString("\n") { "  skipped ${it.value}: ${it.key}" }
    }
}

/** Shared helpers: decode/encode through the runner's entry points, compare as notation. */
object Cases {
    val entries = Entries(CustomValueCodec())

    /** Decodes [hex] with [entry]; the notation as canonical text, or the error as a string. */
    fun decode(hex: String, mode: DecodeMode = DecodeMode.FLUTTER, entry: String = "message", shift: Int = 0): String {
        val input = Hex.decode(hex)
        val buffer = ByteArray(shift + input.size + 3) // slack after the slice too
        System.arraycopy(input, 0, buffer, shift, input.size)
        return try {
            Json.toText(entries.decode(entry, buffer, shift, input.size, mode)!!.value)
        } catch (e: SmcException) {
            errorText(e)
        }
    }

    fun errorText(e: SmcException): String = "error ${e.errorClass} @${e.offset}"

    fun encode(notation: String, entry: String = "message"): String =
        try {
            Hex.encode(entries.encode(entry, Json.parse(notation))!!)
        } catch (e: SmcException) {
            errorText(e)
        } catch (e: JsonSyntaxError) {
            "error bad_notation @-1"
        } catch (e: NotationException) {
            "error bad_notation @-1"
        }

    fun canon(notation: String): String = Json.toText(Json.parse(notation))

    fun canon(node: JNode): String = Json.toText(node)
}
