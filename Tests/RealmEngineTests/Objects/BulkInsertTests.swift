import Foundation
import Testing
@testable import RealmEngine

/// The bulk-insert path: rows and increasing index entries appended at the loaded right edge of
/// their trees, full leaves sealed in place, and the primary-key check skipped for keys past the
/// index's last entry. Whatever path an insert takes, the file must pass the integrity check,
/// every object must be found by its primary key, and a duplicate key must still be refused.
@Suite struct BulkInsertTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Person",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "name", type: .string, isIndexed: true),
                Property(name: "age", type: .int),
                Property(name: "score", type: .double),
                Property(name: "createdAt", type: .date),
            ])
    ])

    private static func input(_ id: Int64) -> ObjectInput {
        .array([
            .value(.int(id)), .value(.string("n\(id % 7)")), .value(.int(id % 100)),
            .value(.double(Double(id) / 4)), .value(.date(Timestamp(seconds: 1_700_000_000 + id))),
        ])
    }

    private static func expectPerson(_ realm: Realm, _ id: Int64, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let p = try realm.object(ofType: "Person", forPrimaryKey: .int(id))
        #expect(p?["age"] == .int(id % 100), "id \(id)", sourceLocation: sourceLocation)
        #expect(p?["name"] == .string("n\(id % 7)"), "id \(id)", sourceLocation: sourceLocation)
        #expect(
            p?["createdAt"] == .date(Timestamp(seconds: 1_700_000_000 + id)), "id \(id)", sourceLocation: sourceLocation
        )
    }

    /// Many leaves and several inner nodes (past `innerFanout` leaves) in one write, then more
    /// appended in a second write to the committed tree.
    @Test func bulkInsertAcrossManyLeavesPassesTheIntegrityCheck() throws {
        let dir = TempDir()
        let path = dir.path("bulk.realm")
        let n = Int64(Limits.clusterRows * (Limits.innerFanout + 3) + 17)
        do {
            let realm = try Realm(path: path, schema: Self.schema)
            try realm.write {
                for id in 0..<n { try realm.create("Person", value: Self.input(id)) }
                // Reads inside the write see the appended rows.
                #expect(try realm.objects("Person").count == Int(n))
                try Self.expectPerson(realm, n - 1)
            }
            try realm.write {
                for id in n..<(n + 600) { try realm.create("Person", value: Self.input(id)) }
            }
            _ = try realm.checkIntegrity()
        }
        let realm = try Realm(path: path, schema: Self.schema)
        #expect(try realm.objects("Person").count == Int(n) + 600)
        for id in [0, 1, 255, 256, 257, n / 2, n - 1, n, n + 599] { try Self.expectPerson(realm, id) }
        #expect(try realm.object(ofType: "Person", forPrimaryKey: .int(n + 600)) == nil)
        #expect(
            try realm.objects("Person").filter("name == 'n3'").count
                == Int((0..<(n + 600)).filter { $0 % 7 == 3 }.count))
        #expect(
            try realm.objects("Person").filter("age < 10").count == Int((0..<(n + 600)).filter { $0 % 100 < 10 }.count))
        _ = try realm.checkIntegrity()
    }

    /// A duplicate primary key throws whether it is the newest key (in the loaded right edge), an
    /// older one in the same write, or a committed one; nothing created before or after is lost.
    @Test func duplicatePrimaryKeyInTheSameWriteThrowsAndLosesNothing() throws {
        let dir = TempDir()
        let realm = try Realm(path: dir.path("dup.realm"), schema: Self.schema)
        try realm.write { for id in 0..<Int64(300) { try realm.create("Person", value: Self.input(id)) } }
        try realm.write {
            for id in Int64(300)..<2000 { try realm.create("Person", value: Self.input(id)) }
            for dup in [Int64(1999), 1000, 5, 299] {
                #expect(throws: RealmError.self) { try realm.create("Person", value: Self.input(dup)) }
            }
            for id in Int64(2000)..<2300 { try realm.create("Person", value: Self.input(id)) }
        }
        #expect(try realm.objects("Person").count == 2300)
        for id in [Int64(0), 5, 299, 300, 1000, 1999, 2000, 2299] { try Self.expectPerson(realm, id) }
        _ = try realm.checkIntegrity()
    }

    /// Keys that do not increase take the generic path; mixing both keeps the trees right.
    @Test func decreasingAndInterleavedPrimaryKeys() throws {
        let dir = TempDir()
        let realm = try Realm(path: dir.path("mixed.realm"), schema: Self.schema)
        try realm.write {
            for id in stride(from: Int64(3000), to: 1500, by: -1) { try realm.create("Person", value: Self.input(id)) }
            for id in Int64(3001)..<4000 { try realm.create("Person", value: Self.input(id)) }
            for id in stride(from: Int64(0), to: 1500, by: 2) { try realm.create("Person", value: Self.input(id)) }
        }
        #expect(try realm.objects("Person").count == 1500 + 999 + 750)
        for id in [Int64(0), 2, 1498, 1501, 3000, 3001, 3999] { try Self.expectPerson(realm, id) }
        #expect(try realm.object(ofType: "Person", forPrimaryKey: .int(1)) == nil)
        _ = try realm.checkIntegrity()
    }

    /// Each created object is reported as an insertion, in key order.
    @Test func bulkInsertReportsEveryInsertion() throws {
        let dir = TempDir()
        let realm = try Realm(path: dir.path("changes.realm"), schema: Self.schema)
        try realm.write {
            for id in Int64(0)..<Int64(Limits.clusterRows * 3) { try realm.create("Person", value: Self.input(id)) }
            let record = realm.transaction.flatMap { ChangeLog.record($0.changes, version: 0).classes[0] }
            #expect(record?.inserted.count == Limits.clusterRows * 3)
            #expect(record?.inserted == record?.inserted.sorted())
        }
    }
}
