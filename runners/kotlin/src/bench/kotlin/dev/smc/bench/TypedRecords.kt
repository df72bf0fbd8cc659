package dev.smc.bench

import dev.smc.codec.MapStyle
import dev.smc.codec.SmcReader
import dev.smc.codec.SmcWriter
import dev.smc.codec.StandardMessageCodec

// The typed-record benchmark (bench/README.md "Typed records"): what generated code would
// declare for the records of bench/payloads/b_anr_* and c_latlng_*, read and written through
// the codec's Pigeon-shaped hooks (readValueOfType / writeValue) and the typed field reads of
// SmcReader / writes of SmcWriter. Field types follow the payload's wire types, so that
// re-encoding gives the payload's bytes: int32 fields are Int (Java/C++-style Pigeon peers
// write int32), int64 fields Long; maps are LinkedHashMaps (wire order).

/** The enum of the records (custom tag 130 wrapping its index as an int32). */
enum class AnrEnum(val raw: Int) {
    FIRST(0), SECOND(1), THIRD(2);

    companion object {
        private val byRaw = values()
        fun ofRaw(raw: Int): AnrEnum? = if (raw in byRaw.indices) byRaw[raw] else null
    }
}

/** The AllNullableTypes-like record (custom tag 129 wrapping a 31-field list). */
data class AnrRecord(
    val aBool: Boolean? = null,
    val anotherBool: Boolean? = null,
    val anInt: Int? = null,
    val anInt64: Long? = null,
    val aDouble: Double? = null,
    val aString: String? = null,
    val aByteArray: ByteArray? = null,
    val a4ByteArray: IntArray? = null,
    val a8ByteArray: LongArray? = null,
    val aFloatArray: DoubleArray? = null,
    val aList: List<Any?>? = null,
    val aMap: Map<String?, String?>? = null,
    val anEnum: AnrEnum? = null,
    val anObject: Any? = null,
    val aNullableString: String? = null,
    val anEmptyString: String? = null,
    val anotherInt: Int? = null,
    val anotherInt64: Long? = null,
    val anotherDouble: Double? = null,
    val anotherString: String? = null,
    val aNullableDouble: Double? = null,
    val thirdBool: Boolean? = null,
    val anEmptyList: List<Any?>? = null,
    val anEmptyMap: Map<String?, String?>? = null,
    val anotherEnum: AnrEnum? = null,
    val anotherByteArray: ByteArray? = null,
    val another4ByteArray: IntArray? = null,
    val aNullableInt: Long? = null,
    val aSmallDouble: Double? = null,
    val anEmoji: String? = null,
    val nestedLists: List<List<Int>>? = null
) {
    companion object {
        const val FIELD_COUNT = 31
    }
}

/** The LatLng-like record (custom tag 131 wrapping [float64, float64]). */
data class LatLng(val latitude: Double, val longitude: Double)

class NullFieldException(field: String) : RuntimeException("null in non-null field $field")

/** The codec subclass a generated Kotlin codec declares: its tags and types, then super. */
class RecordsCodec : StandardMessageCodec(mapStyle = MapStyle.LINKED_HASH_MAP) {
    override fun readValueOfType(type: Byte, reader: SmcReader): Any? =
        when (type) {
            ANR.toByte() -> readAnrPayload(reader)
            ANR_ENUM.toByte() -> reader.readIntOrNull()?.let { AnrEnum.ofRaw(it) }
            LAT_LNG.toByte() -> readLatLngPayload(reader)
            else -> super.readValueOfType(type, reader)
        }

    override fun writeValue(writer: SmcWriter, value: Any?) {
        when (value) {
            is AnrRecord -> writeAnr(writer, value)
            is LatLng -> writeLatLng(writer, value)
            is AnrEnum -> writeEnum(writer, value)
            else -> super.writeValue(writer, value)
        }
    }

    // ---- reading ----

    /** One record of a statically known class: its custom tag, then its payload. */
    fun readAnr(r: SmcReader): AnrRecord {
        if (!r.openCustomOrNull(ANR)) throw NullFieldException("AnrRecord")
        val record = readAnrPayload(r)
        r.closeContainer()
        return record
    }

    fun readLatLng(r: SmcReader): LatLng {
        if (!r.openCustomOrNull(LAT_LNG)) throw NullFieldException("LatLng")
        val point = readLatLngPayload(r)
        r.closeContainer()
        return point
    }

    /**
     * A List of records of one class. Inline, so that each caller's element read is a direct
     * call (one shared loop would see every record class: a polymorphic call per element).
     */
    inline fun <T> readRecordList(r: SmcReader, element: (SmcReader) -> T): List<T> {
        val n = r.openListOrNull()
        if (n < 0) throw NullFieldException("record list")
        val out = ArrayList<T>(n)
        for (i in 0 until n) out.add(element(r))
        r.closeContainer()
        return out
    }

    private fun readEnum(r: SmcReader): AnrEnum? {
        if (!r.openCustomOrNull(ANR_ENUM)) return null
        val raw = r.readIntOrNull()
        r.closeContainer()
        return raw?.let { AnrEnum.ofRaw(it) }
    }

