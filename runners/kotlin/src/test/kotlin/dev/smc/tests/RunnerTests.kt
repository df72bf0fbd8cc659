package dev.smc.tests

import dev.smc.codec.CustomValue
import dev.smc.codec.DecodeMode
import dev.smc.runner.Entries
import dev.smc.runner.HostAdapter
import dev.smc.runner.HostTypes
import dev.smc.runner.JNode
import dev.smc.runner.JObject
import dev.smc.runner.Json
import dev.smc.runner.NotationException
import dev.smc.runner.Runner
import dev.smc.runner.RunnerOptions
import dev.smc.runner.ValueSummary

/**
 * The protocol side of the runner (runners/PROTOCOL.md version 2): the handshake, the
 * `crash` and `summary` answers, input placement and the ownership check, each against a
 * stand-in codec that has the fault the rule is about.
 */
object RunnerTests {
    /** A host value that is a view into the bytes the codec was given (a borrowing codec). */
    class View(val bytes: ByteArray, val offset: Int, val length: Int)

    private object ViewAdapter : HostAdapter {
        override fun toHost(custom: CustomValue): Any? = custom
        override fun toCustom(value: Any): CustomValue? =
            (value as? View)?.let { CustomValue(200, it.bytes.copyOfRange(it.offset, it.offset + it.length)) }
    }

    /**
     * Input `ee`: throws IndexOutOfBoundsException, not the codec's documented rejection;
     * `ef`: throws StackOverflowError, a java.lang.Error.
     * `dd`: 100,000 nested lists. `bb`: a [View] of the bytes after it. Anything else: the
     * real codec. Records where the input was placed.
     */
    private class FaultyEntries : Entries(adapter = ViewAdapter) {
        var seen: Triple<Int, Int, Int>? = null

        override fun decode(entry: String, bytes: ByteArray, offset: Int, length: Int, mode: DecodeMode): Decoded? {
            seen = Triple(bytes.size, offset, length)
            val first = if (length > 0) bytes[offset].toInt() and 0xff else -1
            return when (first) {
                0xee -> throw IndexOutOfBoundsException("index ${offset + length} past the input")
                0xef -> throw StackOverflowError("deep")
                0xdd -> {
                    var value: Any? = null
                    for (i in 0 until 100000) value = arrayListOf(value)
                    Decoded(value, { throw IllegalStateException("never printed") }) { null }
                }
                0xbb -> {
                    val view = View(bytes, offset + 1, length - 1)
                    Decoded(view, { dev.smc.runner.Notation.fromHost(view, ViewAdapter) }) { null }
                }
                else -> super.decode(entry, bytes, offset, length, mode)
            }
        }
    }

    private fun ask(runner: Runner, request: String): JObject = Json.parse(runner.handle(request)) as JObject

    private fun text(node: JNode?): String = if (node == null) "(absent)" else Json.toText(node)

