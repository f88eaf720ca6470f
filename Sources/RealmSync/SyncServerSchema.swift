import Foundation
import RealmEngine

/// The server's tables for one file's schema: one table per class, keyed by the primary key,
/// a column per persisted property (`SyncCodec` says which type), and three tables of our own:
///
/// - `realmtui_feed (seq, client, version, class, pk, deleted, props, base)`: the ordered change
///   feed. Every applied change gets the next `seq`; clients download `seq > cursor` in order.
///   `base` is the uploading file's cursor when it uploaded (see `SyncDownload`).
/// - `realmtui_counter (id = 1, last)`: the feed's one counter row. An upload takes its row lock
///   (`SELECT … FOR UPDATE`) before it hands out a number and keeps it until it commits, so
///   numbers are handed out in commit order: when a reader sees `seq` N committed, every smaller
///   number was committed before N's transaction could even start numbering. A `bigserial` would
///   not do: two uploads can take 7 and 8 and commit 8 first, and a client that read 8 with its
///   cursor would skip 7 forever. The price is that uploads to one server serialize (one short
///   transaction each), which PostgreSQL does thousands of times a second.
/// - `realmtui_batches (client, version, part)`: one row per uploaded batch (a local commit, or
///   a part of a large one named by its first outbox entry's key), the primary key making a
///   retried batch (its reply lost) change nothing.
/// - `realmtui_clients (client, cursor, seen)`: every client known to the server (from its
///   `sync init` on) and how far it has downloaded (its cursor, recorded after each download
///   commits locally, with the time): `sync trim --acknowledged` deletes only the feed entries
///   every known client has (`SyncTrim`).
enum SyncServerSchema {
    /// Prefix of the server tables of our own; no class may use it.
    static let reservedPrefix = "realmtui_"

    /// The last feed number the counter handed out. `lockingIt`: with the counter's row lock
    /// (`FOR UPDATE`), which orders an upload's feed numbers after every committed one. Throws
    /// when the counter row is missing (a server set up by hand, or damaged).
    static func lastFeedNumber(_ db: PostgresConnection, lockingIt: Bool = false) throws -> Int64 {
        let query = "SELECT last FROM realmtui_counter WHERE id = 1" + (lockingIt ? " FOR UPDATE" : "")
        guard let last = try db.execute(query).rows.first?.first.flatMap({ $0 }).flatMap({ Int64($0) }) else {
            throw RealmError.invalidState(
                "\(db.server): the sync feed's counter is missing; run 'realmtui sync init' again")
        }
        return last
    }

    /// The columns of our own tables that servers set up by older versions lack, as
    /// (table, column): `prepare` adds each, and an agent refuses a server without one.
    static let upgradedColumns = [
        ("realmtui_feed", "base"), ("realmtui_batches", "part"), ("realmtui_clients", "cursor"),
        ("realmtui_clients", "seen"),
    ]

    /// Throws naming the fix — `realmtui sync init FILE URL` again, which upgrades the tables —
    /// when the server's tables lack a column this version needs (`upgradedColumns`): an older
    /// realmtui set them up. Without the check the agent would fail on PostgreSQL's "column …
    /// does not exist" in the middle of an upload or download.
    static func checkUpToDate(_ db: PostgresConnection, file: String, server: String) throws {
        let wanted = upgradedColumns.map { "('\($0.0)', '\($0.1)')" }.joined(separator: ", ")
        let missing = try db.execute(
            """
            SELECT w.t || '.' || w.c FROM (VALUES \(wanted)) AS w(t, c)
            WHERE NOT EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = to_regclass(w.t) AND a.attname = w.c
                              AND NOT a.attisdropped)
            """
        ).rows.compactMap { $0.first.flatMap { $0 } }
        guard missing.isEmpty else {
            throw RealmError.schemaMismatch(
                "\(db.server): the sync tables were set up by an older realmtui (no column "
                    + missing.joined(separator: ", ")
                    + "); run 'realmtui sync init \(file) \(server)' again to upgrade them")
        }
    }

