import Foundation
import Testing
import RealmSwift

@Suite struct FreezeTests {
    final class FDog: Object {
        @Persisted var name = ""
        @Persisted var age = 0
        @Persisted(originProperty: "dogs") var owners: LinkingObjects<FPerson>
    }
    final class FPerson: Object {
        @Persisted var name = ""
        @Persisted var dogs: List<FDog>
    }

    static let types: [Object.Type] = [FDog.self, FPerson.self]

    /// A file with Jim, who has dogs Rex (1) and Fido (2).
    static func seeded() throws -> (Realm.Configuration, Realm, FPerson) {
        let config = try fileConfig(types)
        let realm = try Realm(configuration: config)
        let jim = FPerson(value: ["name": "Jim", "dogs": [["name": "Rex", "age": 1], ["name": "Fido", "age": 2]]])
        try realm.write { realm.add(jim) }
        return (config, realm, jim)
    }

    @Test func aFrozenObjectKeepsItsVersion() throws {
        let (config, realm, jim) = try Self.seeded()
        defer { removeFolder(of: config) }
        let rex = jim.dogs[0]
        let frozen = rex.freeze()
        #expect(frozen.isFrozen && !rex.isFrozen && frozen.realm?.isFrozen == true)
        try realm.write { rex.age = 5 }
        try onOtherThread {
            let r = try Realm(configuration: config)
            try r.write { r.objects(FDog.self).filter("name == 'Rex'").first!.name = "Rex II" }
        }
        realm.refresh()
        #expect(rex.age == 5 && rex.name == "Rex II")
        #expect(frozen.age == 1 && frozen.name == "Rex")
        #expect(frozen.freeze() === frozen)
        let thawed = try #require(frozen.thaw())
        #expect(!thawed.isFrozen && thawed.age == 5 && thawed.name == "Rex II" && thawed == rex)
    }

    @Test func thawingADeletedObjectGivesNil() throws {
        let (config, realm, jim) = try Self.seeded()
        defer { removeFolder(of: config) }
        let frozen = jim.dogs[1].freeze()
        try realm.write { realm.delete(realm.objects(FDog.self).filter("name == 'Fido'")) }
        #expect(frozen.name == "Fido")
        #expect(frozen.thaw() == nil)
    }

    @Test func frozenCollectionsKeepTheirVersion() throws {
        let (config, realm, jim) = try Self.seeded()
        defer { removeFolder(of: config) }
        let dogs = realm.objects(FDog.self).sorted(byKeyPath: "age")
        let frozenDogs = dogs.freeze()
        let frozenList = jim.dogs.freeze()
        let rex = jim.dogs[0]
        let frozenOwners = rex.owners.freeze()
        let frozenAny = AnyRealmCollection(dogs).freeze()
        #expect(frozenDogs.isFrozen && frozenList.isFrozen && frozenOwners.isFrozen && frozenAny.isFrozen)
        #expect(!dogs.isFrozen && !jim.dogs.isFrozen)
        try realm.write {
            realm.add(FDog(value: ["name": "Spot", "age": 0]))
            jim.dogs.removeAll()
            realm.create(FPerson.self, value: ["name": "Ann", "dogs": [rex]])
        }
        #expect(dogs.map(\.name) == ["Spot", "Rex", "Fido"])
        #expect(frozenDogs.map(\.name) == ["Rex", "Fido"])
        #expect(frozenDogs.filter("age > 1").map(\.name) == ["Fido"])  // queries run on the frozen version
        #expect(frozenDogs[0].isFrozen)  // objects read from frozen results are frozen
        #expect(frozenList.count == 2 && frozenList[1].name == "Fido")
        #expect(frozenOwners.map(\.name) == ["Jim"])
        #expect(frozenAny.count == 2)
        #expect(frozenDogs.thaw().map(\.name) == ["Spot", "Rex", "Fido"])
        #expect(frozenList.thaw()?.count == 0)
        #expect(Set(frozenOwners.thaw().map(\.name)) == ["Ann"])
    }

    @Test func aFrozenRealmIsSharedPerVersion() throws {
        let (config, realm, _) = try Self.seeded()
        defer { removeFolder(of: config) }
        var a = realm.freeze()
        #expect(a === realm.freeze() && a.isFrozen && a.freeze() === a)
        weak let first = a
        a = realm.freeze()  // the same frozen Realm while it is alive …
        #expect(first === a)
        do {
            let object = realm.objects(FDog.self)[0].freeze()
            a = realm.freeze()
            #expect(object.realm === a)
        }
        #expect(a.objects(FDog.self).count == 2)
        #expect(!a.refresh())
        try realm.write { realm.add(FDog()) }
        let b = realm.freeze()
        #expect(a !== b && a.objects(FDog.self).count == 2 && b.objects(FDog.self).count == 3)
        weak let old = a
        a = b
        #expect(old == nil)  // … and released (with its reader slot) when unused
        #expect(
            a.thaw().dynamicRealm === realm.dynamicRealm && !a.thaw().isFrozen && a.thaw().objects(FDog.self).count == 3
        )
    }

    @Test func frozenValuesAreReadFromOtherThreadsAtOnce() async throws {
        let (config, realm, _) = try Self.seeded()
        defer { removeFolder(of: config) }
        try realm.write { for i in 0..<200 { realm.add(FDog(value: ["name": "d\(i)", "age": i])) } }
        let box = Frozen(realm.objects(FDog.self).filter("age >= 0").sorted(byKeyPath: "age").freeze())
        try realm.write { realm.deleteAll() }
        let sums = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    // The same frozen results, objects and lists read by four tasks at once.
                    var sum = 0
                    for dog in box.value { sum += dog.age + dog.owners.count }
                    return sum + box.value.count
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let expected = (0..<200).reduce(0, +) + 1 + 2 + 2 + 202
        #expect(sums == [expected, expected, expected, expected])
    }

    @Test func writingToAFrozenObjectStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class XDog: Object { @Persisted var name = "" }
            let realm = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "x", objectTypes: [XDog.self]))
            try realm.write { realm.add(XDog()) }
            let frozen = realm.objects(XDog.self)[0].freeze()
            try frozen.realm!.write { frozen.name = "no" }
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("Cannot modify a frozen Realm"), "\(message)")
    }

    @Test func observingAFrozenCollectionReportsAnError() throws {
        let (config, realm, _) = try Self.seeded()
        defer { removeFolder(of: config) }
        var seen: [String] = []
        let token = realm.objects(FDog.self).freeze().observe { change in
            if case .error(let error) = change { seen.append("\(error)") }
        }
        pumpRunLoop { !seen.isEmpty }
        #expect(seen.count == 1 && seen[0].contains("frozen"))
        token.invalidate()
    }
}
