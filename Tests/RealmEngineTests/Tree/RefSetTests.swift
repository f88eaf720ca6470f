import Testing
@testable import RealmEngine

/// `RefSet` must behave as `Set<UInt64>` under any mix of inserts and removes (backward-shift
/// deletion and growth included).
@Suite struct RefSetTests {
    @Test func matchesSetUnderRandomOperations() {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<20 {
            var mine = RefSet(minimumCapacity: round % 3 == 0 ? 1 : 32)
            var reference = Set<UInt64>()
            // A small universe makes collisions, long runs and re-inserts common.
            let universe = UInt64(round % 2 == 0 ? 64 : 5000)
            for _ in 0..<3000 {
                let ref = 4096 + 8 * UInt64.random(in: 0..<universe, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: #expect(mine.insert(ref) == reference.insert(ref).inserted)
                case 1: #expect(mine.remove(ref) == (reference.remove(ref) != nil))
                default: #expect(mine.contains(ref) == reference.contains(ref))
                }
                #expect(mine.count == reference.count)
            }
            #expect(mine.sorted() == reference.sorted())
            for ref in reference { #expect(mine.contains(ref)) }
        }
        #expect(!RefSet().contains(0))
    }
}
