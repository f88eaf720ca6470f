// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "realm-bench",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "realmtui", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // What every benchmark shares: the seeded generator, the clock, the load average.
        .target(name: "BenchSupport"),
        // SQLite's own C API (the system's libsqlite3, the library GRDB also links), so the
        // benchmark can measure SQLite without GRDB's Swift layer. Benchmarks only.
        .systemLibrary(name: "CSQLite3", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .executableTarget(
            name: "realm-bench",
            dependencies: [
                "CSQLite3", "BenchSupport",
                .product(name: "RealmEngine", package: "realmtui"),
                .product(name: "RealmSwift", package: "realmtui"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The explorer without a terminal on a big file: first frame, paging, query typing, sort.
        .executableTarget(
            name: "explorer-bench",
            dependencies: [
                "BenchSupport",
                .product(name: "RealmEngine", package: "realmtui"),
                .product(name: "RealmTUI", package: "realmtui"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
