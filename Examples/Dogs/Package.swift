// swift-tools-version: 6.0
import PackageDescription

// A RealmSwift app, unchanged but for running on Linux: `cd Examples/Dogs && swift run`.
let package = Package(
    name: "Dogs",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "realmtui", path: "../..")],
    targets: [
        .executableTarget(name: "Dogs", dependencies: [.product(name: "RealmSwift", package: "realmtui")]),
    ],
    swiftLanguageModes: [.v6]
)
