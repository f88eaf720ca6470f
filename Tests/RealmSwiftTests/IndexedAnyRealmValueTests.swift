import Foundation
import RealmSwift
import Testing

/// `@Persisted(indexed: true) var value: AnyRealmValue` and `indexedProperties()` naming an
/// `AnyRealmValue` property, as Realm Swift allows: the schema has the index, and `where {}`
/// and string queries go through it, finding equal numbers of every kind.
@Suite struct IndexedAnyRealmValueTests {
    final class IBox: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted(indexed: true) var value: AnyRealmValue
    }

    final class HookedBox: Object {
        @Persisted var id = 0
        @Persisted var value: AnyRealmValue
        override class func indexedProperties() -> [String] { ["value"] }
    }

    @Test func anIndexedAnyRealmValueIsQueriedThroughItsIndex() throws {
        #expect(IBox.sharedSchema().properties.first { $0.name == "value" }?.isIndexed == true)
        #expect(HookedBox.sharedSchema().properties.first { $0.name == "value" }?.isIndexed == true)
        let realm = try Realm(configuration: memoryConfig([IBox.self, HookedBox.self]))
        let values: [AnyRealmValue] = [
            .int(1), .double(1.0), .decimal128(Decimal128(1)), .string("1"), .data(Data("1".utf8)),
            .int(7), .none, .float(1.5),
        ]
        try realm.write {
            for (i, value) in values.enumerated() {
                realm.create(IBox.self, value: ["id": i, "value": value])
                realm.create(HookedBox.self, value: ["id": i, "value": value])
            }
        }
        let typed = realm.objects(IBox.self).where { $0.value == .int(1) }
        #expect(typed.dynamicResults.planDescription == "index lookup on value")
        #expect(Array(typed.map(\.id)).sorted() == [0, 1, 2])
        let text = realm.objects(IBox.self).filter("value IN %@", [1.5, 7])
        #expect(text.dynamicResults.planDescription == "index lookup on value")
        #expect(Array(text.map(\.id)).sorted() == [5, 7])
        #expect(realm.objects(IBox.self).where { $0.value == .string("1") }.map(\.id) == [3])
        #expect(realm.objects(IBox.self).where { $0.value == .none }.map(\.id) == [6])
        let hooked = realm.objects(HookedBox.self).where { $0.value == .double(1) }
        #expect(hooked.dynamicResults.planDescription == "index lookup on value")
        #expect(Array(hooked.map(\.id)).sorted() == [0, 1, 2])
        // An update moves the object in the index.
        try realm.write { realm.object(ofType: IBox.self, forPrimaryKey: 0)?.value = .string("1") }
        #expect(Array(realm.objects(IBox.self).where { $0.value == .int(1) }.map(\.id)).sorted() == [1, 2])
        #expect(Array(realm.objects(IBox.self).where { $0.value == .string("1") }.map(\.id)).sorted() == [0, 3])
    }
}
