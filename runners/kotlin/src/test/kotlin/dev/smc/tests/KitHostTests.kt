package dev.smc.tests

import dev.smc.kit.Kit
import dev.smc.runner.JArray
import dev.smc.runner.JNode
import dev.smc.runner.JObject
import dev.smc.runner.JString
import dev.smc.runner.Json
import java.io.File

/**
 * The JVM kit's host hook (issue 25, spec §17): host-type vectors reach the plug-in's codec
 * and nothing else. A plug-in with the host bugs of real ports (a Float written as 4 bytes
 * after tag 6, a Long written by value, a byte array written twice) must fail exactly the
 * kotlin vectors that hold such a node, and a plug-in that declares no host vocabulary must
 * get every host request skipped. The expected set is computed from the vectors here, not
 * listed.
 */
class KitHostTests(private val dir: File) {
    private fun nodes(hv: JNode?, out: MutableList<JObject>) {
        if (hv !is JObject) return
        out.add(hv)
        val x = hv.fields["value"] as? JArray ?: return
        for (e in x.items) if (e is JArray) e.items.forEach { nodes(it, out) } else nodes(e, out)
    }

    /** Whether a node of this host value meets one of [bugs]. */
    private fun triggers(hv: JNode?, bugs: Set<String>): Boolean {
        val all = ArrayList<JObject>()
        nodes(hv, all)
        return all.any { n ->
            val type = (n.fields["type"] as? JString)?.text
            val text = (n.fields["value"] as? JString)?.text
            (type == "Float" && "float4" in bugs) ||
                (type == "Long" && "long-by-value" in bugs && text?.toLongOrNull()?.let { it in Int.MIN_VALUE..Int.MAX_VALUE } == true) ||
                (type == "ByteArray" && "bytes-twice" in bugs && !text.isNullOrEmpty())
        }
    }

    private fun kotlinVectors(): List<JObject> {
        val file = File(dir, "s17-host-types.json")
        val root = Json.parse(file.readText()) as JObject
        return (root.fields["vectors"] as JArray).items.map { it as JObject }
            .filter { (it.fields["host"] as? JString)?.text == "kotlin" }
    }

    fun run(t: Check) {
        if (!File(dir, "s17-host-types.json").isFile) {
            t.skip("no s17-host-types.json in ${dir.path}")
            return
        }
        val vectors = kotlinVectors()
        val bugs = setOf("float4", "long-by-value", "bytes-twice")
        val runner = Kit.runner(ScriptedPlugin("host-bugs", listOf(), listOf("kotlin"), bugs))
        val hello = Json.parse(runner.handle("""{"seq":0,"op":"hello","protocols":[2]}""")) as JObject
        t.equal("a plug-in with a host hook declares its vocabulary", """["kotlin"]""", Json.toText(hello.fields["hosts"]!!))
        t.equal("a plug-in's options are its own (none by default)", "[]", Json.toText(hello.fields["options"]!!))
        val failed = sortedSetOf<String>()
        val expected = sortedSetOf<String>()
        var seq = 1
        for (v in vectors) {
            val id = (v.fields["id"] as JString).text
            if ((v.fields["kind"] as JString).text != "host_encode" || v.fields["canonical"] !is JString) continue
            val request = JObject(linkedMapOf("seq" to Json.parse("${seq++}"), "op" to JString("host_encode"),
                "host" to JString("kotlin"), "host_value" to v.fields["host_value"]!!))
            val answer = Json.parse(runner.handle(Json.toText(request))) as JObject
            if ((answer.fields["hex"] as? JString)?.text != (v.fields["canonical"] as JString).text) failed.add(id)
            if (triggers(v.fields["host_value"], bugs)) expected.add(id)
        }
        t.isTrue("some kotlin host vectors hold a buggy type", expected.isNotEmpty())
        t.equal("the buggy plug-in fails exactly its bugs' host vectors", expected.toString(), failed.toString())

        val noHook = Kit.runner(ScriptedPlugin("host-bugs", listOf(), listOf(), setOf()))
        val noHello = Json.parse(noHook.handle("""{"seq":0,"op":"hello","protocols":[2]}""")) as JObject
        t.isTrue("a plug-in without a host hook declares no vocabulary", noHello.fields["hosts"] == null)
        val statuses = sortedSetOf<String>()
        for (v in vectors) {
            val op = (v.fields["kind"] as JString).text
            val fields = linkedMapOf<String, JNode>("seq" to Json.parse("${seq++}"), "op" to JString(op), "host" to JString("kotlin"))
            if (op == "host_encode") fields["host_value"] = v.fields["host_value"]!! else fields["hex"] = v.fields["canonical"]!!
            statuses.add(((Json.parse(noHook.handle(Json.toText(JObject(fields)))) as JObject).fields["status"] as JString).text)
        }
        t.equal("without a host hook every host request is skipped, never answered", "[skipped]", statuses.toString())

        // Tag 5 in Android's codec is a BigInteger: the kit prints it, as the hex it holds.
        t.equal("a decoded BigInteger is printed as largeint", """["largeint","-ff"]""",
            Json.toText(dev.smc.runner.Notation.fromHost(java.math.BigInteger("-255"))))
    }
}
