import Foundation
import Testing

/// The seed files under `Resources/` (format stability): each committed file still opens, passes
/// `check`, and exports exactly the JSON kept beside it; and it opens read-only in the explorer.
@Suite("Bundled seed files")
struct BundledSeedTests {
    static let resources = ExplorerEntryTests.root.appendingPathComponent("Resources")

    @Test(arguments: ["demo", "dogs", "types"])
    func aCommittedSeedOpensPassesCheckAndMatchesItsJSON(_ name: String) throws {
        let file = Self.resources.appendingPathComponent("\(name).realm").path
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let check = try CLI.run(["check", file])
        #expect(check.status == 0, "\(check.stderr)")
        let export = try CLI.run(["export", file])
        #expect(export.status == 0, "\(export.stderr)")
        let kept = try String(contentsOf: Self.resources.appendingPathComponent("\(name).json"), encoding: .utf8)
        #expect(export.stdout == kept, "\(name).realm no longer exports \(name).json")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before, "reading a seed never changes it")
    }

    @Test func theSeedsAreRebuiltFromTheirJSONByTheScript() throws {
        let s = try Scratch()
        for name in ["dogs", "types"] {
            let rebuilt = s.path("\(name).realm")
            #expect(try CLI.run(["create", rebuilt, "--schema", Self.resources.appendingPathComponent("\(name).schema.json").path]).status == 0)
            #expect(try CLI.run(["import", rebuilt, Self.resources.appendingPathComponent("\(name).json").path]).status == 0)
            let kept = try String(contentsOf: Self.resources.appendingPathComponent("\(name).json"), encoding: .utf8)
            #expect(try CLI.run(["export", rebuilt]).stdout == kept)
        }
    }
}
