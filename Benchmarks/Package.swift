// swift-tools-version: 6.1
import PackageDescription
import Foundation

/// `Realm.compact(path:)` is being added to the engine; until it exists the benchmark falls back
/// to the file as `insert_bulk` left it (plus a copy into a fresh file, see FileSizeTask). The
/// manifest looks for the declaration so the benchmark builds against either version.
let engineHasCompact: Bool = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Sources/RealmEngine").standardizedFileURL
    guard let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return false }
    for case let url as URL in files where url.pathExtension == "swift" {
        if let text = try? String(contentsOf: url, encoding: .utf8),
           text.contains("public static func compact(path:") { return true }
    }
    return false
}()

let package = Package(
    name: "realm-bench",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "realmtui", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "realm-bench",
            dependencies: [
                .product(name: "RealmEngine", package: "realmtui"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: engineHasCompact ? [.define("ENGINE_HAS_COMPACT")] : []
        ),
    ],
    swiftLanguageModes: [.v6]
)
