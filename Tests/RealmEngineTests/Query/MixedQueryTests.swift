import Foundation
import Testing
@testable import RealmEngine

/// Queries over Mixed properties, as Realm's query language has them: comparisons with a
/// literal of any type (numbers by value across int/float/double/decimal, strings and data
/// distinct, a string never equal to the number it spells), `@type` with Realm Core's names
/// and groups, paths into nested lists and dictionaries (`[0]`, `[LAST]`, `['k']`, `.k`, `[*]`,
/// `@size`), links as arguments, and SORT / DISTINCT in Realm's order across types.
@Suite struct MixedQueryTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Box",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "value", type: .mixed),
                Property(name: "items", type: .mixed, isList: true),
                Property(name: "attrs", type: .mixed, isMap: true),
            ]),
        ObjectSchema(name: "Dog", properties: [Property(name: "name", type: .string)]),
    ])

    /// id → value; Dog #0 is linked from box 11.
    static func seed(_ dir: TempDir) throws -> (Realm, DynamicObject) {
        let realm = try Realm(path: dir.path("q.realm"), schema: schema)
        let values: [Value] = [
            .null, .int(1), .double(1.0), .decimal128(Decimal128(1)), .string("1"), .bool(true), .float(2.5),
            .data(Data("1".utf8)), .date(Timestamp(seconds: 10)), .objectId(ObjectId("0123456789abcdef01234567")),
            .list([.int(5), .string("x"), .map(["k": .int(7)])]),
        ]
        let dog = try realm.write { () throws -> DynamicObject in
            for (i, v) in values.enumerated() {
                try realm.create("Box", ["id": .int(Int64(i)), "value": v])
            }
            let dog = try realm.create("Dog", ["name": .string("Rex")])
            try realm.create(
                "Box",
                [
                    "id": .int(11), "value": .typedLink(TypedLink(className: "Dog", key: dog.key)),
                    "items": .list([.int(3), .string("a")]),
                    "attrs": .map(["n": .int(4), "deep": .map(["x": .string("y")])]),
                ])
            try realm.create(
                "Box",
                [
                    "id": .int(12), "value": .map(["k": .list([.int(1), .int(2)]), "s": .string("v")]),
                    "items": .list([.double(3.5)]), "attrs": .map(["n": .string("4")]),
                ])
            return dog
        }
        return (realm, dog)
    }

    static func ids(_ realm: Realm, _ query: String, _ args: Value...) throws -> [Int64] {
        try realm.objects("Box").filter(query, arguments: args).map { r -> Int64 in
            guard case .int(let id)? = r["id"] else { return -1 }
            return id
        }.sorted()
    }

    @Test func comparisonsWithEveryLiteralType() throws {
        let dir = TempDir()
        let (realm, _) = try Self.seed(dir)
        #expect(try Self.ids(realm, "value == 1") == [1, 2, 3])  // 1 == 1.0 == decimal 1; not "1", not true
        #expect(try Self.ids(realm, "value == 1.0") == [1, 2, 3])
        #expect(try Self.ids(realm, "value == '1'") == [4])
        #expect(try Self.ids(realm, "value == true") == [5])
        #expect(try Self.ids(realm, "value > 1") == [6])  // numbers compare only with numbers
        #expect(try Self.ids(realm, "value == nil") == [0])
        #expect(try Self.ids(realm, "value != nil").count == 12)
        #expect(try Self.ids(realm, "value BEGINSWITH '1'") == [4, 7])  // string and data
        #expect(try Self.ids(realm, "value == $0", .data(Data("1".utf8))) == [7])
        #expect(try Self.ids(realm, "value IN {2.5, 'nope', true}") == [5, 6])
        #expect(try Self.ids(realm, "value == oid(0123456789abcdef01234567)") == [9])
    }

    @Test func typeNamesAreRealmCores() throws {
        let dir = TempDir()
        let (realm, _) = try Self.seed(dir)
        #expect(try Self.ids(realm, "value.@type == 'int'") == [1])
        #expect(try Self.ids(realm, "value.@type == 'numeric'") == [1, 2, 3, 6])
        #expect(try Self.ids(realm, "value.@type == 'string'") == [4])
        #expect(try Self.ids(realm, "value.@type == 'binary'") == [7])
        #expect(try Self.ids(realm, "value.@type == 'DATE'") == [8])
        #expect(try Self.ids(realm, "value.@type == 'objectId'") == [9])
        #expect(try Self.ids(realm, "value.@type == 'decimal'") == [3])
        #expect(try Self.ids(realm, "value.@type == 'null'") == [0])
        #expect(try Self.ids(realm, "value.@type == 'link'") == [11])
        #expect(try Self.ids(realm, "value.@type == 'list'") == [10])
        // As in Realm Core, 'object' is a dictionary (JSON's word), and 'collection' both kinds.
        #expect(try Self.ids(realm, "value.@type == 'object'") == [12])
        #expect(try Self.ids(realm, "value.@type == 'collection'") == [10, 12])
        #expect(try Self.ids(realm, "value.@type IN {'bool', 'float'}") == [5, 6])
        #expect(try Self.ids(realm, "value.@type != 'numeric'").count == 9)
        #expect(try Self.ids(realm, "ANY items.@type == 'string'") == [11])
        #expect(try Self.ids(realm, "attrs['n'].@type == 'int'") == [11])
        #expect(throws: RealmError.self) { try Self.ids(realm, "value.@type == 'kitten'") }
        #expect(throws: RealmError.self) { try Self.ids(realm, "value.@type > 'int'") }
    }

    @Test func pathsIntoNestedCollections() throws {
        let dir = TempDir()
        let (realm, _) = try Self.seed(dir)
        #expect(try Self.ids(realm, "value[0] == 5") == [10])
        #expect(try Self.ids(realm, "value[FIRST] == 5") == [10])
        #expect(try Self.ids(realm, "value[1] == 'x'") == [10])
        #expect(try Self.ids(realm, "value[LAST].k == 7") == [10])
        #expect(try Self.ids(realm, "value[2]['k'] == 7") == [10])
        #expect(try Self.ids(realm, "value[9] == nil").count == 13)  // past the end, or no list: nil
        #expect(try Self.ids(realm, "value['k'][1] == 2") == [12])
        #expect(try Self.ids(realm, "value.s == 'v'") == [12])
        #expect(try Self.ids(realm, "ANY value[*] == 'x'") == [10])
        #expect(try Self.ids(realm, "ANY value['k'][*] == 2") == [12])
        #expect(try Self.ids(realm, "value.@size == 3") == [10])
        #expect(try Self.ids(realm, "value.@size == 2") == [12])
        #expect(try Self.ids(realm, "attrs['deep']['x'] == 'y'") == [11])
        #expect(try Self.ids(realm, "ANY items == 3") == [11])  // 3 == 3 only, not 3.5
        #expect(try Self.ids(realm, "attrs.n == 4") == [11])  // the int, not the string "4"
        // A list property's elements have no positions here: refused, not guessed.
        #expect(throws: RealmError.self) { try Self.ids(realm, "items[0] == 3") }
        #expect(throws: RealmError.self) { try Self.ids(realm, "id[0] == 3") }
    }

    @Test func linksAsArguments() throws {
        let dir = TempDir()
        let (realm, dog) = try Self.seed(dir)
        #expect(
            try realm.objects("Box").filter(
                "value == $0", arguments: [.typedLink(TypedLink(className: "Dog", key: dog.key))]
            ).count == 1)
        #expect(
            try realm.objects("Box").filter(
                "value == $0", arguments: [.typedLink(TypedLink(className: "Box", key: dog.key))]
            ).count == 0)
    }

    @Test func sortAndDistinctFollowRealmsOrder() throws {
        let dir = TempDir()
        let (realm, _) = try Self.seed(dir)
        let sorted = try realm.objects("Box").sorted(byKeyPath: "value").map { $0["id"] ?? .null }
        // nil, bool, numbers (1, 1.0, decimal 1 tie in key order, then 2.5), string, data, date, objectId, link, list, dictionary
        #expect(sorted == [0, 5, 1, 2, 3, 6, 4, 7, 8, 9, 11, 10, 12].map { Value.int($0) })
        let distinct = try realm.objects("Box").distinct(by: ["value"]).map { $0["id"] ?? .null }
        #expect(distinct.count == 11)  // 1, 1.0 and decimal 1 are one value
        #expect(!distinct.contains(.int(2)) && !distinct.contains(.int(3)))
    }
}
