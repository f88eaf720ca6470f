import Foundation
import Testing
@testable import RealmEngine

/// Migrations and embedded classes, by Realm's rules: a class becomes embedded only when every
/// object has exactly one parent (an orphan or a shared one is named in the error and nothing
/// changes); an embedded class becomes a top-level one freely; embedded classes and properties
/// are added and removed; an embedded object whose parent (or owning property) a migration
/// removes goes with it, so no orphan is left behind.
@Suite struct EmbeddedMigrationTests {
    static func schema(embedded: Bool, places: Bool = false) -> Schema {
        var person = [
            Property(name: "name", type: .string, isPrimaryKey: true),
            Property(name: "address", type: .object, isOptional: true, objectClassName: "Address"),
            Property(name: "previous", type: .object, isList: true, objectClassName: "Address"),
        ]
        if places { person.append(Property(name: "places", type: .object, isMap: true, objectClassName: "Place")) }
        var classes = [
            ObjectSchema(name: "Person", properties: person),
            ObjectSchema(name: "Address", properties: [Property(name: "city", type: .string)], isEmbedded: embedded),
        ]
        if places {
            classes.append(
                ObjectSchema(name: "Place", properties: [Property(name: "label", type: .string)], isEmbedded: true))
        }
        return Schema(classes)
    }

    static func config(_ path: String, _ schema: Schema, version: UInt64, _ block: MigrationBlock? = nil)
        -> Realm.Configuration
    {
        .init(fileURL: URL(fileURLWithPath: path), schema: schema, schemaVersion: version, migrationBlock: block)
    }

    /// A file where Address is a top-level class: Ada and Bob each own one Address (Bob's in a
    /// list), plus whatever `extra` adds.
    static func seed(_ path: String, extra: (Realm) throws -> Void = { _ in }) throws {
        let realm = try Realm(configuration: config(path, schema(embedded: false), version: 0))
        try realm.write {
            let oslo = try realm.create("Address", ["city": .string("Oslo")])
            let bergen = try realm.create("Address", ["city": .string("Bergen")])
            try realm.create("Person", ["name": .string("Ada"), "address": .link(oslo.key)])
            try realm.create("Person", ["name": .string("Bob"), "previous": .list([.link(bergen.key)])])
            try extra(realm)
        }
    }

    static func stored(_ realm: Realm, _ className: String) throws -> Int {
        try realm.readView.keys(classIndex: try realm.classIndex(className)).count
    }

    @Test func aClassWhoseObjectsEachHaveOneParentBecomesEmbedded() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try Self.seed(path)
        let realm = try Realm(configuration: Self.config(path, Self.schema(embedded: true), version: 1))
        #expect(realm.schema["Address"]?.isEmbedded == true)
        #expect(throws: RealmError.self) { try realm.objects("Address") }
        let ada = try #require(try realm.object(ofType: "Person", forPrimaryKey: .string("Ada")))
        #expect(try ada.linkedObject(forKey: "address")?.value(forKey: "city") == .string("Oslo"))
        try realm.write { try realm.delete(ada) }
        #expect(try Self.stored(realm, "Address") == 1)  // owned now: deleted with Ada
        _ = try realm.checkIntegrity()
    }

    @Test func anOrphanIsNamedAndNothingChanges() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try Self.seed(path) { realm in try realm.create("Address", ["city": .string("Nowhere")]) }
        do {
            _ = try Realm(configuration: Self.config(path, Self.schema(embedded: true), version: 1))
            Issue.record("an orphan became embedded")
        } catch let error as RealmError {
            #expect("\(error)".contains("Address 2 has no parent"), "\(error)")
        }
        let realm = try Realm(configuration: Self.config(path, Self.schema(embedded: false), version: 0))
        #expect(try realm.objects("Address").checkedCount() == 3)
    }

    @Test func aSharedObjectIsNamedAndTheBlockCanFixIt() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try Self.seed(path) { realm in
            let bob = try #require(try realm.object(ofType: "Person", forPrimaryKey: .string("Bob")))
            try bob.setValue(.link(ObjectKey(0)), forKey: "address")  // Ada's Oslo too
        }
        do {
            _ = try Realm(configuration: Self.config(path, Self.schema(embedded: true), version: 1))
            Issue.record("a shared object became embedded")
        } catch let error as RealmError {
            #expect("\(error)".contains("Address 0 has 2 parents"), "\(error)")
        }
        let realm = try Realm(
            configuration: Self.config(path, Self.schema(embedded: true), version: 1) { migration, _ in
                migration.enumerateObjects(ofType: "Person") { old, new in
                    if old?.value(forKey: "name") == .string("Bob") { new?.setValue(.null, forKey: "address") }
                }
            })
        let bob = try #require(try realm.object(ofType: "Person", forPrimaryKey: .string("Bob")))
        #expect(try bob.value(forKey: "address") == .null)
        _ = try realm.checkIntegrity()
    }

    @Test func anEmbeddedClassBecomesTopLevelAndEmbeddedPropertiesComeAndGo() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try Self.seed(path)
        do {
            let realm = try Realm(
                configuration: Self.config(path, Self.schema(embedded: true, places: true), version: 1))
            let ada = try #require(try realm.object(ofType: "Person", forPrimaryKey: .string("Ada")))
            #expect(try ada.map(forKey: "places").count() == 0)
            try realm.write {
                try ada.map(forKey: "places").setInput(.dictionary(["label": .value(.string("home"))]), forKey: "h")
            }
            #expect(try Self.stored(realm, "Place") == 1)
        }
        // `places` removed: the Place it owned would be an orphan, so it goes.
        let realm = try Realm(configuration: Self.config(path, Self.schema(embedded: false), version: 2))
        #expect(try Self.stored(realm, "Place") == 0)
        #expect(try realm.objects("Address").checkedCount() == 2)
        _ = try realm.checkIntegrity()
    }

    @Test func objectsDeletedInTheBlockTakeTheirEmbeddedObjectsWithThem() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try Self.seed(path)
        _ = try Realm(configuration: Self.config(path, Self.schema(embedded: true), version: 1))
        let realm = try Realm(
            configuration: Self.config(path, Self.schema(embedded: true), version: 2) { migration, _ in
                migration.enumerateObjects(ofType: "Person") { old, new in
                    if old?.value(forKey: "name") == .string("Ada"), let new { migration.delete(new) }
                }
            })
        #expect(try Self.stored(realm, "Address") == 1)
        _ = try realm.checkIntegrity()
    }
}
