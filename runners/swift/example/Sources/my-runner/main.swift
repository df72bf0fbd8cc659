import Foundation
import SMCNotation
import SMCRunnerKit
import StandardMessageCodec

// A runner for an outside codec: everything a codec author writes to be judged through the
// Swift runner kit. `ExampleCodec` stands in for your codec, with its own API and its own
// error type; replace it with yours.

/// Your codec's documented error: it rejects malformed input and unsupported values with
/// `.corrupted` and gives no error class or offset (like Flutter's Swift and ObjC codecs).
enum ExampleCodecError: Error { case corrupted(String) }

/// Stand-in for your codec: a message codec reading from `Data`, as Flutter's do.
struct ExampleCodec {
    func decode(_ message: Data) throws -> SMCValue {
        do { return try SMCCodec().decodeMessage(message) } catch let error as SMCDecodingError {
            throw ExampleCodecError.corrupted(error.message)
        }
    }

    func encode(_ value: SMCValue) throws -> Data {
        do { return try SMCCodec().encodeMessageData(value) } catch let error as SMCEncodingError {
            throw ExampleCodecError.corrupted(error.message)
        }
    }
}

/// The plug-in: what the codec and its host express (runners/PROTOCOL.md P.1, P.7), the
/// options its author chooses, the two calls, and which errors are its documented ones.
struct ExampleBackend: RunnerBackend {
    let codec = ExampleCodec()
    let codecName = "swift-kit-example"
    let codecVersion = "1.0.0"
    let entries: [Entry] = [.message]
    let decodeCapabilities = allFeatures.filter {
        !["method-codec", "error-stacktrace", "strict-mode"].contains($0)
    }
    var encodeCapabilities: [String] { decodeCapabilities.filter { $0 != "largeint" } }
    let options = RunnerOptions(errorClasses: false, errorOffsets: false, placement: true)

    func decode(_ input: PlacedInput, entry: Entry, mode: SMCDecodingOptions.Mode) throws
        -> DecodedItem
    {
        // A Data slice: with `shift` its indices start past 0 and guard bytes follow it.
        let value = try codec.decode(input.data)
        return DecodedItem(
            summary: { ValueSummary(of: value) },
            notation: { Notation.json(value) },
            reencode: { [UInt8](try codec.encode(value)) })
    }

    func encode(_ notation: JSONValue, entry: Entry) throws -> [UInt8]? {
        [UInt8](try codec.encode(try Notation.value(from: notation)))
    }

    func rejection(_ error: Error) -> RunnerRejection? {
        guard case ExampleCodecError.corrupted(let message) = error else { return nil }
        return RunnerRejection(message: message)
    }
}

serveRunnerProtocol(RequestHandler(backend: ExampleBackend()))
