package dev.smc.codec

/**
 * The flat form: a message decoded into one array of nodes (pre-order, two longs each) and
 * one copy of its bytes, the C reference's arena tree in JVM terms. The host-value decoder
 * ([StandardMessageCodec]) makes an object per value — a boxed Integer/Long/Double, a String
 * and its byte array, an ArrayList and its Object[] — and every one of them is written to
 * fresh heap memory; here a decode makes three arrays whatever the message holds, and a
 * walk over it allocates nothing. Nodes ([SmcNode]) are views that build JVM values on
 * access. Custom values stay generic (tag + payload), as in [CustomValueCodec]: the flat
 * form has no hooks.
 *
 * The decoder applies the checks of [StandardMessageCodec.readValue] in the same order with
 * the same classes and offsets (the tests compare the two on every vector and fuzz input).
 */
class FlatCodec(val maxDepth: Int = DEFAULT_MAX_DEPTH) {

    fun decodeMessage(bytes: ByteArray, offset: Int = 0, length: Int = bytes.size - offset,
                      mode: DecodeMode = DecodeMode.FLUTTER): SmcNode {
        val d = FlatDecoder(SmcReader(bytes, offset, length, mode, maxDepth))
        d.readValue()
        d.requireEnd("the message value")
        return SmcNode(d.tree(bytes, offset, length), 0)
    }

    fun decodeMethodCall(bytes: ByteArray, offset: Int = 0, length: Int = bytes.size - offset,
                         mode: DecodeMode = DecodeMode.FLUTTER): FlatMethodCall {
        val d = FlatDecoder(SmcReader(bytes, offset, length, mode, maxDepth))
        val name = d.readStringElement("the method name", nullable = false)!!
        d.readValue()
        d.requireEnd("the method call")
        return FlatMethodCall(name, SmcNode(d.tree(bytes, offset, length), 0))
    }

    fun decodeEnvelope(bytes: ByteArray, offset: Int = 0, length: Int = bytes.size - offset,
                       mode: DecodeMode = DecodeMode.FLUTTER): FlatEnvelope {
        val r = SmcReader(bytes, offset, length, mode, maxDepth)
        val d = FlatDecoder(r)
        val flagOffset = r.position
        val envelope = when (val flag = r.readUnsignedByte("an envelope (its flag is missing)")) {
            StandardMethodCodec.SUCCESS_FLAG -> {
                d.readValue()
                d.requireEnd("the envelope")
                FlatEnvelope(null, null, SmcNode(d.tree(bytes, offset, length), 0), false, null)
            }
            StandardMethodCodec.ERROR_FLAG -> {
                val code = d.readStringElement("the error code", nullable = false)!!
                val message = d.readStringElement("the error message", nullable = true)
                d.readValue()
                var hasStacktrace = false
                var stacktrace: String? = null
                if (r.remaining > 0) {
                    hasStacktrace = true
                    stacktrace = d.readStringElement("the error stacktrace", nullable = true)
                }
                d.requireEnd("the envelope")
                FlatEnvelope(code, message, SmcNode(d.tree(bytes, offset, length), 0), hasStacktrace, stacktrace)
            }
            else -> throw SmcException(
                ErrorClass.BAD_ENVELOPE, flagOffset,
                "envelope flag 0x%02x is neither 00 nor 01 (spec §11.4)".format(flag)
            )
        }
        return envelope
    }

    /** A node's subtree as a message (a whole decoded message, or any part of one). */
    fun encodeMessage(node: SmcNode): ByteArray = SmcWriter.encode { FlatEncoder.write(node, it) }

    fun encodeMethodCall(call: FlatMethodCall): ByteArray = SmcWriter.encode {
        it.putString(call.method)
        FlatEncoder.write(call.arguments, it)
    }

    fun encodeEnvelope(envelope: FlatEnvelope): ByteArray = SmcWriter.encode {
        if (envelope.code == null) {
            it.write(StandardMethodCodec.SUCCESS_FLAG)
            FlatEncoder.write(envelope.details, it)
        } else {
            it.write(StandardMethodCodec.ERROR_FLAG)
            it.putString(envelope.code)
            it.putString(envelope.message)
            FlatEncoder.write(envelope.details, it)
            if (envelope.hasStacktrace) it.putString(envelope.stacktrace)
        }
    }
}

/** A method call in the flat form (spec §10). */
class FlatMethodCall(val method: String, val arguments: SmcNode)

/**
 * An envelope in the flat form (spec §11): success when [code] is null ([details] is then
 * the result), else an error with [message], [details] and the optional stacktrace.
 */
