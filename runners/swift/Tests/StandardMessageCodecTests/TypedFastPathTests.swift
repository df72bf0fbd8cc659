import Foundation
import SMCNotation
import StandardMessageCodec
import XCTest

/// The one-bounds-check fast paths of the typed reads and the one-capacity-check typed
/// writes (issue 33): at every alignment and at every cut of the input they must agree
/// with the full path — the same value and position, or the same error class and offset
/// (spec/errors.md §14.2) — and write exactly the bytes of the lossless encoder.
final class TypedFastPathTests: XCTestCase {
    /// The value bytes of a float64 placed `offset` bytes into the message, with its
    /// padding filled with `padByte`.
    private func float64(at offset: Int, padByte: UInt8 = 0) -> [UInt8] {
        let padding = (8 - (offset + 1) % 8) % 8
        return [6] + [UInt8](repeating: padByte, count: padding) + [0, 0, 0, 0, 0, 0, 0xf8, 0x3f]
    }

    private func describe(_ result: Result<Any?, Error>) -> String {
        switch result {
        case .success(let value): return "value \(String(describing: value))"
        case .failure(let error as SMCDecodingError):
            return "error \(error.errorClass) at \(error.offset)"
        case .failure(let error): return "other error \(error)"
        }
    }

    /// `lead` nulls, then `value` cut to `cut` bytes: the typed read after the nulls against
    /// `readValue()` after them, value or error and the position reached.
    private func checkCuts(
        _ name: String, _ value: (Int) -> [UInt8], options: SMCDecodingOptions,
        typed: (SMCReader) throws -> Any?, file: StaticString = #filePath, line: UInt = #line
    ) {
        for lead in 0..<8 {
            let whole = value(lead)
            for cut in 0...whole.count {
                let input = Data([UInt8](repeating: 0, count: lead) + whole.prefix(cut))
                let fast = SMCReader(data: input, options: options)
                let full = SMCReader(data: input, options: options)
                for _ in 0..<lead {
                    XCTAssertNil(try fast.readOptionalBool())
                    XCTAssertNil(try full.readValue())
                }
                let got = describe(Result { try typed(fast) })
                let want = describe(Result { try full.readValue() })
                let what = "\(name) after \(lead) nulls, \(cut) of \(whole.count) bytes"
                XCTAssertEqual(got, want, what, file: file, line: line)
                if got == want, got.hasPrefix("value") {
                    XCTAssertEqual(fast.position, full.position, what, file: file, line: line)
                }
            }
        }
    }

    func testScalarAndStringReadsAgreeWithReadValueAtEveryCut() {
        let long = [UInt8](repeating: 0x61, count: 300)
        let cases: [(String, (Int) -> [UInt8], (SMCReader) throws -> Any?)] = [
            ("int32", { _ in [3, 0xfe, 0xff, 0xff, 0xff] }, { try $0.readOptionalInt32() }),
            ("int64", { _ in [4, 1, 2, 3, 4, 5, 6, 7, 0x80] }, { try $0.readOptionalInt64() }),
            ("float64", { self.float64(at: $0) }, { try $0.readOptionalDouble() }),
            ("empty string", { _ in [7, 0] }, { try $0.readOptionalString() }),
            ("string", { _ in [7, 3, 0x61, 0xc3, 0xa9] }, { try $0.readOptionalString() }),
            (
                "253-byte string", { _ in [7, 253] + long.prefix(253) },
                { try $0.readOptionalString() }
            ),
            ("3-byte size", { _ in [7, 254, 44, 1] + long }, { try $0.readOptionalString() }),
            ("bad UTF-8", { _ in [7, 3, 0x61, 0xc3, 0x28] }, { try $0.readOptionalString() }),
            ("null", { _ in [0] }, { try $0.readOptionalInt32() }),
        ]
        for options in [SMCDecodingOptions.flutter, .strict] {
            for (name, value, typed) in cases {
                checkCuts("\(name) (\(options.mode))", value, options: options, typed: typed)
            }
        }
    }

