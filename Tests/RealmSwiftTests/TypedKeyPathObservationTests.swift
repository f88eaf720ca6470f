import Foundation
import RealmSwift
import Testing

/// `observe(keyPaths:)` with Swift key paths (`[\.age]`) on results and objects: the same filter
/// as the names they stand for.
@Suite struct TypedKeyPathObservationTests {
    final class KPOwner: Object { @Persisted var name = "" }
    final class KPDog: Object { @Persisted var name = ""; @Persisted var age = 0; @Persisted var owner: KPOwner? }

    @Test func resultsNotifyOnlyForTheGivenKeyPaths() throws {
        let config = try fileConfig([KPDog.self, KPOwner.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        try realm.write { realm.add(KPDog(value: ["name": "Rex", "age": 1, "owner": ["name": "Ann"]])) }
        var updates: [[Int]] = []
        let token = realm.objects(KPDog.self).observe(keyPaths: [\KPDog.age]) { change in
            if case .update(_, _, _, let modifications) = change { updates.append(modifications) }
        }
        defer { token.invalidate() }
        realm.refresh()
        let dog = try #require(realm.objects(KPDog.self).first)
        try realm.write { dog.name = "Max" }                 // not watched
        realm.refresh()
        #expect(updates.isEmpty)
        try realm.write { dog.age = 2 }
        realm.refresh()
        #expect(updates == [[0]])
        try realm.write { dog.owner?.name = "Bo" }           // not watched either
        realm.refresh()
        #expect(updates == [[0]])
    }

    @Test func objectsNotifyOnlyForTheGivenKeyPaths() throws {
        let config = try fileConfig([KPDog.self, KPOwner.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let dog = try realm.write { realm.create(KPDog.self, value: ["name": "Rex", "age": 1]) }
        var log: [String] = []
        let token = dog.observe(keyPaths: [\KPDog.age]) { change in
            if case .change(_, let properties) = change { log.append(properties.map(\.name).joined(separator: ",")) }
        }
        defer { token.invalidate() }
        try realm.write { dog.name = "Max" }
        realm.refresh()
        #expect(log.isEmpty)
        try realm.write { dog.age = 5 }
        realm.refresh()
        #expect(log == ["age"])
    }
}
