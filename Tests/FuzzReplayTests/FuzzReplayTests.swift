import Foundation
import FuzzTargets
import RealmEngine
import Testing

/// Every crash, hang, slow input and undetected corruption the fuzzers found, kept as a file under
/// `Tests/RealmEngineTests/Fixtures/Fuzz/<target>/`, replayed through the same entry function.
@Suite struct FuzzReplayTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("RealmEngineTests/Fixtures/Fuzz")

    /// The inputs saved for `target`, sorted by name.
    static func inputs(_ target: String) throws -> [(name: String, data: Data)] {
        let folder = fixtures.appendingPathComponent(target)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
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

    /// Undetected corruptions the file target found that are not fixed yet (issue 11, defects 7
    /// and 8): each must still reproduce; when one stops, move it to `file/`.
    @Test func knownUndetectedCorruptions() throws {
        let target = try FileFuzzer(originals: try Self.originals())
        for input in try Self.inputs("file-known") {
            withKnownIssue("file-known/\(input.name): check accepts a file that reads differently") {
                try target.run(input.data)
            }
        }
    }

    @Test func queryInputs() throws {
        let target = try QueryFuzzer()
        for input in try Self.inputs("query") {
            let start = ContinuousClock.now
            target.run(input.data)
            #expect(ContinuousClock.now - start < .seconds(2), "query/\(input.name) is slow")
        }
    }

    @Test func importInputs() throws {
        let demo = try Realm(configuration: .init(fileURL: Self.fixtures.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Resources/demo.realm"),
            readOnly: true, createIfMissing: false))
        let target = ImportFuzzer(schema: demo.schema)
        for input in try Self.inputs("import") {
            #expect(throws: Never.self, "import/\(input.name)") { try target.run(input.data) }
        }
    }

    @Test func explorerInputs() throws {
        let target = ExplorerFuzzer()
        for input in try Self.inputs("explorer") {
            #expect(throws: Never.self, "explorer/\(input.name)") { try target.run(input.data) }
        }
    }
}