class FlatEnvelope(
    val code: String?,
    val message: String?,
    val details: SmcNode,
    val hasStacktrace: Boolean,
    val stacktrace: String?
)

/**
 * The storage of one decoded message: node i is `nodes[2i]` (tag in the low 8 bits, count
 * above: a container's elements or a Map's entries, a string's or byte array's length, a
 * typed list's elements) and `nodes[2i + 1]` (a scalar's bits, the offset of a payload in
 * [bytes], or for a container the index of the node after its subtree); [bytes] is the
 * tree's copy of the input. Immutable.
 */
class SmcTree internal constructor(internal val nodes: LongArray, val nodeCount: Int, internal val bytes: ByteArray) {
    internal fun tag(i: Int): Int = (nodes[2 * i] and 0xff).toInt()
    internal fun count(i: Int): Int = (nodes[2 * i] ushr 8).toInt()
    internal fun payload(i: Int): Long = nodes[2 * i + 1]

    /** The index of the node after the subtree of node [i]. */
    internal fun end(i: Int): Int =
        when (tag(i)) {
            StandardMessageCodec.LIST, StandardMessageCodec.MAP -> payload(i).toInt()
            else -> if (tag(i) >= 0x80) payload(i).toInt() else i + 1
        }
}

/** One value of a tree in the flat form; everything it refers to is the tree's own. */
class SmcNode(val tree: SmcTree, val index: Int) {
    /** The wire tag: 1 and 2 for the booleans, 128..255 for a custom value. */
    val tag: Int get() = tree.tag(index)

    val booleanValue: Boolean? get() = when (tag) {
        StandardMessageCodec.TRUE -> true
        StandardMessageCodec.FALSE -> false
        else -> null
    }

    val intValue: Int? get() = if (tag == StandardMessageCodec.INT32) tree.payload(index).toInt() else null
    val longValue: Long? get() = if (tag == StandardMessageCodec.INT64) tree.payload(index) else null
    val doubleValue: Double? get() =
        if (tag == StandardMessageCodec.FLOAT64) java.lang.Double.longBitsToDouble(tree.payload(index)) else null

    /** The text of a string or of a largeInt (tag 5). */
    val stringValue: String? get() =
        if (tag == StandardMessageCodec.STRING || tag == StandardMessageCodec.LARGE_INT) {
            String(tree.bytes, tree.payload(index).toInt(), tree.count(index), Charsets.UTF_8)
        } else null

    val bytes: ByteArray? get() = if (tag == StandardMessageCodec.UINT8_LIST) slice(1) else null

    val intArray: IntArray? get() = if (tag == StandardMessageCodec.INT32_LIST) reader(4).readIntArray(tree.count(index)) else null
    val longArray: LongArray? get() = if (tag == StandardMessageCodec.INT64_LIST) reader(8).readLongArray(tree.count(index)) else null
    val doubleArray: DoubleArray? get() = if (tag == StandardMessageCodec.FLOAT64_LIST) reader(8).readDoubleArray(tree.count(index)) else null
    val floatArray: FloatArray? get() = if (tag == StandardMessageCodec.FLOAT32_LIST) reader(4).readFloatArray(tree.count(index)) else null

    /** Elements of a List, entries of a Map, 1 for a custom value, 0 otherwise. */
    val count: Int get() = when {
        tag == StandardMessageCodec.LIST || tag == StandardMessageCodec.MAP -> tree.count(index)
        tag >= 0x80 -> 1
        else -> 0
    }

    /** The elements of a List (empty for anything else), in order. */
    val elements: List<SmcNode> get() =
        if (tag == StandardMessageCodec.LIST) children(tree.count(index)) else emptyList()

    /** The entries of a Map (empty for anything else), in wire order. */
    val entries: List<Pair<SmcNode, SmcNode>> get() {
        if (tag != StandardMessageCodec.MAP) return emptyList()
        return children(2 * tree.count(index)).chunked(2) { it[0] to it[1] }
    }

    val customTag: Int? get() = if (tag >= 0x80) tag else null
    val payload: SmcNode? get() = if (tag >= 0x80) SmcNode(tree, index + 1) else null

