import Foundation
import Testing
import RealmSwift

/// Sorting by a link or a list is a programmer error, as in RealmSwift: `sorted` stops with a
/// message naming the key path instead of answering empty results (before, the failure surfaced
/// only when the results were read, where `count` took it for 0 objects).
@Suite struct SortKeyPathTests {
    @Test func sortingByALinkStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class SOwner: Object { @Persisted var name = "" }
            final class SDog: Object {
                @Persisted var name = ""
                @Persisted var owner: SOwner?
            }
            let realm = try Realm(
                configuration: Realm.Configuration(
                    inMemoryIdentifier: "sort-link", objectTypes: [SOwner.self, SDog.self]))
            try realm.write {
                realm.add(SDog(value: ["name": "Rex", "owner": ["name": "Jim"]]))
                realm.add(SDog(value: ["name": "Ace", "owner": ["name": "Ann"]]))
            }
            let sorted = realm.objects(SDog.self).sorted(byKeyPath: "owner")
            print("not stopped: \(sorted.count) dogs")
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("cannot sort by 'owner': it is a link"), "\(message)")
    }

    @Test func findingDistinctValuesOfAListStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class SToy: Object { @Persisted var name = "" }
            final class SKid: Object {
                @Persisted var name = ""
                @Persisted var toys: List<SToy>
            }
            let realm = try Realm(
                configuration: Realm.Configuration(
                    inMemoryIdentifier: "distinct-list", objectTypes: [SToy.self, SKid.self]))
            try realm.write { realm.add(SKid(value: ["name": "Bo"])) }
            let distinct = realm.objects(SKid.self).distinct(by: ["toys"])
            print("not stopped: \(distinct.count) kids")
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("cannot find distinct values by 'toys'"), "\(message)")
    }

    /// The key paths that can be sorted by still sort: a property, and one through a to-one link.
    @Test func sortingThroughALinkStillWorks() throws {
        final class SOwner2: Object { @Persisted var name = "" }
        final class SDog2: Object {
            @Persisted var name = ""
            @Persisted var owner: SOwner2?
        }
        let realm = try Realm(configuration: memoryConfig([SOwner2.self, SDog2.self]))
        try realm.write {
            realm.add(SDog2(value: ["name": "Rex", "owner": ["name": "Jim"]]))
            realm.add(SDog2(value: ["name": "Ace", "owner": ["name": "Ann"]]))
        }
        #expect(realm.objects(SDog2.self).sorted(byKeyPath: "owner.name").map(\.name) == ["Ace", "Rex"])
        #expect(realm.objects(SDog2.self).sorted(byKeyPath: "name", ascending: false).map(\.name) == ["Rex", "Ace"])
    }
}
