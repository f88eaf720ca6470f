import Foundation
import Testing
@testable import RealmEngine

/// Migrations that would lose data by mistake fail instead, and leave the file as it was; the
/// block runs only when the version rises. Each was found by reviewing the migration code.
@Suite struct MigrationMistakeTests {
    typealias Base = DynamicMigrationTests

    /// Opens `path` with `schema` at `version`; the file then must be as `seed` left it.
    static func expectUntouched(_ path: String, version: UInt64 = 0, schema: Schema = Base().v0) throws {
        let realm = try Realm(path: path)
        #expect(realm.schemaVersion == version && realm.schema == schema)
        let person = try #require(try realm.objects("Person").first)
        #expect(person["name"] == .string("Tim"))
    }

    /// Before, renaming to a misspelled property (or from one) succeeded and dropped every value.
    @Test(arguments: [("name", "fulName"), ("nme", "fullName")])
    func renamingFromOrToAPropertyThatDoesNotExistFails(from: String, to: String) throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try Base().seed(path)
        #expect {
            _ = try Realm(
                configuration: .init(
                    fileURL: URL(fileURLWithPath: path), schema: Base().v1, schemaVersion: 1,
                    migrationBlock: { migration, _ in
                        migration.renameProperty(onType: "Person", from: from, to: to)
                    }))
        } throws: { error in
            "\(error)".contains(from == "name" ? "'\(to)'" : "'\(from)'")
        }
        try Self.expectUntouched(path)
    }

    /// Before, a value set on a misspelled property, or an object of a class the new schema does
    /// not have, vanished without a word.
    @Test func settingAPropertyOrCreatingAClassThatDoesNotExistFails() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try Base().seed(path)
        let config = { (block: @escaping MigrationBlock) in
            Realm.Configuration(
                fileURL: URL(fileURLWithPath: path), schema: Base().v1, schemaVersion: 1, migrationBlock: block)
        }
        #expect {
            _ = try Realm(
                configuration: config { migration, _ in
                    migration.enumerateObjects(ofType: "Person") { _, new in new?["emial"] = "t@x" }
                })
        } throws: { error in "\(error)".contains("emial") }
        #expect {
            _ = try Realm(configuration: config { migration, _ in migration.create("Kat", value: ["n": 1]) })
        } throws: { error in "\(error)".contains("Kat") }
        try Self.expectUntouched(path)
    }

    /// Realm calls the block only when the schema version rises; adding a class at the same
    /// version ran it before, and an unguarded block rewrote every object.
    @Test func theBlockDoesNotRunWhenOnlyAClassIsAdded() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try Base().seed(path)
        let more = Schema(
            Base().v0.objectSchemas + [ObjectSchema(name: "Cat", properties: [Property(name: "n", type: .int)])])
        let realm = try Realm(
            configuration: .init(
                fileURL: URL(fileURLWithPath: path), schema: more, schemaVersion: 0,
                migrationBlock: { migration, _ in
                    migration.enumerateObjects(ofType: "Person") { _, new in new?["age"] = 0 }
                }))
        #expect(realm.schema.classNames == ["Person", "Dog", "Cat"])
        #expect(try realm.objects("Person").first?["age"] == .int(60))
    }

    /// A list of optional values made required: nil elements take the element type's default,
    /// as Realm does; before, the migration failed on them.
    @Test func aListMadeRequiredTurnsNilElementsIntoDefaults() throws {
        let dir = TempDir()
        let path = dir.path("l.realm")
        let optional = Schema([
            ObjectSchema(
                name: "Box", properties: [Property(name: "values", type: .int, isOptional: true, isList: true)])
        ])
        let required = Schema([
            ObjectSchema(name: "Box", properties: [Property(name: "values", type: .int, isList: true)])
        ])
        do {
            let realm = try Realm(path: path, schema: optional)
            try realm.write {
                try realm.create(
                    "Box", value: .dictionary(["values": .array([.value(.int(1)), .value(.null), .value(.int(3))])]))
            }
        }
        let realm = try Realm(
            configuration: .init(fileURL: URL(fileURLWithPath: path), schema: required, schemaVersion: 1))
        #expect(try realm.objects("Box").first?["values"] == .list([.int(1), .int(0), .int(3)]))
    }

    /// Adding or removing an index needs no migration (Realm's rule): the file opens at the same
    /// version with the index built or dropped. Before, it was refused with "changed from string
    /// to string".
    @Test func anIndexAddedOrRemovedNeedsNoNewVersion() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try Base().seed(path)
        var indexed = Base().v0
        indexed.objectSchemas[0].properties[0].isIndexed = true  // Person.name
        var plain = Base().v0
        plain.objectSchemas[1].properties[0].isIndexed = false  // Dog.name
        for wanted in [indexed, plain, Base().v0] {
            let realm = try Realm(path: path, schema: wanted)
            #expect(realm.schemaVersion == 0 && realm.schema == wanted)
            #expect(try realm.objects("Person").filter("name == 'Tim'").count == 1)
            #expect(try realm.objects("Dog").filter("name == 'b'").count == 1)
        }
        _ = try Realm.check(path: path)
    }

    /// `deleteRealmIfMigrationNeeded` deletes only when a migration would be needed: not for an
    /// added class (which deleted everything before), but for a lower version too (which threw).
    @Test func deleteIfMigrationNeededKeepsDataForAnAddedClassAndResetsALowerVersion() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try Base().seed(path)
        let more = Schema(
            Base().v0.objectSchemas + [ObjectSchema(name: "Cat", properties: [Property(name: "n", type: .int)])])
        var config = Realm.Configuration(fileURL: URL(fileURLWithPath: path), schema: more, schemaVersion: 0)
        config.deleteRealmIfMigrationNeeded = true
        do {
            let realm = try Realm(configuration: config)
            #expect(try realm.objects("Person").count == 1 && realm.schema.classNames.contains("Cat"))
        }
        do {
            var newer = Realm.Configuration(fileURL: URL(fileURLWithPath: path), schema: more, schemaVersion: 2)
            newer.deleteRealmIfMigrationNeeded = false
            _ = try Realm(configuration: newer)
        }
        config.schemaVersion = 1
        let reset = try Realm(configuration: config)
        #expect(reset.schemaVersion == 1)
        #expect(try reset.objects("Person").count == 0)
    }

    /// A class the new schema leaves out is kept (emptied by `deleteData`); its linking-objects
    /// property, whose link the new schema removed, goes. Before, the migration failed validation.
    @Test func aClassLeftOutWhoseBacklinkLostItsLinkMigrates() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        let withBacklinks = Schema([
            ObjectSchema(
                name: "Owner",
                properties: [
                    Property(name: "name", type: .string),
                    Property(name: "pets", type: .object, isList: true, objectClassName: "Pet"),
                ]),
            ObjectSchema(
                name: "Pet",
                properties: [
                    Property(name: "name", type: .string),
                    Property(
                        name: "owners", type: .linkingObjects, objectClassName: "Owner", linkOriginPropertyName: "pets"),
                ]),
        ])
        do {
            let realm = try Realm(path: path, schema: withBacklinks)
            try realm.write {
                try realm.create(
                    "Owner",
                    value: .dictionary([
                        "name": .value(.string("Ann")), "pets": .array([.dictionary(["name": .value(.string("a"))])]),
                    ]))
            }
        }
        let ownersOnly = Schema([ObjectSchema(name: "Owner", properties: [Property(name: "name", type: .string)])])
        let realm = try Realm(
            configuration: .init(
                fileURL: URL(fileURLWithPath: path), schema: ownersOnly, schemaVersion: 1,
                migrationBlock: { migration, _ in migration.deleteData(forType: "Pet") }))
        #expect(try realm.objects("Owner").count == 1)
        #expect(try realm.objects("Pet").count == 0)
        #expect(realm.schema["Pet"]?["owners"] == nil)
        _ = try Realm.check(path: path)
    }

    /// An opener waiting for the write lock while another instance migrated to a higher version
    /// must not migrate the file back to its own older schema. Before, it rewrote the file
    /// with its classes under the other's version, and the other's new property was gone.
    @Test func aMigrationThatWaitedForAnotherOneToAHigherVersionFails() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try Base().seed(path)
        let url = URL(fileURLWithPath: path)
        let v2 = Schema([
            ObjectSchema(
                name: "Person",
                properties: Base().v0["Person"]!.properties + [Property(name: "email", type: .string, isOptional: true)]
            ),
            Base().v0["Dog"]!,
        ])
        let v1 = Schema([
            ObjectSchema(
                name: "Person",
                properties: Base().v0["Person"]!.properties + [Property(name: "nick", type: .string, isOptional: true)]),
            Base().v0["Dog"]!,
        ])
        final class Outcome: @unchecked Sendable {
            var error: Error?
            var opened = false
        }
        let outcome = Outcome()
        let finished = DispatchSemaphore(value: 0)
        let realm = try Realm(
            configuration: .init(
                fileURL: url, schema: v2, schemaVersion: 2,
                migrationBlock: { migration, _ in
                    migration.enumerateObjects(ofType: "Person") { _, new in new?["email"] = "t@x" }
                    // The older opener starts while this migration holds the write lock.
                    Thread {
                        do {
                            _ = try Realm(configuration: .init(fileURL: url, schema: v1, schemaVersion: 1))
                            outcome.opened = true
                        } catch {
                            outcome.error = error
                        }
                        finished.signal()
                    }.start()
                    Thread.sleep(forTimeInterval: 0.3)
                }))
        finished.wait()  // no deadline: a loaded machine opens late; the expectations check how it ended
        #expect(!outcome.opened)
        #expect("\(outcome.error.map { "\($0)" } ?? "")".contains("newer than the requested 1"))
        realm.refresh()
        #expect(realm.schemaVersion == 2 && realm.schema == v2)
        #expect(try realm.objects("Person").first?["email"] == .string("t@x"))
    }
}
