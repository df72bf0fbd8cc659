import Foundation
import StandardMessageCodec

// The typed-record benchmark (bench/README.md "Typed records"): what generated code would
// declare for the records of bench/payloads/b_anr_* and c_latlng_*, read and written through
// SMCReader / SMCWriter subclasses (the Pigeon-shaped hooks) and their typed field reads.
// Field types follow the payload's wire types, so re-encoding gives the payload's bytes:
// int32 fields are Int32 (Java/C++-style Pigeon peers write int32), int64 fields Int64, and
// maps are pairs in wire order (a Swift Dictionary's order changes from process to process).

/// The enum of the records (custom tag 130 wrapping its index as an int32).
enum AnrEnum: Int32 {
    case first = 0
    case second = 1
    case third = 2
}

/// A map of strings in wire order.
typealias StringPairs = [(key: String?, value: String?)]

/// The AllNullableTypes-like record (custom tag 129 wrapping a 31-field list).
struct AnrRecord {
    var aBool: Bool?
    var anotherBool: Bool?
    var anInt: Int32?
    var anInt64: Int64?
    var aDouble: Double?
    var aString: String?
    var aByteArray: Data?
    var a4ByteArray: [Int32]?
    var a8ByteArray: [Int64]?
    var aFloatArray: [Double]?
    var aList: [Any?]?
    var aMap: StringPairs?
    var anEnum: AnrEnum?
    var anObject: Any?
    var aNullableString: String?
    var anEmptyString: String?
    var anotherInt: Int32?
    var anotherInt64: Int64?
    var anotherDouble: Double?
    var anotherString: String?
    var aNullableDouble: Double?
    var thirdBool: Bool?
    var anEmptyList: [Any?]?
    var anEmptyMap: StringPairs?
    var anotherEnum: AnrEnum?
    var anotherByteArray: Data?
    var another4ByteArray: [Int32]?
    var aNullableInt: Int64?
    var aSmallDouble: Double?
    var anEmoji: String?
    var nestedLists: [[Int32]]?

    static let fieldCount = 31
}

/// The LatLng-like record (custom tag 131 wrapping [float64, float64]).
struct LatLng {
    var latitude: Double
    var longitude: Double
}

/// What the generated code of a class provides: its tag and its payload both ways.
protocol SMCRecord {
    static var customTag: UInt8 { get }
    static func readPayload(from r: SMCReader) throws -> Self
    func writePayload(to w: SMCWriter) throws
}

extension SMCRecord {
    /// The record with its custom tag (spec §8).
    func write(to w: SMCWriter) throws {
        w.writeByte(Self.customTag)
        try writePayload(to: w)
    }
}

enum RecordTag {
    static let anr: UInt8 = 129
    static let anrEnum: UInt8 = 130
    static let latLng: UInt8 = 131
}

struct NullField: Error, CustomStringConvertible {
    let field: String
    var description: String { "null in non-null field \(field)" }
}

// MARK: Reading

extension AnrEnum {
    /// The enum's payload (after its custom tag): the index as an int32.
    static func readPayload(from r: SMCReader) throws -> AnrEnum? {
        guard let raw = try r.readOptionalInt32() else { return nil }
        return AnrEnum(rawValue: raw)
    }

    static func read(from r: SMCReader) throws -> AnrEnum? {
        guard try r.beginCustom(RecordTag.anrEnum) else { return nil }
        defer { r.endContainer() }
        return try readPayload(from: r)
    }
}

func readStringPairs(_ r: SMCReader) throws -> StringPairs? {
    guard let count = try r.beginMap() else { return nil }
    var pairs = StringPairs()
    pairs.reserveCapacity(count)
    for _ in 0..<count {
        let key = try r.readOptionalString()
        pairs.append((key: key, value: try r.readOptionalString()))
    }
    r.endContainer()
    return pairs
}

func readAnyList(_ r: SMCReader) throws -> [Any?]? {
    guard let count = try r.beginList() else { return nil }
    var items = [Any?]()
    items.reserveCapacity(count)
    for _ in 0..<count { items.append(try r.readAnyValue()) }
    r.endContainer()
    return items
}

func readNestedLists(_ r: SMCReader) throws -> [[Int32]]? {
    guard let count = try r.beginList() else { return nil }
    var lists = [[Int32]]()
    lists.reserveCapacity(count)
    for _ in 0..<count {
        guard let n = try r.beginList() else { throw NullField(field: "nestedLists") }
        var ints = [Int32]()
        ints.reserveCapacity(n)
        for _ in 0..<n {
            guard let v = try r.readOptionalInt32() else { throw NullField(field: "nestedLists") }
            ints.append(v)
        }
        r.endContainer()
        lists.append(ints)
    }
    r.endContainer()
    return lists
}

