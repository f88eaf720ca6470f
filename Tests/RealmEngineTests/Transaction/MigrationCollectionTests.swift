import Foundation
import Testing
@testable import RealmEngine

/// Migrations and set/dictionary properties: added ones start empty, removed ones go, a list
/// becomes a set only when no two elements are equal (merging them would lose one), a
/// dictionary of optionals made required takes zeros, a dictionary never turns into anything
/// else with its entries, and links to deleted objects leave a dictionary's key with nil.
@Suite struct MigrationCollectionTests {
    static let v0 = Schema([
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "tags", type: .string, isList: true),
                Property(name: "counts", type: .int, isOptional: true, isMap: true),
                Property(name: "old", type: .string, isMap: true),
            ])
    ])
    static let v1 = Schema([
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "tags", type: .string, isSet: true),
                Property(name: "counts", type: .int, isMap: true),
                Property(name: "added", type: .date, isSet: true),
                Property(name: "attrs", type: .string, isMap: true),
            ])
    ])

    static func seed(_ path: String, tags: [String]) throws {
        let realm = try Realm(path: path, schema: v0)
        try realm.write {
            try realm.create(
                "Item",
                [
                    "id": .int(1), "tags": .list(tags.map(Value.string)),
                    "counts": .map(["a": .int(2), "b": .null]), "old": .map(["k": .string("v")]),
                ])
        }
    }

    static func config(_ path: String, _ block: MigrationBlock? = nil) -> Realm.Configuration {
        .init(fileURL: URL(fileURLWithPath: path), schema: v1, schemaVersion: 1, migrationBlock: block)
    }

    @Test func collectionsAreAddedRemovedAndConverted() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try Self.seed(path, tags: ["b", "a"])
        let realm = try Realm(configuration: Self.config(path))
        let item = try #require(try realm.objects("Item").first)
        #expect(item["tags"] == .list([.string("a"), .string("b")]))
        #expect(item["counts"] == .map(["a": .int(2), "b": .int(0)]))
        #expect(item["added"] == .list([]))
        #expect(item["attrs"] == .map([:]))
        #expect(item["old"] == nil)
        #expect(try realm.checkIntegrity().warnings.isEmpty)
    }

    @Test func aListWithEqualElementsDoesNotBecomeASetSilently() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try Self.seed(path, tags: ["a", "b", "a"])
        #expect(throws: RealmError.self) { _ = try Realm(configuration: Self.config(path)) }
        // The block decides: here it keeps the distinct elements.
        let realm = try Realm(
            configuration: Self.config(path) { migration, _ in
                migration.enumerateObjects(ofType: "Item") { old, new in
                    new?["tags"] = old?["tags"]
                }
            })
        #expect(try realm.objects("Item").first?["tags"] == .list([.string("a"), .string("b")]))
    }

    @Test func aDictionaryConvertsOnlyToADictionary() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try Self.seed(path, tags: [])
        let v2 = Schema([
            ObjectSchema(
                name: "Item",
                properties: [
                    Property(name: "id", type: .int, isPrimaryKey: true),
                    Property(name: "tags", type: .string, isList: true),
                    Property(name: "counts", type: .int, isOptional: true, isList: true),
                    Property(name: "old", type: .string, isMap: true),
                ])
        ])
        #expect(throws: RealmError.self) {
            _ = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), schema: v2, schemaVersion: 1))
        }
    }
}
