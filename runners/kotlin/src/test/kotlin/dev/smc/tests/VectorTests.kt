package dev.smc.tests

import dev.smc.codec.DecodeMode
import dev.smc.codec.SmcException
import dev.smc.runner.Entries
import dev.smc.runner.Hex
import dev.smc.runner.HostTypes
import dev.smc.runner.JArray
import dev.smc.runner.JNode
import dev.smc.runner.JNull
import dev.smc.runner.JNumber
import dev.smc.runner.JObject
import dev.smc.runner.JString
import dev.smc.runner.Json
import dev.smc.runner.Runner
import java.io.File

/**
 * Runs every golden vector (vectors/s*.json) through the codec in-process, checking what the
 * judge checks (runners/PROTOCOL.md P.5, spec/vectors.md V.2) for a runner with this
 * runner's capabilities, plus decoding at every shift 0..7 (P.2). A host-type vector (spec
 * §17) is a message vector for its bytes, and one of a vocabulary the runner speaks also goes
 * through its host layer ([HostTypes]): the host value built and encoded, or decoded and named.
 */
class VectorTests(private val dir: File) {
    private val entries = Entries()

    /** Check-level skips inside vectors that otherwise ran (e.g. encode of a largeint). */
    val partialSkips = LinkedHashMap<String, Int>()

    /** Every input seen, for the fuzz corpus. */
    val corpus = ArrayList<Pair<String, String>>()

    private sealed class Outcome {
        class Ok(val value: JNode, val again: ByteArray?) : Outcome()
        class Err(val cls: String, val offset: Int) : Outcome()
        class Bug(val error: Throwable) : Outcome()
    }

    fun run(t: Check) {
        val files = (dir.listFiles() ?: emptyArray()).filter { it.name.matches(Regex("s[0-9].*\\.json")) }.sortedBy { it.name }
        if (files.isEmpty()) {
            t.skip("no vector files s*.json in ${dir.path} (set SMC_VECTORS_DIR)")
            return
        }
        for (file in files) {
            val root = try {
                Json.parse(file.readText(Charsets.UTF_8)) as JObject
            } catch (e: Exception) {
                t.fail(file.name, "cannot read: $e")
                continue
            }
            val vectors = (root.fields["vectors"] as? JArray)?.items
            if (vectors == null) {
                t.fail(file.name, "no \"vectors\" array")
                continue
            }
            for (v in vectors) runVector(t, v as JObject)
        }
    }

    private fun str(v: JObject, key: String): String? = (v.fields[key] as? JString)?.text

