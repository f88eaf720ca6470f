import Foundation
import GRDB

/// SQLite through GRDB: one connection (`DatabaseQueue`), WAL, `synchronous=FULL` (every commit
/// is durable, as ours are), prepared (cached) statements, and only the primary key indexed.
class SQLiteSide: BenchEngine {
    class var name: String { "sqlite" }
    class var isSQLite: Bool { true }
    /// Whether the connection gets `SQLiteTuning` (mmap and a page cache holding the file).
    class var tuned: Bool { false }
    private let connection: SQLiteConnection
    /// The connections to the items files of the set and dictionary tasks, one per form
    /// (`SQLiteCollections.swift`).
    let itemConnections: [CollectionForm: SQLiteConnection]

    required init(directory: URL) throws {
        connection = SQLiteConnection(fileURL: directory.appendingPathComponent("bench.sqlite"), tuned: Self.tuned)
        itemConnections = [
            .json: SQLiteConnection(fileURL: directory.appendingPathComponent("items-json.sqlite"), tuned: Self.tuned),
            .join: SQLiteConnection(fileURL: directory.appendingPathComponent("items-join.sqlite"), tuned: Self.tuned),
        ]
    }

    private func opened() throws -> DatabaseQueue { try connection.opened() }

    func insertBulk(_ data: Dataset) throws {
        let queue = try opened()
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER NOT NULL,
                                     score REAL NOT NULL, createdAt INTEGER NOT NULL)
                """)
        }
        try queue.write { db in
            let insert = try db.cachedStatement(sql: "INSERT INTO person (id, name, age, score, createdAt) VALUES (?, ?, ?, ?, ?)")
            for i in 0..<data.count {
                try insert.execute(arguments: [data.ids[i], data.names[i], data.ages[i], data.scores[i], data.createdAt[i]])
            }
        }
    }

    func compactAndMeasure() throws -> UInt64 { try connection.compactAndMeasure() }

    func countFilter(times: Int) throws -> Int {
        try opened().read { db in
            let statement = try db.cachedStatement(sql: "SELECT count(*) FROM person WHERE age >= 20 AND age < 30")
            var n = 0
            for _ in 0..<times { n = try Int.fetchOne(statement) ?? 0 }
            return n
        }
    }

    func queryString() throws -> [Int] {
        try opened().read { db in
            [
                // GLOB and instr compare case-sensitively, like BEGINSWITH/CONTAINS without [c].
                try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM person WHERE name GLOB 'A*'")) ?? 0,
                try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM person WHERE instr(name, '李') > 0")) ?? 0,
            ]
        }
    }

    func enumerateAges() throws -> Int64 {
        try opened().read { db in
            var sum: Int64 = 0
            let rows = try Int64.fetchCursor(db.cachedStatement(sql: "SELECT age FROM person"))
            while let age = try rows.next() { sum &+= age }
            return sum
        }
    }

    func lookup(_ ids: [Int64]) throws -> Int64 {
        try opened().read { db in
            let statement = try db.cachedStatement(sql: "SELECT age FROM person WHERE id = ?")
            var sum: Int64 = 0
            for id in ids {
                if let age = try Int64.fetchOne(statement, arguments: [id]) { sum &+= age }
            }
            return sum
        }
    }

    func sortFirstPage() throws -> [String] {
        try opened().read { db in
            try String.fetchAll(db.cachedStatement(sql: "SELECT name FROM person ORDER BY name LIMIT 100"))
        }
    }

    func close() throws {
        try connection.close()
        for c in itemConnections.values { try c.close() }
    }

    func open() throws { _ = try connection.reopen() }

    func prepare() throws {
        try close()
        _ = try connection.opened()
    }

    func count() throws -> Int {
        try opened().read { db in try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM person")) ?? 0 }
    }

    func countScore(_ score: Double) throws -> Int {
        try opened().read { db in
            try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM person WHERE score = ?"), arguments: [score]) ?? 0
        }
    }

    func updateBulk(score: Double) throws {
        try opened().write { db in
            try db.cachedStatement(sql: "UPDATE person SET score = ?").execute(arguments: [score])
        }
    }

    func insertSingles(_ data: Dataset, firstID: Int64, count: Int) throws {
        let queue = try opened()
        for j in 0..<count {
            let i = j % data.count
            try queue.write { db in
                let insert = try db.cachedStatement(sql: "INSERT INTO person (id, name, age, score, createdAt) VALUES (?, ?, ?, ?, ?)")
                try insert.execute(arguments: [firstID + Int64(j), data.names[i], data.ages[i], data.scores[i], data.createdAt[i]])
            }
        }
    }

    func deleteHalf() throws {
        try opened().write { db in
            try db.cachedStatement(sql: "DELETE FROM person WHERE age < 50").execute()
        }
    }
}

/// `SQLiteSide` with `SQLiteTuning`: SQLite through GRDB at its best for reads.
final class SQLiteTunedSide: SQLiteSide {
    override class var name: String { "sqlite-tuned" }
    override class var tuned: Bool { true }
}
