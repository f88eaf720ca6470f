import Foundation
import GRDB

/// The one GRDB connection a SQLite peer (`SQLiteSide`, `RecordSide`) keeps to its file: WAL,
/// `synchronous=FULL` checked on open, and the compaction and size measure both peers report.
final class SQLiteConnection {
    let fileURL: URL
    private var queue: DatabaseQueue?

    init(fileURL: URL) {
        self.fileURL = fileURL
    }

    static var configuration: Configuration {
        // Not `journalMode = .wal`: GRDB then sets `synchronous = NORMAL` after `prepareDatabase`
        // (commits would not be durable: one fdatasync per ~100 commits instead of one each).
        var c = Configuration()
        c.prepareDatabase { db in
            guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                throw DatabaseError(message: "could not enable WAL")
            }
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        return c
    }

    /// The open connection, opened (and checked to be durable) on first use.
    func opened() throws -> DatabaseQueue {
        if let queue { return queue }
        let q = try DatabaseQueue(path: fileURL.path, configuration: Self.configuration)
        let synchronous = try q.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        guard synchronous == 2 else { throw DatabaseError(message: "synchronous is \(synchronous ?? -1), not FULL (2)") }
        queue = q
        return q
    }

    /// Opens the file again, as the timed `open` task does (without the durability check's read).
    func reopen() throws -> DatabaseQueue {
        let q = try DatabaseQueue(path: fileURL.path, configuration: Self.configuration)
        queue = q
        return q
    }

    func close() throws {
        try queue?.close()
        queue = nil
    }

    /// Checkpoints and vacuums the file, closes it, and returns its size with its WAL.
    func compactAndMeasure() throws -> UInt64 {
        let queue = try opened()
        try queue.writeWithoutTransaction { db in
            try db.checkpoint(.truncate)
            try db.execute(sql: "VACUUM")
            try db.checkpoint(.truncate)
        }
        try close()
        return fileBytes(fileURL) + fileBytes(URL(fileURLWithPath: fileURL.path + "-wal"))
    }
}
