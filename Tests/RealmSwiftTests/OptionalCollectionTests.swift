import Foundation
import Testing
import RealmSwift

/// Collections of optionals: `List<Int?>`, `List<String?>`, `MutableSet<Int?>`,
/// `Map<String, Int?>` — stored, read, queried and observed (realm-swift's
/// `PrimitiveListTests`/`PrimitiveMutableSetTests` over their optional types, rewritten).
@Suite struct OptionalCollectionTests {
    final class OptionalBag: Object {
        @Persisted var name = ""
        @Persisted var ints: List<Int?>
        @Persisted var strings: List<String?>
        @Persisted var dates: List<Date?>
        @Persisted var intSet: MutableSet<Int?>
        @Persisted var stringSet: MutableSet<String?>
        @Persisted var counts: Map<String, Int?>
    }

    @Test func theSchemaSaysTheElementsAreOptional() {
        let schema = OptionalBag.sharedSchema()
        #expect(schema["ints"]?.isList == true)
        #expect(schema["ints"]?.isOptional == true)
        #expect(schema["strings"]?.type == .string)
        #expect(schema["intSet"]?.isSet == true)
        #expect(schema["intSet"]?.isOptional == true)
    }

    @Test func listsOfOptionalsStoreNilAndValues() throws {
        let realm = try Realm(configuration: memoryConfig([OptionalBag.self]))
        let bag = OptionalBag()
        bag.ints.append(objectsIn: [1, nil, 3])
        bag.strings.append(nil)
        bag.strings.append("b")
        #expect(Array(bag.ints) == [1, nil, 3])
        try realm.write { realm.add(bag) }
        let read = try #require(realm.objects(OptionalBag.self).first)
        #expect(Array(read.ints) == [1, nil, 3])
        #expect(Array(read.strings) == [nil, "b"])
        try realm.write {
            read.ints[0] = nil
            read.ints.insert(7, at: 1)
            read.strings.remove(at: 0)
            read.dates.append(nil)
            read.dates.append(Date(timeIntervalSince1970: 5))
        }
        #expect(Array(bag.ints) == [nil, 7, nil, 3])
        #expect(Array(bag.strings) == ["b"])
        #expect(Array(bag.dates) == [nil, Date(timeIntervalSince1970: 5)])
        // Made from loosely typed values too, nil as NSNull.
        try realm.write { realm.create(OptionalBag.self, value: ["name": "c", "ints": [NSNull(), 2]]) }
        let created = try #require(realm.objects(OptionalBag.self).filter("name == 'c'").first)
        #expect(Array(created.ints) == [nil, 2])
    }

    @Test func setsOfOptionalsHoldNilOnce() throws {
        let realm = try Realm(configuration: memoryConfig([OptionalBag.self]))
        let bag = OptionalBag()
        bag.intSet.insert(nil)
        bag.intSet.insert(nil)
        bag.intSet.insert(2)
        #expect(bag.intSet.count == 2)
        #expect(bag.intSet.contains(nil))
        try realm.write { realm.add(bag) }
        #expect(bag.intSet.count == 2)
        #expect(bag.intSet.contains(nil))
        #expect(bag.intSet.contains(2))
        #expect(!bag.intSet.contains(3))
        try realm.write {
            bag.intSet.insert(nil)
            bag.stringSet.insert(nil)
            bag.stringSet.insert("x")
        }
        #expect(bag.intSet.count == 2)
        #expect(Set(bag.stringSet.elements) == [nil, "x"])
        try realm.write { bag.intSet.remove(nil) }
        #expect(Array(bag.intSet) == [2])
    }

    @Test func mapsOfOptionalsKeepNilValues() throws {
        let realm = try Realm(configuration: memoryConfig([OptionalBag.self]))
        let bag = OptionalBag()
        bag.counts["a"] = .some(nil)
        bag.counts["b"] = 2
        try realm.write { realm.add(bag) }
        #expect(bag.counts.count == 2)
        #expect(bag.counts["a"] == .some(nil))
        #expect(bag.counts["b"] == 2)
        #expect(bag.counts["c"] == nil)
    }

    @Test func mapsOfOptionalsAreQueriedAndObserved() throws {
        let realm = try Realm(configuration: memoryConfig([OptionalBag.self]))
        try realm.write {
            realm.create(OptionalBag.self, value: ["name": "withNil", "counts": ["a": NSNull(), "b": 1]])
            realm.create(OptionalBag.self, value: ["name": "withoutNil", "counts": ["a": 2]])
        }
        let bags = realm.objects(OptionalBag.self)
        #expect(bags.filter("ANY counts.@values == nil").map(\.name) == ["withNil"])
        #expect(bags.where { $0.counts.values.contains(nil) }.map(\.name) == ["withNil"])
        #expect(bags.where { $0.counts["a"] == 2 }.map(\.name) == ["withoutNil"])
        let bag = try #require(bags.filter("name == 'withNil'").first)
        var events: [String] = []
        let token = bag.counts.observe { change in
            switch change {
            case .initial(let map): events.append("initial \(map.count)")
            case .update(_, let deletions, let insertions, let modifications):
                events.append("update -\(deletions) +\(insertions) ~\(modifications)")
            case .error(let error): events.append("error \(error)")
            }
        }
        defer { token.invalidate() }
        pumpRunLoop { events.count >= 1 }
        try realm.write { bag.counts["b"] = .some(nil) }
        pumpRunLoop { events.count >= 2 }
        #expect(events == ["initial 2", "update -[] +[] ~[\"b\"]"])
        #expect(bag.counts["b"] == .some(nil))
    }

    @Test func queriesSeeNilElements() throws {
        let realm = try Realm(configuration: memoryConfig([OptionalBag.self]))
        try realm.write {
            realm.create(OptionalBag.self, value: ["name": "withNil", "ints": [NSNull(), 5], "intSet": [NSNull()]])
            realm.create(OptionalBag.self, value: ["name": "withoutNil", "ints": [1, 2], "intSet": [1]])
        }
        let bags = realm.objects(OptionalBag.self)
        #expect(bags.filter("ANY ints == nil").map(\.name) == ["withNil"])
        #expect(bags.filter("ANY intSet == nil").map(\.name) == ["withNil"])
        #expect(bags.where { $0.ints.contains(nil) }.map(\.name) == ["withNil"])
        #expect(bags.where { $0.ints == 2 }.map(\.name) == ["withoutNil"])
        #expect(bags.where { $0.ints > 4 }.map(\.name) == ["withNil"])
        #expect(bags.where { $0.intSet.contains(nil) }.map(\.name) == ["withNil"])
    }

    @Test func aListOfOptionalsIsObserved() throws {
        let realm = try Realm(configuration: memoryConfig([OptionalBag.self]))
        let bag = OptionalBag()
        try realm.write { realm.add(bag) }
        var changes: [String] = []
        let token = bag.ints.observe { change in
            switch change {
            case .initial(let list): changes.append("initial \(list.count)")
            case .update(let list, let deletions, let insertions, _):
                changes.append("update \(Array(list)) -\(deletions) +\(insertions)")
            case .error(let error): changes.append("error \(error)")
            }
        }
        defer { token.invalidate() }
        pumpRunLoop { changes.count >= 1 }
        try realm.write { bag.ints.append(objectsIn: [nil, 4]) }
        pumpRunLoop { changes.count >= 2 }
        #expect(changes == ["initial 0", "update [nil, Optional(4)] -[] +[0, 1]"])
    }
}
