import Foundation
import Testing

/// The seed files under `Resources/` (format stability): each committed file still opens, passes
/// `check`, and exports exactly the JSON kept beside it; and it opens read-only in the explorer.
@Suite("Bundled seed files", .tags(.multiProcess))
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

    /// types.realm holds Realm 10's types too, edge values included: what a query finds there.
    @Test func theTypesSeedHoldsDecimalMixedSetsAndDictionaries() throws {
        let file = Self.resources.appendingPathComponent("types.realm").path
        let nan = #"{"$numberDecimal": "NaN"}"#
        for (query, count) in [
            ("decimal == 1234567890123456789012345678901234", "1"), ("optDecimal == $0", "1"),
            ("ANY decimals == 12.5 AND ANY decimals == 0.1", "1"),
            ("mixed[1]['a'][1] == 'deep' AND mixed[1]['a'][2].@type == 'dictionary'", "1"),
            ("ANY mixeds == 'text' AND ANY mixeds == 42 AND ANY mixeds.@type == 'link'", "1"),
            ("mixedMap['n'] == 7 AND mixedMap['l'].@type == 'link' AND mixedMap['nested']['list'][0][1] == 'two'", "1"),
            ("ANY intSet == 2 AND ANY decimalSet == 1 AND ANY linkSet.int == -1", "1"),
            (
                "stringMap[''] == 'empty key' AND intMap.@keys == 'y' AND linkMap['self'].int == 9223372036854775807",
                "1"
            ),
            ("stringSet.@count == 0 AND linkMap.@count == 0 AND mixed == nil", "1"),
            // Embedded objects: a to-one, a list and a dictionary of them, one inside an embedded list.
            ("place.name == 'home' AND place.spot.lat == 59.91 AND place.spot.lon == 10.75", "1"),
            (
                "places.@count == 2 AND ANY places.spots.lat == -33.86 AND SUBQUERY(places, $p, $p.spots.@count == 2).@count == 1",
                "1"
            ),
            ("placeMap['work'].name == 'office' AND placeMap['work'].spot == nil", "1"),
            ("place == nil AND places.@count == 0 AND placeMap.@count == 0", "1"),
        ] {
            let result = try CLI.run(["query", file, "AllTypes", query, "--arg", nan, "--format", "count"])
            #expect(result.status == 0, "\(query): \(result.stderr)")
            #expect(
                result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == count, "\(query): \(result.stdout)")
        }
    }

    @Test func theSeedsAreRebuiltFromTheirJSONByTheScript() throws {
        let s = try Scratch()
        for name in ["dogs", "types"] {
            let rebuilt = s.path("\(name).realm")
            #expect(
                try CLI.run([
                    "create", rebuilt, "--schema", Self.resources.appendingPathComponent("\(name).schema.json").path,
                ]).status == 0)
            #expect(
                try CLI.run(["import", rebuilt, Self.resources.appendingPathComponent("\(name).json").path]).status == 0
            )
            let kept = try String(contentsOf: Self.resources.appendingPathComponent("\(name).json"), encoding: .utf8)
            #expect(try CLI.run(["export", rebuilt]).stdout == kept)
        }
    }
}