    /// Non-zero padding: accepted in flutter mode, `not_canonical` at the first such byte in
    /// strict mode (the fast path leaves strict mode to the full path).
    func testFloat64PaddingIsCheckedInStrictMode() {
        for options in [SMCDecodingOptions.flutter, .strict] {
            checkCuts(
                "float64 padded with 0xff (\(options.mode))",
                { self.float64(at: $0, padByte: 0xff) },
                options: options, typed: { try $0.readOptionalDouble() })
        }
        let strict = SMCReader(data: Data(float64(at: 0, padByte: 1)), options: .strict)
        XCTAssertThrowsError(try strict.readOptionalDouble()) {
            XCTAssertEqual($0 as? SMCDecodingError, SMCDecodingError(.notCanonical, at: 1, ""))
        }
    }

    /// Containers of nulls: the header read succeeds exactly when the whole container
    /// decodes, and fails with readValue's class and offset (the count check of §14.3).
    func testContainerHeadersAgreeWithReadValueAtEveryCut() {
        let nulls = [UInt8](repeating: 0, count: 300)
        let cases: [(String, [UInt8], (SMCReader) throws -> Any?)] = [
            ("list", [12, 3] + nulls.prefix(3), { try $0.beginList() }),
            ("empty list", [12, 0], { try $0.beginList() }),
            ("253-element list", [12, 253] + nulls.prefix(253), { try $0.beginList() }),
            ("3-byte list size", [12, 254, 44, 1] + nulls, { try $0.beginList() }),
            ("map", [13, 2] + nulls.prefix(4), { try $0.beginMap() }),
            ("127-entry map", [13, 127] + nulls.prefix(254), { try $0.beginMap() }),
        ]
        for (name, whole, typed) in cases {
            for cut in 0...whole.count {
                let input = Data(whole.prefix(cut))
                let header = Result { try typed(SMCReader(data: input)) }
                let full = Result { try SMCReader(data: input).readValue() }
                let what = "\(name), \(cut) of \(whole.count) bytes"
                switch (header, full) {
                case (.success, .success): break
                case (.failure(let a), .failure(let b)):
                    XCTAssertEqual(a as? SMCDecodingError, b as? SMCDecodingError, what)
                default: XCTFail("\(what): header \(describe(header)), readValue \(describe(full))")
                }
            }
        }
    }

    /// Every typed write, after 0 to 7 bytes (each float64's padding differs) and with sizes
    /// on both sides of the one-byte size form, gives the lossless encoder's bytes.
    func testTypedWritesMatchTheLosslessEncodingAtEveryAlignment() throws {
        for lead in 0..<8 {
            for length in [0, 1, 13, 253, 254, 300] {
                let text = String(repeating: "é", count: length / 2) + (length % 2 == 1 ? "a" : "")
                let blob = [UInt8](repeating: 0xab, count: length)
                let w = SMCWriter()
                try w.writeListHeader(count: lead + 8)
                for _ in 0..<lead { w.writeBool(true) }
                w.writeDouble(-2.5)
                w.writeInt32(-7)
                w.writeInt64(1 << 40)
                try w.writeString(text)
                try w.writeData(Data(blob))
                try w.writeListHeader(count: length)
                for _ in 0..<length { w.writeNull() }
                try w.writeMapHeader(count: 1)
                w.writeNull()
                w.writeDouble(0.25)
                try w.writeInt32List([1, 2])
                let expected: SMCValue = .list(
                    [SMCValue](repeating: .bool(true), count: lead) + [
                        .double(-2.5), .int32(-7), .int64(1 << 40), .string(text),
                        .uint8List(blob), .list([SMCValue](repeating: .null, count: length)),
                        .map([(.null, .double(0.25))]), .int32List([1, 2]),
                    ])
                XCTAssertEqual(
                    Hex.encode(w.bytes), Hex.encode(try flutterCodec.encodeMessage(expected)),
                    "\(lead) bools before, sizes \(length)")
            }
        }
    }
}