    /** The subtree as host values, as [CustomValueCodec] with [MapStyle.PAIRS] decodes them. */
    fun toHost(): Any? = when (tag) {
        StandardMessageCodec.NULL -> null
        StandardMessageCodec.TRUE -> true
        StandardMessageCodec.FALSE -> false
        StandardMessageCodec.INT32 -> intValue
        StandardMessageCodec.INT64 -> longValue
        StandardMessageCodec.LARGE_INT -> LargeInt(stringValue!!)
        StandardMessageCodec.FLOAT64 -> doubleValue
        StandardMessageCodec.STRING -> stringValue
        StandardMessageCodec.UINT8_LIST -> bytes
        StandardMessageCodec.INT32_LIST -> intArray
        StandardMessageCodec.INT64_LIST -> longArray
        StandardMessageCodec.FLOAT64_LIST -> doubleArray
        StandardMessageCodec.FLOAT32_LIST -> floatArray
        StandardMessageCodec.LIST -> elements.mapTo(ArrayList()) { it.toHost() }
        StandardMessageCodec.MAP -> {
            val pairs = MapPairs(count)
            for ((k, v) in entries) pairs.add(k.toHost(), v.toHost())
            pairs
        }
        else -> CustomValue(tag, payload!!.toHost())
    }

    private fun children(n: Int): List<SmcNode> {
        val out = ArrayList<SmcNode>(n)
        var i = index + 1
        for (k in 0 until n) {
            out.add(SmcNode(tree, i))
            i = tree.end(i)
        }
        return out
    }

    private fun slice(width: Int): ByteArray {
        val start = tree.payload(index).toInt()
        return tree.bytes.copyOfRange(start, start + tree.count(index) * width)
    }

    /** A reader positioned on this typed list's elements (the codec's bulk copies). */
    private fun reader(width: Int): SmcReader {
        val start = tree.payload(index).toInt()
        val r = SmcReader(tree.bytes, start, tree.count(index) * width, DecodeMode.FLUTTER, 1)
        return r
    }
}

/** The growing node array and the checks of one decode. */
internal class FlatDecoder(private val reader: SmcReader) {
    /**
     * Two longs per node. First guess: one node per 4 input bytes (a Pigeon record averages
     * 4.6 bytes per value), at most 64 Ki nodes; but a message that is one string, byte array
     * or typed list is one node, and zeroing a megabyte of nodes for it would cost more than
     * its copy.
     */
    private var nodes = LongArray(2 * guessNodes(reader))

    private fun guessNodes(r: SmcReader): Int {
        val first = r.peekUnsignedByte()
        val flat = first == StandardMessageCodec.STRING || first in StandardMessageCodec.UINT8_LIST..StandardMessageCodec.FLOAT64_LIST ||
            first == StandardMessageCodec.FLOAT32_LIST
        return if (flat) 16 else minOf(maxOf(r.length / 4, 16), 65536)
    }
    private var count = 0

    private fun append(tag: Int, n: Int, payload: Long): Int {
        if (2 * count + 2 > nodes.size) nodes = nodes.copyOf(nodes.size * 2)
        nodes[2 * count] = tag.toLong() or (n.toLong() shl 8)
        nodes[2 * count + 1] = payload
        return count++
    }

    private fun close(i: Int) {
        nodes[2 * i + 1] = count.toLong()
    }

    /** The tree: the nodes, and a copy of the input (payload offsets count from its start). */
    fun tree(bytes: ByteArray, offset: Int, length: Int): SmcTree =
        SmcTree(nodes, count, bytes.copyOfRange(offset, offset + length))

    /** One value and its subtree, with the checks of StandardMessageCodec.readValue. */
    fun readValue() {
        if (reader.remaining == 0) throw reader.truncated("a value (its tag is missing)")
        val tagOffset = reader.position
        val tag = reader.readUnsignedByte("a tag")
        if (tag == StandardMessageCodec.LIST || tag == StandardMessageCodec.MAP || tag >= 0x80) {
            if (reader.depth >= reader.maxDepth) {
                throw SmcException(
                    ErrorClass.DEPTH_LIMIT, tagOffset,
                    "container nested deeper than ${reader.maxDepth} levels (spec §15.1)"
                )
            }
            reader.depth++
            readContainer(tag)
            reader.depth--
            return
        }
        when (tag) {
            StandardMessageCodec.NULL, StandardMessageCodec.TRUE, StandardMessageCodec.FALSE -> append(tag, 0, 0)
            StandardMessageCodec.INT32 -> append(tag, 0, reader.readInt32LE("an int32").toLong())
            StandardMessageCodec.INT64 -> append(tag, 0, reader.readInt64LE("an int64"))
            StandardMessageCodec.LARGE_INT -> {
                if (reader.isStrict) {
                    throw SmcException(
                        ErrorClass.UNKNOWN_TAG, tagOffset,
                        "unknown tag 0x%02x (largeInt is off in strict mode, spec §4.4)".format(tag)
                    )
                }
                readUtf8(tag, "a largeInt")
            }
            StandardMessageCodec.FLOAT64 -> {
                reader.skipPadding(8, "a float64")
                append(tag, 0, reader.readInt64LE("a float64"))
            }
            StandardMessageCodec.STRING -> readUtf8(tag, "a string")
            StandardMessageCodec.UINT8_LIST -> {
                val n = reader.readCheckedSize(1, "a Uint8List")
                append(tag, n, reader.position.toLong())
                reader.skip(n)
            }
            StandardMessageCodec.INT32_LIST -> readTypedList(tag, 4, "an Int32List")
            StandardMessageCodec.INT64_LIST -> readTypedList(tag, 8, "an Int64List")
            StandardMessageCodec.FLOAT64_LIST -> readTypedList(tag, 8, "a Float64List")
            StandardMessageCodec.FLOAT32_LIST -> readTypedList(tag, 4, "a Float32List")
            else -> throw SmcException(ErrorClass.UNKNOWN_TAG, tagOffset, "unknown tag 0x%02x".format(tag))
        }
    }

