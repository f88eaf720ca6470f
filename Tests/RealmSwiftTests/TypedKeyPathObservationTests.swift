import Foundation
import RealmSwift
import Testing

/// `observe(keyPaths:)` with Swift key paths (`[\.age]`) on results and objects: the same filter
/// as the names they stand for.
@Suite struct TypedKeyPathObservationTests {
    final class KPHome: Object { @Persisted var city = "" }
    final class KPOwner: Object {
        @Persisted var name = ""
        @Persisted var home: KPHome?
        @Persisted var dogs: List<KPDog>
    }
    final class KPDog: Object {
        @Persisted var name = ""
        @Persisted var age = 0
        @Persisted var owner: KPOwner?
    }
    static let types: [Object.Type] = [KPDog.self, KPOwner.self, KPHome.self]

    @Test func resultsNotifyOnlyForTheGivenKeyPaths() throws {
        let config = try fileConfig(Self.types)
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
        try realm.write { dog.name = "Max" }  // not watched
        realm.refresh()
        #expect(updates.isEmpty)
        try realm.write { dog.age = 2 }
        realm.refresh()
        #expect(updates == [[0]])
        try realm.write { dog.owner?.name = "Bo" }  // not watched either
        realm.refresh()
        #expect(updates == [[0]])
    }

    @Test func objectsNotifyOnlyForTheGivenKeyPaths() throws {
        let config = try fileConfig(Self.types)
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

    @Test func keyPathsThroughOptionalLinksNameTheWholePath() throws {
        let config = try fileConfig(Self.types)
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let dog = try realm.write {
            realm.create(
                KPDog.self, value: ["name": "Rex", "age": 1, "owner": ["name": "Ann", "home": ["city": "Oslo"]]])
        }
        var log: [String] = []
        let token = dog.observe(keyPaths: [\KPDog.owner?.name, \KPDog.owner?.home?.city]) { change in
            if case .change(_, let properties) = change { log.append(properties.map(\.name).joined(separator: ",")) }
        }
        defer { token.invalidate() }
        try realm.write { dog.age = 2 }  // not watched
        realm.refresh()
        try realm.write { dog.owner?.name = "Bo" }
        realm.refresh()
        try realm.write { dog.owner?.home?.city = "Bergen" }
        realm.refresh()
        #expect(log == ["owner.name", "owner.home.city"])
    }

    @Test func resultsKeyPathsThroughOptionalLinks() throws {
        let config = try fileConfig(Self.types)
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        try realm.write { realm.add(KPDog(value: ["name": "Rex", "age": 1, "owner": ["name": "Ann"]])) }
        var updates: [[Int]] = []
        let token = realm.objects(KPDog.self).observe(keyPaths: [\KPDog.owner?.name]) { change in
            if case .update(_, _, _, let modifications) = change { updates.append(modifications) }
        }
        defer { token.invalidate() }
        realm.refresh()
        let dog = try #require(realm.objects(KPDog.self).first)
        try realm.write { dog.age = 2 }  // not watched
        realm.refresh()
        try realm.write { dog.owner?.name = "Bo" }
        realm.refresh()
        #expect(updates == [[0]])
    }

    @Test func keyPathsToListsNameTheList() throws {
        let config = try fileConfig(Self.types)
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let ann = try realm.write { realm.create(KPOwner.self, value: ["name": "Ann", "dogs": [["name": "Rex"]]]) }
        var log: [String] = []
        let token = ann.observe(keyPaths: [\KPOwner.dogs]) { change in
            if case .change(_, let properties) = change { log.append(properties.map(\.name).joined(separator: ",")) }
        }
        defer { token.invalidate() }
        try realm.write { ann.name = "Bo" }  // not watched
        realm.refresh()
        try realm.write { ann.dogs.append(KPDog(value: ["name": "Fido"])) }
        realm.refresh()
        #expect(log == ["dogs"])
    }

    @Test func sortingByAKeyPathThroughAnOptionalLink() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        try realm.write {
            realm.add(KPDog(value: ["name": "Rex", "owner": ["name": "Zoe"]]))
            realm.add(KPDog(value: ["name": "Fido", "owner": ["name": "Ann"]]))
            realm.add(KPDog(value: ["name": "Ace", "owner": ["name": "Max"]]))
        }
        #expect(realm.objects(KPDog.self).sorted(by: \.owner?.name).map(\.name) == ["Fido", "Ace", "Rex"])
        #expect(
            realm.objects(KPDog.self).sorted(by: \.owner?.name, ascending: false).map(\.name) == ["Rex", "Ace", "Fido"])
    }
}
