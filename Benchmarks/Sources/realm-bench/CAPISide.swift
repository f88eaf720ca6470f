import CSQLite3
import Foundation

/// SQLite through its own C API (the system's libsqlite3, the library GRDB links too): the same
/// statements as `SQLiteSide` without GRDB's Swift layer, which is a large share of GRDB's time
/// on per-call tasks. One connection, WAL, `synchronous = FULL` (checked on open), prepared
/// statements kept for the connection's life, explicit `BEGIN`/`COMMIT` around every write.
class CAPISide: BenchEngine {
    class var name: String { "capi" }
    class var isSQLite: Bool { true }
    /// Whether the connection gets `SQLiteTuning` (mmap and a page cache holding the file).
    class var tuned: Bool { false }

    let path: String
    private var db: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    /// Makes SQLite copy a bound string (Swift's pointer to it is valid only for the call).
    static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// The connections to the items files of the set and dictionary tasks, by form, each a
    /// side of this class on its own file (`CAPICollections.swift`), made on first use.
    var itemFiles: [CollectionForm: CAPISide] = [:]

    required init(directory: URL) throws {
        path = directory.appendingPathComponent("capi.sqlite").path
    }

    /// A side on the file at `path` (the items files of the set and dictionary tasks).
    required init(path: String) {
        self.path = path
    }

    deinit { try? close() }

    private func failure(_ rc: Int32, _ what: String) -> BenchError {
        let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
        return BenchError("sqlite3 \(what): \(message) (\(rc))")
    }

