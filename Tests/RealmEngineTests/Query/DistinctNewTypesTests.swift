import Foundation
import Testing
@testable import RealmEngine

/// Issue 23's "sorting by Decimal128 and Mixed; DISTINCT on all of them", through the query
/// language's `SORT`/`DISTINCT` clauses: decimals equal by value (10.5 and 10.50) are one
/// distinct value and NaN is one value; a Mixed holding 1, 1.0 and decimal 1 is one value; a
/// key path through an embedded object sorts and is distinct like one through a link.
@Suite struct DistinctNewTypesTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "price", type: .decimal128),
                Property(name: "any", type: .mixed),
                Property(name: "address", type: .object, isOptional: true, objectClassName: "Address"),
            ]),
        ObjectSchema(name: "Address", properties: [Property(name: "city", type: .string)], isEmbedded: true),
    ])

    static func decimal(_ text: String) throws -> Value { .decimal128(try Decimal128(parsing: text)) }

    /// (id, price, any, city)
    static func seeded() throws -> Realm {
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "distinct-\(UUID().uuidString)", schema: schema))
        let rows: [(Int64, String, Value, String)] = [
            (1, "10.50", .int(1), "Oslo"), (2, "10.5", .double(1.0), "Bergen"), (3, "NaN", try decimal("1"), "Oslo"),
            (4, "0.1", .string("1"), "Aalesund"), (5, "NaN", .null, "Bergen"), (6, "-3", .int(2), "Oslo"),
        ]
        try realm.write {
            for (id, price, any, city) in rows {
                _ = try realm.create(
                    "Item",
                    value: .dictionary([
                        "id": .value(.int(id)), "price": .value(try decimal(price)), "any": .value(any),
                        "address": .dictionary(["city": .value(.string(city))]),
                    ]))
            }
        }
        return realm
    }

    static func ids(_ realm: Realm, _ query: String) throws -> [Int64] {
        try realm.objects("Item").filter(query).map { object -> Int64 in
            guard case .int(let id) = try object.value(forKey: "id") else { return -1 }
            return id
        }
    }

    @Test func decimalsSortAndAreDistinctByValue() throws {
        let realm = try Self.seeded()
        // NaN first (Realm Core's order), then by value; equal values keep their key order.
        #expect(try Self.ids(realm, "TRUEPREDICATE SORT(price ASC, id ASC)") == [3, 5, 6, 4, 1, 2])
        #expect(try Self.ids(realm, "TRUEPREDICATE SORT(id ASC) DISTINCT(price)") == [1, 3, 4, 6])
        #expect(try Self.ids(realm, "price > 10.49 SORT(id ASC) DISTINCT(price)") == [1])
    }

    @Test func mixedIsDistinctAcrossNumericTypes() throws {
        let realm = try Self.seeded()
        #expect(try Self.ids(realm, "TRUEPREDICATE SORT(id ASC) DISTINCT(any)") == [1, 4, 5, 6])
        // null first, then the numbers (1, 1.0, decimal 1 tie: key order), then 2, then the string.
        #expect(try Self.ids(realm, "TRUEPREDICATE SORT(any ASC, id ASC)") == [5, 1, 2, 3, 6, 4])
    }

    @Test func anEmbeddedKeyPathSortsAndIsDistinct() throws {
        let realm = try Self.seeded()
        #expect(try Self.ids(realm, "TRUEPREDICATE SORT(address.city ASC, id ASC)") == [4, 2, 5, 1, 3, 6])
        #expect(try Self.ids(realm, "TRUEPREDICATE SORT(id ASC) DISTINCT(address.city)") == [1, 2, 4])
    }
}
