import SMCNotation
import StandardMessageCodec
import XCTest

/// The notation reader's reject rules (spec/notation.md §N.4) and exactness (§N.5): the
/// runner and the vector test depend on them.
final class NotationTests: XCTestCase {
    private func parse(_ text: String) throws -> SMCValue {
        try Notation.value(from: try JSONParser.parse(text))
    }

    func testReadsEveryTypeWordExactly() throws {
        XCTAssertEqual(try parse(#"["i32", -2147483648]"#), .int32(.min))
        XCTAssertEqual(try parse(#"["i64", "-9223372036854775808"]"#), .int64(.min))
        XCTAssertEqual(try parse(#"["f64", "7ff0000000000001"]"#), .float64(0x7ff0_0000_0000_0001))
        XCTAssertEqual(try parse(#"["f32s", ["7fc00001"]]"#), .float32List([0x7fc0_0001]))
        XCTAssertEqual(try parse(#"["str", "a\u0000b\ud83d\ude02"]"#), .string("a\u{0}b\u{1F602}"))
        XCTAssertEqual(try parse(#"["bool", true]"#), .bool(true))
        XCTAssertEqual(
            try parse(#"["map", [[["null"], ["i32", 1]], [["null"], ["i32", 2]]]]"#),
            .map([(.null, .int32(1)), (.null, .int32(2))]))
        XCTAssertEqual(
            try parse(#"["custom", 255, ["u8s", ""]]"#), .custom(tag: 255, value: .uint8List([])))
    }

    func testRejectsWhatTheNotationForbids() {
        let invalid = [
            #"["i32", 1.0]"#, #"["i32", 1e2]"#, #"["i32", 2147483648]"#, #"["i32", "1"]"#,
            #"["i32", true]"#, #"["i64", "-0"]"#, #"["i64", "01"]"#, #"["i64", 5]"#,
            #"["i64", "9223372036854775808"]"#, #"["f64", "3FF0000000000000"]"#,
            #"["f64", "3ff000000000000"]"#, #"["u8s", "abc"]"#, #"["u8s", "AB"]"#,
            #"["str", "\ud800"]"#, #"["str", "\udc00x"]"#, #"["custom", 127, ["null"]]"#,
            #"["null", 1]"#, #"["bool"]"#, #"["nope"]"#, #"["map", [[["null"]]]]"#, #"[]"#,
        ]
        for text in invalid {
            XCTAssertThrowsError(try parse(text), text)
        }
    }

    func testWritesTheOneNotationForm() {
        let value = SMCValue.list([
            .int64(-5), .double(-0.0), .string("q\"\\\n\u{1}é"), .uint8List([0xab]),
        ])
        XCTAssertEqual(
            JSONWriter.string(Notation.json(value)),
            #"["list",[["i64","-5"],["f64","8000000000000000"],["str","q\"\\\n\u0001é"],["u8s","ab"]]]"#
        )
    }

    func testDeepNestingWithinTheNotationBudget() throws {
        // 128 list levels need 256 JSON array levels (notation.md §N.4).
        var text = #"["null"]"#
        for _ in 0..<128 { text = #"["list", [\#(text)]]"# }
        let value = try parse(text)
        XCTAssertNoThrow(try flutterCodec.decodeMessage(try flutterCodec.encodeMessage(value)))
    }
}
