package dev.smc.bench

import dev.smc.codec.CustomValue
import dev.smc.codec.CustomValueCodec
import dev.smc.codec.Envelope
import dev.smc.codec.ErrorEnvelope
import dev.smc.codec.FlatCodec
import dev.smc.codec.FlatEnvelope
import dev.smc.codec.FlatMethodCall
import dev.smc.codec.SmcNode
import dev.smc.codec.MapPairs
import dev.smc.codec.MethodCall
import dev.smc.codec.StandardMethodCodec
import dev.smc.codec.SuccessEnvelope
import java.io.File
import kotlin.system.exitProcess

/**
 * Benchmark (not a test) of the Kotlin codec on the payloads of bench/payloads.json; fields
 * and definitions are in bench/README.md. One JSON object per payload and operation on stdout.
 *
 * Usage: Bench [--samples N] [--warmup-ms N] [--min-sample-us N] [--ops LIST]
 *              [--entry message|call|envelope] [--typed] [--profile-iterations N] FILE_OR_DIR...
 *   generic ops (default): decode, encode, roundtrip through CustomValueCodec (custom tags as
 *     CustomValue, maps as MapPairs); --entry applies to every file of the run.
 *   --typed: typed_decode, typed_encode over generated-code-shaped records (TypedRecords.kt);
 *     every file must be a record payload (a record or a List of records).
 *   --flat: the generic ops over the flat form (FlatCodec / SmcNode); codec "smc-kotlin-flat".
 *   --profile-iterations N: run each op N times, untimed, and print nothing (for profilers).
 *   --global-warmup-ms N: before any timing, run every op of every file for N ms (default
 *     2000), so the JIT has compiled every path with the profile of the whole run; the
 *     per-op warm-up (--warmup-ms) alone left the first payloads' code half-compiled.
 *   --jit-settle-ms N: then go on until the JIT has compiled nothing for 500 ms, for at most
 *     N ms from the start of the warm-up (default 20000; 0: no wait).
 * Default input: every .bin file in bench/payloads, relative to the working directory (or $SMC_BENCH_DIR).
 */
object Bench {
    @Volatile
    private var sink = 0

    class Options(
        var samples: Int = 200,
        var warmupMs: Long = 300,
        var globalWarmupMs: Long = 2000,
        var jitSettleMs: Long = 20000,
        var minSampleNs: Long = 50_000,
        var entry: String = "message",
        var typed: Boolean = false,
        var flat: Boolean = false,
        var ops: Set<String>? = null,
        var profileIterations: Int = 0,
        val inputs: MutableList<String> = ArrayList()
    )

    fun parse(args: Array<String>): Options {
        val o = Options()
        var i = 0
        fun value(): String {
            if (i + 1 >= args.size) usage("${args[i]} needs a value")
            return args[++i]
        }
        while (i < args.size) {
            when (args[i]) {
                "--samples" -> o.samples = maxOf(value().toInt(), 1)
                "--warmup-ms" -> o.warmupMs = value().toLong()
                "--global-warmup-ms" -> o.globalWarmupMs = value().toLong()
                "--jit-settle-ms" -> o.jitSettleMs = value().toLong()
                "--min-sample-us" -> o.minSampleNs = value().toLong() * 1000
                "--ops", "--op" -> o.ops = value().split(",").toSet()
                "--typed" -> o.typed = true
                "--flat" -> o.flat = true
                "--profile-iterations" -> o.profileIterations = value().toInt()
                "--entry" -> o.entry = value().also {
                    if (it !in listOf("message", "call", "envelope")) usage("bad --entry $it")
                }
                else -> if (args[i].startsWith("--")) usage("unknown option ${args[i]}") else o.inputs.add(args[i])
            }
            i++
        }
        if (o.inputs.isEmpty()) o.inputs.add(System.getenv("SMC_BENCH_DIR") ?: "bench/payloads")
        return o
    }

    private fun usage(message: String): Nothing {
        System.err.println("smc-kotlin-bench: $message")
        exitProcess(2)
    }

    fun payloads(inputs: List<String>): List<File> =
        inputs.flatMap { path ->
            val f = File(path)
            if (f.isDirectory) (f.listFiles() ?: emptyArray()).filter { it.name.endsWith(".bin") }.sortedBy { it.name }
            else listOf(f)
        }

    /** Values (bench/README.md): tagged values plus typed-list and Uint8List elements. */
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

