import Foundation
import Testing
import RealmSwift

/// RealmSwift's `SortDescriptor` API (realm-swift's SortDescriptorTests, rewritten): a reversed
/// copy, the description, a string literal, and sorting with a reversed descriptor.
@Suite struct SortDescriptorAPITests {
    final class Row: Object {
        @Persisted var n = 0
    }

    @Test func reversedFlipsTheDirectionOnly() {
        let ascending = SortDescriptor(keyPath: "property")
        let reversed = ascending.reversed()
        #expect(reversed.keyPath == "property")
        #expect(!reversed.ascending)
        #expect(reversed.reversed() == ascending)
    }

    @Test func descriptionNamesKeyPathAndDirection() {
        #expect(
            SortDescriptor(keyPath: "property").description == "SortDescriptor(keyPath: property, direction: ascending)"
        )
        #expect(
            SortDescriptor(keyPath: "a.b", ascending: false).description
                == "SortDescriptor(keyPath: a.b, direction: descending)")
    }

    @Test func aStringLiteralIsAnAscendingDescriptor() {
        let literal: RealmSwift.SortDescriptor = "property"
        #expect(literal == SortDescriptor(keyPath: "property", ascending: true))
    }

    @Test func resultsSortByReversedAndLiteralDescriptors() throws {
        let realm = try Realm(configuration: memoryConfig([Row.self]))
        try realm.write {
            for n in [2, 3, 1] { realm.add(Row(value: ["n": n])) }
        }
        let byN: RealmSwift.SortDescriptor = "n"
        #expect(realm.objects(Row.self).sorted(by: [byN]).map(\.n) == [1, 2, 3])
        #expect(realm.objects(Row.self).sorted(by: [byN.reversed()]).map(\.n) == [3, 2, 1])
    }
}
