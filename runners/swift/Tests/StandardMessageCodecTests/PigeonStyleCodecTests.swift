import Foundation
import SMCNotation
import StandardMessageCodec
import XCTest

// A generated-style codec, shaped like Pigeon's Swift output (wire-format-notes §4):
// enums first (tag 129, the raw value as a Swift Int → int64, notes §4.4), then data classes
// (tag 130, a list of fields in declaration order, notes §4.2).

enum Code: Int {
    case one = 0
    case two = 1
}

struct MessageData: Equatable {
    var name: String?
    var code: Code
    var data: [String?: String?]

    static func fromList(_ list: [Any?]) -> MessageData? {
        guard list.count == 3, let code = list[1] as? Code else { return nil }
        var data: [String?: String?] = [:]
        if let map = list[2] as? [AnyHashable: Any?] {
            for (key, value) in map { data[key.base as? String] = value as? String }
        }
        return MessageData(name: list[0] as? String, code: code, data: data)
    }

    func toList() -> [Any?] { [name, code, data] }
}

private final class MessagesCodecReader: SMCReader {
    override func readValue(ofType type: UInt8) throws -> Any? {
        switch type {
        case 129:
            // Accept either integer width, as Pigeon's Swift reader does through NSNumber.
            let raw = try readValue()
            let index = (raw as? Int64).map(Int.init) ?? (raw as? Int32).map(Int.init)
            return index.flatMap(Code.init(rawValue:))
        case 130:
            guard let fields = try readValue() as? [Any?] else { return nil }
            return MessageData.fromList(fields)
        default:
            return try super.readValue(ofType: type)
        }
    }
}

private final class MessagesCodecWriter: SMCWriter {
    override func writeValue(_ value: Any?) throws {
        if let code = value as? Code {
            writeByte(129)
            try super.writeValue(code.rawValue)
        } else if let message = value as? MessageData {
            writeByte(130)
            try super.writeValue(message.toList())
        } else {
            try super.writeValue(value)
        }
    }
}

private final class MessagesCodecReaderWriter: SMCReaderWriter {
    override func reader(with data: Data) -> SMCReader { MessagesCodecReader(data: data) }
    override func writer() -> SMCWriter { MessagesCodecWriter() }
}

final class PigeonStyleCodecTests: XCTestCase {
    private let codec = SMCHostMessageCodec(readerWriter: MessagesCodecReaderWriter())

    func testEnumIsTag129WithInt64Index() throws {
        XCTAssertEqual(Hex.encode(try codec.encode(Code.two)), "81040100000000000000")
        XCTAssertEqual(try codec.decode(bytes("81040100000000000000").asData) as? Code, .two)
        // Java and C++ write the index as int32 (notes §4.4); the reader accepts it.
        XCTAssertEqual(try codec.decode(bytes("810301000000").asData) as? Code, .two)
    }

    func testDataClassIsTag130ListOfFields() throws {
        let message = MessageData(name: "x", code: .one, data: [:])
        let wire = try codec.encode(message)
        XCTAssertEqual(Hex.encode(wire), "820c03070178" + "81040000000000000000" + "0d00")
        XCTAssertEqual(try codec.decode(wire) as? MessageData, message)
        // The same bytes through the lossless model: custom(130, list[...]).
        XCTAssertEqual(
            try flutterCodec.decodeMessage(wire),
            .custom(
                tag: 130,
                value: .list([.string("x"), .custom(tag: 129, value: .int64(0)), .map([])])))
    }

    func testPigeonRequestListWithNestedCustomValues() throws {
        let request: [Any?] = [MessageData(name: nil, code: .two, data: ["k": "v"]), Code.one, nil]
        let wire = try codec.encode(request)
        guard let decoded = try codec.decode(wire) as? [Any?], decoded.count == 3 else {
            return XCTFail("not a 3-element list")
        }
        XCTAssertEqual(
            decoded[0] as? MessageData, MessageData(name: nil, code: .two, data: ["k": "v"]))
        XCTAssertEqual(decoded[1] as? Code, .one)
        XCTAssertNil(decoded[2] as Any?)
    }

