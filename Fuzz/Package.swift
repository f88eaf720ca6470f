// swift-tools-version: 6.0
import PackageDescription

// libFuzzer targets for the engine and the explorer, kept apart so the main build never needs the
// fuzzer flags. Build with -sanitize=fuzzer,address (see README.md); the bodies live in the main
// package's FuzzTargets library, which the replay tests call too.
let fuzzers = ["fuzz-file", "fuzz-query", "fuzz-import", "fuzz-explorer", "fuzz-core"]

let package = Package(
    name: "realm-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "realmtui", path: ".."),
    ],
    targets: [
        // Declares LLVMFuzzerRunDriver: SwiftPM supplies main, so each fuzzer's main.swift starts libFuzzer itself.
        .target(name: "CFuzzerDriver"),
        // libFuzzer's entry point and the runner every fuzzer's main.swift calls.
        .target(
            name: "FuzzDriver",
            dependencies: ["CFuzzerDriver", .product(name: "FuzzTargets", package: "realmtui")]
        ),
    ] + fuzzers.map { name in
        .executableTarget(
            name: name,
            dependencies: [
                "FuzzDriver",
                .product(name: "FuzzTargets", package: "realmtui"),
                .product(name: "RealmEngine", package: "realmtui"),
            ]
        )
    },
    swiftLanguageModes: [.v6]
)
