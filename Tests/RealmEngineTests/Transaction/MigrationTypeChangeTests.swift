import Foundation
import Testing
@testable import RealmEngine

/// A property whose type changes keeps every value that converts without loss; a value that
/// does not fails the migration (naming the object), unless the block allows the loss.
/// Before, every value of a changed property silently became its default (string → int: 0).
@Suite struct MigrationTypeChangeTests {
    static let v0 = Schema([
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "code", type: .string),
                Property(name: "count", type: .int),
                Property(name: "ratio", type: .double),
                Property(name: "flag", type: .bool),
                Property(name: "tag", type: .string, isOptional: true),
            ]),
        ObjectSchema(name: "Note", properties: [Property(name: "size", type: .string)]),
    ])
    static let v1 = Schema([
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "code", type: .int),
                Property(name: "count", type: .string),
                Property(name: "ratio", type: .int, isOptional: true),
                Property(name: "flag", type: .string),
                Property(name: "tag", type: .double, isOptional: true),
            ]),
        ObjectSchema(name: "Note", properties: [Property(name: "size", type: .int8)]),
    ])

    /// Seeds items `(id, code, count, ratio, flag, tag)` and notes of `sizes`.
    static func seed(_ path: String, items: [(Int64, String, Int64, Double, Bool, String?)], sizes: [String] = [])
        throws
    {
        let realm = try Realm(path: path, schema: v0)
        try realm.write {
            for (id, code, count, ratio, flag, tag) in items {
                try realm.create(
                    "Item",
                    [
                        "id": .int(id), "code": .string(code), "count": .int(count),
                        "ratio": .double(ratio), "flag": .bool(flag), "tag": tag.map(Value.string) ?? .null,
                    ])
            }
            for s in sizes { try realm.create("Note", ["size": .string(s)]) }
        }
    }

    static func config(_ path: String, _ block: MigrationBlock? = nil) -> Realm.Configuration {
        .init(fileURL: URL(fileURLWithPath: path), schema: v1, schemaVersion: 1, migrationBlock: block)
    }

    @Test func valuesThatConvertWithoutLossAreKept() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try Self.seed(
            path, items: [(1, "42", 7, 2.0, true, "0.5"), (2, "-3", -12, -0.0, false, nil)], sizes: ["127", "-128"])
        let realm = try Realm(configuration: Self.config(path))
        let one = try #require(try realm.objects("Item").filter("id == 1").first)
        #expect(one["code"] == .int(42) && one["count"] == .string("7") && one["ratio"] == .int(2))
        #expect(one["flag"] == .string("true") && one["tag"] == .double(0.5))
        let two = try #require(try realm.objects("Item").filter("id == 2").first)
        #expect(two["code"] == .int(-3) && two["count"] == .string("-12") && two["ratio"] == .int(0))
        #expect(two["flag"] == .string("false") && two["tag"] == .null)
        #expect(try realm.objects("Note").map { $0["size"] } == [.int(127), .int(-128)])
        _ = try Realm.check(path: path)
    }

    @Test func aValueThatDoesNotConvertFailsNamingTheObjectAndWritesNothing() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try Self.seed(
            path, items: [(1, "42", 7, 2.0, true, nil), (2, "4x", 8, 1.0, true, nil), (3, "no", 9, 1.0, true, nil)])
        let before = try Realm(path: path).version
        #expect {
            _ = try Realm(configuration: Self.config(path))
        } throws: { error in
            let text = "\(error)"
            return text.contains("Item") && text.contains("primary key 2") && text.contains("code")
                && text.contains("\"4x\"") && text.contains("2 values")
        }
        let realm = try Realm(path: path)
        #expect(realm.version == before && realm.schemaVersion == 0 && realm.schema == Self.v0)
        #expect(try realm.objects("Item").filter("id == 2").first?["code"] == .string("4x"))
    }

    @Test func anInexactNumberOrAnOutOfRangeIntegerDoesNotConvert() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try Self.seed(path, items: [(1, "1", 1, 2.5, true, nil)])
        #expect {
            _ = try Realm(configuration: Self.config(path))
        } throws: { error in "\(error)".contains("ratio") && "\(error)".contains("2.5") }
        let notes = dir.path("n.realm")
        try Self.seed(notes, items: [], sizes: ["1", "300"])
        #expect {
            _ = try Realm(configuration: Self.config(notes))
        } throws: { error in
            "\(error)".contains("Note") && "\(error)".contains("object key 1") && "\(error)".contains("\"300\"")
        }
    }

    @Test func aLossyMigrationStoresDefaultsWhenAllowedAndCountsThem() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try Self.seed(path, items: [(1, "42", 7, 2.5, true, "x"), (2, "4x", 8, 1.0, true, nil)])
        let realm = try Realm(
            configuration: Self.config(path) { migration, _ in
                // In key order, then property order.
                #expect(migration.unconvertedValues.map(\.property) == ["ratio", "tag", "code"])
                #expect(migration.unconvertedValues.first?.value == .double(2.5))
                migration.allowsLossyTypeChanges = true
            })
        let one = try #require(try realm.objects("Item").filter("id == 1").first)
        #expect(one["code"] == .int(42) && one["ratio"] == .null && one["tag"] == .null)
        #expect(try realm.objects("Item").filter("id == 2").first?["code"] == .int(0))
    }

    @Test func aValueTheBlockSetsIsNotReported() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try Self.seed(path, items: [(1, "4x", 7, 1.0, true, nil)])
        let realm = try Realm(
            configuration: Self.config(path) { migration, _ in
                migration.enumerateObjects(ofType: "Item") { old, new in
                    if let code = old?["code"] as? String { new?["code"] = Int(code.filter(\.isNumber)) ?? -1 }
                }
                #expect(migration.unconvertedValues.isEmpty)
            })
        #expect(try realm.objects("Item").first?["code"] == .int(4))
    }

    @Test func aRenamedPropertyWhoseTypeChangedConvertsToo() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try Self.seed(path, items: [(1, "42", 7, 1.0, true, nil)])
        let renamed = Schema([
            ObjectSchema(
                name: "Item",
                properties: [
                    Property(name: "id", type: .int, isPrimaryKey: true), Property(name: "number", type: .int),
                ])
        ])
        let realm = try Realm(
            configuration: .init(
                fileURL: URL(fileURLWithPath: path), schema: renamed, schemaVersion: 1,
                migrationBlock: { migration, _ in
                    migration.renameProperty(onType: "Item", from: "code", to: "number")
                }))
        #expect(try realm.objects("Item").first?["number"] == .int(42))
    }
}
