import Foundation
import RealmCoreFormat
import RealmEngine

/// The Realm file target: reads the input as a Realm Core file — plain, or encrypted under a
/// fixed key — and everything in it: the dump of every table and object (lists, sets,
/// dictionaries, Mixed, links), the reads in place through the readable-version protocol
/// (`RealmCoreVersion`) and the conversion into this engine's objects. A Realm file has
/// no checksums, so a damaged one may read as other values; what must never happen is a crash, a
/// hang or an allocation the input's size does not justify. Errors are the expected outcome.
///
/// The first byte picks the mode. Bit 0 clear: the rest is the whole file. Set: the rest is a
/// mutation script for one of `originals` (a byte picks it, then groups of five bytes: an
/// operation and a 32-bit offset — flip a bit, set a byte, zero 64 bytes, truncate). Bit 1 set:
/// the file is decrypted with `key` first (the originals include an encrypted one). Bit 2 set:
/// the conversion runs too (a new in-memory Realm per input: a hundred times slower than the
/// dump, so only for the inputs that ask).
public final class CoreFileFuzzer {
    private let originals: [Data]
    private let key: [UInt8]

    /// The small Realm files of `Tests/RealmCoreFormatTests/Fixtures` the mutations start from
    /// (formats 20, 22 and 24, committed and streaming, one with embedded objects nested in
    /// their own class, and the encrypted one, last).
    public static let originalNames = [
        "watch-before.realm", "realm-swift_migration_default-v5.realm", "realm-core_test_upgrade_database_20.realm",
        "realm-core_test_upgrade_database_1000_22.realm", "realm-studio_asset_file.realm", "generated-compacted.realm",
        "generated-embedded-chain.realm", "generated-encrypted.realm",
    ]

    /// A key written as 128 hex digits (the fixtures' `.key` files); empty when it is not one.
    public static func parseKey(_ text: String) -> [UInt8] {
        let digits = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        guard digits.count == 128 else { return [] }
        var key: [UInt8] = []
        for index in stride(from: 0, to: 128, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
                return []
            }
            key.append(byte)
        }
        return key
    }

    /// A target over `originals` (Realm files), decrypting with `key` (64 bytes) when an input
    /// asks.
    public init(originals: [Data], key: [UInt8]) {
        self.originals = originals
        self.key = key
    }

    /// Runs one input. Errors from the reader are the expected outcome and are not findings.
    public func run(_ data: Data) throws {
        guard let mode = data.first else { return }
        let body = data.dropFirst()
        let bytes: [UInt8]
        if mode & 1 == 0 || originals.isEmpty {
            bytes = Array(body)
        } else {
            guard let mutated = mutatedFile(body) else { return }
            bytes = mutated
        }
        do {
            let image: RealmCoreImage
            if mode & 2 != 0 {
                image = try bytes.withUnsafeBytes { try RealmCoreDecryption.decrypt($0, key: key, path: "fuzz.realm") }
            } else {
                image = RealmCoreImage(copying: bytes)
            }
            // In place first, on its own: a damage the dump stops at must not hide the in-place reads.
            do { try readInPlace(image) } catch is RealmError {}
            try readEverything(image, converting: mode & 4 != 0)
        } catch is RealmError {
            return
        }
    }

    /// The original the script in `body` names, mutated; nil for an empty script.
    func mutatedFile(_ body: Data.SubSequence) -> [UInt8]? {
        guard let choice = body.first else { return nil }
        var file = [UInt8](originals[Int(choice) % originals.count])
        var script = body.dropFirst()
        while script.count >= 5, !file.isEmpty {
            let operation = script[script.startIndex]
            let raw = script.dropFirst().prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            script = script.dropFirst(5)
            let offset = Int(raw) % file.count
            switch operation % 4 {
            case 0: file[offset] ^= 1 << (operation >> 5)
            case 1: file[offset] = UInt8(truncatingIfNeeded: raw >> 24) ^ operation
            case 2: for index in offset..<min(offset + 64, file.count) { file[index] = 0 }
            default: file.removeSubrange(offset...)
            }
        }
        return file
    }

    /// Reads `image` in place through the readable-version protocol (`RealmCoreVersion`): every
    /// class's count, keys, windows and key bound, the rows of its first objects, their
    /// backlinks and a primary-key lookup.
    private func readInPlace(_ image: RealmCoreImage) throws {
        let version = try RealmCoreVersion(file: RealmCoreFile(image: image, name: "fuzz.realm"))
        for (c, objectSchema) in version.schema.objectSchemas.enumerated() {
            _ = try version.count(classIndex: c)
            _ = try version.keys(classIndex: c, in: 0..<50)
            _ = try version.keyBound(classIndex: c)
            let keys = try version.keys(classIndex: c).prefix(500)
            for key in keys { _ = try version.row(classIndex: c, key: key) }
            if let first = keys.first, let pk = objectSchema.persistedProperties.firstIndex(where: \.isPrimaryKey) {
                _ = try version.object(
                    classIndex: c, primaryKey: try version.value(classIndex: c, key: first, column: pk))
            }
            for (o, origin) in version.schema.objectSchemas.enumerated() {
                for (j, property) in origin.persistedProperties.enumerated()
                where property.objectClassName == objectSchema.name {
                    for key in keys.prefix(50) {
                        _ = try version.backlinks(classIndex: c, key: key, originClass: o, originColumn: j)
                    }
                }
            }
        }
    }

    /// Reads all of `image` the ways the product does: the dump (every value of every object)
    /// and the conversion into an in-memory Realm (embedded objects' parents checked, as
    /// `check` does too).
    private func readEverything(_ image: RealmCoreImage, converting: Bool) throws {
        let file = try RealmCoreFile(image: image, name: "fuzz.realm")
        _ = try RealmCoreDumper(file: file, fileName: "fuzz.realm").dump()
        guard converting else { return }
        var conversion = try RealmCoreConversion(file: file)
        _ = try conversion.checkEmbeddedObjects()
        let realm = try Realm(
            configuration: .init(inMemoryIdentifier: "core-fuzz-\(UUID().uuidString)", schema: conversion.schema))
        try realm.write { try conversion.copy(into: realm) }
    }
}