    func testBaseReaderKeepsUnclaimedCustomTagsGeneric() throws {
        let plain = SMCHostMessageCodec()
        let decoded = try plain.decode(
            bytes("83 0c02 06 00000000 000000000000f03f 0300000000").asData)
        let custom = try XCTUnwrap(decoded as? SMCCustomValue)
        XCTAssertEqual(custom.tag, 131)
        XCTAssertEqual(
            Hex.encode(try plain.encode(custom)), "830c020600000000000000000000f03f0300000000")
    }

    func testHostTypeMapping() throws {
        let plain = SMCHostMessageCodec()
        let cases: [(Any?, String)] = [
            (nil, "00"), (NSNull(), "00"), (SMCNull(), "00"), (true, "01"),
            (Int32(7), "0307000000"), (Int64(7), "040700000000000000"), (7, "040700000000000000"),
            (Int8(-2), "03feffffff"), (UInt32(0xfedc_ba09), "0409badcfe00000000"),
            (1.0, "0600000000000000000000000000f03f"),
            (Float(1.0), "0600000000000000000000000000f03f"),
            ("hi", "07026869"), (Data([1, 2]), "08020102"), ([UInt8]([1, 2]), "08020102"),
            ([Int32(1)], "0901000001000000"),
            ([Int64(1)], "0a010000000000000100000000000000"),
            ([Float(1.0)], "0e0100000000803f"),
            ([Int32?.some(1)], "0c010301000000"),
            ([Any?]([nil, "a"]), "0c0200070161"),
            // The fast path of the commonest types (an opened `Any`): false, a string too long
            // to be stored inline, and an Optional inside the `Any` (written as its payload).
            (false, "02"),
            ("twenty-byte string!!", "0714" + Hex.encode(Array("twenty-byte string!!".utf8))),
            (Int32?.some(1) as Any, "0301000000"), (Int?.none as Any, "00"),
            (
                SMCOrderedMap([(key: "b", value: 1), (key: "a", value: 2)]),
                "0d02070162040100000000000000070161040200000000000000"
            ),
        ]
        for (value, hex) in cases {
            XCTAssertEqual(Hex.encode(try plain.encode(value)), hex, "\(String(describing: value))")
        }
        XCTAssertThrowsError(try plain.encode(SMCLargeInt(text: "ff")))
        XCTAssertThrowsError(try plain.encode(Set([1])))
        XCTAssertThrowsError(try plain.encode(UInt64.max))
        // Decode side: widths stay distinct; maps as dictionaries with NSNull for null keys.
        XCTAssertEqual(try plain.decode(bytes("0307000000").asData) as? Int32, 7)
        XCTAssertEqual(try plain.decode(bytes("040700000000000000").asData) as? Int64, 7)
        let map = try XCTUnwrap(
            try plain.decode(bytes("0d02 00 0701 61 0c00 02").asData) as? [AnyHashable: Any?])
        XCTAssertEqual(map[AnyHashable(SMCNull())] as? String, "a")
        XCTAssertEqual(map.count, 2)
        let ordered = SMCHostMessageCodec(mapStyle: .orderedPairs)
        let pairs = try XCTUnwrap(
            try ordered.decode(bytes("0d02 0701 61 01 0701 61 02").asData) as? SMCOrderedMap)
        XCTAssertEqual(pairs.entries.count, 2, "duplicates kept")
        XCTAssertEqual(Hex.encode(try ordered.encode(pairs)), "0d020701610107016102")
    }

    func testHostReaderErrorsMatchTheSpec() {
        // Custom values read by a subclass count against the depth limit (spec §15.1).
        let deepEnums = Data([UInt8](repeating: 0x81, count: 129) + [0x00])
        XCTAssertThrowsError(try codec.decode(deepEnums)) { error in
            XCTAssertEqual(error as? SMCDecodingError, SMCDecodingError(.depthLimit, at: 128, ""))
        }
        XCTAssertNoThrow(try codec.decode(Data([UInt8](repeating: 0x82, count: 128) + [0x00])))
        let plain = SMCHostMessageCodec(options: .strict)
        XCTAssertThrowsError(try plain.decode(bytes("07fe02006162").asData)) { error in
            XCTAssertEqual(error as? SMCDecodingError, SMCDecodingError(.notCanonical, at: 1, ""))
        }
        XCTAssertThrowsError(try plain.decode(Data())) { error in
            XCTAssertEqual(error as? SMCDecodingError, SMCDecodingError(.truncated, at: 0, ""))
        }
    }
}

extension Array where Element == UInt8 {
    var asData: Data { Data(self) }
}