    private fun readStringMap(r: SmcReader): Map<String?, String?>? {
        val n = r.openMapOrNull()
        if (n < 0) return null
        val map = LinkedHashMap<String?, String?>(n * 2)
        for (i in 0 until n) {
            val key = r.readStringOrNull()
            map[key] = r.readStringOrNull()
        }
        r.closeContainer()
        return map
    }

    private fun readAnyList(r: SmcReader): List<Any?>? {
        val n = r.openListOrNull()
        if (n < 0) return null
        val list = ArrayList<Any?>(n)
        for (i in 0 until n) list.add(readValue(r))
        r.closeContainer()
        return list
    }

    private fun readNestedLists(r: SmcReader): List<List<Int>>? {
        val n = r.openListOrNull()
        if (n < 0) return null
        val lists = ArrayList<List<Int>>(n)
        for (i in 0 until n) {
            val m = r.openListOrNull()
            if (m < 0) throw NullFieldException("nestedLists")
            val ints = ArrayList<Int>(m)
            for (k in 0 until m) ints.add(r.readIntOrNull() ?: throw NullFieldException("nestedLists"))
            r.closeContainer()
            lists.add(ints)
        }
        r.closeContainer()
        return lists
    }

    /**
     * The record's payload (after its custom tag): the field list. Fields the list lacks stay
     * null; fields beyond the ones known here are skipped (a newer peer's schema).
     */
    fun readAnrPayload(r: SmcReader): AnrRecord {
        val n = r.openListOrNull()
        if (n < 0) throw NullFieldException("AnrRecord")
        var left = n
        val record = AnrRecord(
            aBool = if (left-- > 0) r.readBooleanOrNull() else null,
            anotherBool = if (left-- > 0) r.readBooleanOrNull() else null,
            anInt = if (left-- > 0) r.readIntOrNull() else null,
            anInt64 = if (left-- > 0) r.readLongOrNull() else null,
            aDouble = if (left-- > 0) r.readDoubleOrNull() else null,
            aString = if (left-- > 0) r.readStringOrNull() else null,
            aByteArray = if (left-- > 0) r.readByteArrayOrNull() else null,
            a4ByteArray = if (left-- > 0) r.readIntArrayOrNull() else null,
            a8ByteArray = if (left-- > 0) r.readLongArrayOrNull() else null,
            aFloatArray = if (left-- > 0) r.readDoubleArrayOrNull() else null,
            aList = if (left-- > 0) readAnyList(r) else null,
            aMap = if (left-- > 0) readStringMap(r) else null,
            anEnum = if (left-- > 0) readEnum(r) else null,
            anObject = if (left-- > 0) readValue(r) else null,
            aNullableString = if (left-- > 0) r.readStringOrNull() else null,
            anEmptyString = if (left-- > 0) r.readStringOrNull() else null,
            anotherInt = if (left-- > 0) r.readIntOrNull() else null,
            anotherInt64 = if (left-- > 0) r.readLongOrNull() else null,
            anotherDouble = if (left-- > 0) r.readDoubleOrNull() else null,
            anotherString = if (left-- > 0) r.readStringOrNull() else null,
            aNullableDouble = if (left-- > 0) r.readDoubleOrNull() else null,
            thirdBool = if (left-- > 0) r.readBooleanOrNull() else null,
            anEmptyList = if (left-- > 0) readAnyList(r) else null,
            anEmptyMap = if (left-- > 0) readStringMap(r) else null,
            anotherEnum = if (left-- > 0) readEnum(r) else null,
            anotherByteArray = if (left-- > 0) r.readByteArrayOrNull() else null,
            another4ByteArray = if (left-- > 0) r.readIntArrayOrNull() else null,
            aNullableInt = if (left-- > 0) r.readLongOrNull() else null,
            aSmallDouble = if (left-- > 0) r.readDoubleOrNull() else null,
            anEmoji = if (left-- > 0) r.readStringOrNull() else null,
            nestedLists = if (left-- > 0) readNestedLists(r) else null
        )
        while (left-- > 0) readValue(r)
        r.closeContainer()
        return record
    }

    fun readLatLngPayload(r: SmcReader): LatLng {
        val n = r.openListOrNull()
        if (n < 2) throw NullFieldException("LatLng")
        // Non-null fields: unboxed reads (null is a type mismatch there).
        val latitude = r.readDouble()
        val longitude = r.readDouble()
        for (i in 2 until n) readValue(r)
        r.closeContainer()
        return LatLng(latitude, longitude)
    }

    // ---- writing ----

    private fun writeEnum(w: SmcWriter, value: AnrEnum?) {
        if (value == null) return w.putNull()
        w.write(ANR_ENUM)
        w.putInt(value.raw)
    }

    private fun writeStringMap(w: SmcWriter, map: Map<String?, String?>?) {
        if (map == null) return w.putNull()
        w.putMapHeader(map.size)
        for ((k, v) in map) {
            w.putString(k)
            w.putString(v)
        }
    }

