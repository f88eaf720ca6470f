import Foundation
import Testing
@testable import RealmSwift

/// The storage of `@Persisted` properties is found at fixed offsets once per class (no
/// `Mirror` per object), for every kind of property and through inheritance.
@Suite struct FieldAccessTests {
    class Base: Object {
        @Persisted var a = 1
        var ignored = "x"
        @Persisted var b: String?
    }
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
        if case .value(.int(let a))? = fast[0].access.unmanagedInput(fast[0].field, for: nil) {
            #expect(a == 7)
        } else {
            Issue.record("a")
        }
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
        #expect(
            stored.a == 3 && stored.b == "x" && Array(stored.list) == [1, 2] && stored.link == e && e.back.first == d)
    }
}

/// Each `@Persisted` access finds its property's slot from the identity of the storage key path
/// (`KeyPathSlots`): these check that the table answers the right slot, stays correct when it
/// is full or when key paths are made anew per access (a generic class), and under threads.
@Suite struct KeyPathSlotTests {
    final class Pair: Object {
        @Persisted var first = 1
        @Persisted var second = "two"
        @Persisted var third = 3.0
    }
    class Box<Content: _Persistable>: Object {
        @Persisted var a = 0
        @Persisted var b = 0
    }

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
        table.record(paths[3], slot: 99)  // known: ignored
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

/// Iteration recycles an object nobody holds any more for the next one, and only then: what a
/// loop keeps, or references weakly or unowned, stays the object it was.
@Suite struct IterationRecyclingTests {
    final class Item: Object { @Persisted var n = 0 }
    final class Cached: Object {
        @Persisted var n = 0
        var note = ""
    }

    private func realm(_ count: Int) throws -> Realm {
        let realm = try Realm(configuration: memoryConfig([Item.self, Cached.self]))
        try realm.write {
            for i in 0..<count {
                realm.add(Item(value: [i]))
                realm.add(Cached(value: ["n": i]))
            }
        }
        return realm
    }

    @Test func aLoopThatKeepsNothingReadsEveryObjectThroughOne() throws {
        let realm = try realm(500)
        var seen = Set<ObjectIdentifier>()
        var sum = 0
        for item in realm.objects(Item.self) {
            seen.insert(ObjectIdentifier(item))
            sum += item.n
        }
        #expect(sum == (0..<500).reduce(0, +))
        #expect(seen.count == 1)
    }

    @Test func keptObjectsStayTheirOwn() throws {
        let realm = try realm(300)
        var kept: [Item] = []
        for item in realm.objects(Item.self) where item.n % 3 == 0 { kept.append(item) }
        #expect(kept.map(\.n) == Array(stride(from: 0, to: 300, by: 3)))
        #expect(Set(kept.map(ObjectIdentifier.init)).count == kept.count)
        #expect(Array(realm.objects(Item.self)).map(\.n) == Array(0..<300))
    }

    @Test func weakAndUnownedReferencesKeepTheirObject() throws {
        let realm = try realm(50)
        var weakOnes: [Int: WeakItem] = [:]
        for item in realm.objects(Item.self) where item.n % 10 == 0 { weakOnes[item.n] = WeakItem(item) }
        // Each weakly held object was either freed (nil) or still shows its own row.
        for (n, box) in weakOnes { if let item = box.item { #expect(item.n == n) } }
        var firstUnowned: [(Int, Unowned)] = []
        var strong: [Item] = []  // keeps the objects alive, so the unowned references stay valid
        for item in realm.objects(Item.self) where item.n < 5 {
            strong.append(item)
            firstUnowned.append((item.n, Unowned(item)))
        }
        for (n, box) in firstUnowned { #expect(box.item.n == n) }
        #expect(strong.count == 5)
    }

    @Test func aClassWithItsOwnStoredPropertiesIsNeverRecycled() throws {
        let realm = try realm(20)
        var notes: [String] = []
        for cached in realm.objects(Cached.self) {
            notes.append(cached.note)  // always the fresh object's default
            cached.note = "seen \(cached.n)"
        }
        #expect(notes == Array(repeating: "", count: 20))
        #expect(!ClassInfo.of(Cached.self).isRecyclable && ClassInfo.of(Item.self).isRecyclable)
    }

    final class WeakItem {
        weak var item: Item?
        init(_ item: Item) { self.item = item }
    }
    final class Unowned {
        unowned let item: Item
        init(_ item: Item) { self.item = item }
    }
}