extension AnrRecord: SMCRecord {
    static var customTag: UInt8 { RecordTag.anr }

    /// The record's payload (after its custom tag): the field list. Fields the list lacks
    /// stay nil; fields beyond the ones known here are skipped (a newer peer's schema).
    /// Each field is read into a local and the record made once by its memberwise
    /// initialiser: filling a `var f = AnrRecord()` field by field destroyed each field's
    /// nil first through an outlined value witness, 351 instructions per record more
    /// (b_anr_1000, callgrind).
    static func readPayload(from r: SMCReader) throws -> AnrRecord {
        guard let count = try r.beginList() else { throw NullField(field: "AnrRecord") }
        var left = count
        func more() -> Bool {
            if left == 0 { return false }
            left -= 1
            return true
        }
        let aBool = more() ? try r.readOptionalBool() : nil
        let anotherBool = more() ? try r.readOptionalBool() : nil
        let anInt = more() ? try r.readOptionalInt32() : nil
        let anInt64 = more() ? try r.readOptionalInt64() : nil
        let aDouble = more() ? try r.readOptionalDouble() : nil
        let aString = more() ? try r.readOptionalString() : nil
        let aByteArray = more() ? try r.readOptionalData() : nil
        let a4ByteArray = more() ? try r.readOptionalInt32List() : nil
        let a8ByteArray = more() ? try r.readOptionalInt64List() : nil
        let aFloatArray = more() ? try r.readOptionalFloat64List() : nil
        let aList = more() ? try readAnyList(r) : nil
        let aMap = more() ? try readStringPairs(r) : nil
        let anEnum = more() ? try AnrEnum.read(from: r) : nil
        let anObject = more() ? try r.readAnyValue() : nil
        let aNullableString = more() ? try r.readOptionalString() : nil
        let anEmptyString = more() ? try r.readOptionalString() : nil
        let anotherInt = more() ? try r.readOptionalInt32() : nil
        let anotherInt64 = more() ? try r.readOptionalInt64() : nil
        let anotherDouble = more() ? try r.readOptionalDouble() : nil
        let anotherString = more() ? try r.readOptionalString() : nil
        let aNullableDouble = more() ? try r.readOptionalDouble() : nil
        let thirdBool = more() ? try r.readOptionalBool() : nil
        let anEmptyList = more() ? try readAnyList(r) : nil
        let anEmptyMap = more() ? try readStringPairs(r) : nil
        let anotherEnum = more() ? try AnrEnum.read(from: r) : nil
        let anotherByteArray = more() ? try r.readOptionalData() : nil
        let another4ByteArray = more() ? try r.readOptionalInt32List() : nil
        let aNullableInt = more() ? try r.readOptionalInt64() : nil
        let aSmallDouble = more() ? try r.readOptionalDouble() : nil
        let anEmoji = more() ? try r.readOptionalString() : nil
        let nestedLists = more() ? try readNestedLists(r) : nil
        while left > 0 {
            try r.skipValue()
            left -= 1
        }
        r.endContainer()
        return AnrRecord(
            aBool: aBool,
            anotherBool: anotherBool,
            anInt: anInt,
            anInt64: anInt64,
            aDouble: aDouble,
            aString: aString,
            aByteArray: aByteArray,
            a4ByteArray: a4ByteArray,
            a8ByteArray: a8ByteArray,
            aFloatArray: aFloatArray,
            aList: aList,
            aMap: aMap,
            anEnum: anEnum,
            anObject: anObject,
            aNullableString: aNullableString,
            anEmptyString: anEmptyString,
            anotherInt: anotherInt,
            anotherInt64: anotherInt64,
            anotherDouble: anotherDouble,
            anotherString: anotherString,
            aNullableDouble: aNullableDouble,
            thirdBool: thirdBool,
            anEmptyList: anEmptyList,
            anEmptyMap: anEmptyMap,
            anotherEnum: anotherEnum,
            anotherByteArray: anotherByteArray,
            another4ByteArray: another4ByteArray,
            aNullableInt: aNullableInt,
            aSmallDouble: aSmallDouble,
            anEmoji: anEmoji,
            nestedLists: nestedLists)
    }
}

extension LatLng: SMCRecord {
    static var customTag: UInt8 { RecordTag.latLng }

    static func readPayload(from r: SMCReader) throws -> LatLng {
        guard let count = try r.beginList(), count >= 2,
            let lat = try r.readOptionalDouble(), let lng = try r.readOptionalDouble()
        else { throw NullField(field: "LatLng") }
        for _ in 2..<count { try r.skipValue() }
        r.endContainer()
        return LatLng(latitude: lat, longitude: lng)
    }
}

