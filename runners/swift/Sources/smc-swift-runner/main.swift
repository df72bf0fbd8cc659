import Foundation
import SMCRunnerKit
import StandardMessageCodec

// The runner process of runners/PROTOCOL.md over the Swift runner kit (SMCRunnerKit), with
// this package's two backends. Logs go to stderr.
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
serveRunnerProtocol(handler)
