import Foundation
import Testing
import RealmSwift

/// A list or dictionary stored in an element of a managed `List<AnyRealmValue>` or a value of a
/// managed `Map<String, AnyRealmValue>` (Realm format 24) is managed, as in Realm Swift: a change
/// through it inside a write transaction changes the stored value, it reads live, it is observed
/// at its place, and it is invalidated with its object. Before, it was a copy: a change to it
/// changed nothing stored.
@Suite struct MixedCollectionElementTests {
    final class MElemBox: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var anyList: List<AnyRealmValue>
        @Persisted var anyMap: Map<String, AnyRealmValue>
        @Persisted var value: AnyRealmValue
    }

    /// A box with `anyList` = [[1, 2], {k: 1}, 5] and `anyMap` = {l: ["a"], m: {n: 1}, s: "x"}.
    private func seeded(_ realm: Realm) throws -> MElemBox {
        let box = MElemBox()
        box.id = 1
        box.anyList.append(objectsIn: [.fromArray([.int(1), .int(2)]), .fromDictionary(["k": .int(1)]), .int(5)])
        box.anyMap["l"] = .fromArray([.string("a")])
        box.anyMap["m"] = .fromDictionary(["n": .int(1)])
        box.anyMap["s"] = .string("x")
        try realm.write { realm.add(box) }
        return box
    }

    /// The stored object, read again through a fresh object (no shared accessor state).
    private func stored(_ realm: Realm) throws -> MElemBox {
        try #require(realm.object(ofType: MElemBox.self, forPrimaryKey: 1))
    }

    @Test func aCollectionInAListElementIsChangedInPlace() throws {
        let realm = try Realm(configuration: memoryConfig([MElemBox.self]))
        let box = try seeded(realm)
        let inner = try #require(box.anyList[0].listValue)
        let dictionary = try #require(box.anyList[1].dictionaryValue)
        #expect(inner.realm === realm && dictionary.realm === realm)
        try realm.write {
            inner.append(.int(3))
            inner[0] = .string("one")
            dictionary["m"] = .bool(true)
            dictionary.removeObject(for: "k")
        }
        let after = try stored(realm)
        #expect(
            Array(after.anyList) == [
                .fromArray([.string("one"), .int(2), .int(3)]), .fromDictionary(["m": .bool(true)]), .int(5),
            ])
        // Read live through the same collections.
        #expect(Array(inner) == [.string("one"), .int(2), .int(3)] && dictionary.keys == ["m"])
        // One level deeper: a list put into the nested list, then changed through it.
        try realm.write { inner.append(.fromArray([.int(7)])) }
        try realm.write { box.anyList[0].listValue?[3].listValue?.insert(.int(6), at: 0) }
        #expect(
            try stored(realm).anyList[0]
                == .fromArray([.string("one"), .int(2), .int(3), .fromArray([.int(6), .int(7)])]))
    }

    @Test func aCollectionInADictionaryValueIsChangedInPlace() throws {
        let realm = try Realm(configuration: memoryConfig([MElemBox.self]))
        let box = try seeded(realm)
        let list = try #require(box.anyMap["l"]?.listValue)
        let dictionary = try #require(box.anyMap["m"]?.dictionaryValue)
        try realm.write {
            list.append(.string("b"))
            dictionary["o"] = .fromDictionary(["p": .int(2)])
        }
        try realm.write { box.anyMap["m"]?.dictionaryValue?["o"]?.dictionaryValue?["q"] = .double(1.5) }
        let after = try stored(realm)
        #expect(after.anyMap["l"] == .fromArray([.string("a"), .string("b")]))
        #expect(
            after.anyMap["m"]
                == .fromDictionary(["n": .int(1), "o": .fromDictionary(["p": .int(2), "q": .double(1.5)])]))
        #expect(after.anyMap["s"] == .string("x") && Array(list) == [.string("a"), .string("b")])
    }

    @Test func theDynamicAPIHandsOutManagedNestedCollections() throws {
        let realm = try Realm(configuration: memoryConfig([MElemBox.self]))
        let box = try seeded(realm)
        try realm.write { box.value = .fromArray([.int(1)]) }
        let inList = try #require((box["anyList"] as? List<AnyRealmValue>)?[0].listValue)
        let inMap = try #require((box["anyMap"] as? Map<String, AnyRealmValue>)?["m"]?.dictionaryValue)
        let inValue = try #require((box["value"] as? AnyRealmValue)?.listValue)
        try realm.write {
            inList.removeAll()
            inMap["n"] = .int(2)
            inValue.append(.int(2))
        }
        let after = try stored(realm)
        #expect(after.anyList[0] == .fromArray([]))
        #expect(after.anyMap["m"] == .fromDictionary(["n": .int(2)]))
        #expect(after.value == .fromArray([.int(1), .int(2)]))
    }

    @Test func aChangeInsideIsAChangeOfTheOwningProperty() throws {
        let realm = try Realm(configuration: memoryConfig([MElemBox.self]))
        let box = try seeded(realm)
        var changed: [[String]] = []
        let token = box.observe { change in
            if case .change(_, let properties) = change { changed.append(properties.map(\.name)) }
        }
        try realm.write { box.anyList[0].listValue?.append(.int(3)) }
        realm.refresh()
        try realm.write { box.anyMap["m"]?.dictionaryValue?["z"] = .int(0) }
        realm.refresh()
        #expect(pumpUntil { changed.count >= 2 })
        #expect(changed == [["anyList"], ["anyMap"]])
        token.invalidate()
    }

    @Test func aCollectionInAListElementIsObservedAtItsPlace() throws {
        let realm = try Realm(configuration: memoryConfig([MElemBox.self]))
        let box = try seeded(realm)
        let inner = try #require(box.anyList[0].listValue)
        var log: [String] = []
        let token = inner.observe { change in
            switch change {
            case .initial(let l): log.append("initial \(l.count)")
            case .update(let l, let d, let i, let m): log.append("\(l.count) d\(d) i\(i) m\(m)")
            case .error(let error): Issue.record(error)
            }
        }
        #expect(pumpUntil { log.count == 1 })
        try realm.write { inner.append(.int(3)) }
        realm.refresh()
        try realm.write { box.anyList[2] = .int(6) }  // beside it: no change of the nested list
        realm.refresh()
        try realm.write { inner.remove(at: 0) }
        realm.refresh()
        #expect(pumpUntil { log.count >= 3 })
        #expect(log == ["initial 2", "3 d[] i[2] m[]", "2 d[0] i[] m[]"])
        token.invalidate()
    }

    @Test func aCollectionInADictionaryValueIsObservedByKey() throws {
        let realm = try Realm(configuration: memoryConfig([MElemBox.self]))
        let box = try seeded(realm)
        let inner = try #require(box.anyMap["m"]?.dictionaryValue)
        var log: [String] = []
        let token = inner.observe { change in
            switch change {
            case .initial(let m): log.append("initial \(m.count)")
            case .update(let m, let d, let i, let mod): log.append("\(m.count) d\(d) i\(i) m\(mod)")
            case .error(let error): Issue.record(error)
            }
        }
        #expect(pumpUntil { log.count == 1 })
        try realm.write {
            inner["a"] = .int(3)
            inner["n"] = .int(10)
        }
        realm.refresh()
        #expect(pumpUntil { log.count >= 2 })
        #expect(log == ["initial 1", "2 d[] i[\"a\"] m[\"n\"]"])
        token.invalidate()
    }

    @Test func deletingTheObjectInvalidatesTheNestedCollections() throws {
        let realm = try Realm(configuration: memoryConfig([MElemBox.self]))
        let box = try seeded(realm)
        let inList = try #require(box.anyList[0].listValue)
        let inMap = try #require(box.anyMap["m"]?.dictionaryValue)
        #expect(!inList.isInvalidated && !inMap.isInvalidated)
        try realm.write { realm.delete(box) }
        #expect(inList.isInvalidated && inMap.isInvalidated)
        #expect(throws: (any Error).self) { try inList.checkedCount() }
    }

    @Test func replacingTheElementInvalidatesTheNestedCollection() throws {
        let realm = try Realm(configuration: memoryConfig([MElemBox.self]))
        let box = try seeded(realm)
        let inList = try #require(box.anyList[0].listValue)
        let inMap = try #require(box.anyMap["l"]?.listValue)
        try realm.write {
            box.anyList[0] = .string("scalar")
            box.anyMap["l"] = nil
        }
        #expect(inList.isInvalidated && inMap.isInvalidated)
        #expect(throws: (any Error).self) { try realm.write { inList.append(.int(3)) } }
        #expect(try stored(realm).anyList[0] == .string("scalar"))
    }
}

/// Runs this thread's RunLoop until `condition` holds (at most a few seconds: an event, not a
/// deadline, is what ends it).
private func pumpUntil(_ condition: () -> Bool) -> Bool {
    let limit = Date().addingTimeInterval(5)
    while !condition() && Date() < limit {
        _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.005))
    }
    return condition()
}
