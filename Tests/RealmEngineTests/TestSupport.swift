import Foundation
@testable import RealmEngine
import Testing

/// A fresh temporary folder per test, removed when the value is released.
final class TempDir {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("realmtui-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }
}

enum Fixtures {
    /// Person (pk id) ↔ Dog, with lists, optional scalars and backlinks.
    static let people = Schema([
        ObjectSchema(name: "Person", properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "name", type: .string, isIndexed: true),
            Property(name: "age", type: .int, isOptional: true),
            Property(name: "dogs", type: .object, isList: true, objectClassName: "Dog"),
            Property(name: "best", type: .object, objectClassName: "Dog"),
        ]),
        ObjectSchema(name: "Dog", properties: [
            Property(name: "name", type: .string),
            Property(name: "age", type: .int, defaultValue: .int(1)),
            Property(name: "tags", type: .string, isList: true),
            Property(name: "owners", type: .linkingObjects, objectClassName: "Person", linkOriginPropertyName: "dogs"),
        ]),
    ])
}

/// Executables of this package built next to the test bundle.
enum BuiltExecutable {
    static func url(_ name: String) -> URL? {
        var candidates: [URL] = []
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0])
        candidates.append(argv0.deletingLastPathComponent().appendingPathComponent(name))
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
        var dir = argv0.deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(dir.appendingPathComponent(name))
            dir = dir.deletingLastPathComponent()
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/\(name)"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs to completion; returns (exit code, stdout, stderr).
    @discardableResult
    static func run(_ name: String, _ arguments: [String]) throws -> (Int32, String, String) {
        guard let url = url(name) else { throw RealmError.fileNotFound(path: name) }
        let p = Process()
        p.executableURL = url
        p.arguments = arguments
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }
}

/// Damage done to a file's bytes for the tests of what a reader does with it.
enum FileDamage {
    /// The file's bytes and its newest header slot.
    static func newestSlot(_ path: String) throws -> (data: Data, slot: FileHeader.Slot) {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let slots = try data.withUnsafeBytes { raw in
            try FileHeader.read(base: try #require(raw.baseAddress), fileSize: UInt64(raw.count), path: path)
        }
        return (data, try #require(slots.first?.slot))
    }

    /// Flips a byte in the payload of the node at `offset`, so that it fails its checksum.
    static func flipPayloadByte(_ path: String, nodeAt offset: UInt64) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        let target = offset + UInt64(Node.headerSize) + 1
        try handle.seek(toOffset: target)
        let old = try #require(try handle.read(upToCount: 1)).first ?? 0
        try handle.seek(toOffset: target)
        handle.write(Data([old ^ 0x5A]))
    }
}

/// A deterministic generator (SplitMix64), so that every randomized case reproduces from its seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
