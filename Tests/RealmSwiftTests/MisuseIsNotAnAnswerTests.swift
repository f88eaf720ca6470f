import Foundation
import Testing
import RealmSwift

/// A programmer error in a non-throwing typed call stops with its message; it never comes back
/// as an answer that looks like data (nil, 0, an empty collection).
@Suite struct MisuseIsNotAnAnswerTests {
    final class MDog: Object { @Persisted var name = ""; @Persisted var age = 0 }

    @Test func indexMatchingFindsTheFirstMatchInCollectionOrder() throws {
        let realm = try Realm(configuration: memoryConfig([MDog.self]))
        try realm.write {
            for (name, age) in [("Rex", 3), ("Ace", 5), ("Fido", 5)] { realm.add(MDog(value: ["name": name, "age": age])) }
        }
        let byName = realm.objects(MDog.self).sorted(byKeyPath: "name")
        #expect(byName.index(matching: "age == %d", 5) == 0)          // Ace
        #expect(byName.index(matching: "name == %@", "Rex") == 2)
        #expect(byName.index(matching: "age > 9") == nil)               // no match: nil
    }

    /// Before, a predicate that did not parse or named no property answered nil, as if no
    /// object matched.
    @Test func indexMatchingABadPredicateStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class MCat: Object { @Persisted var name = "" }
            let realm = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "index-matching", objectTypes: [MCat.self]))
            try realm.write { realm.add(MCat(value: ["name": "Tom"])) }
            let index = realm.objects(MCat.self).index(matching: "weight > 3")
            print("not stopped: \(String(describing: index))")
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("index(matching: \"weight > 3\")") && message.contains("weight"), "\(message)")
    }
}
