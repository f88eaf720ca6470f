// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "realmtui",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "RealmEngine", targets: ["RealmEngine"]),
        .library(name: "RealmTUI", targets: ["RealmTUI"]),
        // A read-only reader of the files Realm Core (every Realm SDK) writes, formats 20–24.
        .library(name: "RealmCoreFormat", targets: ["RealmCoreFormat"]),
        // The typed API (`Object`, `@Persisted`, `Results<T>`); re-exports RealmEngine.
        .library(name: "RealmSwift", targets: ["RealmSwift"]),
        // Offline-first sync of realmtui files through PostgreSQL (issue 27); links libpq.
        .library(name: "RealmSync", targets: ["RealmSync"]),
        .executable(name: "realmtui", targets: ["realmtui"]),
        // The fuzz targets' bodies, shared by Fuzz/ (libFuzzer) and the replay tests.
        .library(name: "FuzzTargets", targets: ["FuzzTargets"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
    ],
    targets: [
        .target(name: "CShims"),
        // ncursesw (Debian libncurses-dev) for the explorer's terminal backend, RealmTUI/Terminal
        // only. No pkgConfig: SwiftPM would drop its -D flags with a warning; shim.h sets them and
        // the module map links ncursesw (which pulls in tinfo).
        .systemLibrary(name: "CNCurses"),
        // OpenSSL libcrypto (Debian libssl-dev) for encrypted files: AES-256-CTR, HMAC-SHA-256,
        // RAND_bytes (Storage/PageCipher.swift). pkg-config gives no -D flags for it.
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // libpq (Debian libpq-dev) for sync through PostgreSQL, RealmSync only.
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "RealmSync", dependencies: ["RealmEngine", "CPostgres"]),
        .target(
            name: "RealmEngine",
            dependencies: ["CShims", "CCrypto"]
        ),
        .target(
            name: "RealmCoreFormat",
            dependencies: ["RealmEngine", "CCrypto"]
        ),
        .target(
            name: "RealmSwift",
            // RealmCoreFormat for writeCopy(toFile:format: .realmCore, encryptionKey:), RealmSync
            // for Realm.Configuration.sync.
            dependencies: ["RealmEngine", "CShims", "RealmCoreFormat", "RealmSync"]
        ),
        .target(
            name: "RealmTUI",
            // RealmCoreFormat for `:export realm PATH` (the Realm Core writer).
            dependencies: ["RealmEngine", "RealmCoreFormat", "CNCurses"]
        ),
        .executableTarget(
            name: "realmtui",
            dependencies: [
                "CShims",
                "RealmEngine",
                "RealmCoreFormat",
                "RealmTUI",
                "RealmSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A writer process for the multi-process and crash tests (not a product).
        .executableTarget(name: "realm-torture", dependencies: ["RealmEngine"]),
        // Notification tests and measurements across processes (a writer to observe, a writer to kill).
        .executableTarget(name: "realm-notify-probe", dependencies: ["RealmEngine"]),
        .target(name: "FuzzTargets", dependencies: ["RealmEngine", "RealmTUI", "RealmCoreFormat"]),
        // Helpers every test target shares: temporary folders, seeded randomness, child processes, tags, sizes.
        // RealmEngine for `InMemoryVersion`, the second implementation of `ReadableVersion`.
        .target(name: "TestSupport", dependencies: ["RealmEngine"], path: "Tests/TestSupport"),
        .testTarget(
            name: "RealmEngineTests", dependencies: ["RealmEngine", "realm-notify-probe", "TestSupport"],
            exclude: ["Fixtures"]),
        // Replays Tests/RealmEngineTests/Fixtures/Fuzz/<target>/* through the fuzz targets.
        .testTarget(name: "FuzzReplayTests", dependencies: ["FuzzTargets", "RealmEngine", "TestSupport"]),
        .testTarget(name: "RealmSwiftTests", dependencies: ["RealmSwift", "RealmCoreFormat", "TestSupport"]),
        .testTarget(
            name: "RealmTUITests", dependencies: ["RealmTUI", "RealmCoreFormat", "CShims", "TestSupport"],
            exclude: ["Golden"]),
        .testTarget(
            name: "RealmCoreFormatTests", dependencies: ["RealmCoreFormat", "TestSupport"], exclude: ["Fixtures"]),
        // Needs a PostgreSQL server (PGHOST): run under pg_virtualenv; skips visibly without one.
        .testTarget(
            name: "RealmSyncTests",
            dependencies: ["RealmSync", "RealmEngine", "RealmSwift", "RealmTUI", "realmtui", "TestSupport"]),
        .testTarget(
            name: "CLITests", dependencies: ["RealmEngine", "RealmTUI", "RealmCoreFormat", "realmtui", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
