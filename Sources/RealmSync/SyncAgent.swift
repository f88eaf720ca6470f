import Foundation
import RealmEngine

/// Offline-first sync of one realmtui file through a PostgreSQL server (issue 27).
///
/// `SyncAgent.initialize` records the server in the file and adds the outbox; from then on every
/// local commit queues its changes (`Realm+SyncOutbox`). `runOnce` uploads what is queued, one
/// SQL transaction per local commit, then downloads the server's feed after the stored cursor
/// and applies it in one local write transaction that also stores the cursor.
///
/// Conflicts follow Realm's published rules, decided by the server's order:
/// - deletes win: an update of an object the server has deleted is dropped;
/// - a create of an existing primary key merges into it (its properties overwrite);
/// - per property, the last writer in server order wins (the order of `realmtui_feed.seq`,
///   not a clock: the server is the one place every change passes, and it needs no clock
///   agreement between machines);
/// - a list (set, map) is replaced whole — a documented difference from Realm, which merged
///   list inserts.
/// Downloads wait while local uploads are pending (PowerSync's rule), so a client never resolves
/// a conflict itself: it replays the server's order over a state the server has seen.
///
/// An agent is confined to the thread that made it (it holds a `Realm`).
public final class SyncAgent {
    /// The Realm the agent syncs.
    public let realm: Realm
    /// The server as recorded in the file (never with a password).
    public let server: String
    /// This file's client id on the server.
    public let client: String
    /// The connection; `reconnect()` replaces it after the server dropped it.
    private(set) var db: PostgresConnection
    /// What `init` was given to connect with (nil: the recorded server).
    private let url: String?
    /// The file's path as `init` was given it (for messages).
    private let path: String
    /// The cursor last recorded on the server (`realmtui_clients`); nil before the first run.
    private var acknowledged: Int64?
    /// The `LISTEN/NOTIFY` channel of this server's feed (`SyncAgent.channel(of:)`).
    private(set) var channel: String
    /// Asked between upload batches and download pages: true ends `runOnce` early (the foreground
    /// agent stops after the current batch when interrupted). What was done stays done.
    public var shouldStop: () -> Bool = { false }
    /// Objects per upload batch (one SQL transaction) and feed entries per download page (one
    /// local commit): bounds the memory and the server transaction of a first sync, and what a
    /// kill takes back. A local commit of more objects goes up in several batches.
    public var batchSize = 1000
    /// Told after each batch or page of a transfer longer than one (`Transfer`): a first sync's
    /// progress. Not told for the usual small commits.
    public var onTransfer: ((Transfer) -> Void)?

    /// How far one upload or download of more than one batch has come.
    public struct Transfer: Equatable, Sendable, CustomStringConvertible {
        /// Which way the objects go.
        public enum Direction: Sendable {
            case upload, download
            /// Copying the server's tables (the feed was trimmed past the cursor).
            case copy
        }
        public var direction: Direction
        /// Outbox entries uploaded, or feed entries downloaded and applied, so far.
        public var done: Int
        /// What this run had to do when it started (raised if more came meanwhile).
        public var total: Int
        /// Bytes sent to the server (upload) or received from it (download, copy) by this transfer
        /// so far: statements, parameters and result values.
        public var bytes: Int

        /// A transfer report: `done` of `total` objects or changes, `bytes` moved so far.
        public init(direction: Direction, done: Int, total: Int, bytes: Int) {
            self.direction = direction
            self.done = done
            self.total = total
            self.bytes = bytes
        }

        /// "uploaded 12,000 of 50,000 objects · 3.3 MiB", "downloaded 300 of 1,000 changes · 86.1 KiB".
        public var description: String {
            let counts = "\(Transfer.grouped(done)) of \(Transfer.grouped(total))"
            let moved = " · " + ByteCount.text(bytes)
            return switch direction {
            case .upload: "uploaded \(counts) objects\(moved)"
            case .download: "downloaded \(counts) changes\(moved)"
            case .copy: "copied \(counts) objects from the server\(moved)"
            }
        }

        /// An integer with a comma every three digits, whatever the locale (scripts read it).
        static func grouped(_ n: Int) -> String {
            var digits = Array(String(n.magnitude))
            var index = digits.count - 3
            while index > 0 {
                digits.insert(",", at: index)
                index -= 3
            }
            return (n < 0 ? "-" : "") + String(digits)
        }
    }