    /**
     * Bytes this thread has allocated so far (HotSpot's per-thread counter; -1 where the JVM
     * has none): the difference over the timed samples, per op, is the op's allocation.
     */
    private fun allocatedBytes(): Long {
        val mx = java.lang.management.ManagementFactory.getThreadMXBean()
        return if (mx is com.sun.management.ThreadMXBean) mx.getThreadAllocatedBytes(Thread.currentThread().id) else -1L
    }

    /** Bytes allocated per op in the last [measure]'s timed samples (negative: unknown). */
    private var lastAllocPerOp = -1.0

    /**
     * After the fixed warm-up, keeps running [pass] (every op of every file) until the JIT
     * has compiled nothing for [JIT_QUIET_MS] of passes, for at most [Options.jitSettleMs]
     * from [start]. On a loaded machine the compiler threads get little CPU: C2's code for
     * the record readers (RecordsCodec.readAnrPayload, 535 bytes of bytecode) was installed
     * 3-4 s after start, after the 2 s warm-up, so a payload measured first ran profiling
     * C1 code (b_anr_1000 typed_decode 1.1-1.6 ms against 0.4-0.6 ms once compiled). Returns
     * how it ended, for the log.
     */
    private fun settleJit(o: Options, start: Long, pass: () -> Unit): String {
        val jit = java.lang.management.ManagementFactory.getCompilationMXBean()
        if (o.jitSettleMs <= 0 || jit == null || !jit.isCompilationTimeMonitoringSupported) return ""
        val cap = start + o.jitSettleMs * 1_000_000
        var compiled = jit.totalCompilationTime
        var quietSince = System.nanoTime()
        while (true) {
            val now = System.nanoTime()
            if (now - quietSince >= JIT_QUIET_MS * 1_000_000) return ", JIT settled"
            if (now >= cap) return ", JIT still compiling after --jit-settle-ms ${o.jitSettleMs}"
            pass()
            val c = jit.totalCompilationTime
            if (c != compiled) {
                compiled = c
                quietSince = System.nanoTime()
            }
        }
    }

    /** How long the JIT must have compiled nothing for the warm-up to end. */
    private const val JIT_QUIET_MS = 500L

    /** Per-operation nanoseconds of [Options.samples] samples, sorted; see bench/README.md. */
    fun measure(o: Options, op: () -> Int): LongArray {
        if (o.profileIterations > 0) {
            for (i in 0 until o.profileIterations) sink += op()
            return LongArray(0)
        }
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
        val allocatedBefore = allocatedBytes()
        for (s in 0 until o.samples) {
            val t0 = System.nanoTime()
            for (i in 0 until batch) sink += op()
            perOp[s] = (System.nanoTime() - t0) / batch
        }
        val ops = o.samples.toLong() * batch
        lastAllocPerOp = if (allocatedBefore < 0) -1.0 else (allocatedBytes() - allocatedBefore).toDouble() / ops
        perOp.sort()
        return perOp
    }

    private fun percentile(sorted: LongArray, p: Int): Long = sorted[((sorted.size - 1) * p + 50) / 100]

    /** The generic ops at the chosen entry point; checks the re-encoding first. */
    private fun genericOps(o: Options, bytes: ByteArray): Pair<Long, List<Pair<String, () -> Int>>> {
        val codec = CustomValueCodec()
        val methodCodec = StandardMethodCodec(codec)
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
        val host = decode(bytes)
        if (!encode(host).contentEquals(bytes)) throw IllegalStateException("re-encoding differs from the input")
        return countValues(host) to listOf(
            "decode" to { cheapDigest(decode(bytes)) },
            "encode" to { encode(host).size },
            "roundtrip" to { encode(decode(bytes)).size }
        )
    }

    /** The generic ops over the flat form at the chosen entry point. */
    private fun flatOps(o: Options, bytes: ByteArray): Pair<Long, List<Pair<String, () -> Int>>> {
        val codec = FlatCodec()
        val decode: (ByteArray) -> Any = when (o.entry) {
            "call" -> { b -> codec.decodeMethodCall(b) }
            "envelope" -> { b -> codec.decodeEnvelope(b) }
            else -> { b -> codec.decodeMessage(b) }
        }
        val encode: (Any) -> ByteArray = when (o.entry) {
            "call" -> { v -> codec.encodeMethodCall(v as FlatMethodCall) }
            "envelope" -> { v -> codec.encodeEnvelope(v as FlatEnvelope) }
            else -> { v -> codec.encodeMessage(v as SmcNode) }
        }
        val decoded = decode(bytes)
        if (!encode(decoded).contentEquals(bytes)) throw IllegalStateException("re-encoding differs from the input")
        val values = genericOps(o, bytes).first
        return values to listOf(
            "decode" to { if (decode(bytes) is SmcNode) 1 else 0 },
            "encode" to { encode(decoded).size },
            "roundtrip" to { encode(decode(bytes)).size }
        )
    }

