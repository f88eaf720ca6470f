import Foundation
import RealmSwift
import Testing

/// Realm Swift code that ports unchanged (issue 26): `ObjectId`'s initializers as RealmSwift
/// has them, and `List`'s range edits (`RangeReplaceableCollection`-style and SwiftUI's
/// offset edits), on unmanaged and managed lists alike.
@Suite struct PortingTests {
    final class Numbers: Object {
        @Persisted var values: List<Int>
    }

    @Test func objectIdFromALiteralAndFromTextThatMayBeWrong() throws {
        let literal = ObjectId("5f8d0d55b54764421b715e01")
        #expect(literal.description == "5f8d0d55b54764421b715e01")
        #expect(try ObjectId(string: "5F8D0D55B54764421B715E01") == literal)
        #expect(throws: (any Error).self) { try ObjectId(string: "not an object id") }
        #expect(throws: (any Error).self) { try ObjectId(string: "5f8d0d55b54764421b715e0") }
    }

    /// Each edit applied to an unmanaged list, to a managed one, and to an array, which the
    /// lists must match.
    nonisolated(unsafe) static let edits: [(String, (List<Int>) -> Void, (inout [Int]) -> Void)] = [
        (
            "replaceSubrange", { $0.replaceSubrange(1..<3, with: [10, 11, 12]) },
            { $0.replaceSubrange(1..<3, with: [10, 11, 12]) }
        ),
        ("removeFirst(2)", { $0.removeFirst(2) }, { $0.removeFirst(2) }),
        ("removeFirst()", { $0.removeFirst() }, { $0.removeFirst() }),
        ("removeLast(3)", { $0.removeLast(3) }, { $0.removeLast(3) }),
        (
            "insert(contentsOf:at:)", { $0.insert(contentsOf: [7, 8], at: 2) },
            { $0.insert(contentsOf: [7, 8], at: 2) }
        ),
        ("removeSubrange", { $0.removeSubrange(1...3) }, { $0.removeSubrange(1...3) }),
        (
            "remove(atOffsets:)", { $0.remove(atOffsets: IndexSet([0, 2, 5])) },
            { array in
                for offset in [5, 2, 0] { array.remove(at: offset) }
            }
        ),
        (
            "move(fromOffsets:toOffset:) forward", { $0.move(fromOffsets: IndexSet([0, 2]), toOffset: 5) },
            { $0 = [1, 3, 4, 0, 2, 5] }
        ),
        (
            "move(fromOffsets:toOffset:) backward", { $0.move(fromOffsets: IndexSet([3, 5]), toOffset: 1) },
            { $0 = [0, 3, 5, 1, 2, 4] }
        ),
        (
            "move(fromOffsets:toOffset:) to the end", { $0.move(fromOffsets: IndexSet([1]), toOffset: 6) },
            { $0 = [0, 2, 3, 4, 5, 1] }
        ),
    ]

    @Test func rangeEditsOnListsMatchTheSameEditsOnAnArray() throws {
        let realm = try Realm(configuration: memoryConfig([Numbers.self]))
        for (name, edit, expected) in Self.edits {
            var array = [0, 1, 2, 3, 4, 5]
            expected(&array)
            let unmanaged = List<Int>()
            unmanaged.append(objectsIn: 0...5)
            edit(unmanaged)
            #expect(Array(unmanaged) == array, "unmanaged \(name)")
            let holder = Numbers()
            holder.values.append(objectsIn: 0...5)
            try realm.write { realm.add(holder) }
            try realm.write { edit(holder.values) }
            #expect(Array(holder.values) == array, "managed \(name)")
        }
    }
}

/// `Object.isSameObject(as:)`: the same stored object of the same Realm, or the same unmanaged
/// instance.
@Suite struct SameObjectTests {
    final class Tag: Object {
        @Persisted var name = ""
    }

    @Test func managedObjectsAreTheSameWhenTheyAreTheSameStoredObject() throws {
        let realm = try Realm(configuration: memoryConfig([Tag.self]))
        let first = Tag()
        let second = Tag()
        try realm.write {
            realm.add(first)
            realm.add(second)
        }
        let again = try #require(realm.objects(Tag.self).first)
        #expect(again !== first)
        #expect(again.isSameObject(as: first))
        #expect(!second.isSameObject(as: first))
        #expect(!first.isSameObject(as: nil))
        let unmanaged = Tag()
        #expect(unmanaged.isSameObject(as: unmanaged))
        #expect(!unmanaged.isSameObject(as: Tag()))
        #expect(!unmanaged.isSameObject(as: first))
        let other = try Realm(configuration: memoryConfig([Tag.self]))
        try other.write { other.add(Tag()) }
        #expect(try #require(other.objects(Tag.self).first).isSameObject(as: first) == false)
    }
}

/// `Decimal128("123e4")` and `Decimal128(string:)` as RealmSwift has them.
@Suite struct DecimalPortingTests {
    @Test func aDecimalFromALiteralAndFromTextThatMayBeWrong() throws {
        let literal = Decimal128("123e4")
        #expect(literal == Decimal128(1_230_000))
        #expect(try Decimal128(string: "0.1") + Decimal128(string: "0.2") == Decimal128("0.3"))
        #expect(throws: (any Error).self) { try Decimal128(string: "ten") }
    }
}
