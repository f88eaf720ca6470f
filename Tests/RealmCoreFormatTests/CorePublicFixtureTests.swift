import Foundation
import RealmCoreFormat
import Testing

/// The public fixtures (Realm's own test and example files, formats 20–24, node sizes 4 and
/// 1000) read by this reader against `realm-core-tool dump` run on them. The tool upgrades a
/// copy of a format 20–23 file to 24 before dumping, so for those files what is compared is
/// what the upgrade keeps: see `comparable`.
@Suite(.tags(.multiProcess)) struct CorePublicFixtureTests {
    static let fixtures = [
        "realm-core_test_upgrade_database_4_24.realm",
        "realm-studio_asset_file.realm",
        "realm-dotnet_guids.realm",
        "realm-core_test_upgrade_database_4_23.realm",
        "realm-core_test_upgrade_database_1000_23.realm",
        "realm-kotlin_benchmarks_default.realm",
        "realm-core_test_upgrade_database_1000_22.realm",
        "realm-core_test_upgrade_database_20.realm",
        "realm-swift_migration_default-v5.realm",
    ]

    @Test(arguments: fixtures)
    func publicFixtureOpensAndDumps(name: String) throws {
        let url = CoreFixtures.url(name)
        let file = try CoreDumpConformanceTests.open(url)
        let dump = try RealmCoreDumper(file: file, fileName: name).dump()
        // The reader's own dump is valid JSON with every table.
        let parsed = try CoreJSONCompare.parse(Data(dump.utf8)) as? [String: Any]
        #expect((parsed?["tables"] as? [Any])?.count == file.tables.count)
    }

    @Test(
        .enabled(if: CoreFixtures.tool() != nil, "../shared/realm-core/tools/realm-core-tool is absent"),
        arguments: fixtures)
    func publicFixtureEqualsRealmCoreTool(name: String) throws {
        let url = CoreFixtures.url(name)
        let tool = try CoreFixtures.requireTool(name.contains("_4_") ? "realm-core-tool-bpnode4" : "realm-core-tool")
        let expected = try CoreJSONCompare.parse(CoreProcess.run(tool, ["dump", url.path]).stdout)
        let file = try CoreDumpConformanceTests.open(url)
        let actual = try CoreJSONCompare.parse(Data(RealmCoreDumper(file: file, fileName: name).dump().utf8))
        let diffs = CoreJSONCompare.differences(
            Self.comparable(expected, format: file.formatVersion),
            Self.comparable(actual, format: file.formatVersion), limit: 30)
        #expect(
            diffs.isEmpty,
            "\(name) (format \(file.formatVersion)) differs from realm-core-tool dump:\n\(diffs.joined(separator: "\n"))"
        )
    }

    /// What survives Realm Core's upgrade of a format 20–23 copy unchanged. Format 24: everything.
    /// Before 24 the upgrade re-sorts sets (string order changed in 24), so sets compare as
    /// multisets; before 22 it adds the search index that format 20/21 had removed from primary
    /// keys, so a primary key's index is not compared.
    static func comparable(_ doc: Any, format: Int) -> Any {
        guard format < 24, var top = doc as? [String: Any], let tables = top["tables"] as? [[String: Any]] else {
            return doc
        }
        top["file_format_version"] = nil
        top["tables"] = tables.map { table -> [String: Any] in
            var t = table
            let columns = (t["columns"] as? [[String: Any]]) ?? []
            let sets = columns.filter { ($0["collection"] as? String) == "set" }.compactMap { $0["name"] as? String }
            if format < 22 {
                let pk = t["primary_key"] as? String
                t["columns"] = columns.map { c in
                    var c = c
                    if (c["name"] as? String) == pk { c["index"] = NSNull() }
                    return c
                }
            }
            t["objects"] = ((t["objects"] as? [[String: Any]]) ?? []).map { o in
                var o = o
                guard var fields = o["fields"] as? [String: Any] else { return o }
                for name in sets {
                    if let items = fields[name] as? [Any] {
                        fields[name] = items.sorted { canonical($0) < canonical($1) }
                    }
                }
                o["fields"] = fields
                return o
            }
            return t
        }
        return top
    }

    static func canonical(_ v: Any) -> String {
        guard JSONSerialization.isValidJSONObject([v]),
            let d = try? JSONSerialization.data(withJSONObject: [v], options: [.sortedKeys])
        else { return "\(v)" }
        return String(decoding: d, as: UTF8.self)
    }
}
