import Foundation
import RealmCoreFormat
import Testing

/// The reader's whole view of each generated fixture equals Realm Core's own dump of it.
@Suite(.tags(.slow)) struct CoreDumpConformanceTests {
    static func open(_ url: URL, nodeShift: Int? = nil) throws -> RealmCoreFile {
        try RealmCoreFile(
            image: RealmCoreImage(copying: Data(contentsOf: url)), name: url.lastPathComponent, nodeShift: nodeShift)
    }

    static func check(realm: URL, expectedJSON: URL, nodeShift: Int? = nil) throws {
        let file = try open(realm, nodeShift: nodeShift)
        let dump = try RealmCoreDumper(file: file, fileName: realm.lastPathComponent).dump()
        let actual = try CoreJSONCompare.parse(Data(dump.utf8))
        let expected = try CoreJSONCompare.parse(CoreJSONCompare.readJSON(expectedJSON))
        let diffs = CoreJSONCompare.differences(expected, actual)
        #expect(
            diffs.isEmpty,
            "\(realm.lastPathComponent) differs from Realm Core's dump:\n\(diffs.joined(separator: "\n"))")
    }

    /// Byte-for-byte (order included: lists, sets, dictionary keys) after the first line's
    /// reader-specific fields.
    static func checkText(realm: URL, expectedJSON: URL) throws {
        let file = try open(realm)
        let actual = try RealmCoreDumper(file: file, fileName: realm.lastPathComponent).dump()
        let expected = String(decoding: try CoreJSONCompare.readJSON(expectedJSON), as: UTF8.self)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(a.count == e.count, "\(realm.lastPathComponent): \(a.count) lines, Realm Core's dump has \(e.count)")
        func header(_ line: Substring) -> String {
            line.replacingOccurrences(
                of: #""file": "[^"]*", "core_version": "[^"]*""#, with: "", options: .regularExpression
            )
            .replacingOccurrences(of: #""file": "[^"]*", "reader": "[^"]*""#, with: "", options: .regularExpression)
        }
        #expect(header(a.first ?? "") == header(e.first ?? ""))
        var shown = 0
        for (i, (x, y)) in zip(a, e).enumerated().dropFirst() where x != y {
            Issue.record(
                "\(realm.lastPathComponent) line \(i + 1):\n  read: \(x.prefix(300))\n  core: \(y.prefix(300))")
            shown += 1
            if shown == 5 { break }
        }
    }

    @Test(arguments: ["dogs", "compacted", "history", "alltypes"])
    func generatedFixtureEqualsCoreDumpText(name: String) throws {
        let json = name == "alltypes" ? "generated-alltypes.json.gz" : "generated-\(name).json"
        try Self.checkText(realm: CoreFixtures.url("generated-\(name).realm"), expectedJSON: CoreFixtures.url(json))
    }

    @Test(arguments: ["dogs", "compacted", "history", "alltypes"])
    func generatedFixtureEqualsCoreDump(name: String) throws {
        let json = name == "alltypes" ? "generated-alltypes.json.gz" : "generated-\(name).json"
        try Self.check(realm: CoreFixtures.url("generated-\(name).realm"), expectedJSON: CoreFixtures.url(json))
    }

    @Test(
        .enabled(
            if: CoreFixtures.sharedFixture("generated-big.realm") != nil,
            "../shared/realm-core/fixtures/generated-big.realm is absent"))
    func bigFixtureEqualsCoreDump() throws {
        guard let realm = CoreFixtures.sharedFixture("generated-big.realm"),
            let json = CoreFixtures.sharedFixture("generated-big.json.gz")
        else { return }
        try Self.checkText(realm: realm, expectedJSON: json)
    }
}
