import Foundation
import RealmCoreFormat
import Testing

/// The reader's whole view of each generated fixture equals Realm Core's own dump of it.
@Suite struct CoreDumpConformanceTests {
    static func open(_ url: URL, nodeShift: Int? = nil) throws -> RealmCoreFile {
        try RealmCoreFile(image: RealmCoreImage(copying: Data(contentsOf: url)), name: url.lastPathComponent, nodeShift: nodeShift)
    }

    static func check(realm: URL, expectedJSON: URL, nodeShift: Int? = nil) throws {
        let file = try open(realm, nodeShift: nodeShift)
        let dump = try RealmCoreDumper(file: file, fileName: realm.lastPathComponent).dump()
        let actual = try CoreJSONCompare.parse(Data(dump.utf8))
        let expected = try CoreJSONCompare.parse(CoreJSONCompare.readJSON(expectedJSON))
        let diffs = CoreJSONCompare.differences(expected, actual)
        #expect(diffs.isEmpty, "\(realm.lastPathComponent) differs from Realm Core's dump:\n\(diffs.joined(separator: "\n"))")
    }

    @Test(arguments: ["dogs", "compacted", "history", "alltypes"])
    func generatedFixtureEqualsCoreDump(name: String) throws {
        let json = name == "alltypes" ? "generated-alltypes.json.gz" : "generated-\(name).json"
        try Self.check(realm: CoreFixtures.url("generated-\(name).realm"), expectedJSON: CoreFixtures.url(json))
    }

    @Test(.enabled(if: CoreFixtures.sharedFixture("generated-big.realm") != nil, "../shared/realm-core/fixtures/generated-big.realm is absent"))
    func bigFixtureEqualsCoreDump() throws {
        guard let realm = CoreFixtures.sharedFixture("generated-big.realm"),
              let json = CoreFixtures.sharedFixture("generated-big.json.gz") else { return }
        try Self.check(realm: realm, expectedJSON: json)
    }
}