    /** The typed ops: decode into records (TypedRecords.kt) and encode them back. */
    private fun typedOps(bytes: ByteArray): Pair<Long, List<Pair<String, () -> Int>>> {
        val shape = RecordShape.of(bytes)
        val codec = RecordsCodec()
        val decoded = shape.decode(codec, bytes)
        if (!shape.encode(codec, decoded).contentEquals(bytes)) {
            throw IllegalStateException("typed re-encoding differs from the input")
        }
        // The same records through the hooks alone (readValueOfType / writeValue of the codec
        // subclass), as values in a generic List: the same bytes again.
        if (!codec.encodeMessage(codec.decodeMessage(bytes)).contentEquals(bytes)) {
            throw IllegalStateException("re-encoding through the codec hooks differs from the input")
        }
        return countValues(CustomValueCodec().decodeMessage(bytes)) to listOf(
            "typed_decode" to { shape.count(shape.decode(codec, bytes)) },
            "typed_encode" to { shape.encode(codec, decoded).size }
        )
    }

    @JvmStatic
    fun main(args: Array<String>) {
        val o = parse(args)
        var failures = 0
        val prepared = ArrayList<Triple<File, Int, Pair<Long, List<Pair<String, () -> Int>>>>>()
        for (file in payloads(o.inputs)) {
            val bytes = file.readBytes()
            try {
                prepared.add(Triple(file, bytes.size, when {
                    o.typed -> typedOps(bytes)
                    o.flat -> flatOps(o, bytes)
                    else -> genericOps(o, bytes)
                }))
            } catch (e: RuntimeException) {
                emit(listOf("codec" to str(codecName(o)), "payload" to str(file.name), "error" to str(e.toString())))
                failures++
            }
        }
        if (o.profileIterations == 0 && o.globalWarmupMs > 0) {
            val start = System.nanoTime()
            val pass = { for ((_, _, prep) in prepared) for ((_, op) in prep.second) sink += op() }
            val end = start + o.globalWarmupMs * 1_000_000
            while (System.nanoTime() < end) pass()
            val settled = settleJit(o, start, pass)
            System.err.println("smc-kotlin-bench: warm-up %d ms%s".format((System.nanoTime() - start) / 1_000_000, settled))
        }
        for ((file, size, prep) in prepared) {
            val (values, ops) = prep
            for ((name, op) in ops) {
                if (o.ops != null && name !in o.ops!!) continue
                val t = measure(o, op)
                if (o.profileIterations > 0) continue
                val median = percentile(t, 50)
                emit(listOf(
                    "codec" to str(codecName(o)),
                    "payload" to str(file.name),
                    "op" to str(name),
                    "bytes" to size.toString(),
                    "values" to values.toString(),
                    "samples" to o.samples.toString(),
                    "median_ns" to median.toString(),
                    "p10_ns" to percentile(t, 10).toString(),
                    "p90_ns" to percentile(t, 90).toString(),
                    "mb_per_s" to String.format(java.util.Locale.ROOT, "%.1f", size * 1000.0 / maxOf(median, 1L)),
                    "ns_per_value" to String.format(java.util.Locale.ROOT, "%.2f", median.toDouble() / values),
                    "alloc_bytes_per_op" to String.format(java.util.Locale.ROOT, "%.0f", lastAllocPerOp)
                ))
            }
        }
        System.err.println("checksum $sink")
        exitProcess(if (failures == 0) 0 else 1)
    }

    private fun codecName(o: Options) = if (o.flat) "smc-kotlin-flat" else "smc-kotlin"

    /** [s] as a JSON string literal. */
    private fun str(s: String): String {
        val out = StringBuilder("\"")
        for (c in s) {
            when {
                c == '"' -> out.append("\\\"")
                c == '\\' -> out.append("\\\\")
                c < ' ' -> out.append(String.format("\\u%04x", c - '\u0000'))
                else -> out.append(c)
            }
        }
        return out.append('"').toString()
    }

    private fun emit(fields: List<Pair<String, String>>) {
        System.out.println(fields.joinToString(",", "{", "}") { "\"${it.first}\":${it.second}" })
        System.out.flush()
    }
}
