import Foundation
import Testing
import RealmSwift

/// `Map.merge(_:uniquingKeysWith:)` as RealmSwift's (and `Dictionary`'s): new keys are set,
/// a key already held gets `combine(current, new)`.
@Suite struct MapMergeTests {
    final class Scores: Object {
        @Persisted var byName: Map<String, Int>
    }

    @Test func anUnmanagedMapCombinesHeldKeys() {
        let scores = Scores()
        scores.byName["a"] = 1
        scores.byName.merge(["a": 10, "b": 2]) { current, new in current + new }
        #expect(scores.byName["a"] == 11)
        #expect(scores.byName["b"] == 2)
        #expect(scores.byName.count == 2)
    }

    @Test func aManagedMapCombinesHeldKeysAndMergesAnotherMap() throws {
        let realm = try Realm(configuration: memoryConfig([Scores.self]))
        let scores = Scores()
        try realm.write {
            realm.add(scores)
            scores.byName["a"] = 5
            scores.byName.merge(["a": 3, "c": 7]) { current, new in Swift.max(current, new) }
        }
        #expect(scores.byName["a"] == 5)
        #expect(scores.byName["c"] == 7)
        let other = Scores()
        other.byName["c"] = 1
        other.byName["d"] = 4
        try realm.write { scores.byName.merge(other.byName) { _, new in new } }
        #expect(scores.byName["c"] == 1)
        #expect(scores.byName["d"] == 4)
        #expect(Dictionary(uniqueKeysWithValues: scores.byName.asKeyValueSequence()) == ["a": 5, "c": 1, "d": 4])
    }

    struct Refused: Error {}

    @Test func anErrorFromCombineIsRethrown() {
        let scores = Scores()
        scores.byName["a"] = 1
        #expect(throws: Refused.self) {
            try scores.byName.merge(["a": 2]) { _, _ in throw Refused() }
        }
        #expect(scores.byName["a"] == 1)
    }
}
