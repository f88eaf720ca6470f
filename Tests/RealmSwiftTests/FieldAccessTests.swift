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