    /// A quoted SQL identifier.
    static func identifier(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// The classes that sync: every class but the engine's internal ones. Throws naming a class
    /// that cannot sync (no primary key, embedded, a reserved name, a Mixed or link to such).
    static func syncedClasses(_ schema: Schema) throws -> [ObjectSchema] {
        let classes = schema.objectSchemas.filter { !SyncClasses.isInternal($0.name) }
        for c in classes {
            if c.name.hasPrefix(reservedPrefix) {
                throw RealmError.notSyncable(
                    "class \(c.name) cannot be synced: names starting with '\(reservedPrefix)' are the sync server's own tables"
                )
            }
            if c.isEmbedded {
                throw RealmError.notSyncable(
                    "class \(c.name) is embedded, and embedded objects cannot be synced yet (they have no primary key)")
            }
            if c.primaryKeyProperty == nil {
                throw RealmError.notSyncable(
                    "class \(c.name) has no primary key, so it cannot be synced: objects are matched across files by their primary key"
                )
            }
        }
        return classes
    }

    /// The column type of a property (see `SyncCodec`).
    static func columnType(_ p: Property, schema: Schema) throws -> String {
        if p.isCollection || p.type == .mixed { return "jsonb" }
        switch p.type {
        case .bool: return "boolean"
        case .int, .int8, .int16, .int32: return "bigint"
        case .float: return "real"
        case .double: return "double precision"
        case .string, .objectId, .decimal128: return "text"
        case .date: return "numeric"
        case .data: return "bytea"
        case .uuid: return "uuid"
        case .object:
            guard let target = p.objectClassName.flatMap({ schema[$0] }), let pk = target.primaryKeyProperty else {
                throw RealmError.notSyncable(
                    "\(p.name) links to \(p.objectClassName ?? "?"), which has no primary key, so it cannot be synced")
            }
            return try columnType(pk, schema: schema)
        case .mixed, .linkingObjects:
            throw RealmError.internalError("no column for \(p.name)")
        }
    }

    /// Creates the tables the schema needs, or checks that existing ones match it (each class
    /// table's columns by name and type). One SQL transaction.
    static func prepare(_ db: PostgresConnection, schema: Schema) throws {
        let classes = try syncedClasses(schema)
        try db.transaction {
            try db.execute(
                """
                CREATE TABLE IF NOT EXISTS realmtui_counter (id int PRIMARY KEY CHECK (id = 1), last bigint NOT NULL)
                """)
            try db.execute("INSERT INTO realmtui_counter VALUES (1, 0) ON CONFLICT DO NOTHING")
            try db.execute(
                """
                CREATE TABLE IF NOT EXISTS realmtui_feed (seq bigint PRIMARY KEY, client text NOT NULL, version bigint NOT NULL,
                    class text NOT NULL, pk jsonb NOT NULL, deleted boolean NOT NULL, props jsonb NOT NULL)
                """)
            try db.execute(
                """
                CREATE TABLE IF NOT EXISTS realmtui_batches (client text NOT NULL, version bigint NOT NULL, part bigint NOT NULL,
                    PRIMARY KEY (client, version, part))
                """)
            // Which clients have downloaded how far (SyncTrim). On a server set up before the
            // table, every client that ever uploaded is known at cursor 0: it holds the feed
            // until it downloads (or is forgotten), as it may not have seen what it lacks.
            let hadClients = try db.execute("SELECT to_regclass('realmtui_clients') IS NOT NULL").rows == [["t"]]
            try db.execute(
                """
                CREATE TABLE IF NOT EXISTS realmtui_clients (client text PRIMARY KEY, cursor bigint NOT NULL,
                    seen timestamptz NOT NULL DEFAULT now())
                """)
            if !hadClients {
                try db.execute(
                    """
                    INSERT INTO realmtui_clients (client, cursor) SELECT DISTINCT client, 0 FROM realmtui_batches
                    ON CONFLICT DO NOTHING
                    """)
            }
            // A server set up before the download passed over a client's own entries: the
            // cursor its uploader had (see SyncDownload), and the index that finds the entries
            // of one object.
            try db.execute("ALTER TABLE realmtui_feed ADD COLUMN IF NOT EXISTS base bigint")
            try db.execute("CREATE INDEX IF NOT EXISTS realmtui_feed_object ON realmtui_feed (class, pk, seq)")
            // A server set up before commits went up in parts: one more key column.
            try db.execute(
                """
                DO $$ BEGIN
                    IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'realmtui_batches'::regclass AND attname = 'part') THEN
                        ALTER TABLE realmtui_batches ADD COLUMN part bigint NOT NULL DEFAULT 0,
                            DROP CONSTRAINT realmtui_batches_pkey, ADD PRIMARY KEY (client, version, part);
                    END IF;
                END $$
                """)
            for c in classes {
                let wanted = try c.persistedProperties.map { ($0.name, try columnType($0, schema: schema)) }
                let existing = try db.execute(
                    """
                    SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
                    WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum
                    """, [identifier(c.name)]
                ).rows
                if existing.isEmpty {
                    guard let pk = c.primaryKeyProperty else { continue }
                    let columns = wanted.map { "\(identifier($0.0)) \($0.1)" }.joined(separator: ", ")
                    try db.execute(
                        "CREATE TABLE \(identifier(c.name)) (\(columns), PRIMARY KEY (\(identifier(pk.name))))")
                    continue
                }
                let have = existing.map { ($0[0] ?? "", $0[1] ?? "") }
                guard have.count == wanted.count, zip(have, wanted).allSatisfy({ $0.0 == $1.0 && $0.1 == $1.1 }) else {
                    let haveText = have.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
                    let wantText = wanted.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
                    throw RealmError.schemaMismatch(
                        "\(db.server): table \(c.name) has columns (\(haveText)); the file's class needs (\(wantText))")
                }
            }
        }
    }
}