/// The reader subclass a generated codec declares: its custom tags, then `super`.
final class RecordsReader: SMCReader {
    override func readValue(ofType type: UInt8) throws -> Any? {
        switch type {
        case RecordTag.anr: return try AnrRecord.readPayload(from: self)
        case RecordTag.anrEnum: return try AnrEnum.readPayload(from: self)
        case RecordTag.latLng: return try LatLng.readPayload(from: self)
        default: return try super.readValue(ofType: type)
        }
    }

    /// One record of a statically known class: its custom tag, then its payload.
    func readRecord<T: SMCRecord>(_: T.Type) throws -> T {
        guard try beginCustom(T.customTag) else { throw NullField(field: "\(T.self)") }
        defer { endContainer() }
        return try T.readPayload(from: self)
    }

    /// A List of records of one class.
    func readRecordList<T: SMCRecord>(_: T.Type) throws -> [T] {
        guard let count = try beginList() else { throw NullField(field: "[\(T.self)]") }
        var out = [T]()
        out.reserveCapacity(count)
        for _ in 0..<count { out.append(try readRecord(T.self)) }
        endContainer()
        return out
    }
}

extension RecordsWriter {
    /// A List of records of one class. Each element is copied before `write(to:)` (so is
    /// it with `for record in records`, or `withUnsafeBufferPointer`): the writer's methods
    /// are opaque calls, so the compiler does not pass a borrow of the array's memory. The
    /// copy is a retain and a release per string, array and Data field, 19% of
    /// typed_encode's time for AnrRecord (perf), a cost of Swift structs that Kotlin's
    /// references do not have.
    func writeRecordList<T: SMCRecord>(_ records: [T]) throws {
        try writeListHeader(count: records.count)
        for i in records.indices { try records[i].write(to: self) }
    }
}

// MARK: Writing

extension AnrEnum {
    func write(to w: SMCWriter) {
        w.writeByte(RecordTag.anrEnum)
        w.writeInt32(rawValue)
    }
}

func writeStringPairs(_ pairs: StringPairs?, to w: SMCWriter) throws {
    guard let pairs = pairs else { return w.writeNull() }
    try w.writeMapHeader(count: pairs.count)
    for (key, value) in pairs {
        try w.writeString(key)
        try w.writeString(value)
    }
}

func writeAnyList(_ items: [Any?]?, to w: SMCWriter) throws {
    guard let items = items else { return w.writeNull() }
    try w.writeListHeader(count: items.count)
    try items.withUnsafeBufferPointer { elements in
        guard let base = elements.baseAddress else { return }
        for i in 0..<elements.count { try w.writeAnyValue(at: base + i) }
    }
}

extension AnrRecord {
    func writePayload(to w: SMCWriter) throws {
        try w.writeListHeader(count: AnrRecord.fieldCount)
        w.writeBool(aBool)
        w.writeBool(anotherBool)
        w.writeInt32(anInt)
        w.writeInt64(anInt64)
        w.writeDouble(aDouble)
        try w.writeString(aString)
        try w.writeData(aByteArray)
        try w.writeInt32List(a4ByteArray)
        try w.writeInt64List(a8ByteArray)
        try w.writeFloat64List(aFloatArray)
        try writeAnyList(aList, to: w)
        try writeStringPairs(aMap, to: w)
        if let anEnum = anEnum { anEnum.write(to: w) } else { w.writeNull() }
        try w.writeAnyValue(anObject)
        try w.writeString(aNullableString)
        try w.writeString(anEmptyString)
        w.writeInt32(anotherInt)
        w.writeInt64(anotherInt64)
        w.writeDouble(anotherDouble)
        try w.writeString(anotherString)
        w.writeDouble(aNullableDouble)
        w.writeBool(thirdBool)
        try writeAnyList(anEmptyList, to: w)
        try writeStringPairs(anEmptyMap, to: w)
        if let anotherEnum = anotherEnum { anotherEnum.write(to: w) } else { w.writeNull() }
        try w.writeData(anotherByteArray)
        try w.writeInt32List(another4ByteArray)
        w.writeInt64(aNullableInt)
        w.writeDouble(aSmallDouble)
        try w.writeString(anEmoji)
        if let nestedLists = nestedLists {
            try w.writeListHeader(count: nestedLists.count)
            for ints in nestedLists {
                try w.writeListHeader(count: ints.count)
                for v in ints { w.writeInt32(v) }
            }
        } else {
            w.writeNull()
        }
    }
}

