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
        let layout = try #require(info.fieldLayout)
        #expect(layout.names == ["a", "b", "id", "list", "link", "back"])
        let object = Derived()
        object.a = 7
        let fast = object.fieldHandles()
        let mirrored = persistedChildren(of: object)
        #expect(fast.map(\.name) == mirrored.map(\.0))
        #expect(zip(fast, mirrored).allSatisfy { $0.box == $1.1.boxPointer })
        // Values read through the offsets are the object's own.
        if case .value(.int(let a))? = fast[0].access.unmanagedInput(fast[0].box, for: nil) { #expect(a == 7) } else { Issue.record("a") }
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
