import Foundation
import TestSupport
import FuzzTargets
import RealmEngine
import Testing

/// Every crash, hang, slow input and undetected corruption the fuzzers found, kept as a file under
/// `Tests/RealmEngineTests/Fixtures/Fuzz/<target>/`, replayed through the same entry function.
@Suite(.tags(.slow)) struct FuzzReplayTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("RealmEngineTests/Fixtures/Fuzz")

    /// The inputs saved for `target`, sorted by name.
    static func inputs(_ target: String) throws -> [(name: String, data: Data)] {
        let folder = fixtures.appendingPathComponent(target)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
            .sorted()
        return try names.map { ($0, try Data(contentsOf: folder.appendingPathComponent($0))) }
    }

    /// The small original files the file target mutates.
    static func originals() throws -> [Data] {
        try inputs("originals").map(\.data)
    }

    @Test func originalsPassCheckAndRead() throws {
        let originals = try Self.originals()
        #expect(originals.count >= 2)
        _ = try FileFuzzer(originals: originals)
    }

    @Test func fileInputs() throws {
        let target = try FileFuzzer(originals: try Self.originals())
        for input in try Self.inputs("file") {
            #expect(throws: Never.self, "file/\(input.name)") { try target.run(input.data) }
        }
    }

    /// The two undetected corruptions the file target found (issue 11, defects 7 and 8): a zeroed
    /// sector of the newest header slot fell back to the older slot silently (to an empty
    /// database for the compacted original). Now the lost slot is reported: `check` fails naming
    /// the version the slot would hold, and an opened `Realm` says so.
    @Test func zeroedHeaderSectorsAreReported() throws {
        let target = try FileFuzzer(originals: try Self.originals())
        let inputs = try Self.inputs("file").filter { $0.name.contains("sector-zeroed") }
        #expect(inputs.count == 2)
        for input in inputs {
            let file = try #require(target.mutatedFile(input.data), "file/\(input.name)")
            let scratch = TempDir("fuzz-replay")
            defer { withExtendedLifetime(scratch) {} }
            let folder = scratch.url
            let path = folder.appendingPathComponent("input.realm").path
            try file.write(to: URL(fileURLWithPath: path))
            #expect(Comment(rawValue: "file/\(input.name)")) {
                _ = try Realm.check(path: path)
            } throws: { error in
                guard case RealmError.corruptFile(_, _, let reason) = error else { return false }
                return reason.contains("header slot")
            }
            let realm = try Realm(
                configuration: .init(fileURL: URL(fileURLWithPath: path), readOnly: true, createIfMissing: false))
            #expect(realm.recoveredFromDamagedHeaderSlot, "file/\(input.name)")
            #expect(realm.recoveryWarning != nil, "file/\(input.name)")
        }
    }

    @Test func queryInputs() throws {
        let target = try QueryFuzzer()
        // Each input runs to its end without a crash (how long one takes is a benchmark's
        // business: a timed assertion failed correct code on a loaded machine).
        for input in try Self.inputs("query") { target.run(input.data) }
    }

    @Test func importInputs() throws {
        let demo = try Realm(
            configuration: .init(
                fileURL: Self.fixtures.deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                        "Resources/demo.realm"),
                readOnly: true, createIfMissing: false))
        let target = ImportFuzzer(schema: demo.schema)
        for input in try Self.inputs("import") {
            #expect(throws: Never.self, "import/\(input.name)") { try target.run(input.data) }
        }
    }

    /// The Realm file target: every saved input, and every original whole, plain and (the
    /// encrypted one) decrypted, read and converted — each must end in values or a
    /// `RealmError`, never a trap.
    @Test func coreInputs() throws {
        let fixtures = Self.fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("RealmCoreFormatTests/Fixtures")
        let originals = try CoreFileFuzzer.originalNames.map {
            try Data(contentsOf: fixtures.appendingPathComponent($0))
        }
        let key = CoreFileFuzzer.parseKey(
            try String(contentsOf: fixtures.appendingPathComponent("generated-encrypted.key"), encoding: .utf8))
        #expect(key.count == 64)
        let target = CoreFileFuzzer(originals: originals, key: key)
        for (index, original) in originals.enumerated() {
            let mode: UInt8 = index == originals.count - 1 ? 2 : 0
            #expect(throws: Never.self, "original \(index)") { try target.run(Data([mode | 4]) + original) }
        }
        for input in try Self.inputs("core") {
            #expect(throws: Never.self, "core/\(input.name)") { try target.run(input.data) }
        }
    }

    @Test func explorerInputs() throws {
        let target = ExplorerFuzzer()
        for input in try Self.inputs("explorer") {
            #expect(throws: Never.self, "explorer/\(input.name)") { try target.run(input.data) }
        }
    }
}
