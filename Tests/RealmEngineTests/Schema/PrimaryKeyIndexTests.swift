import Foundation
import Testing
@testable import RealmEngine

/// A primary key is always looked up through its index. A property made the primary key after
/// it was created (`property.isPrimaryKey = true`, as RealmSwift's `primaryKey()` hook did)
/// kept `isIndexed` false: the engine then stored no index for it, found no object by its key
/// and accepted duplicates.
@Suite struct PrimaryKeyIndexTests {
    @Test func aPrimaryKeySetAfterTheFactIsIndexedAndUnique() throws {
        var id = Property(name: "id", type: .int)
        id.isPrimaryKey = true
        #expect(!id.isIndexed)
        let schema = Schema([ObjectSchema(name: "Item", properties: [id, Property(name: "name", type: .string)])])
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "pk-index-\(UUID())", schema: schema))
        try realm.write { _ = try realm.create("Item", ["id": .int(1), "name": .string("one")]) }
        #expect(try realm.object(ofType: "Item", forPrimaryKey: .int(1)) != nil)
        #expect(throws: RealmError.self) {
            try realm.write { _ = try realm.create("Item", ["id": .int(1), "name": .string("again")]) }
        }
        #expect(try realm.objects("Item").checkedCount() == 1)
    }
}
