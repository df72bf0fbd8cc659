import Foundation
import SMCNotation
import StandardMessageCodec

// The runner process of runners/PROTOCOL.md: one JSON request per stdin line, one JSON
// response per stdout line, written (unbuffered) as soon as it is ready. Logs go to stderr.
//
//   smc-swift-runner          the lossless SMCValue codec (all entry points)
//   smc-swift-runner --host   the Pigeon-shaped SMCReader/SMCWriter pair (messages only);
//                             replace SMCReaderWriter() below with a generated codec's
//                             reader/writer factory to test that codec (README.md).
//   --no-shift                leave the placement option `shift` out (P.1)

let arguments = CommandLine.arguments.dropFirst()
let backend: RunnerBackend
if arguments.contains("--host") {
    backend = HostModelBackend(readerWriter: SMCReaderWriter())
} else {
    backend = ValueModelBackend()
}
var handler = RequestHandler(backend: backend)
handler.placement = !arguments.contains("--no-shift")
let output = FileHandle.standardOutput

while let line = readLine(strippingNewline: true) {
    if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
    var (bytes, shouldExit) = handler.answer(Array(line.utf8))
    bytes.append(0x0A)
    output.write(Data(bytes))
    if shouldExit { exit(0) }
}
exit(0)
