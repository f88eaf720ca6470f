import Foundation
@testable import RealmEngine
// The shared helpers (TempDir, SeededGenerator, BuiltExecutable, tags, TestSize) for every file of this target.
@_exported import TestSupport
import Testing

enum Fixtures {
    /// Person (pk id) ↔ Dog, with lists, optional scalars and backlinks.
    static let people = Schema([
        ObjectSchema(
            name: "Person",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "name", type: .string, isIndexed: true),
                Property(name: "age", type: .int, isOptional: true),
                Property(name: "dogs", type: .object, isList: true, objectClassName: "Dog"),
                Property(name: "best", type: .object, objectClassName: "Dog"),
            ]),
        ObjectSchema(
            name: "Dog",
            properties: [
                Property(name: "name", type: .string),
                Property(name: "age", type: .int, defaultValue: .int(1)),
                Property(name: "tags", type: .string, isList: true),
                Property(
                    name: "owners", type: .linkingObjects, objectClassName: "Person", linkOriginPropertyName: "dogs"),
            ]),
    ])
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