    /// What one `runOnce` did.
    public struct Report: Equatable, Sendable {
        /// Batches uploaded (a local commit, or a part of a large one); a retried batch the server
        /// had already is counted too.
        public var uploadedBatches = 0
        /// Outbox entries (changed objects) those batches carried.
        public var uploadedObjects = 0
        /// Batches the server already had (a retry after a lost reply): nothing changed.
        public var duplicateBatches = 0
        /// Feed entries downloaded and applied.
        public var downloadedChanges = 0
        /// Feed entries of this file's own uploads passed over (the file had them already).
        public var ownChanges = 0
        /// Copies of the server's tables made because the feed was trimmed past the cursor.
        public var bootstraps = 0
        /// Objects those copies read.
        public var copiedObjects = 0
        /// The cursor after the run: the last feed entry applied.
        public var cursor: Int64 = 0
    }

    /// Opens the agent for a file that `initialize` set up, connecting to its recorded server
    /// (or `url`, which may carry credentials the file never holds).
    public init(path: String, url: String? = nil) throws {
        realm = try Realm(
            configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), createIfMissing: false))
        guard let state = try SyncAgent.state(of: realm) else {
            throw RealmError.invalidState(
                "\(path) has no sync configured: run 'realmtui sync init \(path) postgres://…' first")
        }
        server = (try state.value(forKey: "server")).stringValue ?? ""
        client = (try state.value(forKey: "client")).stringValue ?? ""
        self.url = url
        self.path = path
        db = try PostgresConnection(url: url ?? server)
        channel = try SyncAgent.channel(of: db)
        try SyncServerSchema.checkUpToDate(db, file: path, server: server)
    }

    /// Replaces the connection with a new one to the same server (after it was lost).
    /// - Throws: `RealmError.server` naming the server when it cannot be reached.
    public func reconnect() throws {
        let fresh = try PostgresConnection(url: url ?? server)
        channel = try SyncAgent.channel(of: fresh)
        try SyncServerSchema.checkUpToDate(fresh, file: path, server: server)
        db = fresh
    }

    /// The channel an upload NOTIFYs (in its SQL transaction, so only once it committed) and the
    /// foreground agent LISTENs on: named by the feed table's object id, because channels are
    /// per database while feeds are per schema (two files' servers may share one database,
    /// each in its own `search_path`).
    static func channel(of db: PostgresConnection) throws -> String {
        guard let oid = try db.execute("SELECT to_regclass('realmtui_feed')::oid").rows.first?.first.flatMap({ $0 })
        else {
            throw RealmError.invalidState(
                "\(db.server) has no sync tables (realmtui_feed) here: run 'realmtui sync init' first")
        }
        return "realmtui_feed_\(oid)"
    }

    /// Sets `path` up for sync with the server at `url`: creates (or checks) the server's tables
    /// for the file's schema, then records the server (without its password) and a new client id
    /// in the file and adds the outbox. Objects already in the file are queued for upload.
    /// Throws naming a class that cannot sync (no primary key) before anything is changed.
    public static func initialize(path: String, url: String) throws {
        let recorded = try serverWithoutPassword(url)
        let opened = try Realm(
            configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), createIfMissing: false))
        if let state = try state(of: opened) {
            let existing = (try state.value(forKey: "server")).stringValue ?? ""
            guard existing == recorded else {
                throw RealmError.invalidState("\(path) already syncs with \(existing); it cannot switch servers yet")
            }
        }
        let schema = opened.schema
        _ = try SyncServerSchema.syncedClasses(schema)
        let db = try PostgresConnection(url: url)
        try SyncServerSchema.prepare(db, schema: schema)
        if let state = try state(of: opened) {
            try register(state, with: db)
            return
        }
        // Adding the two internal classes is a schema change without a migration (classes added).
        var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), createIfMissing: false)
        configuration.schema = Schema(schema.objectSchemas + [SyncClasses.outboxSchema, SyncClasses.stateSchema])
        configuration.schemaVersion = opened.schemaVersion
        let realm = try Realm(configuration: configuration)
        try realm.write {
            // Another process may have finished the same init meanwhile.
            guard try realm.objects(SyncClasses.state).checkedCount() == 0 else { return }
            _ = try realm.create(
                SyncClasses.state,
                [
                    "server": .string(recorded), "client": .string(UUID().uuidString.lowercased()),
                    "cursor": .int(0),
                ])
            // What the file holds already is uploaded as creations of this commit's version.
            for c in try SyncServerSchema.syncedClasses(schema) {
                guard let pk = c.primaryKeyProperty else { continue }
                let names = c.persistedProperties.map { Value.string($0.name) }
                for object in try realm.objects(c.name) {
                    _ = try realm.create(
                        SyncClasses.outbox,
                        [
                            "version": .int(Int64(bitPattern: realm.version)), "className": .string(c.name),
                            "primaryKey": .string(try SyncKeyText.encode(try object.value(forKey: pk.name))),
                            "properties": .list(names), "created": .bool(true), "deleted": .bool(false),
                        ])
                }
            }
        }
        if let state = try state(of: realm) { try register(state, with: db) }
    }

    /// Makes the file's client known to the server (`realmtui_clients`) at the file's cursor, if
    /// it is not known yet: from then on the feed is trimmed by acknowledgement only below what
    /// it has downloaded (`trimAcknowledged`).
    private static func register(_ state: DynamicObject, with db: PostgresConnection) throws {
        let client = try state.value(forKey: "client").stringValue ?? ""
        let cursor = try state.value(forKey: "cursor").intValue ?? 0
        try db.execute(
            "INSERT INTO realmtui_clients (client, cursor) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            [client, String(cursor)])
    }

    /// Records on the server how far this file has downloaded (and when), once the download
    /// committed locally: the server never counts an entry the file could still lose.
    private func acknowledge(_ cursor: Int64) throws {
        try db.execute(
            """
            INSERT INTO realmtui_clients (client, cursor, seen) VALUES ($1, $2, now())
            ON CONFLICT (client) DO UPDATE SET cursor = EXCLUDED.cursor, seen = now()
            """, [client, String(cursor)])
        acknowledged = cursor
    }

    /// The URL without its password (for recording in the file and for messages).
    static func serverWithoutPassword(_ url: String) throws -> String {
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://"), var parts = URLComponents(string: url)
        else {
            throw RealmError.invalidInput("not a PostgreSQL URL (postgres://user@host:port/database): \(redacted(url))")
        }
        parts.password = nil
        var query = parts.queryItems?.filter { $0.name.lowercased() != "password" }
        if query?.isEmpty == true { query = nil }
        parts.queryItems = query
        return parts.string ?? url
    }

    /// `url` with any password replaced by `***`, for an error message about the URL itself.
    static func redacted(_ url: String) -> String {
        guard var parts = URLComponents(string: url) else { return "(unparsable URL)" }
        if parts.password != nil { parts.password = "***" }
        return parts.string ?? "(unparsable URL)"
    }

    /// The file's sync state object, or nil when sync was never set up.
    static func state(of realm: Realm) throws -> DynamicObject? {
        guard realm.isSynced else { return nil }
        return try realm.objects(SyncClasses.state).checkedFirst()
    }

    /// Records now as the last sync in the state object, inside the caller's write transaction
    /// (a file set up before `lastSync` existed has no such property: nothing is recorded).
    static func stampLastSync(_ state: DynamicObject) throws {
        guard state.objectSchema["lastSync"] != nil else { return }
        try state.setValue(.date(try Timestamp(Date())), forKey: "lastSync")
    }

    /// Local commits waiting for upload (outbox entries).
    public func pendingChanges() throws -> Int {
        _ = realm.refresh()
        return try realm.objects(SyncClasses.outbox).checkedCount()
    }

    /// The last feed entry applied locally.
    public func cursor() throws -> Int64 {
        _ = realm.refresh()
        return try SyncAgent.state(of: realm).flatMap { try $0.value(forKey: "cursor").intValue } ?? 0
    }

    /// Uploads every pending local commit, then downloads and applies the server's changes until
    /// caught up. Downloads are skipped when a local commit arrived meanwhile (uploads first).
    @discardableResult
    public func runOnce() throws -> Report {
        var report = Report()
        try upload(&report)
        try download(&report)
        report.cursor = try cursor()
        if acknowledged != report.cursor { try acknowledge(report.cursor) }
        return report
    }
}

