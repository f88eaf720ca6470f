import Foundation
import RealmSwift
import Testing

/// Realm's older model hooks, which code ported from `@objc dynamic` models keeps:
/// `primaryKey()`, `indexedProperties()`, `ignoredProperties()`; and `ObjectKeyIdentifiable`.
@Suite struct ClassHookTests {
    final class HookedDog: Object {
        @Persisted var id = 0
        @Persisted var name = ""
        @Persisted var breed = ""
        override class func primaryKey() -> String? { "id" }
        override class func indexedProperties() -> [String] { ["name"] }
        override class func ignoredProperties() -> [String] { ["cache"] }
        var cache = ""
    }

    final class ListedCat: Object, ObjectKeyIdentifiable {
        @Persisted var name = ""
    }

    // Deliberately invalid: kept out of the process's discovered schema, which other tests'
    // Realms opened without objectTypes use (as realm-swift's own invalid test models are).
    final class WrongKeyDog: Object {
        @Persisted var id = 0
        override class func primaryKey() -> String? { "identifier" }
        override class func _realmIgnoreClass() -> Bool { true }
    }

    final class IgnoredPersistedDog: Object {
        @Persisted var name = ""
        override class func ignoredProperties() -> [String] { ["name"] }
        override class func _realmIgnoreClass() -> Bool { true }
    }

    @Test func primaryKeyAndIndexesNamedByTheHooksAreTheSchemas() throws {
        let schema = HookedDog.sharedSchema()
        #expect(schema.primaryKeyProperty?.name == "id")
        #expect(schema.properties.first { $0.name == "name" }?.isIndexed == true)
        #expect(schema.properties.first { $0.name == "breed" }?.isIndexed == false)
        #expect(!schema.properties.contains { $0.name == "cache" })

        let realm = try Realm(configuration: memoryConfig([HookedDog.self]))
        try realm.write { realm.create(HookedDog.self, value: ["id": 1, "name": "Rex"]) }
        #expect(realm.object(ofType: HookedDog.self, forPrimaryKey: 1)?.name == "Rex")
        // An upsert by the hook's primary key, and a duplicate refused.
        try realm.write { realm.create(HookedDog.self, value: ["id": 1, "name": "Max"], update: .modified) }
        #expect(realm.objects(HookedDog.self).count == 1)
        #expect(realm.object(ofType: HookedDog.self, forPrimaryKey: 1)?.name == "Max")
        #expect(throws: RealmError.self) { try realm.write { realm.create(HookedDog.self, value: ["id": 1]) } }
    }

    @Test func aHookNamingWhatTheClassCannotHaveFailsTheOpen() {
        #expect { try Realm(configuration: memoryConfig([WrongKeyDog.self])) } throws: { error in
            guard case RealmError.invalidSchema(let text) = error else { return false }
            return text.contains("primaryKey() names 'identifier'")
        }
        #expect { try Realm(configuration: memoryConfig([IgnoredPersistedDog.self])) } throws: { error in
            guard case RealmError.invalidSchema(let text) = error else { return false }
            return text.contains("ignoredProperties() names 'name'")
        }
    }

    @Test func anIgnoredInvalidClassDoesNotBreakRealmsOpenedWithoutObjectTypes() throws {
        let config = try fileConfig([ListedCat.self])
        defer { removeFolder(of: config) }
        let url = try #require(config.fileURL)
        // Discovered by this process, as any class once used.
        _ = ListedCat.sharedSchema()
        _ = IgnoredPersistedDog.sharedSchema()
        _ = WrongKeyDog.sharedSchema()
        let realm = try Realm(fileURL: url)
        #expect(
            realm.schema.objectSchema.contains { $0.className == "ListedCat" },
            "\(realm.schema.objectSchema.map(\.className))")
        #expect(!realm.schema.objectSchema.contains { $0.className == "IgnoredPersistedDog" })
    }

    @Test func objectKeyIdentifiableIdsAreStableAcrossInstances() throws {
        let realm = try Realm(configuration: memoryConfig([ListedCat.self]))
        try realm.write {
            realm.create(ListedCat.self, value: ["name": "Tom"])
            realm.create(ListedCat.self, value: ["name": "Kitty"])
        }
        let first = try #require(realm.objects(ListedCat.self).where { $0.name == "Tom" }.first)
        let again = try #require(realm.objects(ListedCat.self).where { $0.name == "Tom" }.first)
        let second = try #require(realm.objects(ListedCat.self).where { $0.name == "Kitty" }.first)
        #expect(first !== again)
        #expect(first.id == again.id)
        #expect(first.id != second.id)
        let one = ListedCat()
        let other = ListedCat()
        #expect(one.id == one.id)
        #expect(one.id != other.id)
    }
}
