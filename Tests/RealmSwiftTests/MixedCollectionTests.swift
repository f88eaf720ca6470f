import Foundation
import Testing
import RealmSwift

/// A list or dictionary nested in an `AnyRealmValue` property, read from a managed object, is
/// managed as in RealmSwift (Realm format 24): changed in place inside a write transaction, read
/// live, observed at its place, deeper ones too; refused outside a write; invalidated with its
/// object. Before, it was a copy: a change to it changed nothing stored.
@Suite struct MixedCollectionTests {
    final class MMixBox: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var value: AnyRealmValue
    }

    /// The stored value, read again through a fresh object (no shared accessor state).
    private func stored(_ realm: Realm, _ id: Int = 1) -> AnyRealmValue? {
        realm.object(ofType: MMixBox.self, forPrimaryKey: id)?.value
    }

    @Test func aNestedListIsChangedInPlace() throws {
        let realm = try Realm(configuration: memoryConfig([MMixBox.self]))
        let box = try realm.write { realm.create(MMixBox.self, value: ["id": 1, "value": [1, "two"]]) }
        let list = try #require(box.value.listValue)
        #expect(list.realm === realm)
        try realm.write {
            list.append(.int(3))
            list.insert(.bool(true), at: 0)
        }
        #expect(stored(realm) == .fromArray([.bool(true), .int(1), .string("two"), .int(3)]))
        try realm.write {
            list.remove(at: 1)
            list[0] = .double(2.5)
        }
        #expect(stored(realm) == .fromArray([.double(2.5), .string("two"), .int(3)]))
        try realm.write { list.move(from: 2, to: 0) }
        #expect(Array(list) == [.int(3), .double(2.5), .string("two")])  // read live through the same list
        try realm.write { list.removeAll() }
        #expect(list.isEmpty && stored(realm) == .fromArray([]))
    }

    @Test func aNestedDictionaryIsChangedInPlace() throws {
        let realm = try Realm(configuration: memoryConfig([MMixBox.self]))
        let box = try realm.write { realm.create(MMixBox.self, value: ["id": 1, "value": ["a": 1, "b": "x"]]) }
        let map = try #require(box.value.dictionaryValue)
        try realm.write {
            map["c"] = .bool(false)
            map["a"] = .string("one")
            map.removeObject(for: "b")
        }
        #expect(stored(realm) == .fromDictionary(["a": .string("one"), "c": .bool(false)]))
        #expect(map.keys == ["a", "c"] && map["a"] == .string("one") && map["b"] == nil)
        try realm.write { map["a"] = nil }
        #expect(map.count == 1 && stored(realm) == .fromDictionary(["c": .bool(false)]))
    }

    @Test func aBadKeyInANestedDictionaryIsAnErrorAndWritesNothing() throws {
        let realm = try Realm(configuration: memoryConfig([MMixBox.self]))
        let box = try realm.write { realm.create(MMixBox.self, value: ["id": 1, "value": ["a": 1]]) }
        let map = try #require(box.value.dictionaryValue)
        #expect(throws: (any Error).self) { try realm.write { map["a.b"] = .int(2) } }
        #expect(stored(realm) == .fromDictionary(["a": .int(1)]))
    }

    @Test func collectionsNestedTwoLevelsAreManagedToo() throws {
        let realm = try Realm(configuration: memoryConfig([MMixBox.self]))
        let box = try realm.write {
            realm.create(MMixBox.self, value: ["id": 1, "value": ["tags": ["a"], "inner": ["n": 1]]])
        }
        let tags = try #require(box.value.dictionaryValue?["tags"]?.listValue)
        let inner = try #require(box.value.dictionaryValue?["inner"]?.dictionaryValue)
        try realm.write {
            tags.append(.string("b"))
            inner["m"] = .fromArray([.int(7)])
        }
        try realm.write { inner["m"]?.listValue?.append(.int(8)) }  // three levels down
        #expect(
            stored(realm)
                == .fromDictionary([
                    "tags": .fromArray([.string("a"), .string("b")]),
                    "inner": .fromDictionary(["n": .int(1), "m": .fromArray([.int(7), .int(8)])]),
                ]))
        // A list inside a list, by position.
        try realm.write { box.value = .fromArray([.int(0), .fromArray([.string("x")])]) }
        try realm.write { box.value.listValue?[1].listValue?.insert(.string("w"), at: 0) }
        #expect(stored(realm) == .fromArray([.int(0), .fromArray([.string("w"), .string("x")])]))
    }

    @Test func changesAreReadAfterReopening() throws {
        let config = try fileConfig([MMixBox.self])
        defer { removeFolder(of: config) }
        do {
            let realm = try Realm(configuration: config)
            let box = try realm.write { realm.create(MMixBox.self, value: ["id": 1, "value": ["list": [1]]]) }
            try realm.write {
                box.value.dictionaryValue?["list"]?.listValue?.append(.int(2))
                box.value.dictionaryValue?["new"] = .string("n")
            }
        }
        let realm = try Realm(configuration: config)
        #expect(stored(realm) == .fromDictionary(["list": .fromArray([.int(1), .int(2)]), "new": .string("n")]))
    }

    @Test func aNestedListIsObservedAtItsPlace() throws {
        let realm = try Realm(configuration: memoryConfig([MMixBox.self]))
        let box = try realm.write {
            realm.create(MMixBox.self, value: ["id": 1, "value": ["other": 0, "l": [1, 2]]])
        }
        let list = try #require(box.value.dictionaryValue?["l"]?.listValue)
        var log: [String] = []
        let token = list.observe { change in
            switch change {
            case .initial(let l): log.append("initial \(l.count)")
            case .update(let l, let d, let i, let m): log.append("\(l.count) d\(d) i\(i) m\(m)")
            case .error(let error): Issue.record(error)
            }
        }
        pumpRunLoop { log.count >= 1 }
        try realm.write { list.append(.int(3)) }
        realm.refresh()
        try realm.write { box.value.dictionaryValue?["other"] = .int(1) }  // beside it: no change of the list
        realm.refresh()
        try realm.write { list.remove(at: 0) }
        realm.refresh()
        pumpRunLoop { log.count >= 3 }
        #expect(log == ["initial 2", "3 d[] i[2] m[]", "2 d[0] i[] m[]"])
        token.invalidate()
    }

    @Test func aNestedDictionaryIsObservedByKey() throws {
        let realm = try Realm(configuration: memoryConfig([MMixBox.self]))
        let box = try realm.write { realm.create(MMixBox.self, value: ["id": 1, "value": [["a": 1, "b": 2]]]) }
        let map = try #require(box.value.listValue?[0].dictionaryValue)
        var log: [String] = []
        let token = map.observe { change in
            switch change {
            case .initial(let m): log.append("initial \(m.count)")
            case .update(let m, let d, let i, let mod): log.append("\(m.count) d\(d) i\(i) m\(mod)")
            case .error(let error): Issue.record(error)
            }
        }
        pumpRunLoop { log.count >= 1 }
        try realm.write {
            map["c"] = .int(3)
            map["a"] = .int(10)
            map.removeObject(for: "b")
        }
        realm.refresh()
        pumpRunLoop { log.count >= 2 }
        #expect(log == ["initial 2", "2 d[\"b\"] i[\"c\"] m[\"a\"]"])
        token.invalidate()
    }

    @Test func deletingTheObjectInvalidatesTheNestedCollections() throws {
        let realm = try Realm(configuration: memoryConfig([MMixBox.self]))
        let box = try realm.write { realm.create(MMixBox.self, value: ["id": 1, "value": ["l": [1], "m": ["k": 1]]]) }
        let list = try #require(box.value.dictionaryValue?["l"]?.listValue)
        let map = try #require(box.value.dictionaryValue?["m"]?.dictionaryValue)
        #expect(!list.isInvalidated && !map.isInvalidated)
        try realm.write { realm.delete(box) }
        #expect(list.isInvalidated && map.isInvalidated)
        #expect(throws: (any Error).self) { try list.checkedCount() }
    }

    @Test func replacingTheMixedInvalidatesTheNestedCollection() throws {
        let realm = try Realm(configuration: memoryConfig([MMixBox.self]))
        let box = try realm.write { realm.create(MMixBox.self, value: ["id": 1, "value": [1, 2]]) }
        let list = try #require(box.value.listValue)
        try realm.write { box.value = .string("scalar") }
        #expect(list.isInvalidated)
        #expect(throws: (any Error).self) { try list.checkedCount() }
        #expect(throws: (any Error).self) { try realm.write { list.append(.int(3)) } }
        #expect(stored(realm) == .string("scalar"))
    }

    @Test func changingANestedListOutsideAWriteStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class MMixOut: Object { @Persisted var value: AnyRealmValue }
            let realm = try Realm(
                configuration: Realm.Configuration(inMemoryIdentifier: "mixed-outside", objectTypes: [MMixOut.self]))
            let box = try realm.write { realm.create(MMixOut.self, value: ["value": [1]]) }
            box.value.listValue?.append(.int(2))
            print("not stopped")
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("Cannot modify a managed List outside of a write transaction"), "\(message)")
    }
}