extension Realm {
    /// Whether the file has sync configured (its schema holds the outbox).
    var isSynced: Bool { (try? objects(SyncClasses.state)) != nil }
}

extension Value {
    var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    var intValue: Int64? { if case .int(let v) = self { v } else { nil } }
}

/// What `realmtui sync status` prints, read from the file alone (no connection).
public struct SyncStatus: Sendable {
    /// The recorded server (no password).
    public var server: String
    /// This file's client id.
    public var client: String
    /// Outbox entries waiting for upload.
    public var pending: Int
    /// The last feed entry applied.
    public var cursor: Int64
    /// When changes last went up or came down (nil: never).
    public var lastSync: Timestamp?
}

extension SyncAgent {
    /// The sync status of `path`, without connecting (opened read-only).
    public static func status(path: String) throws -> SyncStatus {
        let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), readOnly: true))
        guard let state = try state(of: realm) else {
            throw RealmError.invalidState(
                "\(path) has no sync configured: run 'realmtui sync init \(path) postgres://…' first")
        }
        return SyncStatus(
            server: try state.value(forKey: "server").stringValue ?? "",
            client: try state.value(forKey: "client").stringValue ?? "",
            pending: try realm.objects(SyncClasses.outbox).checkedCount(),
            cursor: try state.value(forKey: "cursor").intValue ?? 0,
            lastSync: try SyncIndicator.read(realm)?.lastSync)
    }
}