    /// Opens the connection and sets it up (WAL, `synchronous = FULL`, the tuning): what the
    /// timed `open` does, as an application opening its database would.
    private func connect() throws {
        try close()
        var handle: OpaquePointer?
        // NOMUTEX (multi-thread mode), as GRDB opens: one connection used by one thread at a time.
        let rc = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw BenchError("sqlite3_open_v2 \(path): \(rc)")
        }
        db = handle
        guard try text("PRAGMA journal_mode = WAL") == "wal" else { throw BenchError("could not enable WAL") }
        try exec("PRAGMA synchronous = FULL")
        if Self.tuned {
            for pragma in SQLiteTuning.pragmas { try exec(pragma) }
        }
    }

    /// The open connection, opened on first use and checked to be durable (and tuned).
    func opened() throws -> OpaquePointer {
        if let db { return db }
        try connect()
        guard try int("PRAGMA synchronous") == 2 else { throw BenchError("synchronous is not FULL") }
        if Self.tuned {
            let mmap = try int("PRAGMA mmap_size")
            guard mmap == Int64(SQLiteTuning.mmapBytes) else { throw BenchError("mmap_size is \(mmap), not \(SQLiteTuning.mmapBytes)") }
        }
        guard let db else { throw BenchError("sqlite3: no connection") }
        return db
    }

    func exec(_ sql: String) throws {
        let rc = sqlite3_exec(db, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw failure(rc, sql) }
    }

    /// The prepared statement for `sql`, reset and ready to bind (prepared once per connection).
    func statement(_ sql: String) throws -> OpaquePointer {
        let db = try opened()
        if let s = statements[sql] {
            sqlite3_reset(s)
            return s
        }
        var s: OpaquePointer?
        let rc = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &s, nil)
        guard rc == SQLITE_OK, let s else { throw failure(rc, "prepare \(sql)") }
        statements[sql] = s
        return s
    }

    /// Steps `s`; true for a row, false when done.
    @inline(__always)
    func step(_ s: OpaquePointer) throws -> Bool {
        let rc = sqlite3_step(s)
        if rc == SQLITE_ROW { return true }
        guard rc == SQLITE_DONE else { throw failure(rc, "step") }
        return false
    }

    func run(_ s: OpaquePointer) throws {
        while try step(s) {}
    }

    /// The first column of the one row `sql` returns, as an integer.
    func int(_ sql: String) throws -> Int64 {
        let s = try statement(sql)
        guard try step(s) else { throw BenchError("\(sql): no row") }
        let v = sqlite3_column_int64(s, 0)
        sqlite3_reset(s)
        return v
    }

    private func text(_ sql: String) throws -> String {
        let s = try statement(sql)
        guard try step(s) else { throw BenchError("\(sql): no row") }
        let v = columnText(s, 0)
        sqlite3_reset(s)
        return v
    }

    private func columnText(_ s: OpaquePointer, _ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(s, column) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(s, column))), as: UTF8.self)
    }

    /// `body` in one transaction, committed (durably: WAL + `synchronous = FULL`).
    func transaction(_ body: () throws -> Void) throws {
        try run(statement("BEGIN"))
        do {
            try body()
            try run(statement("COMMIT"))
        } catch {
            _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    private func insert(_ s: OpaquePointer, _ data: Dataset, _ i: Int, id: Int64) throws {
        sqlite3_reset(s)
        sqlite3_bind_int64(s, 1, id)
        sqlite3_bind_text(s, 2, data.names[i], -1, Self.transient)
        sqlite3_bind_int64(s, 3, data.ages[i])
        sqlite3_bind_double(s, 4, data.scores[i])
        sqlite3_bind_int64(s, 5, data.createdAt[i])
        try run(s)
    }

    private static let insertSQL = "INSERT INTO person (id, name, age, score, createdAt) VALUES (?, ?, ?, ?, ?)"

    func insertBulk(_ data: Dataset) throws {
        try transaction {
            try exec("""
                CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER NOT NULL,
                                     score REAL NOT NULL, createdAt INTEGER NOT NULL)
                """)
        }
        let s = try statement(Self.insertSQL)
        try transaction {
            for i in 0..<data.count { try insert(s, data, i, id: data.ids[i]) }
        }
    }

    func compactAndMeasure() throws -> UInt64 {
        _ = try opened()
        finalizeStatements()
        try exec("PRAGMA wal_checkpoint(TRUNCATE)")
        try exec("VACUUM")
        try exec("PRAGMA wal_checkpoint(TRUNCATE)")
        try close()
        return fileBytes(URL(fileURLWithPath: path)) + fileBytes(URL(fileURLWithPath: path + "-wal"))
    }

    func countFilter(times: Int) throws -> Int {
        var n: Int64 = 0
        for _ in 0..<times { n = try int("SELECT count(*) FROM person WHERE age >= 20 AND age < 30") }
        return Int(n)
    }

    func queryString() throws -> [Int] {
        // GLOB and instr compare case-sensitively, like BEGINSWITH/CONTAINS without [c].
        [Int(try int("SELECT count(*) FROM person WHERE name GLOB 'A*'")),
         Int(try int("SELECT count(*) FROM person WHERE instr(name, '李') > 0"))]
    }

    func enumerateAges() throws -> Int64 {
        let s = try statement("SELECT age FROM person")
        var sum: Int64 = 0
        while try step(s) { sum &+= sqlite3_column_int64(s, 0) }
        return sum
    }

    func lookup(_ ids: [Int64]) throws -> Int64 {
        let s = try statement("SELECT age FROM person WHERE id = ?")
        var sum: Int64 = 0
        for id in ids {
            sqlite3_bind_int64(s, 1, id)
            if try step(s) { sum &+= sqlite3_column_int64(s, 0) }
            sqlite3_reset(s)
        }
        return sum
    }

    func sortFirstPage() throws -> [String] {
        let s = try statement("SELECT name FROM person ORDER BY name LIMIT 100")
        var names: [String] = []
        while try step(s) { names.append(columnText(s, 0)) }
        return names
    }

    private func finalizeStatements() {
        for s in statements.values { sqlite3_finalize(s) }
        statements = [:]
    }

    func close() throws {
        for file in itemFiles.values { try file.close() }
        finalizeStatements()
        if let db {
            let rc = sqlite3_close_v2(db)
            self.db = nil
            guard rc == SQLITE_OK else { throw BenchError("sqlite3_close_v2: \(rc)") }
        }
    }

    func open() throws { try connect() }

    func prepare() throws {
        try close()
        _ = try opened()
    }

    func count() throws -> Int { Int(try int("SELECT count(*) FROM person")) }

    func countScore(_ score: Double) throws -> Int {
        let s = try statement("SELECT count(*) FROM person WHERE score = ?")
        sqlite3_bind_double(s, 1, score)
        guard try step(s) else { throw BenchError("count by score: no row") }
        defer { sqlite3_reset(s) }
        return Int(sqlite3_column_int64(s, 0))
    }

    func updateBulk(score: Double) throws {
        let s = try statement("UPDATE person SET score = ?")
        try transaction {
            sqlite3_bind_double(s, 1, score)
            try run(s)
        }
    }

    func insertSingles(_ data: Dataset, firstID: Int64, count: Int) throws {
        let s = try statement(Self.insertSQL)
        for j in 0..<count {
            try transaction { try insert(s, data, j % data.count, id: firstID + Int64(j)) }
        }
    }

    func deleteHalf() throws {
        let s = try statement("DELETE FROM person WHERE age < 50")
        try transaction { try run(s) }
    }
}

/// `CAPISide` with `SQLiteTuning`: SQLite's C API at its best for reads.
final class CAPITunedSide: CAPISide {
    override class var name: String { "capi-tuned" }
    override class var tuned: Bool { true }
}
