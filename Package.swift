// swift-tools-version:5.9
// The Swift side of smc-conformance for other packages:
//
//   .package(url: "https://.../smc-conformance.git", from: "0.1.0")
//
// Products: StandardMessageCodec (the Foundation-only codec), SMCNotation (the value
// notation of spec/notation.md), SMCRunnerKit (the runner protocol and the RunnerBackend
// plug-in protocol a codec implements to be judged, runners/swift/README.md), and the
// executable smc-swift-runner. The sources live in runners/swift/, whose own Package.swift
// builds them with this repository's tests and benchmark. Foundation only.
import PackageDescription

let sources = "runners/swift/Sources/"

let package = Package(
    name: "smc-conformance",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "StandardMessageCodec", targets: ["StandardMessageCodec"]),
        .library(name: "SMCNotation", targets: ["SMCNotation"]),
        .library(name: "SMCRunnerKit", targets: ["SMCRunnerKit"]),
        .executable(name: "smc-swift-runner", targets: ["smc-swift-runner"]),
    ],
    targets: [
        .target(name: "StandardMessageCodec", path: sources + "StandardMessageCodec"),
        .target(
            name: "SMCNotation", dependencies: ["StandardMessageCodec"],
            path: sources + "SMCNotation"),
        .target(
            name: "SMCRunnerKit", dependencies: ["StandardMessageCodec", "SMCNotation"],
            path: sources + "SMCRunnerKit"),
        .executableTarget(
            name: "smc-swift-runner",
            dependencies: ["StandardMessageCodec", "SMCNotation", "SMCRunnerKit"],
            path: sources + "smc-swift-runner"),
    ]
)