extension LatLng {
    func writePayload(to w: SMCWriter) throws {
        try w.writeListHeader(count: 2)
        w.writeDouble(latitude)
        w.writeDouble(longitude)
    }
}

/// The writer subclass a generated codec declares: its types, then `super`. The type tests
/// compare metatypes (as SMCWriter does): an `as?` cast per value and per class costs a
/// dynamic cast even when it fails.
final class RecordsWriter: SMCWriter {
    override func writeValue(_ value: Any?) throws {
        guard let type = value.map({ ObjectIdentifier(Swift.type(of: $0)) }) else {
            return writeNull()
        }
        if type == ObjectIdentifier(AnrRecord.self), let record = value as? AnrRecord {
            writeByte(RecordTag.anr)
            try record.writePayload(to: self)
        } else if type == ObjectIdentifier(LatLng.self), let point = value as? LatLng {
            writeByte(RecordTag.latLng)
            try point.writePayload(to: self)
        } else if type == ObjectIdentifier(AnrEnum.self), let anEnum = value as? AnrEnum {
            anEnum.write(to: self)
        } else {
            try super.writeValue(value)
        }
    }
}

/// The reader/writer factory of the generated codec.
final class RecordsReaderWriter: SMCReaderWriter {
    override func reader(with data: Data) -> SMCReader { RecordsReader(data: data) }
    override func reader(unsafeBytes bytes: UnsafeRawBufferPointer) -> SMCReader {
        RecordsReader(unsafeBytes: bytes)
    }
    override func writer() -> SMCWriter { RecordsWriter() }
}

// MARK: Payload shapes

/// What a record payload holds, from its first tags: one record, or a List of records of
/// one class (the first element's tag says which).
enum RecordShape {
    case anr, anrList, latLng, latLngList

    init(of data: Data) throws {
        let head = [UInt8](data.prefix(8))
        func kind(_ tag: UInt8) -> (single: RecordShape, list: RecordShape)? {
            switch tag {
            case RecordTag.anr: return (.anr, .anrList)
            case RecordTag.latLng: return (.latLng, .latLngList)
            default: return nil
            }
        }
        if let first = head.first, let k = kind(first) {
            self = k.single
            return
        }
        // A List: tag 12, a size (1, 3 or 5 bytes), then the first element's tag.
        if head.count >= 3, head[0] == 12 {
            let sizeBytes = head[1] < 254 ? 1 : head[1] == 254 ? 3 : 5
            if head.count > 1 + sizeBytes, let k = kind(head[1 + sizeBytes]) {
                self = k.list
                return
            }
        }
        throw PayloadFailure(description: "not a record payload (a record or a List of records)")
    }

    /// The typed ops of this shape: decode (returning the record count, so that nothing is
    /// cast or boxed in the timed path) and encode of the records decoded once, after the
    /// check that they re-encode to `data`.
    func operations(_ data: Data) throws -> (decode: () throws -> Int, encode: () throws -> Int) {
        switch self {
        case .anr: return try Self.operations(AnrRecord.self, list: false, data)
        case .anrList: return try Self.operations(AnrRecord.self, list: true, data)
        case .latLng: return try Self.operations(LatLng.self, list: false, data)
        case .latLngList: return try Self.operations(LatLng.self, list: true, data)
        }
    }

    private static func operations<T: SMCRecord>(_: T.Type, list: Bool, _ data: Data) throws
        -> (decode: () throws -> Int, encode: () throws -> Int)
    {
        let records = try decode(T.self, list: list, data)
        guard try encode(records, list: list) == data else {
            throw PayloadFailure(description: "typed re-encoding differs from the input")
        }
        return (
            { try decode(T.self, list: list, data).count },
            { try encode(records, list: list).count }
        )
    }

    /// The reader reads the message in place, within `withUnsafeBytes` (as
    /// `SMCHostMessageCodec.decode` does).
    static func decode<T: SMCRecord>(_: T.Type, list: Bool, _ data: Data) throws -> [T] {
        try data.withUnsafeBytes { bytes in
            let reader = RecordsReader(unsafeBytes: bytes)
            let records = list ? try reader.readRecordList(T.self) : [try reader.readRecord(T.self)]
            try reader.finish()
            return records
        }
    }

    /// The bytes as `Data` (what a channel sends), taking over the writer's buffer.
    static func encode<T: SMCRecord>(_ records: [T], list: Bool, _: Void = ()) throws -> Data {
        let writer = RecordsWriter()
        if list {
            try writer.writeRecordList(records)
        } else {
            try records[0].write(to: writer)
        }
        return writer.takeData()
    }
}
