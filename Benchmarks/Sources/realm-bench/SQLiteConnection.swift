import Foundation
import GRDB

/// The one GRDB connection a SQLite peer (`SQLiteSide`, `RecordSide`) keeps to its file: WAL,
/// `synchronous=FULL` checked on open, and the compaction and size measure both peers report.
/// Tuned (`SQLiteTunedSide`): also `mmap_size` and a page cache that hold the whole file
/// (`SQLiteTuning`), checked on open.
final class SQLiteConnection {
    let fileURL: URL
    let tuned: Bool
    private var queue: DatabaseQueue?

    init(fileURL: URL, tuned: Bool = false) {
        self.fileURL = fileURL
        self.tuned = tuned
    }

    var configuration: Configuration {
        // Not `journalMode = .wal`: GRDB then sets `synchronous = NORMAL` after `prepareDatabase`
        // (commits would not be durable: one fdatasync per ~100 commits instead of one each).
        var c = Configuration()
        let tuned = tuned
        c.prepareDatabase { db in
            guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                throw DatabaseError(message: "could not enable WAL")
            }
            try db.execute(sql: "PRAGMA synchronous = FULL")
            if tuned {
                for pragma in SQLiteTuning.pragmas { try db.execute(sql: pragma) }
            }
        }
        return c
    }

    /// The open connection, opened (and checked to be durable, and tuned when asked) on first use.
    func opened() throws -> DatabaseQueue {
        if let queue { return queue }
        let q = try DatabaseQueue(path: fileURL.path, configuration: configuration)
        let synchronous = try q.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        guard synchronous == 2 else { throw DatabaseError(message: "synchronous is \(synchronous ?? -1), not FULL (2)") }
        if tuned {
            let mmap = try q.read { db in try Int.fetchOne(db, sql: "PRAGMA mmap_size") }
            guard mmap == SQLiteTuning.mmapBytes else {
                throw DatabaseError(message: "mmap_size is \(mmap ?? -1), not \(SQLiteTuning.mmapBytes)")
            }
        }
        queue = q
        return q
    }

    /// Opens the file again, as the timed `open` task does (without the checks' reads).
    func reopen() throws -> DatabaseQueue {
        try close()
        let q = try DatabaseQueue(path: fileURL.path, configuration: configuration)
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

/// SQLite tuned for reads, as both SQLite sides' `-tuned` variants set it on every connection:
/// a memory map and a page cache each larger than any file the benchmark makes (1,000,000
/// people: ~36 MB), beside WAL with `synchronous = FULL`.
enum SQLiteTuning {
    /// `mmap_size`: 1 GiB (below the library's compile-time cap of ~2 GB, checked on open).
    static let mmapBytes = 1 << 30
    static let pragmas = [
        "PRAGMA mmap_size = \(mmapBytes)",
        // Negative: a budget in KiB (1 GiB), not in pages.
        "PRAGMA cache_size = -1048576",
    ]
}
