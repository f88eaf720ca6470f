import Foundation
import Testing
@testable import RealmEngine

/// Schema migrations through the dynamic API: one write transaction, keys and links kept,
/// nothing written when the block throws.
@Suite struct DynamicMigrationTests {
    let v0 = Schema([
        ObjectSchema(
            name: "Person",
            properties: [
                Property(name: "name", type: .string),
                Property(name: "age", type: .int),
                Property(name: "dogs", type: .object, isList: true, objectClassName: "Dog"),
            ]),
        ObjectSchema(name: "Dog", properties: [Property(name: "name", type: .string, isIndexed: true)]),
    ])
    var v1: Schema {
        Schema([
            ObjectSchema(
                name: "Person",
                properties: [
                    Property(name: "fullName", type: .string),
                    Property(name: "dogs", type: .object, isList: true, objectClassName: "Dog"),
                    Property(name: "email", type: .string, isOptional: true),
                ]),
            v0["Dog"]!,
        ])
    }

    func seed(_ path: String) throws {
        let realm = try Realm(path: path, schema: v0)
        try realm.write {
            try realm.create(
                "Person",
                value: .dictionary([
                    "name": .value(.string("Tim")), "age": .value(.int(60)),
                    "dogs": .array([
                        .dictionary(["name": .value(.string("a"))]), .dictionary(["name": .value(.string("b"))]),
                    ]),
                ]))
        }
    }

    @Test func migratesRenamesAndKeepsLinks() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try seed(path)
        let versionBefore = try Realm(path: path).version
        let config = Realm.Configuration(
            fileURL: URL(fileURLWithPath: path), schema: v1, schemaVersion: 1,
            migrationBlock: { migration, old in
                #expect(old == 0)
                migration.renameProperty(onType: "Person", from: "name", to: "fullName")
                migration.enumerateObjects(ofType: "Person") { _, new in new?.setValue(.string("t@x"), forKey: "email")
                }
            })
        let realm = try Realm(configuration: config)
        #expect(realm.version == versionBefore + 1)  // one transaction
        #expect(realm.schemaVersion == 1)
        let person = try #require(try realm.objects("Person").first)
        #expect(person["fullName"] == .string("Tim") && person["email"] == .string("t@x"))
        #expect(try person.list(forKey: "dogs").count == 2)
        let dog = try #require(try realm.objects("Dog").filter("name == 'b'").first)
        #expect(try realm.objects("Person").filter("ANY dogs.name == 'b'").count == 1)
        #expect(try dog.value(forKey: "name") == .string("b"))
        _ = try Realm.check(path: path)
    }

    @Test func aThrowingMigrationWritesNothing() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try seed(path)
        let before = try Realm(path: path).version
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            _ = try Realm(
                configuration: .init(
                    fileURL: URL(fileURLWithPath: path), schema: v1, schemaVersion: 1,
                    migrationBlock: { _, _ in throw Refused() }))
        }
        let realm = try Realm(path: path)
        #expect(realm.version == before && realm.schemaVersion == 0 && realm.schema == v0)
    }

    @Test func addingAClassNeedsNoVersion() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try seed(path)
        let more = Schema(v0.objectSchemas + [ObjectSchema(name: "Cat", properties: [Property(name: "n", type: .int)])])
        let realm = try Realm(path: path, schema: more)
        #expect(realm.schema.classNames == ["Person", "Dog", "Cat"])
        #expect(try realm.objects("Dog").count == 2)
        try realm.write { try realm.create("Cat", ["n": .int(1)]) }
        _ = try Realm.check(path: path)
        // A changed class without a higher version is still an error naming the difference.
        #expect(throws: RealmError.self) { _ = try Realm(path: path, schema: v1) }
    }
}

extension DynamicMigrationTests {
    @Test func deleteDataEmptiesAClassAndCreateAddsObjects() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try seed(path)
        let realm = try Realm(
            configuration: .init(
                fileURL: URL(fileURLWithPath: path), schema: v0, schemaVersion: 1,
                migrationBlock: { migration, _ in
                    #expect(migration.deleteData(forType: "Dog"))
                    #expect(!migration.deleteData(forType: "Nothing"))
                    let dog = migration.create("Dog", value: ["name": "new"])
                    migration.enumerateObjects(ofType: "Person") { _, new in new?["dogs"] = [dog] }
                }))
        #expect(try realm.objects("Dog").count == 1 && realm.objects("Dog").first?["name"] == .string("new"))
        #expect(try realm.objects("Person").filter("ANY dogs.name == 'new'").count == 1)
        #expect(realm.schema.classNames == ["Person", "Dog"])
        _ = try Realm.check(path: path)
    }
}
