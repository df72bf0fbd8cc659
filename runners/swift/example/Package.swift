// swift-tools-version:5.9
// A runner for an outside Swift codec, built with the Swift runner kit of smc-conformance
// (runners/swift/README.md, "Judge your codec in 15 minutes"). Replace the path with
// `.package(url: "https://.../smc-conformance.git", from: "0.1.0")` in your own package.
import PackageDescription

let package = Package(
    name: "my-runner",
    dependencies: [
        .package(path: "../../..")  // the repository root (scripts/tests/test_kits.py rewrites it)
    ],
    targets: [
        .executableTarget(
            name: "my-runner",
            dependencies: [
                .product(name: "SMCRunnerKit", package: "smc-conformance"),
                .product(name: "SMCNotation", package: "smc-conformance"),
                .product(name: "StandardMessageCodec", package: "smc-conformance"),
            ])
    ]
)
