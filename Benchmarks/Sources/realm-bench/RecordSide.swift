import Foundation
import GRDB

/// The benchmark's person as a GRDB `Codable` record: what a Swift developer would write with
/// GRDB instead of a Realm model. `createdAt` is a `Date` stored as seconds since 1970 (an
/// integer column, as the other engines store it).
struct PersonRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "person"
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .secondsSince1970 }
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }

    var id: Int64
    var name: String
    var age: Int
    var score: Double
    var createdAt: Date

    enum Columns {
        static let name = Column(CodingKeys.name)
        static let age = Column(CodingKeys.age)
        static let score = Column(CodingKeys.score)
    }

    init(_ d: Dataset, _ i: Int, id: Int64) {
        self.id = id
        name = d.names[i]
        age = Int(d.ages[i])
        score = d.scores[i]
        createdAt = Date(timeIntervalSince1970: TimeInterval(d.createdAt[i]))
    }
}

/// SQLite through GRDB's record layer (`FetchableRecord`/`PersistableRecord` structs and the
/// query interface), with the same file settings as `SQLiteSide` (WAL, `synchronous=FULL`):
/// the typed API's peer, as `SQLiteSide` (raw cached statements) is the dynamic API's.
final class RecordSide: BenchEngine {
    static let name = "grdb"
    private let connection: SQLiteConnection

    init(directory: URL) throws {
        connection = SQLiteConnection(fileURL: directory.appendingPathComponent("records.sqlite"))
    }

    private func opened() throws -> DatabaseQueue { try connection.opened() }

    func insertBulk(_ data: Dataset) throws {
        let queue = try opened()
        try queue.write { db in
            try db.create(table: PersonRecord.databaseTableName) { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("age", .integer).notNull()
                t.column("score", .double).notNull()
                t.column("createdAt", .integer).notNull()
            }
        }
        try queue.write { db in
            for i in 0..<data.count { try PersonRecord(data, i, id: data.ids[i]).insert(db) }
        }
    }

    func compactAndMeasure() throws -> UInt64 { try connection.compactAndMeasure() }

    func countFilter(times: Int) throws -> Int {
        try opened().read { db in
            var n = 0
            for _ in 0..<times {
                n = try PersonRecord.filter(PersonRecord.Columns.age >= 20 && PersonRecord.Columns.age < 30).fetchCount(db)
            }
            return n
        }
    }

    func queryString() throws -> [Int] {
        try opened().read { db in
            [
                // GLOB and instr compare case-sensitively, like BEGINSWITH/CONTAINS without [c]
                // (the query interface's `like` would not).
                try PersonRecord.filter(sql: "name GLOB 'A*'").fetchCount(db),
                try PersonRecord.filter(sql: "instr(name, '李') > 0").fetchCount(db),
            ]
        }
    }

    func enumerateAges() throws -> Int64 {
        try opened().read { db in
            var sum: Int64 = 0
            let people = try PersonRecord.fetchCursor(db)
            while let person = try people.next() { sum &+= Int64(person.age) }
            return sum
        }
    }

    func lookup(_ ids: [Int64]) throws -> Int64 {
        try opened().read { db in
            var sum: Int64 = 0
            for id in ids {
                if let person = try PersonRecord.fetchOne(db, key: id) { sum &+= Int64(person.age) }
            }
            return sum
        }
    }

    func sortFirstPage() throws -> [String] {
        try opened().read { db in
            try PersonRecord.order(PersonRecord.Columns.name).limit(100).fetchAll(db).map(\.name)
        }
    }

    func close() throws { try connection.close() }

    func open() throws { _ = try connection.reopen() }

    func prepare() throws {
        try connection.close()
        _ = try connection.opened()
    }

    func count() throws -> Int { try opened().read { db in try PersonRecord.fetchCount(db) } }

    func countScore(_ score: Double) throws -> Int {
        try opened().read { db in try PersonRecord.filter(PersonRecord.Columns.score == score).fetchCount(db) }
    }

    func updateBulk(score: Double) throws {
        _ = try opened().write { db in try PersonRecord.updateAll(db, PersonRecord.Columns.score.set(to: score)) }
    }

    func insertSingles(_ data: Dataset, firstID: Int64, count: Int) throws {
        let queue = try opened()
        for j in 0..<count {
            try queue.write { db in try PersonRecord(data, j % data.count, id: firstID + Int64(j)).insert(db) }
        }
    }

    func deleteHalf() throws {
        _ = try opened().write { db in try PersonRecord.filter(PersonRecord.Columns.age < 50).deleteAll(db) }
    }
}
