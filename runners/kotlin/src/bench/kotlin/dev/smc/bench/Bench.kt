package dev.smc.bench

import dev.smc.codec.CustomValue
import dev.smc.codec.CustomValueCodec
import dev.smc.codec.Envelope
import dev.smc.codec.ErrorEnvelope
import dev.smc.codec.MapPairs
import dev.smc.codec.MethodCall
import dev.smc.codec.SmcException
import dev.smc.codec.StandardMethodCodec
import dev.smc.codec.SuccessEnvelope
import dev.smc.runner.JObject
import dev.smc.runner.JNode
import dev.smc.runner.JNumber
import dev.smc.runner.JString
import dev.smc.runner.Json
import java.io.File

/**
 * Decode / encode / round-trip timings per payload (message entry point, custom tags through
 * the generic CustomValueCodec hook). One JSON object per payload and operation on stdout.
 *
 * Usage (all optional): Bench --samples N --warmup-ms N --min-sample-us N
 *   --entry message|call|envelope FILE_OR_DIR...  (--entry applies to every file of the run)
 * Default input: every .bin file in bench/payloads, relative to the working directory (or $SMC_BENCH_DIR).
 * "values" counts tagged values plus typed-list and Uint8List elements.
 */
object Bench {
    @Volatile
    private var sink = 0

    class Options(var samples: Int = 200, var warmupMs: Long = 300, var minSampleNs: Long = 50_000, var entry: String = "message", val inputs: MutableList<String> = ArrayList())

    fun parse(args: Array<String>): Options {
        val o = Options()
        var i = 0
        while (i < args.size) {
            when (args[i]) {
                "--samples" -> o.samples = args[++i].toInt()
                "--warmup-ms" -> o.warmupMs = args[++i].toLong()
                "--min-sample-us" -> o.minSampleNs = args[++i].toLong() * 1000
                "--entry" -> o.entry = args[++i].also { require(it in listOf("message", "call", "envelope")) { "bad --entry $it" } }
                else -> o.inputs.add(args[i])
            }
            i++
        }
        if (o.samples < 200) System.err.println("note: fewer than 200 samples requested (${o.samples})")
        if (o.inputs.isEmpty()) o.inputs.add(System.getenv("SMC_BENCH_DIR") ?: "bench/payloads")
        return o
    }

    fun payloads(inputs: List<String>): List<File> =
        inputs.flatMap { path ->
            val f = File(path)
            if (f.isDirectory) (f.listFiles() ?: emptyArray()).filter { it.name.endsWith(".bin") }.sortedBy { it.name }
            else listOf(f)
        }

    fun countValues(v: Any?): Long =
        when (v) {
            is List<*> -> 1L + v.fold(0L) { acc, e -> acc + countValues(e) }
            is MapPairs -> 1L + (0 until v.size).fold(0L) { acc, i -> acc + countValues(v.keys[i]) + countValues(v.values[i]) }
            is CustomValue -> 1L + countValues(v.value)
            is ByteArray -> 1L + v.size
            is IntArray -> 1L + v.size
            is LongArray -> 1L + v.size
            is DoubleArray -> 1L + v.size
            is FloatArray -> 1L + v.size
            is MethodCall -> 1L + countValues(v.arguments)
            is SuccessEnvelope -> countValues(v.result)
            is ErrorEnvelope -> 2L + countValues(v.details) + (if (v.hasStacktrace) 1L else 0L)
            else -> 1L
        }

    /** Keeps the result observable without walking it (hashCode would cost more than decoding). */
    private fun cheapDigest(v: Any?): Int =
        when (v) {
            is List<*> -> v.size
            is CustomValue -> v.tag
            is ByteArray -> v.size
            is DoubleArray -> v.size
            else -> if (v == null) 0 else 1
        }

    /** Per-operation nanoseconds for [samples] samples, each a batch sized to >= minSampleNs. */
    fun measure(o: Options, op: () -> Int): LongArray {
        // Warm-up (JIT) and batch calibration.
        var batch = 1
        val warmEnd = System.nanoTime() + o.warmupMs * 1_000_000
        while (true) {
            val t0 = System.nanoTime()
            for (i in 0 until batch) sink += op()
            val elapsed = System.nanoTime() - t0
            if (elapsed < o.minSampleNs && batch < (1 shl 24)) batch *= 2
            else if (System.nanoTime() >= warmEnd) break
        }
        val perOp = LongArray(o.samples)
        for (s in 0 until o.samples) {
            val t0 = System.nanoTime()
            for (i in 0 until batch) sink += op()
            perOp[s] = (System.nanoTime() - t0) / batch
        }
        perOp.sort()
        return perOp
    }

    private fun percentile(sorted: LongArray, p: Int): Long = sorted[((sorted.size - 1) * p) / 100]

    @JvmStatic
    fun main(args: Array<String>) {
        val o = parse(args)
        val codec = CustomValueCodec()
        val methodCodec = StandardMethodCodec(codec)
        // One decode / encode pair per entry point (spec §9, §10, §11).
        val decode: (ByteArray) -> Any? = when (o.entry) {
            "call" -> { b -> methodCodec.decodeMethodCall(b) }
            "envelope" -> { b -> methodCodec.decodeEnvelope(b) }
            else -> { b -> codec.decodeMessage(b) }
        }
        val encode: (Any?) -> ByteArray = when (o.entry) {
            "call" -> { v -> methodCodec.encodeMethodCall(v as MethodCall) }
            "envelope" -> { v -> methodCodec.encodeEnvelope(v as Envelope) }
            else -> { v -> codec.encodeMessage(v) }
        }
        for (file in payloads(o.inputs)) {
            val bytes = file.readBytes()
            val host = try {
                decode(bytes)
            } catch (e: SmcException) {
                emit(linkedMapOf("payload" to JString(file.name), "error" to JString("${e.errorClass} @${e.offset}: ${e.message}")))
                continue
            }
            val values = countValues(host)
            val ops = listOf<Pair<String, () -> Int>>(
                "decode" to { cheapDigest(decode(bytes)) },
                "encode" to { encode(host).size },
                "roundtrip" to { encode(decode(bytes)).size }
            )
            for ((name, op) in ops) {
                val t = measure(o, op)
                val median = percentile(t, 50)
                emit(linkedMapOf(
                    "codec" to JString("smc-kotlin"),
                    "payload" to JString(file.name),
                    "op" to JString(name),
                    "bytes" to JNumber(bytes.size.toString()),
                    "values" to JNumber(values.toString()),
                    "samples" to JNumber(o.samples.toString()),
                    "median_ns" to JNumber(median.toString()),
                    "p10_ns" to JNumber(percentile(t, 10).toString()),
                    "p90_ns" to JNumber(percentile(t, 90).toString()),
                    "mb_per_s" to JNumber(String.format(java.util.Locale.ROOT, "%.1f", bytes.size * 1000.0 / maxOf(median, 1L))),
                    "ns_per_value" to JNumber(String.format(java.util.Locale.ROOT, "%.2f", median.toDouble() / values))
                ))
            }
        }
    }

    private fun emit(fields: LinkedHashMap<String, JNode>) {
        System.out.println(Json.toText(JObject(fields)))
        System.out.flush()
    }
}
