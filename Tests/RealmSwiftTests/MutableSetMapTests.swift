import Foundation
import Testing
import RealmSwift

/// `@Persisted var tags: MutableSet<String>` and `@Persisted var attrs: Map<String, …>` as in
/// RealmSwift: insert/remove/contains/union on a set (unique by value, Realm's order), subscript,
/// keys, values and removeObject(for:) on a map (a missing key reads nil, a key Realm refuses
/// makes the write throw), sets and maps of objects (an unmanaged object added with its owner or
/// when inserted), queries, reopening, and observe.
@Suite struct MutableSetMapTests {
    final class SDog: Object {
        @Persisted(primaryKey: true) var name = ""
        @Persisted var age = 0
    }

    final class SOwner: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var tags: MutableSet<String>
        @Persisted var scores: MutableSet<Double>
        @Persisted var friends: MutableSet<SDog>
        @Persisted var attrs: Map<String, String>
        @Persisted var counts: Map<String, Int?>
        @Persisted var pets: Map<String, SDog?>
    }

    @Test func setsAreUniqueInRealmsOrderAndSurviveReopening() throws {
        let config = try fileConfig([SOwner.self, SDog.self])
        defer { removeFolder(of: config) }
        do {
            let realm = try Realm(configuration: config)
            let owner = SOwner()
            owner.id = 1
            owner.tags.insert("b")
            owner.tags.insert("a")
            owner.tags.insert("b")
            #expect(owner.tags.count == 2)  // unmanaged: unique too
            let rex = SDog()
            rex.name = "rex"
            owner.friends.insert(rex)
            try realm.write { realm.add(owner) }
            try realm.write {
                owner.tags.insert("c")
                owner.tags.insert("a")
                owner.scores.insert(2.5)
                owner.scores.insert(1)
                owner.scores.insert(1.0)
                let tom = SDog()
                tom.name = "tom"
                owner.friends.insert(tom)  // an unmanaged object is added
                owner.friends.insert(rex)
            }
            #expect(realm.objects(SDog.self).count == 2)
        }
        let realm = try Realm(configuration: config)
        let owner = try #require(realm.object(ofType: SOwner.self, forPrimaryKey: 1))
        #expect(Array(owner.tags) == ["a", "b", "c"])
        #expect(Array(owner.scores) == [1.0, 2.5])
        #expect(owner.tags.contains("b") && !owner.tags.contains("z"))
        #expect(owner.friends.map(\.name).sorted() == ["rex", "tom"])
        let rex = try #require(realm.object(ofType: SDog.self, forPrimaryKey: "rex"))
        #expect(owner.friends.contains(rex))
        try realm.write {
            owner.tags.remove("b")
            owner.tags.formUnion(["d", "a"])
            owner.tags.subtract(["c"])
        }
        #expect(Array(owner.tags) == ["a", "d"])
        try realm.write { owner.tags.formIntersection(["d", "x"]) }
        #expect(Array(owner.tags) == ["d"])
        #expect(realm.objects(SOwner.self).filter("ANY tags == 'd'").count == 1)
        #expect(realm.objects(SOwner.self).filter("friends.@count == 2").count == 1)
        try realm.write { realm.delete(rex) }
        #expect(owner.friends.map(\.name) == ["tom"])
    }

    @Test func mapsReadSetAndRemoveKeys() throws {
        let config = try fileConfig([SOwner.self, SDog.self])
        defer { removeFolder(of: config) }
        do {
            let realm = try Realm(configuration: config)
            let owner = SOwner()
            owner.id = 1
            owner.attrs["color"] = "red"
            owner.counts["a"] = 1
            owner.counts["none"] = .some(nil)
            let rex = SDog()
            rex.name = "rex"
            owner.pets["dog"] = rex
            try realm.write { realm.add(owner) }
            try realm.write {
                owner.attrs["size"] = "L"
                owner.attrs["color"] = "blue"
                owner.attrs["gone"] = "x"
                owner.attrs["gone"] = nil  // removes the key
                let tom = SDog()
                tom.name = "tom"
                owner.pets["cat"] = tom
            }
        }
        let realm = try Realm(configuration: config)
        let owner = try #require(realm.object(ofType: SOwner.self, forPrimaryKey: 1))
        #expect(owner.attrs.keys == ["color", "size"])
        #expect(owner.attrs.values == ["blue", "L"])
        #expect(owner.attrs["color"] == "blue")
        #expect(owner.attrs["missing"] == nil)  // not an error
        #expect(owner.counts["a"] == .some(1))
        #expect(owner.counts["none"] == .some(nil))
        #expect(owner.counts["missing"] == nil)
        #expect(owner.pets["dog"]??.name == "rex")
        #expect(owner.pets["cat"]??.name == "tom")
        #expect(owner.pets.count == 2)
        #expect(realm.objects(SOwner.self).filter("attrs['color'] == 'blue'").count == 1)
        #expect(realm.objects(SOwner.self).filter("pets['dog'].name == 'rex'").count == 1)
        try realm.write { owner.attrs.removeObject(for: "size") }
        #expect(owner.attrs.keys == ["color"])
        let tom = try #require(realm.object(ofType: SDog.self, forPrimaryKey: "tom"))
        try realm.write { realm.delete(tom) }
        #expect(owner.pets.keys == ["cat", "dog"])
        #expect(owner.pets["cat"] == .some(nil))  // the key stays, its object gone
    }

    @Test func keysRealmRefusesMakeTheWriteThrow() throws {
        let realm = try Realm(configuration: memoryConfig([SOwner.self, SDog.self]))
        let owner = SOwner()
        owner.id = 1
        try realm.write { realm.add(owner) }
        #expect(throws: RealmError.self) { try realm.write { owner.attrs["a.b"] = "x" } }
        #expect(throws: RealmError.self) { try realm.write { owner.attrs["$a"] = "x" } }
        #expect(owner.attrs.isEmpty)
    }

    @Test func observeReportsSetPositionsAndMapKeys() throws {
        let config = try fileConfig([SOwner.self, SDog.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let owner = SOwner()
        owner.id = 1
        owner.tags.insert("m")
        owner.attrs["k"] = "v"
        try realm.write { realm.add(owner) }
        var setEvents: [String] = []
        var mapEvents: [String] = []
        let setToken = owner.tags.observe { change in
            switch change {
            case .initial(let s): setEvents.append("initial \(Array(s))")
            case .update(_, let d, let i, _): setEvents.append("update -\(d) +\(i)")
            case .error(let e): setEvents.append("error \(e)")
            }
        }
        let mapToken = owner.attrs.observe { change in
            switch change {
            case .initial(let m): mapEvents.append("initial \(m.keys)")
            case .update(_, let d, let i, let m): mapEvents.append("update -\(d) +\(i) ~\(m)")
            case .error(let e): mapEvents.append("error \(e)")
            }
        }
        pumpRunLoop { setEvents.count >= 1 && mapEvents.count >= 1 }
        let writer = try Realm(configuration: config)
        let other = try #require(writer.object(ofType: SOwner.self, forPrimaryKey: 1))
        try writer.write {
            other.tags.insert("a")
            other.attrs["k"] = "w"
            other.attrs["n"] = "x"
        }
        pumpRunLoop { setEvents.count >= 2 && mapEvents.count >= 2 }
        #expect(setEvents == ["initial [\"m\"]", "update -[] +[0]"])
        #expect(mapEvents == ["initial [\"k\"]", "update -[] +[\"n\"] ~[\"k\"]"])
        setToken.invalidate()
        mapToken.invalidate()
    }

    @Test func createFromDictionariesAndUnmanagedCopies() throws {
        let realm = try Realm(configuration: memoryConfig([SOwner.self, SDog.self]))
        try realm.write {
            realm.create(
                SOwner.self,
                value: [
                    "id": 7, "tags": ["x", "x", "y"], "attrs": ["a": "1"],
                    "counts": ["n": NSNull(), "m": 3], "pets": ["d": ["name": "fido", "age": 2]],
                ])
        }
        let owner = try #require(realm.object(ofType: SOwner.self, forPrimaryKey: 7))
        #expect(Array(owner.tags) == ["x", "y"])
        #expect(owner.attrs["a"] == "1")
        #expect(owner.counts["n"] == .some(nil) && owner.counts["m"] == .some(3))
        #expect(owner.pets["d"]??.age == 2)
        let copy = SOwner(value: owner)
        #expect(copy.realm == nil)
        #expect(Array(copy.tags) == ["x", "y"] && copy.attrs["a"] == "1")
    }
}