    private fun runVector(t: Check, v: JObject) {
        val id = str(v, "id") ?: "(no id)"
        val kind = str(v, "kind")
        val failures = ArrayList<String>()
        var checks = 0
        if (kind == "host_encode" || kind == "host_decode") {
            checks += hostChecks(v, kind, failures)
            if (str(v, "canonical") == null) { // a refused host value: no bytes
                return when {
                    failures.isNotEmpty() -> t.fail(id, failures.joinToString("; "))
                    checks == 0 -> t.skip("host value of a vocabulary not spoken, refused: no bytes to check")
                    else -> t.pass()
                }
            }
        }
        val entry = when (kind) {
            "message", "pigeon_request", "pigeon_reply", "host_encode", "host_decode" -> "message"
            "method_call" -> "call"
            "success_envelope", "error_envelope", "envelope" -> "envelope"
            else -> return t.fail(id, "unknown kind $kind")
        }
        val features = (v.fields["features"] as? JArray)?.items?.map { (it as JString).text } ?: emptyList()
        val canDecode = Runner.DECODE_CAPABILITIES.containsAll(features)
        val canEncode = Runner.ENCODE_CAPABILITIES.containsAll(features)
        val value = v.fields["value"]
        val canonical = str(v, "canonical")
        val error = v.fields["error"] as? JObject

        fun expectValue(what: String, outcome: Outcome) {
            checks++
            when (outcome) {
                is Outcome.Ok -> if (!Json.equal(value!!, outcome.value))
                    failures.add("$what: expected ${Json.toText(value)} got ${Json.toText(outcome.value)}")
                is Outcome.Err -> failures.add("$what: expected ${Json.toText(value!!)} got error ${outcome.cls} @${outcome.offset}")
                is Outcome.Bug -> failures.add("$what: unexpected ${outcome.error}")
            }
        }

        fun expectError(what: String, outcome: Outcome, cls: String, offset: Int?) {
            checks++
            when (outcome) {
                is Outcome.Ok -> failures.add("$what: expected $cls @$offset, decoded ${Json.toText(outcome.value)}")
                is Outcome.Err -> if (outcome.cls != cls || (offset != null && outcome.offset != offset))
                    failures.add("$what: expected $cls @$offset got ${outcome.cls} @${outcome.offset}")
                is Outcome.Bug -> failures.add("$what: unexpected ${outcome.error}")
            }
        }

        if (value != null && canonical != null) {
            corpus.add(entry to canonical)
            if (canDecode) {
                for (shift in 0..7) expectValue("decode canonical (shift $shift)", decode(entry, canonical, DecodeMode.FLUTTER, shift, false))
                // Canonical bytes are what strict mode exists to accept (spec §1.2), except tag 5.
                if (!features.contains("largeint")) expectValue("strict decode canonical", decode(entry, canonical, DecodeMode.STRICT, 0, false))
                else partialSkip("strict decode of canonical with largeint: strict rejects tag 5 (spec §4.4)")
            } else {
                partialSkip("decode not applicable: features ${features - Runner.DECODE_CAPABILITIES}")
            }
            if (canEncode) {
                checks++
                try {
                    val bytes = Hex.encode(entries.encode(entry, value)!!)
                    if (bytes != canonical) failures.add("encode: expected $canonical got $bytes")
                } catch (e: SmcException) {
                    failures.add("encode: expected $canonical got error ${e.errorClass}: ${e.message}")
                } catch (e: Throwable) {
                    failures.add("encode: unexpected $e")
                }
                if (canDecode) {
                    val outcome = decode(entry, canonical, DecodeMode.FLUTTER, 0, true)
                    expectValue("roundtrip value", outcome)
                    if (outcome is Outcome.Ok) {
                        checks++
                        val again = outcome.again?.let { Hex.encode(it) }
                        if (again != canonical) failures.add("roundtrip bytes: expected $canonical got $again")
                    }
                }
            } else {
                partialSkip("encode not applicable: features ${features - Runner.ENCODE_CAPABILITIES} (spec §4.4: tag 5 is never written)")
            }
            val accepted = (v.fields["accepted"] as? JArray)?.items ?: emptyList()
            if (canDecode) {
                for (alt in accepted) {
                    alt as JObject
                    val hex = (alt.fields["hex"] as JString).text
                    corpus.add(entry to hex)
                    expectValue("accepted $hex (flutter)", decode(entry, hex, DecodeMode.FLUTTER, 3, false))
                    val strict = alt.fields["strict"]
                    if (strict == null || strict === JNull) {
                        expectValue("accepted $hex (strict)", decode(entry, hex, DecodeMode.STRICT, 0, false))
                    } else {
                        // `accepted` gives no offset for the strict class (V.2): class only.
                        expectError("accepted $hex (strict)", decode(entry, hex, DecodeMode.STRICT, 0, false), (strict as JString).text, null)
                    }
                }
            }
        } else if (str(v, "hex") != null && error != null) {
            val hex = str(v, "hex")!!
            corpus.add(entry to hex)
            val cls = (error.fields["class"] as JString).text
            val offset = (error.fields["offset"] as JNumber).raw.toInt()
            val modes = (error.fields["modes"] as JArray).items.map { (it as JString).text }
            if (canDecode) {
                for (mode in modes) {
                    val m = if (mode == "strict") DecodeMode.STRICT else DecodeMode.FLUTTER
                    for (shift in intArrayOf(0, 5)) expectError("reject ($mode, shift $shift)", decode(entry, hex, m, shift, false), cls, offset)
                }
                if (modes == listOf("strict") && value != null) expectValue("strict-only reject decodes in flutter mode", decode(entry, hex, DecodeMode.FLUTTER, 0, false))
            } else {
                partialSkip("reject not applicable: features ${features - Runner.DECODE_CAPABILITIES}")
            }
        } else {
            return t.fail(id, "neither a valid nor a reject vector (spec/vectors.md V.2)")
        }

        when {
            failures.isNotEmpty() -> t.fail(id, failures.joinToString("; "))
            checks == 0 -> t.skip("no applicable check (features $features)")
            else -> t.pass()
        }
    }

