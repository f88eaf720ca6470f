import Foundation
import Testing
@testable import RealmSwift

/// The storage of `@Persisted` properties is found at fixed offsets once per class (no
/// `Mirror` per object), for every kind of property and through inheritance.
@Suite struct FieldAccessTests {
    class Base: Object { @Persisted var a = 1; var ignored = "x"; @Persisted var b: String? }
    final class Derived: Base {
        @Persisted(primaryKey: true) var id = UUID()
        @Persisted var list: List<Int>
        @Persisted var link: Derived?
        @Persisted(originProperty: "link") var back: LinkingObjects<Derived>
    }

    @Test func offsetsAreFoundAndMatchReflection() throws {
        let info = ClassInfo.of(Derived.self)
        #expect(info.fields.map(\.name) == ["a", "b", "id", "list", "link", "back"])
        let object = Derived()
        object.a = 7
        object.b = "seven"
        let fast = object.fieldHandles()
        let mirrored = persistedChildren(of: object)
        #expect(fast.map(\.name) == mirrored.map(\.0))
        // Values read through the offsets are the object's own.
        if case .value(.int(let a))? = fast[0].access.unmanagedInput(fast[0].field, for: nil) { #expect(a == 7) } else { Issue.record("a") }
        #expect(fast[1].access.unmanagedValue(fast[1].field) as? String? == "seven")
        // Values written through them are what the property then holds.
        #expect(fast[0].access.setUnmanaged(fast[0].field, 8))
        #expect(object.a == 8)
        #expect(!fast[0].access.setUnmanaged(fast[0].field, "eight"))
    }

    /// A managed object reads its columns when asked, not from a copy: a change through another
    /// instance, or through the dynamic API, is seen at once.
    @Test func managedObjectsReadTheRealmNotTheirStorage() throws {
        let realm = try Realm(configuration: memoryConfig([Derived.self]))
        let d = Derived(value: ["a": 1, "b": "x"])
        try realm.write { realm.add(d) }
        let other = try #require(realm.object(ofType: Derived.self, forPrimaryKey: d.id))
        try realm.write { other.a = 2 }
        #expect(d.a == 2)
        try realm.write { try realm.dynamicRealm.objects("Derived").first?.setValue(.string("y"), forKey: "b") }
        #expect(d.b == "y" && other.b == "y")
        // Unmanaged objects keep plain storage.
        let plain = Derived(value: ["a": 5])
        plain.a += 1
        #expect(plain.a == 6 && !plain.isManaged)
    }

    @Test func addAndReadUseTheOffsets() throws {
        let realm = try Realm(configuration: memoryConfig([Derived.self]))
        let d = Derived(value: ["a": 3, "b": "x", "list": [1, 2]])
        let e = Derived(value: ["a": 4])
        d.link = e
        try realm.write { realm.add(d) }
        #expect(realm.objects(Derived.self).count == 2 && e.isManaged)
        let stored = try #require(realm.object(ofType: Derived.self, forPrimaryKey: d.id))
        #expect(stored.a == 3 && stored.b == "x" && Array(stored.list) == [1, 2] && stored.link == e && e.back.first == d)
    }
}

/// Each `@Persisted` access finds its property's slot from the identity of the storage key path
/// (`KeyPathSlots`): these check that the table answers the right slot, stays correct when it
/// is full or when key paths are made anew per access (a generic class), and under threads.
@Suite struct KeyPathSlotTests {
    final class Pair: Object { @Persisted var first = 1; @Persisted var second = "two"; @Persisted var third = 3.0 }
    class Box<Content: _Persistable>: Object { @Persisted var a = 0; @Persisted var b = 0 }

    @Test func everyPropertyReadsAndWritesItsOwnStorage() throws {
        for round in 0..<3 {
            let pair = Pair()
            pair.first = round
            pair.second = "s\(round)"
            pair.third = Double(round) / 2
            #expect(pair.first == round && pair.second == "s\(round)" && pair.third == Double(round) / 2)
        }
        let realm = try Realm(configuration: memoryConfig([Pair.self]))
        try realm.write { for i in 0..<20 { realm.add(Pair(value: [i, "n\(i)", Double(i)])) } }
        for (i, pair) in realm.objects(Pair.self).enumerated() {
            #expect(pair.first == i && pair.second == "n\(i)" && pair.third == Double(i))
        }
    }

    @Test func aFullTableFallsBackToTheSlowPathWithTheRightSlots() {
        let table = KeyPathSlots(fieldCount: 0)
        // Key paths with an argument are made at run time: 40 distinct objects. 8 fit (2 × 0 + 8).
        let paths: [AnyKeyPath] = (0..<40).map { i in \[Int].[i] }
        for (i, path) in paths.enumerated() { table.record(path, slot: i) }
        table.record(paths[3], slot: 99)   // known: ignored
        for (i, path) in paths.enumerated() {
            #expect(table.slot(of: path) == (i < 8 ? i : nil))
        }
    }

    @Test func aGenericClassKeepsReadingTheRightProperties() {
        let box = Box<Int>()
        for i in 0..<200 {
            box.a = i
            box.b = -i
            #expect(box.a == i && box.b == -i)
        }
    }

    @Test func concurrentFirstUsesAgree() async {
        await withTaskGroup(of: Bool.self) { group in
            for t in 0..<8 {
                group.addTask {
                    var ok = true
                    for i in 0..<500 {
                        let pair = Pair()
                        pair.first = t * i
                        pair.second = "\(i)"
                        ok = ok && pair.first == t * i && pair.second == "\(i)" && pair.third == 3.0
                    }
                    return ok
                }
            }
            for await ok in group { #expect(ok) }
        }
    }
}