    private fun readContainer(tag: Int) {
        when (tag) {
            StandardMessageCodec.LIST -> {
                val n = reader.readCheckedSize(1, "a List")
                val me = append(tag, n, 0)
                for (i in 0 until n) readValue()
                close(me)
            }
            StandardMessageCodec.MAP -> {
                val n = reader.readCheckedSize(2, "a Map")
                val me = append(tag, n, 0)
                for (i in 0 until 2 * n) readValue()
                close(me)
            }
            else -> {
                val me = append(tag, 1, 0)
                readValue()
                close(me)
            }
        }
    }

    private fun readUtf8(tag: Int, what: String) {
        val n = reader.readCheckedSize(1, what)
        append(tag, n, reader.position.toLong())
        reader.validateUtf8(n, what)
    }

    private fun readTypedList(tag: Int, width: Int, what: String) {
        val n = reader.readTypedListCount(width, what)
        append(tag, n, reader.position.toLong())
        reader.skip(width * n)
    }

    fun requireEnd(item: String) {
        if (reader.remaining > 0) {
            throw SmcException(
                ErrorClass.TRAILING_BYTES, reader.position,
                "${reader.remaining} byte(s) after $item (spec §9.1)"
            )
        }
    }

    /** A string element of a call or envelope, its tag checked first (StandardMethodCodec). */
    fun readStringElement(what: String, nullable: Boolean): String? {
        val tag = reader.checkStringElementTag(what, nullable)
        reader.readUnsignedByte(what)
        if (tag == StandardMessageCodec.NULL) return null
        return reader.readUtf8(reader.readCheckedSize(1, what), what)
    }
}

/** One pass over a subtree's nodes, which are in the order of the bytes (spec §13). */
internal object FlatEncoder {
    fun write(node: SmcNode, w: SmcWriter) {
        val t = node.tree
        val bytes = t.bytes
        for (i in node.index until t.end(node.index)) {
            val tag = t.tag(i)
            when (tag) {
                StandardMessageCodec.NULL, StandardMessageCodec.TRUE, StandardMessageCodec.FALSE -> w.write(tag)
                StandardMessageCodec.INT32 -> w.putInt(t.payload(i).toInt())
                StandardMessageCodec.INT64 -> w.putLong(t.payload(i))
                StandardMessageCodec.FLOAT64 -> {
                    w.write(tag)
                    w.writePadding(8)
                    w.writeInt64LE(t.payload(i))
                }
                StandardMessageCodec.LARGE_INT -> throw SmcException(
                    ErrorClass.NOT_ENCODABLE, SmcException.NO_OFFSET,
                    "largeInt (tag 5) is never written (spec §4.4)"
                )
                StandardMessageCodec.STRING, StandardMessageCodec.UINT8_LIST -> {
                    w.write(tag)
                    w.writeSize(t.count(i).toLong())
                    w.writeBytes(bytes, t.payload(i).toInt(), t.count(i))
                }
                StandardMessageCodec.INT32_LIST, StandardMessageCodec.FLOAT32_LIST -> typedList(w, t, i, 4)
                StandardMessageCodec.INT64_LIST, StandardMessageCodec.FLOAT64_LIST -> typedList(w, t, i, 8)
                StandardMessageCodec.LIST, StandardMessageCodec.MAP -> {
                    w.write(tag)
                    w.writeSize(t.count(i).toLong())
                }
                else -> w.write(tag) // custom 128..255: its payload node follows
            }
        }
    }

    /** Count, zero padding, then the wire's little-endian element bytes as they are (spec §6). */
    private fun typedList(w: SmcWriter, t: SmcTree, i: Int, width: Int) {
        w.write(t.tag(i))
        w.writeSize(t.count(i).toLong())
        w.writePadding(width)
        w.writeBytes(t.bytes, t.payload(i).toInt(), t.count(i) * width)
    }
}
