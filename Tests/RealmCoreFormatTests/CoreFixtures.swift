import Foundation
// The shared helpers (TempDir, SeededGenerator, child processes, tags, TestSize) for every file of this target.
@_exported import TestSupport
import Testing

/// The Realm Core files copied into `Tests/RealmCoreFormatTests/Fixtures` (provenance in its
/// `PUBLIC-FIXTURES.md` and `GENERATED-FIXTURES.md`), and the larger ones and the
/// `realm-core-tool` oracle that stay in `../shared/realm-core` beside the repository.
enum CoreFixtures {
    /// The folder of fixtures committed with the tests.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// A committed fixture by file name (`generated-dogs.realm`).
    static func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

    /// `../shared/realm-core` beside the repository, when this machine has it.
    static let shared: URL? = {
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidate = repository.deletingLastPathComponent().appendingPathComponent("shared/realm-core")
        return FileManager.default.fileExists(atPath: candidate.path) ? candidate : nil
    }()

    /// A fixture only `../shared` has (`generated-big.realm`), or nil without it.
    static func sharedFixture(_ name: String) -> URL? {
        guard let url = shared?.appendingPathComponent("fixtures/\(name)"),
            FileManager.default.fileExists(atPath: url.path)
        else { return nil }
        return url
    }

    /// `realm-core-tool` (or `realm-core-tool-bpnode4`), when `../shared` has it and it runs here.
    static func tool(_ name: String = "realm-core-tool") -> URL? {
        guard let url = shared?.appendingPathComponent("tools/\(name)"),
            FileManager.default.isExecutableFile(atPath: url.path)
        else { return nil }
        return url
    }

    /// `realm-core-tool` (or `realm-core-tool-bpnode4`); without it the current test is
    /// cancelled, which the run shows as skipped (a silent `return` would show a pass that
    /// compared nothing with Realm Core).
    static func requireTool(_ name: String = "realm-core-tool") throws -> URL {
        guard let url = tool(name) else { try Test.cancel("../shared/realm-core/tools/\(name) is absent") }
        return url
    }

    /// True when `../shared/realm-core` is present: tests that need it are skipped visibly otherwise.
    static var sharedIsPresent: Bool { shared != nil }
}

@Suite struct CoreFixtureTests {
    @Test func committedFixturesAreRealmCoreFiles() throws {
        for name in ["generated-dogs.realm", "generated-alltypes.realm", "realm-studio_asset_file.realm"] {
            let data = try Data(contentsOf: CoreFixtures.url(name))
            #expect(data.count > 24, "\(name) is too short")
            #expect(Array(data[16..<20]) == Array("T-DB".utf8), "\(name) has no T-DB mnemonic")
        }
    }
}
