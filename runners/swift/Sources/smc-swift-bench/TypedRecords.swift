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
    case first = 0, second = 1, third = 2
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
        try r.readOptionalCustom(RecordTag.anrEnum) { try readPayload(from: r) } ?? nil
    }
}

func readStringPairs(_ r: SMCReader) throws -> StringPairs? {
    try r.readOptionalMap { count in
        var pairs = StringPairs()
        pairs.reserveCapacity(count)
        for _ in 0 ..< count {
            let key = try r.readOptionalString()
            pairs.append((key: key, value: try r.readOptionalString()))
        }
        return pairs
    }
}

func readAnyList(_ r: SMCReader) throws -> [Any?]? {
    try r.readOptionalList { count in
        var items = [Any?]()
        items.reserveCapacity(count)
        for _ in 0 ..< count { items.append(try r.readValue()) }
        return items
    }
}

extension AnrRecord: SMCRecord {
    static var customTag: UInt8 { RecordTag.anr }

    /// The record's payload (after its custom tag): the field list. Fields the list lacks
    /// stay nil; fields beyond the ones known here are skipped (a newer peer's schema).
    static func readPayload(from r: SMCReader) throws -> AnrRecord {
        guard let record = try r.readOptionalList({ count -> AnrRecord in
            var f = AnrRecord()
            var left = count
            func more() -> Bool {
                if left == 0 { return false }
                left -= 1
                return true
            }
            if more() { f.aBool = try r.readOptionalBool() }
            if more() { f.anotherBool = try r.readOptionalBool() }
            if more() { f.anInt = try r.readOptionalInt32() }
            if more() { f.anInt64 = try r.readOptionalInt64() }
            if more() { f.aDouble = try r.readOptionalDouble() }
            if more() { f.aString = try r.readOptionalString() }
            if more() { f.aByteArray = try r.readOptionalData() }
            if more() { f.a4ByteArray = try r.readOptionalInt32List() }
            if more() { f.a8ByteArray = try r.readOptionalInt64List() }
            if more() { f.aFloatArray = try r.readOptionalFloat64List() }
            if more() { f.aList = try readAnyList(r) }
            if more() { f.aMap = try readStringPairs(r) }
            if more() { f.anEnum = try AnrEnum.read(from: r) }
            if more() { f.anObject = try r.readValue() }
            if more() { f.aNullableString = try r.readOptionalString() }
            if more() { f.anEmptyString = try r.readOptionalString() }
            if more() { f.anotherInt = try r.readOptionalInt32() }
            if more() { f.anotherInt64 = try r.readOptionalInt64() }
            if more() { f.anotherDouble = try r.readOptionalDouble() }
            if more() { f.anotherString = try r.readOptionalString() }
            if more() { f.aNullableDouble = try r.readOptionalDouble() }
            if more() { f.thirdBool = try r.readOptionalBool() }
            if more() { f.anEmptyList = try readAnyList(r) }
            if more() { f.anEmptyMap = try readStringPairs(r) }
            if more() { f.anotherEnum = try AnrEnum.read(from: r) }
            if more() { f.anotherByteArray = try r.readOptionalData() }
            if more() { f.another4ByteArray = try r.readOptionalInt32List() }
            if more() { f.aNullableInt = try r.readOptionalInt64() }
            if more() { f.aSmallDouble = try r.readOptionalDouble() }
            if more() { f.anEmoji = try r.readOptionalString() }
            if more() {
                f.nestedLists = try r.readOptionalList { count in
                    var lists = [[Int32]]()
                    lists.reserveCapacity(count)
                    for _ in 0 ..< count {
                        lists.append(try r.readOptionalList { n in
                            var ints = [Int32]()
                            ints.reserveCapacity(n)
                            for _ in 0 ..< n {
                                guard let v = try r.readOptionalInt32() else {
                                    throw NullField(field: "nestedLists")
                                }
                                ints.append(v)
                            }
                            return ints
                        } ?? [])
                    }
                    return lists
                }
            }
            while left > 0 {
                try r.skipValue()
                left -= 1
            }
            return f
        }) else { throw NullField(field: "AnrRecord") }
        return record
    }
}

extension LatLng: SMCRecord {
    static var customTag: UInt8 { RecordTag.latLng }

    static func readPayload(from r: SMCReader) throws -> LatLng {
        guard let point = try r.readOptionalList({ count -> LatLng in
            guard count >= 2, let lat = try r.readOptionalDouble(), let lng = try r.readOptionalDouble()
            else { throw NullField(field: "LatLng") }
            for _ in 2 ..< max(count, 2) { try r.skipValue() }
            return LatLng(latitude: lat, longitude: lng)
        }) else { throw NullField(field: "LatLng") }
        return point
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
        guard let record = try readOptionalCustom(T.customTag, { try T.readPayload(from: self) })
        else { throw NullField(field: "\(T.self)") }
        return record
    }

    /// A List of records of one class.
    func readRecordList<T: SMCRecord>(_: T.Type) throws -> [T] {
        guard let list = try readOptionalList({ count -> [T] in
            var out = [T]()
            out.reserveCapacity(count)
            for _ in 0 ..< count { out.append(try readRecord(T.self)) }
            return out
        }) else { throw NullField(field: "[\(T.self)]") }
        return list
    }
}

extension RecordsWriter {
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
    for item in items { try w.writeValue(item) }
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
        try w.writeValue(anObject)
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
        guard let value = value else { return writeNull() }
        let type = ObjectIdentifier(Swift.type(of: value))
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

    /// Decodes the payload with the records reader; the result is a record or an array.
    /// The statically known record types are read with the typed reads; the reader's hook
    /// (`readValue(ofType:)`) serves the same classes inside `Any` fields.
    /// The reader reads the message in place, within `withUnsafeBytes` (as
    /// `SMCHostMessageCodec.decode` does).
    func decode(_ data: Data) throws -> Any {
        try data.withUnsafeBytes { bytes in
            let reader = RecordsReader(unsafeBytes: bytes)
            let result: Any
            switch self {
            case .anr: result = try reader.readRecord(AnrRecord.self)
            case .latLng: result = try reader.readRecord(LatLng.self)
            case .anrList: result = try reader.readRecordList(AnrRecord.self)
            case .latLngList: result = try reader.readRecordList(LatLng.self)
            }
            try reader.finish()
            return result
        }
    }

    /// The bytes as `Data` (what a channel sends), taking over the writer's buffer.
    func encode(_ decoded: Any) throws -> Data {
        let writer = RecordsWriter()
        switch self {
        case .anr: try (decoded as! AnrRecord).write(to: writer)
        case .latLng: try (decoded as! LatLng).write(to: writer)
        case .anrList: try writer.writeRecordList(decoded as! [AnrRecord])
        case .latLngList: try writer.writeRecordList(decoded as! [LatLng])
        }
        return writer.takeData()
    }

    /// Something observable about a decoded result (its record count).
    func count(_ decoded: Any) -> Int {
        switch self {
        case .anr, .latLng: return 1
        case .anrList: return (decoded as! [AnrRecord]).count
        case .latLngList: return (decoded as! [LatLng]).count
        }
    }
}
