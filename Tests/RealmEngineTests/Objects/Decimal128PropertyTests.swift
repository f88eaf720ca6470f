import Foundation
import Testing
@testable import RealmEngine

/// A decimal128 property through the public API: written, read back after reopening the file
/// (every word as written), queried with exact decimal literals, aggregated exactly, sorted,
/// exported to JSON and CSV and imported again unchanged.
@Suite struct Decimal128PropertyTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "price", type: .decimal128),
                Property(name: "discount", type: .decimal128, isOptional: true),
                Property(name: "history", type: .decimal128, isList: true),
                Property(name: "maybe", type: .decimal128, isOptional: true, isList: true),
            ])
    ])

    /// (id, price, discount, history, maybe) as text.
    static let rows: [(Int64, String, String?, [String], [String?])] = [
        (1, "0.1", "0.2", ["0.1", "0.2"], ["1", nil]),
        (2, "10.50", nil, [], []),
        (3, "-1E-6143", "1.00", ["10.50", "0.5"], [nil]),
        (4, "NaN", nil, ["NaN"], []),
        (5, "+9999999999999999999999999999999999E+6111", "-0", ["-Inf"], ["Inf"]),
        (6, "10.5", "0.10", ["1E-6176", "3"], []),
    ]

    static func decimal(_ text: String) -> Value { (try? Decimal128(parsing: text)).map(Value.decimal128) ?? .null }

    static func fill(_ realm: Realm) throws {
        try realm.write {
            for (id, price, discount, history, maybe) in rows {
                try realm.create(
                    "Item",
                    [
                        "id": Value.int(id), "price": decimal(price), "discount": discount.map(decimal) ?? Value.null,
                        "history": Value.list(history.map(decimal)),
                        "maybe": Value.list(maybe.map { text -> Value in text.map(decimal) ?? .null }),
                    ])
            }
        }
    }

    static func ids(_ results: Results) throws -> [Int64] {
        try results.map { object -> Int64 in
            guard case .int(let id) = try object.value(forKey: "id") else { return -1 }
            return id
        }
    }

    @Test func valuesSurviveReopeningBitForBit() throws {
        let dir = TempDir()
        let path = dir.path("decimal.realm")
        do {
            let realm = try Realm(path: path, schema: Self.schema)
            try Self.fill(realm)
        }
        let reopened = try Realm(path: path, schema: Self.schema)
        let items = try reopened.objects("Item").sorted(byKeyPath: "id")
        #expect(items.count == Self.rows.count)
        for (object, row) in zip(items, Self.rows) {
            let price = try object.value(forKey: "price")
            #expect(price.isIdentical(to: Self.decimal(row.1)), "\(row.0): \(price)")
            #expect(price.description == Self.decimal(row.1).description)
            #expect(try object.value(forKey: "discount").isIdentical(to: row.2.map(Self.decimal) ?? .null))
            let history = Value.list(row.3.map(Self.decimal))
            let maybe = Value.list(row.4.map { text -> Value in text.map(Self.decimal) ?? .null })
            #expect(try object.value(forKey: "history").isIdentical(to: history))
            #expect(try object.value(forKey: "maybe").isIdentical(to: maybe))
        }
        // 10.50 and 10.5 are equal but stored as written.
        #expect(try reopened.objects("Item").filter("id == 2").first?.value(forKey: "price").description == "10.50")
    }

    @Test func queriesCompareDecimalsExactly() throws {
        let realm = try Realm(
            configuration: .init(inMemoryIdentifier: "decimal-\(UUID().uuidString)", schema: Self.schema))
        try Self.fill(realm)
        let items = try realm.objects("Item")
        #expect(try Self.ids(items.filter("price == 0.1")) == [1])
        #expect(try Self.ids(items.filter("price == 10.5").sorted(byKeyPath: "id")) == [2, 6])
        #expect(
            try Self.ids(items.filter("price > 10.49999999999999999999999999999").sorted(byKeyPath: "id")) == [2, 5, 6])
        #expect(
            try Self.ids(items.filter("price < 0.1000000000000000000000000000000001").sorted(byKeyPath: "id")) == [
                1, 3,
            ])
        #expect(try Self.ids(items.filter("price > 10").sorted(byKeyPath: "id")) == [2, 5, 6])
        #expect(try Self.ids(items.filter("price > $0", Self.decimal("10.5"))) == [5])
        #expect(try Self.ids(items.filter("price == $0", Value.string("0.10"))) == [1])
        #expect(try Self.ids(items.filter("discount == nil").sorted(byKeyPath: "id")) == [2, 4])
        #expect(try Self.ids(items.filter("discount == 0.1").sorted(byKeyPath: "id")) == [6])
        #expect(try Self.ids(items.filter("price == NaN")) == [4])
        // Over lists: ANY, and aggregates that are exact (0.1 + 0.2 == 0.3).
        #expect(try Self.ids(items.filter("ANY history > 5").sorted(byKeyPath: "id")) == [3])
        #expect(try Self.ids(items.filter("history.@sum == 0.3")) == [1])
        #expect(try Self.ids(items.filter("history.@avg == 5.5")) == [3])
        #expect(try Self.ids(items.filter("history.@min == 0.1")) == [1])
        #expect(try Self.ids(items.filter("history.@max == 3")) == [6])
        #expect(try Self.ids(items.filter("history.@count == 0")) == [2])
        #expect(try Self.ids(items.filter("maybe.@sum == 1")) == [1])
        // A decimal column against a string that is not a number is an error, not an empty result.
        #expect(throws: RealmError.self) { try items.filter("price == 'ten'") }
    }

    /// A number with a point is read as a decimal; against a column it cannot compare with, the
    /// message calls it a number, as the user wrote it.
    @Test func aDecimalLiteralIsNamedANumberInMessages() throws {
        let schema = Schema([ObjectSchema(name: "Tag", properties: [Property(name: "name", type: .string)])])
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "decimal-\(UUID().uuidString)", schema: schema))
        #expect { try realm.objects("Tag").filter("name == 10.5") } throws: { error in
            "\(error)".contains("with number 10.5")
        }
    }

    @Test func aggregatesAndSortingAreExact() throws {
        let realm = try Realm(
            configuration: .init(inMemoryIdentifier: "decimal-\(UUID().uuidString)", schema: Self.schema))
        try realm.write {
            for (i, text) in ["0.1", "0.2", "0.3", "10.50", "-1"].enumerated() {
                try realm.create("Item", ["id": .int(Int64(i)), "price": Self.decimal(text)])
            }
        }
        let items = try realm.objects("Item")
        #expect(try items.sum(ofProperty: "price") == Self.decimal("10.10"))
        #expect(try items.sum(ofProperty: "price").description == "10.10")
        #expect(try items.averageValue(ofProperty: "price") == Self.decimal("2.02"))
        #expect(try items.average(ofProperty: "price") == 2.02)
        #expect(try items.min(ofProperty: "price") == Self.decimal("-1"))
        #expect(try items.max(ofProperty: "price") == Self.decimal("10.5"))
        #expect(try Self.ids(items.sorted(byKeyPath: "price")) == [4, 0, 1, 2, 3])
        #expect(try Self.ids(items.sorted(byKeyPath: "price", ascending: false)) == [3, 2, 1, 0, 4])
        // NaN sorts first, as Realm Core orders it.
        try realm.write { try realm.create("Item", ["id": Value.int(9), "price": Value.decimal128(.nan)]) }
        #expect(try Self.ids(items.sorted(byKeyPath: "price")).first == 9)
        #expect(try items.sum(ofProperty: "price").description == "NaN")
    }

    @Test func exportAndImportRoundTripEveryDigit() throws {
        let source = try Realm(
            configuration: .init(inMemoryIdentifier: "decimal-\(UUID().uuidString)", schema: Self.schema))
        try Self.fill(source)
        let objectSchema = try #require(Self.schema["Item"])
        let rows = try source.objects("Item").sorted(byKeyPath: "id").map { try $0.values() }
        let noLinks: LinkResolver = { _, _ in nil }
        let json = try JSONExport.array(rows, schema: objectSchema, resolveLink: noLinks)
        // Decimals are strings: a JSON number would be read as a double by most tools.
        #expect(json.contains(#""price":"10.50""#))
        #expect(json.contains(#""price":"+9999999999999999999999999999999999E+6111""#))
        let csv = try CSVExport.table(rows, schema: objectSchema, resolveLink: noLinks)
        for (name, groups) in [
            ("json", try ImportDocument.groups(fromJSON: Data(json.utf8), className: "Item", schema: Self.schema)),
            ("csv", try ImportDocument.groups(fromCSV: Data(csv.utf8), className: "Item", schema: Self.schema)),
        ] {
            let target = try Realm(
                configuration: .init(inMemoryIdentifier: "decimal-\(UUID().uuidString)", schema: Self.schema))
            try target.write { _ = try DataImport(realm: target).run(groups) }
            let imported = try target.objects("Item").sorted(byKeyPath: "id").map { try $0.values() }
            #expect(Value.identical(imported.flatMap { $0 }, rows.flatMap { $0 }), "\(name) round trip changed a value")
        }
    }

    @Test func importRefusesDecimalsItWouldRound() throws {
        func load(_ json: String) throws -> Realm {
            let realm = try Realm(
                configuration: .init(inMemoryIdentifier: "decimal-\(UUID().uuidString)", schema: Self.schema))
            let groups = try ImportDocument.groups(fromJSON: Data(json.utf8), className: nil, schema: Self.schema)
            try realm.write { _ = try DataImport(realm: realm).run(groups) }
            return realm
        }
        let tooLong = #"{"Item": [{"id": 1, "price": "1.2345678901234567890123456789012345"}]}"#
        #expect(throws: RealmError.self) { try load(tooLong) }
        #expect(throws: RealmError.self) { try load(#"{"Item": [{"id": 1, "price": "ten"}]}"#) }
        // A JSON number is read by its own digits, not through a double.
        let realm = try load(#"{"Item": [{"id": 1, "price": 0.30000000000000000000000000000001}]}"#)
        #expect(
            try realm.objects("Item").first?.value(forKey: "price")
                == Self.decimal("0.30000000000000000000000000000001"))
    }
}
