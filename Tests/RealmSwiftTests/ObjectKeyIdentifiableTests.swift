import Testing
import RealmSwift

/// `ObjectKeyIdentifiable` as RealmSwift's CombineTests assert it.
@Suite struct ObjectKeyIdentifiableTests {
    final class Item: Object, ObjectKeyIdentifiable { @Persisted var name = "" }

    @Test func unmanagedObjectsHaveTheirOwnIdentity() {
        let (a, b) = (Item(), Item())
        #expect(a.id == a.id)
        #expect(a.id != b.id)
    }

    @Test func managedObjectsKeepTheirIdentityAcrossInstances() throws {
        let realm = try Realm(configuration: memoryConfig([Item.self]))
        let (a, b) = (Item(), Item())
        try realm.write { realm.add([a, b]) }
        #expect(a.id == a.id)
        #expect(a.id != b.id)
        let items = realm.objects(Item.self)
        #expect(items.first?.id == a.id)
        #expect(items.last?.id == b.id)
        let again = try #require(items.first)
        #expect(again !== a)
        #expect(again.id == a.id)
    }
}