    fun run(t: Check) {
        val runner = Runner(FaultyEntries())
        val hello = ask(runner, """{"seq":0,"op":"hello","protocol":1,"protocols":[1,2]}""")
        t.equal("hello answers protocol 2", "2", text(hello.fields["protocol"]))
        t.equal("hello options", """["error-classes","error-offsets","shift"]""", text(hello.fields["options"]))
        val noShift = Runner(Entries(), RunnerOptions(placement = false))
        t.equal("--no-shift leaves shift out", """["error-classes","error-offsets"]""",
            text(ask(noShift, """{"seq":0,"op":"hello"}""").fields["options"]))

        val crash = ask(runner, """{"seq":1,"op":"decode","entry":"message","hex":"ee"}""")
        // spec §1.4's JVM line: Android's dispatcher survives an Exception, not an Error.
        t.equal("an undocumented exception is an unclassified rejection", "\"rejected\"", text(crash.fields["status"]))
        t.equal("crash kind", "\"IndexOutOfBoundsException\"", text(crash.fields["kind"]))
        val error = ask(runner, """{"seq":1,"op":"decode","entry":"message","hex":"ef"}""")
        t.equal("a java.lang.Error is a crash", "\"crash\"", text(error.fields["status"]))
        t.equal("the runner goes on after a crash answer", """{"seq":2,"status":"ok","value":["null"]}""",
            runner.handle("""{"seq":2,"op":"decode","entry":"message","hex":"00"}"""))
        val rejected = ask(runner, """{"seq":3,"op":"decode","entry":"message","hex":"0f"}""")
        t.equal("the codec's SmcException is an error with its class", "\"unknown_tag\"", text(rejected.fields["class"]))

        val deep = ask(runner, """{"seq":4,"op":"decode","entry":"message","hex":"dd"}""")
        t.equal("a value deeper than 500 levels is a summary", """{"depth":100000,"values":100001,"bytes":0}""",
            text(deep.fields["summary"]))
        t.isTrue("no value next to the summary", deep.fields["value"] == null)
        val host = ValueSummary.of(listOf("ab", mapOf(1 to ByteArray(3)), LongArray(2)))
        t.equal("host summary", "2 6 21", "${host.depth} ${host.values} ${host.bytes}")

        val entries = FaultyEntries()
        val placed = Runner(entries)
        placed.handle("""{"seq":5,"op":"decode","entry":"message","hex":"0001"}""")
        t.equal("without shift the array is exactly the input", Triple(2, 0, 2), entries.seen)
        placed.handle("""{"seq":6,"op":"decode","entry":"message","hex":"0001","shift":3}""")
        t.equal("with shift K the input is at K, guard bytes after it", Triple(3 + 2 + Runner.GUARD_BYTES, 3, 2), entries.seen)

        val borrowed = ask(placed, """{"seq":7,"op":"decode","entry":"message","hex":"bba0b1"}""")
        t.equal("a view into the input shows the overwritten bytes", """["custom",200,["u8s","5f4e"]]""",
            text(borrowed.fields["value"]))
        val declared = Runner(FaultyEntries(), RunnerOptions(borrowsInput = true))
        t.equal("borrows-input: the input is left alone", """["custom",200,["u8s","a0b1"]]""",
            text(ask(declared, """{"seq":8,"op":"decode","entry":"message","hex":"bba0b1"}""").fields["value"]))
        t.equal("the real codec copies: a round trip is unaffected",
            """{"seq":9,"status":"ok","value":["u8s","a0b1"],"hex":"0802a0b1"}""",
            placed.handle("""{"seq":9,"op":"roundtrip","entry":"message","hex":"0802a0b1"}"""))
        t.equal("unreadable notation is skipped", "\"skipped\"",
            text(ask(placed, """{"seq":10,"op":"encode","entry":"message","value":["i32",1.5]}""").fields["status"]))
        utf16Literals(t)
    }

    /** spec §17.1: the utf16 literal of a `String` is its code units as they are; a decoded
     *  `String` is written in it only when it holds a lone surrogate. */
    private fun utf16Literals(t: Check) {
        fun build(literal: String) = HostTypes.build("kotlin", Json.parse("""{"type":"String","value":$literal}"""))
        t.equal("utf16: a lone high surrogate is one char", listOf(0x61, 0xd800, 0x62),
            (build("""{"utf16":"0061d8000062"}""") as String).map { it.toInt() })
        t.equal("utf16: a pair is the pair", "h\ud83d\ude00w", build("""{"utf16":"0068d83dde000077"}"""))
        for (bad in listOf("""{"utf16":"0061D800"}""", """{"utf16":"006"}""", """{"utf16":"0061","x":1}""", """{"utf8":"61"}"""))
            t.isTrue("utf16: $bad is no literal", runCatching { build(bad) }.exceptionOrNull() is NotationException)
        t.isTrue("a JSON lone-surrogate escape stays refused",
            runCatching { build("\"a\\ud800b\"") }.exceptionOrNull() != null)
        t.equal("a decoded lone surrogate is written as utf16", """{"utf16":"dc00d800"}""",
            Json.toText(HostTypes.stringLiteral("\udc00\ud800")))
        t.equal("a decoded pair is a JSON string", "\"h\ud83d\ude00w\"", Json.toText(HostTypes.stringLiteral("h\ud83d\ude00w")))
    }
}
