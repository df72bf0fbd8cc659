// swift-tools-version:5.9
// Foundation only, no outside packages: the package must build offline on Linux and on
// Apple platforms (see README.md). The repository root's Package.swift offers the same
// libraries and runner to other packages (`.package(url: ...)`); this one also holds the
// tests and the benchmark.
import PackageDescription

let package = Package(
    name: "smc-swift",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "StandardMessageCodec", targets: ["StandardMessageCodec"]),
        .library(name: "SMCNotation", targets: ["SMCNotation"]),
        .library(name: "SMCRunnerKit", targets: ["SMCRunnerKit"]),
        .executable(name: "smc-swift-runner", targets: ["smc-swift-runner"]),
        .executable(name: "smc-swift-bench", targets: ["smc-swift-bench"]),
    ],
    targets: [
        // The codec: wire format <-> SMCValue, plus the Pigeon-shaped host-value API.
        .target(name: "StandardMessageCodec"),
        // The value notation of spec/notation.md (JSON) <-> SMCValue; used by the runner
        // and the vector tests, never by the codec itself.
        .target(name: "SMCNotation", dependencies: ["StandardMessageCodec"]),
        // The runner kit: the protocol, input placement, the ownership check and the
        // RunnerBackend plug-in protocol a codec implements (README.md).
        .target(name: "SMCRunnerKit", dependencies: ["StandardMessageCodec", "SMCNotation"]),
        .executableTarget(
            name: "smc-swift-runner",
            dependencies: ["StandardMessageCodec", "SMCNotation", "SMCRunnerKit"]),
        .executableTarget(name: "smc-swift-bench", dependencies: ["StandardMessageCodec"]),
        // The kit's scripted plug-in for runners/protocol-cases.json (scripts/tests/kit_cases.py).
        .executableTarget(
            name: "smc-swift-scripted-plugin",
            dependencies: ["StandardMessageCodec", "SMCNotation", "SMCRunnerKit"]),
        .testTarget(
            name: "StandardMessageCodecTests",
            dependencies: ["StandardMessageCodec", "SMCNotation"]),
    ]
)
