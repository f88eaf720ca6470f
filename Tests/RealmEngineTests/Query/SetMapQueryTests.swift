import Foundation
import Testing
@testable import RealmEngine

/// The query language over sets and dictionaries, as Realm's: `ANY`/`ALL`/`NONE` and `IN` over a
/// set, `@count` and the numeric aggregates over a set and over a dictionary's values,
/// `attrs['key']` and `attrs.key` (a missing key is nil), `@keys`, `@values`, and paths through
/// a dictionary of links.
@Suite struct SetMapQueryTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "tags", type: .string, isSet: true),
                Property(name: "scores", type: .int, isSet: true),
                Property(name: "prices", type: .decimal128, isSet: true),
                Property(name: "attrs", type: .string, isMap: true),
                Property(name: "counts", type: .int, isOptional: true, isMap: true),
                Property(name: "pets", type: .object, isMap: true, objectClassName: "Pet"),
            ]),
        ObjectSchema(
            name: "Pet",
            properties: [
                Property(name: "name", type: .string, isPrimaryKey: true),
                Property(name: "age", type: .int),
            ]),
    ])

    static func decimal(_ text: String) -> Value { (try? Decimal128(parsing: text)).map(Value.decimal128) ?? .null }

    static func realm(_ dir: TempDir) throws -> Realm {
        let realm = try Realm(path: dir.path("q.realm"), schema: schema)
        try realm.write {
            try realm.create("Pet", ["name": .string("rex"), "age": .int(3)])
            try realm.create("Pet", ["name": .string("tom"), "age": .int(9)])
            try realm.create(
                "Item",
                value: .dictionary([
                    "id": .value(.int(1)),
                    "tags": .value(.list([.string("red"), .string("big")])),
                    "scores": .value(.list([.int(1), .int(2), .int(3)])),
                    "prices": .value(.list([decimal("0.1"), decimal("0.2")])),
                    "attrs": .value(.map(["color": .string("red"), "size": .string("L")])),
                    "counts": .value(.map(["a": .int(5), "b": .int(1), "c": .null])),
                    "pets": .dictionary(["dog": .primaryKey(.string("rex")), "cat": .primaryKey(.string("tom"))]),
                ]))
            try realm.create(
                "Item",
                value: .dictionary([
                    "id": .value(.int(2)),
                    "tags": .value(.list([.string("blue")])),
                    "scores": .value(.list([.int(10)])),
                    "attrs": .value(.map(["color": .string("blue")])),
                    "counts": .value(.map(["a": .int(2)])),
                    "pets": .dictionary(["dog": .value(.null)]),
                ]))
            try realm.create("Item", ["id": .int(3)])
        }
        return realm
    }

    static func ids(_ realm: Realm, _ query: String, _ arguments: Value...) throws -> [Int64] {
        try realm.objects("Item").filter(query, arguments: arguments).sorted(byKeyPath: "id").map { object -> Int64 in
            guard case .int(let id) = try object.value(forKey: "id") else { return -1 }
            return id
        }
    }

    @Test func setQueries() throws {
        let dir = TempDir()
        let realm = try Self.realm(dir)
        #expect(try Self.ids(realm, "ANY tags == 'red'") == [1])
        #expect(try Self.ids(realm, "tags == 'blue'") == [2])
        #expect(try Self.ids(realm, "'big' IN tags") == [1])
        #expect(try Self.ids(realm, "NONE tags == 'red'") == [2, 3])
        #expect(try Self.ids(realm, "ALL scores > 1") == [2, 3])
        #expect(try Self.ids(realm, "tags.@count == 2") == [1])
        #expect(try Self.ids(realm, "tags.@count == 0") == [3])
        #expect(try Self.ids(realm, "scores.@sum == 6") == [1])
        #expect(try Self.ids(realm, "scores.@avg == 2") == [1])
        #expect(try Self.ids(realm, "scores.@max >= 10") == [2])
        #expect(try Self.ids(realm, "scores.@min == 1") == [1])
        #expect(try Self.ids(realm, "prices.@sum == 0.3") == [1])  // exact decimals
        #expect(try Self.ids(realm, "ANY tags IN {'blue', 'green'}") == [2])
        #expect(try Self.ids(realm, "ANY tags BEGINSWITH[c] 'R'") == [1])
        #expect(try Self.ids(realm, "$0 IN scores", .int(10)) == [2])
    }

    @Test func dictionaryQueries() throws {
        let dir = TempDir()
        let realm = try Self.realm(dir)
        #expect(try Self.ids(realm, "attrs['color'] == 'red'") == [1])
        #expect(try Self.ids(realm, "attrs[\"color\"] == 'blue'") == [2])
        #expect(try Self.ids(realm, "attrs.color == 'blue'") == [2])
        #expect(try Self.ids(realm, "attrs['size'] == nil") == [2, 3])  // a missing key is nil
        #expect(try Self.ids(realm, "attrs[$0] == 'L'", .string("size")) == [1])
        #expect(try Self.ids(realm, "attrs.@keys == 'size'") == [1])
        #expect(try Self.ids(realm, "ANY attrs.@keys == 'color'") == [1, 2])
        #expect(try Self.ids(realm, "attrs.@values == 'blue'") == [2])
        #expect(try Self.ids(realm, "ANY counts.@values > 3") == [1])
        #expect(try Self.ids(realm, "counts.@values > 1") == [1, 2])
        #expect(try Self.ids(realm, "ALL counts.@values > 1") == [2, 3])
        #expect(try Self.ids(realm, "attrs.@count == 2") == [1])
        #expect(try Self.ids(realm, "attrs.@size == 0") == [3])
        #expect(try Self.ids(realm, "counts.@sum == 6") == [1])
        #expect(try Self.ids(realm, "counts.@avg == 3") == [1])
        #expect(try Self.ids(realm, "counts.@max == 2") == [2])
        #expect(try Self.ids(realm, "counts['c'] == nil AND counts.@count == 3") == [1])
        #expect(try Self.ids(realm, "counts['a'] > 4") == [1])
        #expect(try Self.ids(realm, "pets['dog'].age == 3") == [1])
        #expect(try Self.ids(realm, "pets.cat.name == 'tom'") == [1])
        #expect(try Self.ids(realm, "ANY pets.@values.age > 5") == [1])
        #expect(try Self.ids(realm, "pets.@count == 1") == [2])
        #expect(try Self.ids(realm, "attrs['@count'] == nil") == [1, 2, 3])  // a bracketed key is a key
    }

    @Test func badDictionaryAndSetQueriesAreErrors() throws {
        let dir = TempDir()
        let realm = try Self.realm(dir)
        for bad in [
            "id['x'] == 1", "attrs['color' == 'x'", "attrs[5] == 'x'", "attrs.@keys > 5", "tags.@sum == 1",
            "attrs.@sum == 1", "attrs['a'].b == 1",
        ] {
            #expect(throws: RealmError.self, "\(bad)") { _ = try Self.ids(realm, bad) }
        }
    }
}