    private fun writeAnyList(w: SmcWriter, list: List<Any?>?) {
        if (list == null) return w.putNull()
        w.putListHeader(list.size)
        for (i in 0 until list.size) writeValue(w, list[i])
    }

    fun writeAnr(w: SmcWriter, v: AnrRecord) {
        w.write(ANR)
        w.putListHeader(AnrRecord.FIELD_COUNT)
        w.putBoolean(v.aBool)
        w.putBoolean(v.anotherBool)
        w.putInt(v.anInt)
        w.putLong(v.anInt64)
        w.putDouble(v.aDouble)
        w.putString(v.aString)
        w.putByteArray(v.aByteArray)
        w.putIntArray(v.a4ByteArray)
        w.putLongArray(v.a8ByteArray)
        w.putDoubleArray(v.aFloatArray)
        writeAnyList(w, v.aList)
        writeStringMap(w, v.aMap)
        writeEnum(w, v.anEnum)
        writeValue(w, v.anObject)
        w.putString(v.aNullableString)
        w.putString(v.anEmptyString)
        w.putInt(v.anotherInt)
        w.putLong(v.anotherInt64)
        w.putDouble(v.anotherDouble)
        w.putString(v.anotherString)
        w.putDouble(v.aNullableDouble)
        w.putBoolean(v.thirdBool)
        writeAnyList(w, v.anEmptyList)
        writeStringMap(w, v.anEmptyMap)
        writeEnum(w, v.anotherEnum)
        w.putByteArray(v.anotherByteArray)
        w.putIntArray(v.another4ByteArray)
        w.putLong(v.aNullableInt)
        w.putDouble(v.aSmallDouble)
        w.putString(v.anEmoji)
        val nested = v.nestedLists
        if (nested == null) {
            w.putNull()
        } else {
            w.putListHeader(nested.size)
            for (ints in nested) {
                w.putListHeader(ints.size)
                for (i in 0 until ints.size) w.putInt(ints[i])
            }
        }
    }

    fun writeLatLng(w: SmcWriter, v: LatLng) {
        w.write(LAT_LNG)
        w.putListHeader(2)
        w.putDouble(v.latitude)
        w.putDouble(v.longitude)
    }

    companion object {
        const val ANR = 129
        const val ANR_ENUM = 130
        const val LAT_LNG = 131
    }
}

/** What a record payload holds, from its first tags: one record, or a List of records. */
enum class RecordShape {
    ANR, ANR_LIST, LAT_LNG, LAT_LNG_LIST;

    fun decode(codec: RecordsCodec, bytes: ByteArray): Any {
        val r = codec.newReader(bytes, 0, bytes.size, dev.smc.codec.DecodeMode.FLUTTER)
        val result: Any = when (this) {
            ANR -> codec.readAnr(r)
            LAT_LNG -> codec.readLatLng(r)
            ANR_LIST -> codec.readRecordList(r) { codec.readAnr(it) }
            LAT_LNG_LIST -> codec.readRecordList(r) { codec.readLatLng(it) }
        }
        codec.requireFullyRead(r, "the message value")
        return result
    }

    @Suppress("UNCHECKED_CAST")
    fun encode(codec: RecordsCodec, decoded: Any): ByteArray = SmcWriter.encode { w ->
        when (this) {
            ANR -> codec.writeAnr(w, decoded as AnrRecord)
            LAT_LNG -> codec.writeLatLng(w, decoded as LatLng)
            ANR_LIST -> {
                val records = decoded as List<AnrRecord>
                w.putListHeader(records.size)
                for (i in 0 until records.size) codec.writeAnr(w, records[i])
            }
            LAT_LNG_LIST -> {
                val points = decoded as List<LatLng>
                w.putListHeader(points.size)
                for (i in 0 until points.size) codec.writeLatLng(w, points[i])
            }
        }
    }

    fun count(decoded: Any): Int = if (decoded is List<*>) decoded.size else 1

    companion object {
        fun of(bytes: ByteArray): RecordShape {
            fun kind(tag: Int): Pair<RecordShape, RecordShape>? = when (tag) {
                RecordsCodec.ANR -> ANR to ANR_LIST
                RecordsCodec.LAT_LNG -> LAT_LNG to LAT_LNG_LIST
                else -> null
            }
            val first = if (bytes.isNotEmpty()) bytes[0].toInt() and 0xff else -1
            kind(first)?.let { return it.first }
            // A List: tag 12, a size (1, 3 or 5 bytes), then the first element's tag.
            if (first == StandardMessageCodec.LIST && bytes.size >= 3) {
                val b1 = bytes[1].toInt() and 0xff
                val sizeBytes = if (b1 < 254) 1 else if (b1 == 254) 3 else 5
                if (bytes.size > 1 + sizeBytes) {
                    kind(bytes[1 + sizeBytes].toInt() and 0xff)?.let { return it.second }
                }
            }
            throw IllegalArgumentException("not a record payload (a record or a List of records)")
        }
    }
}