    /** spec §17 through [HostTypes]; the number of checks made (0: vocabulary not spoken). */
    private fun hostChecks(v: JObject, kind: String, failures: MutableList<String>): Int {
        val vocab = str(v, "host")
        val canonical = str(v, "canonical")
        val anyOrder = str(v, "map_order") == "any"
        if (vocab !in HostTypes.VOCABULARIES || (kind == "host_decode" && vocab != "kotlin")) return 0
        try {
            if (kind == "host_encode") {
                val bytes = Hex.encode(HostTypes.defaultCodec.encodeMessage(HostTypes.build(vocab!!, v.fields["host_value"]!!)))
                when {
                    canonical == null -> failures.add("host encode: wrote $bytes, the spec refuses the value")
                    anyOrder -> {
                        val got = decode("message", bytes, DecodeMode.FLUTTER, 0, false)
                        if (got !is Outcome.Ok || sortedMaps(got.value) != sortedMaps(v.fields["value"]!!))
                            failures.add("host encode: got $bytes, expected $canonical in some entry order")
                    }
                    bytes != canonical -> failures.add("host encode: got $bytes, expected $canonical")
                }
            } else {
                val input = Hex.decode(canonical!!)
                val got = Json.toText(HostTypes.describe(HostTypes.defaultCodec.decodeMessage(input, 0, input.size)))
                val want = Json.toText(v.fields["host_value"]!!)
                if (got != want) failures.add("host decode: got $got, expected $want")
            }
        } catch (e: SmcException) {
            if (canonical != null || e.errorClass != "not_encodable")
                failures.add("host $kind: ${e.errorClass}: ${e.message}")
        } catch (e: Throwable) {
            failures.add("host $kind: unexpected $e")
        }
        return 1
    }

    /** Notation text with every map's entries sorted: a map whose order is not pinned. */
    private fun sortedMaps(node: JNode): String {
        if (node !is JArray) return Json.toText(node)
        val items = node.items
        if (items.size == 2 && (items[0] as? JString)?.text == "map" && items[1] is JArray) {
            val pairs = (items[1] as JArray).items.map { p -> (p as JArray).items.joinToString(",", "[", "]") { sortedMaps(it) } }
            return "[\"map\",[" + pairs.sorted().joinToString(",") + "]]"
        }
        return items.joinToString(",", "[", "]") { sortedMaps(it) }
    }

    private fun partialSkip(reason: String) {
        partialSkips[reason] = (partialSkips[reason] ?: 0) + 1
    }

    private fun decode(entry: String, hex: String, mode: DecodeMode, shift: Int, reencode: Boolean): Outcome {
        val input = Hex.decode(hex)
        val buffer = ByteArray(shift + input.size)
        System.arraycopy(input, 0, buffer, shift, input.size)
        return try {
            val decoded = entries.decode(entry, buffer, shift, input.size, mode)!!
            Outcome.Ok(decoded.value, if (reencode) decoded.reencode() else null)
        } catch (e: SmcException) {
            Outcome.Err(e.errorClass, e.offset)
        } catch (e: Throwable) {
            Outcome.Bug(e)
        }
    }
}
