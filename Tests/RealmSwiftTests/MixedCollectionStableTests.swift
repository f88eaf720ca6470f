import Foundation
import Testing
import RealmSwift

/// A list or dictionary nested in an element of a managed `List<AnyRealmValue>` (or deeper in a
/// Mixed list) stays on its element when elements are inserted, removed or moved around it, as
/// Realm Core's nested collections do (each element holding a collection has a stable key, so
/// the accessor finds it again by key, not by position); removing its own element invalidates it
/// and a change through it then fails with an error. Before, the nested collection was tracked
/// by position: an insertion before it retargeted it to the neighbouring element.
@Suite struct MixedCollectionStableTests {
    final class MStableBox: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var anyList: List<AnyRealmValue>
        @Persisted var value: AnyRealmValue
    }

    /// A box with `anyList` = [[1, 2], {k: 1}, 5].
    private func seeded(_ realm: Realm) throws -> MStableBox {
        let box = MStableBox()
        box.id = 1
        box.anyList.append(objectsIn: [.fromArray([.int(1), .int(2)]), .fromDictionary(["k": .int(1)]), .int(5)])
        try realm.write { realm.add(box) }
        return box
    }

    private func stored(_ realm: Realm) throws -> MStableBox {
        try #require(realm.object(ofType: MStableBox.self, forPrimaryKey: 1))
    }

    @Test func anInsertionBeforeKeepsTheNestedCollectionsOnTheirElements() throws {
        let realm = try Realm(configuration: memoryConfig([MStableBox.self]))
        let box = try seeded(realm)
        let inner = try #require(box.anyList[0].listValue)
        let dictionary = try #require(box.anyList[1].dictionaryValue)
        try realm.write { box.anyList.insert(.string("first"), at: 0) }
        #expect(Array(inner) == [.int(1), .int(2)] && dictionary.keys == ["k"])
        try realm.write {
            inner.append(.int(3))
            dictionary["m"] = .int(2)
        }
        let after = try stored(realm)
        #expect(
            Array(after.anyList) == [
                .string("first"), .fromArray([.int(1), .int(2), .int(3)]),
                .fromDictionary(["k": .int(1), "m": .int(2)]), .int(5),
            ])
    }

    @Test func removingAndMovingOtherElementsKeepsTheNestedCollection() throws {
        let realm = try Realm(configuration: memoryConfig([MStableBox.self]))
        let box = try seeded(realm)
        let dictionary = try #require(box.anyList[1].dictionaryValue)
        try realm.write { box.anyList.remove(at: 0) }
        #expect(dictionary.keys == ["k"] && !dictionary.isInvalidated)
        try realm.write { box.anyList.move(from: 0, to: 1) }  // [5, {k: 1}]
        try realm.write { dictionary["k"] = .int(9) }
        #expect(Array(try stored(realm).anyList) == [.int(5), .fromDictionary(["k": .int(9)])])
    }

    @Test func removingItsOwnElementInvalidatesIt() throws {
        let realm = try Realm(configuration: memoryConfig([MStableBox.self]))
        let box = try seeded(realm)
        let inner = try #require(box.anyList[0].listValue)
        try realm.write { box.anyList.remove(at: 0) }
        // The dictionary slid into position 0: the list does not become it.
        #expect(inner.isInvalidated)
        #expect(throws: (any Error).self) { try inner.checkedCount() }
        #expect(throws: (any Error).self) { try realm.write { inner.append(.int(3)) } }
        #expect(Array(try stored(realm).anyList) == [.fromDictionary(["k": .int(1)]), .int(5)])
    }

    @Test func aCollectionTwoLevelsDownFollowsItsElement() throws {
        let realm = try Realm(configuration: memoryConfig([MStableBox.self]))
        let box = try realm.write {
            realm.create(
                MStableBox.self,
                value: [
                    "id": 1,
                    "value": AnyRealmValue.fromArray([.fromArray([.string("a")]), .fromArray([.string("b")])]),
                ])
        }
        let outer = try #require(box.value.listValue)
        let second = try #require(outer[1].listValue)
        try realm.write { outer.insert(.fromArray([.string("new")]), at: 0) }
        try realm.write { second.append(.string("c")) }
        #expect(
            try stored(realm).value
                == .fromArray([
                    .fromArray([.string("new")]), .fromArray([.string("a")]),
                    .fromArray([.string("b"), .string("c")]),
                ]))
    }

    @Test func aChangeFromAnotherThreadIsFollowed() throws {
        let config = memoryConfig([MStableBox.self])
        let realm = try Realm(configuration: config)
        let box = try seeded(realm)
        let inner = try #require(box.anyList[0].listValue)
        try onOtherThread {
            let other = try Realm(configuration: config)
            try other.write { other.object(ofType: MStableBox.self, forPrimaryKey: 1)?.anyList.insert(.int(0), at: 0) }
        }
        realm.refresh()
        #expect(Array(inner) == [.int(1), .int(2)])
        try realm.write { inner.append(.int(3)) }
        #expect(try stored(realm).anyList[1] == .fromArray([.int(1), .int(2), .int(3)]))
    }

    /// RealmSwift's dynamic API (`object["property"]`) hands out the same managed collections.
    @Test func theDynamicAPIsNestedCollectionFollowsItsElement() throws {
        let realm = try Realm(configuration: memoryConfig([MStableBox.self]))
        let box = try seeded(realm)
        let anyList = try #require(box["anyList"] as? List<AnyRealmValue>)
        let inner = try #require(anyList[0].listValue)
        try realm.write { anyList.insert(AnyRealmValue.none, at: 0) }
        try realm.write { inner.append(.int(3)) }
        #expect(try stored(realm).anyList[1] == .fromArray([.int(1), .int(2), .int(3)]))
    }

    @Test func anObserverFollowsItsElement() throws {
        let realm = try Realm(configuration: memoryConfig([MStableBox.self]))
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
        // before it: no change of it
        try realm.write { box.anyList.insert(.fromArray([.int(7), .int(8), .int(9)]), at: 0) }
        realm.refresh()
        try realm.write { inner.append(.int(3)) }
        realm.refresh()
        #expect(pumpUntil { log.count >= 2 })
        #expect(log == ["initial 2", "3 d[] i[2] m[]"])
        token.invalidate()
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
