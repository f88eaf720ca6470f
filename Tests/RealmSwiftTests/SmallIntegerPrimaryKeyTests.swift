import Foundation
import Testing
import RealmSwift

/// Primary keys of type `Int8`, `Int16` and `Int32`, optional or not, which RealmSwift allows
/// (realm-swift's `ModernTestObjects` declare `ModernPrimaryInt8Object` … and
/// `ModernPrimaryOptionalInt32Object`; their creation and lookup tests, rewritten).
@Suite struct SmallIntegerPrimaryKeyTests {
    final class PrimaryInt8Model: Object {
        @Persisted(primaryKey: true) var id: Int8 = 0
        @Persisted var name = ""
    }
    final class PrimaryInt16Model: Object {
        @Persisted(primaryKey: true) var id: Int16 = 0
        @Persisted var name = ""
    }
    final class PrimaryInt32Model: Object {
        @Persisted(primaryKey: true) var id: Int32 = 0
        @Persisted var name = ""
    }
    final class PrimaryOptionalInt16Model: Object {
        @Persisted(primaryKey: true) var id: Int16?
        @Persisted var name = ""
    }

    @Test func eachWidthIsAKeyThatFindsItsObject() throws {
        let realm = try Realm(
            configuration: memoryConfig([PrimaryInt8Model.self, PrimaryInt16Model.self, PrimaryInt32Model.self]))
        try realm.write {
            realm.create(PrimaryInt8Model.self, value: ["id": 127, "name": "a"])
            realm.create(PrimaryInt16Model.self, value: ["id": -32768, "name": "b"])
            realm.create(PrimaryInt32Model.self, value: ["id": 2_147_483_647, "name": "c"])
        }
        #expect(PrimaryInt8Model.sharedSchema().primaryKeyProperty?.type == .int8)
        #expect(realm.object(ofType: PrimaryInt8Model.self, forPrimaryKey: Int8(127))?.name == "a")
        #expect(realm.object(ofType: PrimaryInt16Model.self, forPrimaryKey: Int16(-32768))?.name == "b")
        #expect(realm.object(ofType: PrimaryInt32Model.self, forPrimaryKey: Int32.max)?.name == "c")
        #expect(realm.object(ofType: PrimaryInt32Model.self, forPrimaryKey: Int32(1)) == nil)
    }

    @Test func aDuplicateKeyFailsTheWriteAndUpdateReplaces() throws {
        let realm = try Realm(configuration: memoryConfig([PrimaryInt16Model.self]))
        try realm.write { realm.create(PrimaryInt16Model.self, value: ["id": 5, "name": "first"]) }
        #expect(throws: RealmError.self) {
            try realm.write { realm.create(PrimaryInt16Model.self, value: ["id": 5, "name": "second"]) }
        }
        try realm.write {
            realm.create(PrimaryInt16Model.self, value: ["id": 5, "name": "updated"], update: .modified)
        }
        #expect(realm.objects(PrimaryInt16Model.self).count == 1)
        #expect(realm.object(ofType: PrimaryInt16Model.self, forPrimaryKey: Int16(5))?.name == "updated")
        let added = PrimaryInt16Model()
        added.id = 5
        added.name = "added"
        try realm.write { realm.add(added, update: .all) }
        #expect(realm.object(ofType: PrimaryInt16Model.self, forPrimaryKey: Int16(5))?.name == "added")
    }

    @Test func aKeyOutsideTheWidthIsRefused() throws {
        let realm = try Realm(configuration: memoryConfig([PrimaryInt8Model.self]))
        #expect(throws: RealmError.self) {
            try realm.write { realm.create(PrimaryInt8Model.self, value: ["id": 128]) }
        }
        #expect(realm.objects(PrimaryInt8Model.self).isEmpty)
    }

    @Test func anOptionalKeyMayBeNilOnce() throws {
        let realm = try Realm(configuration: memoryConfig([PrimaryOptionalInt16Model.self]))
        try realm.write {
            realm.create(PrimaryOptionalInt16Model.self, value: ["name": "nil key"])
            realm.create(PrimaryOptionalInt16Model.self, value: ["id": 3, "name": "three"])
        }
        #expect(realm.object(ofType: PrimaryOptionalInt16Model.self, forPrimaryKey: Int16?.none)?.name == "nil key")
        #expect(realm.object(ofType: PrimaryOptionalInt16Model.self, forPrimaryKey: Int16(3))?.name == "three")
        #expect(throws: RealmError.self) {
            try realm.write { realm.create(PrimaryOptionalInt16Model.self, value: ["id": NSNull(), "name": "again"]) }
        }
    }

    @Test func aFileWithASmallIntegerKeyReopens() throws {
        let config = try fileConfig([PrimaryInt32Model.self])
        defer { removeFolder(of: config) }
        do {
            let realm = try Realm(configuration: config)
            try realm.write { realm.create(PrimaryInt32Model.self, value: ["id": 9, "name": "kept"]) }
        }
        let reopened = try Realm(configuration: config)
        #expect(reopened.object(ofType: PrimaryInt32Model.self, forPrimaryKey: Int32(9))?.name == "kept")
    }
}
