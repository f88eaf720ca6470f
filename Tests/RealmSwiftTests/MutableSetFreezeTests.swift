import Foundation
import Testing
import RealmSwift

/// `freeze()`/`thaw()` of a managed `MutableSet`, as `List` and `Map` have them (issue 23: the
/// typed API's sets "with observe, freeze"): the frozen set keeps the version it was frozen at,
/// is readable from another thread, refuses changes, and thaws to the live set. Before, a
/// `MutableSet` had no `freeze()` at all.
@Suite struct MutableSetFreezeTests {
    final class MSFBag: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var tags: MutableSet<String>
    }

    @Test func aFrozenSetKeepsItsVersionAndThaws() async throws {
        let realm = try Realm(configuration: memoryConfig([MSFBag.self]))
        let bag = try realm.write { realm.create(MSFBag.self, value: ["id": 1, "tags": ["a", "b"]]) }
        let frozen = bag.tags.freeze()
        #expect(frozen.isFrozen && !bag.tags.isFrozen && frozen.freeze() === frozen)
        try realm.write { bag.tags.insert("c") }
        #expect(Set(frozen) == ["a", "b"] && Set(bag.tags) == ["a", "b", "c"])
        let box = Frozen(frozen)
        let elsewhere = await Task.detached { Set(box.value) }.value
        #expect(elsewhere == ["a", "b"])
        let live = try #require(frozen.thaw())
        #expect(!live.isFrozen && Set(live) == ["a", "b", "c"])
    }
}
