import Foundation
import Testing
@testable import RealmEngine

/// Changing a property to or from decimal128 keeps every value that converts without loss: ints
/// exactly, strings that spell a decimal a decimal128 holds, doubles whose 15 digits give the
/// double back; and back to int or string. A value that would round fails the migration.
@Suite struct MigrationDecimalTests {
    static let v0 = Schema([
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "count", type: .int),
                Property(name: "price", type: .string),
                Property(name: "ratio", type: .double),
            ])
    ])
    static let v1 = Schema([
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "count", type: .decimal128),
                Property(name: "price", type: .decimal128),
                Property(name: "ratio", type: .decimal128),
            ])
    ])
    static let v2 = Schema([
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "count", type: .int),
                Property(name: "price", type: .string),
                Property(name: "ratio", type: .double),
            ])
    ])

    static func seed(_ path: String, price: String, ratio: Double = 0.1) throws {
        let realm = try Realm(path: path, schema: v0)
        try realm.write {
            try realm.create(
                "Item", ["id": .int(1), "count": .int(Int64.min), "price": .string(price), "ratio": .double(ratio)])
        }
    }

    static func decimal(_ text: String) throws -> Value { .decimal128(try Decimal128(parsing: text)) }

    @Test func toDecimalAndBackKeepsEveryValue() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try Self.seed(path, price: "10.50")
        do {
            let realm = try Realm(
                configuration: .init(fileURL: URL(fileURLWithPath: path), schema: Self.v1, schemaVersion: 1))
            let item = try #require(try realm.objects("Item").first)
            #expect(item["count"] == .decimal128(Decimal128(Int64.min)))
            #expect(item["price"]?.isIdentical(to: try Self.decimal("10.50")) == true)
            #expect(item["ratio"] == (try Self.decimal("0.1")))
        }
        let realm = try Realm(
            configuration: .init(fileURL: URL(fileURLWithPath: path), schema: Self.v2, schemaVersion: 2))
        let item = try #require(try realm.objects("Item").first)
        #expect(item["count"] == .int(Int64.min))
        #expect(item["price"] == .string("10.50"))
        #expect(item["ratio"] == .double(0.1))
    }

    @Test func aStringThatWouldRoundFailsTheMigration() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        try Self.seed(path, price: "1.2345678901234567890123456789012345")
        #expect {
            _ = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), schema: Self.v1, schemaVersion: 1))
        } throws: { error in "\(error)".contains("price") && "\(error)".contains("1.2345678901234567890123456789012345")
        }
    }
}
