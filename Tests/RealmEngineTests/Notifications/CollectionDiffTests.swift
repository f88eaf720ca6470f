import Testing
@testable import RealmEngine

@Suite struct CollectionDiffTests {
    @Test func randomSequencesWithRepeats() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let alphabet = Int.random(in: 1...12, using: &rng)
            let old = (0..<Int.random(in: 0...15, using: &rng)).map { _ in
                ObjectKey(Int64.random(in: 0..<Int64(alphabet), using: &rng))
            }
            var new = old.filter { _ in Bool.random(using: &rng) || Bool.random(using: &rng) }
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                new.insert(
                    ObjectKey(Int64.random(in: 0..<Int64(alphabet + 3), using: &rng)),
                    at: Int.random(in: 0...new.count, using: &rng))
            }
            if new.count > 1, Bool.random(using: &rng) { new.swapAt(0, new.count - 1) }
            let modified = Set((0..<alphabet).filter { _ in Bool.random(using: &rng) }.map { ObjectKey(Int64($0)) })
            let set = CollectionDiff.compute(old: old, new: new, modified: modified)
            #expect(apply(deletions: set.deletions, insertions: set.insertions, to: old, new: new) == new)
            #expect(set.deletions == set.deletions.sorted() && set.insertions == set.insertions.sorted())
            let newSet = Set(new)
            #expect(set.modifications == old.indices.filter { modified.contains(old[$0]) && newSet.contains(old[$0]) })
            if old == new { #expect(set.deletions.isEmpty && set.insertions.isEmpty) }
        }
    }

    @Test func moveInSortedIsDeleteAndInsert() {
        let k = (0..<5).map { ObjectKey(Int64($0)) }
        let set = CollectionDiff.compute(old: k, new: [k[0], k[2], k[3], k[1], k[4]], modified: [k[1]])
        #expect(set.deletions == [1] && set.insertions == [3] && set.modifications == [1])
    }
}
