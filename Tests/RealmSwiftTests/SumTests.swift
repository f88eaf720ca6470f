import Foundation
import Testing
import RealmSwift

/// The sum of a narrow integer property is computed in 64 bits: asked for as an `Int` it is
/// exact; asked for as the property's type when it does not fit, it is never a wrapped or
/// clamped number (AggregateReadErrorTests: 0 with the reason in `error`, or a throw).
@Suite struct SumTests {
    final class SCounter: Object {
        @Persisted var small: Int8 = 0
        @Persisted var medium: Int16 = 0
    }

    @Test func theSumOfANarrowPropertyAskedForAsAnIntIsExact() throws {
        let realm = try Realm(configuration: memoryConfig([SCounter.self]))
        try realm.write {
            for _ in 0..<2 { realm.add(SCounter(value: ["small": 100, "medium": 30_000])) }
        }
        let counters = realm.objects(SCounter.self)
        #expect(counters.sum(ofProperty: "small") == 200 as Int)
        #expect(counters.sum(ofProperty: "medium") == 60_000 as Int)
        try realm.write { counters.first?.small = -100 }
        #expect(counters.sum(of: \.small) == 0 as Int8)  // fits: the property's type
    }
}
