import Foundation
import RealmEngine

/// Uploading the outbox: one SQL transaction per local commit (a batch), oldest first.
extension SyncAgent {
    /// One outbox entry with the values to send (read from the file now: a later commit of the
    /// same object has its own entry, so the newest value travels either way).
    struct Change {
        var className: String
        var primaryKey: JSONValue
        var created: Bool
        var deleted: Bool
        /// The primary key and the changed properties, in the codec's form.
        var props: [JSONMember]
        /// Names of the changed properties other than the primary key.
        var changed: [String]
    }

    /// Uploads the outbox oldest commit first, each commit in batches of at most `batchSize`
    /// entries, one SQL transaction per batch; each batch leaves the outbox in one local commit
    /// once the server has it.
    ///
    /// A batch is known on the server by (client, commit's version, key of its first entry),
    /// entries taken in key order: a retry after a lost reply finds the batch's entries still in
    /// the outbox, in the same order, so it forms the same batch under the same name and the
    /// server recognises it; a batch that did leave the outbox is never formed again.
    ///
    /// The local commit that clears a batch also records the feed numbers the server gave it
    /// (`state.uploaded`), so the download can pass over these entries: the file has them already.
    func upload(_ report: inout Report) throws {
        _ = realm.refresh()
        // What this file had downloaded before these changes went up: the feed entries of other
        // clients after it may have been applied over them here (see `SyncDownload`).
        let base = try SyncAgent.state(of: realm).flatMap { try $0.value(forKey: "cursor").intValue } ?? 0
        let outbox = try realm.objects(SyncClasses.outbox).sorted(byKeyPath: "version")
        let total = try outbox.checkedCount()
        var versions: [Int64] = []
        for entry in outbox {
            if let v = try entry.value(forKey: "version").intValue, versions.last != v { versions.append(v) }
        }
        let size = max(1, batchSize)
        var done = 0
        let sentBefore = db.bytesSent
        for version in versions {
            // A commit that deleted an object and created another with its primary key queues the
            // creation first (the engine queues insertions before deletions): sent in that order
            // the server would end without the object. Deletions first, then the rest, each in key
            // order: the same order again on a retry.
            let all = try realm.objects(SyncClasses.outbox).filter("version == %@", .int(version)).map { entry in
                (deleted: try entry.value(forKey: "deleted") == .bool(true), entry: entry)
            }.sorted { ($0.deleted ? 0 : 1, $0.entry.key) < ($1.deleted ? 0 : 1, $1.entry.key) }.map(\.entry)
            for start in stride(from: 0, to: all.count, by: size) {
                if shouldStop() { return }
                let entries = Array(all[start..<min(start + size, all.count)])
                let changes = try entries.compactMap(change)
                let sent = try db.transaction {
                    let sent = try send(changes, version: version, part: entries[0].key.rawValue, base: base)
                    SyncAgent.dieIfAsked(at: "before-commit")
                    return sent
                }
                SyncAgent.dieIfAsked(at: "after-commit")
                report.uploadedBatches += 1
                report.uploadedObjects += entries.count
                if case .duplicate = sent { report.duplicateBatches += 1 }
                // The batch is on the server: take it out of the outbox (the outbox's own changes
                // are never queued).
                try realm.write {
                    for entry in entries where !entry.isInvalidated { try realm.delete(entry) }
                    guard let state = try SyncAgent.state(of: realm) else { return }
                    try SyncAgent.stampLastSync(state)
                    if case .applied(let feed?) = sent { try SyncAgent.recordUploaded(feed, in: state) }
                }
                done += entries.count
                if total > size {
                    onTransfer?(
                        Transfer(direction: .upload, done: done, total: total, bytes: db.bytesSent - sentBefore))
                }
            }
        }
    }

    /// The change an outbox entry stands for, nil when its object is gone meanwhile (its deletion
    /// is a later entry).
    private func change(_ entry: DynamicObject) throws -> Change? {
        guard let className = try entry.value(forKey: "className").stringValue,
            let keyText = try entry.value(forKey: "primaryKey").stringValue,
            case .bool(let created) = try entry.value(forKey: "created"),
            case .bool(let deleted) = try entry.value(forKey: "deleted"),
            case .list(let nameValues) = try entry.value(forKey: "properties")
        else {
            throw RealmError.invalidState("\(realm.path): a sync outbox entry is incomplete")
        }
        guard let objectSchema = realm.schema[className], let pk = objectSchema.primaryKeyProperty else {
            throw RealmError.invalidState(
                "\(realm.path): the sync outbox names class \(className), which has no primary key here")
        }
        let primaryKey = try JSONParser.parse(keyText)
        var change = Change(
            className: className, primaryKey: primaryKey, created: created, deleted: deleted,
            props: [JSONMember(pk.name, primaryKey)], changed: [])
        if deleted { return change }
        let key = try SyncCodec.decode(primaryKey, pk, in: realm)
        guard let object = try realm.object(ofType: className, forPrimaryKey: key) else { return nil }
        for case .string(let name) in nameValues where name != pk.name {
            guard let property = objectSchema[name] else { continue }
            change.props.append(
                JSONMember(name, try SyncCodec.encode(try object.value(forKey: name), property, in: realm)))
            change.changed.append(name)
        }
        return change
    }

    /// Applies one batch on the server and appends what it changed to the feed, in a constant
    /// number of statements whatever the batch's size (`SyncBatchStatements`). Runs inside the
    /// caller's SQL transaction.
    private func send(_ changes: [Change], version: Int64, part: Int64, base: Int64) throws -> SentBatch {
        // The counter's row lock first: it orders this transaction's feed numbers after every
        // committed one (SyncServerSchema), and makes the duplicate check below race-free.
        let last = try SyncServerSchema.lastFeedNumber(db, lockingIt: true)
        let inserted = try db.execute(
            "INSERT INTO realmtui_batches (client, version, part) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            [client, String(version), String(part)])
        guard inserted.affected == 1 else { return .duplicate }
        let applied = try SyncBatchStatements(db: db, schema: realm.schema).apply(changes)
        // The feed in the batch's order, numbered on from the counter.
        var feed: [JSONValue] = []
        for (c, isApplied) in zip(changes, applied) where isApplied {
            feed.append(
                .object([
                    JSONMember("seq", .integer(last + Int64(feed.count) + 1)),
                    JSONMember("class", .string(c.className)),
                    JSONMember("pk", c.primaryKey), JSONMember("deleted", .bool(c.deleted)),
                    JSONMember("props", c.deleted ? .object([]) : .object(c.props)),
                ]))
        }
        let newLast = last + Int64(feed.count)
        // The feed rows, the counter and the wake-up for listening agents in one statement. The
        // notification is delivered when this transaction commits, never before, so a woken agent
        // finds the entries; its payload names this client, which ignores it.
        try db.execute(
            """
            WITH feed AS (
                INSERT INTO realmtui_feed (seq, client, version, class, pk, deleted, props, base)
                SELECT f.seq, $1::text, $2::bigint, f.class, f.pk, f.deleted, f.props, $3::bigint
                FROM jsonb_to_recordset($4::jsonb) AS f(seq bigint, class text, pk jsonb, deleted boolean, props jsonb)
            ), counter AS (
                UPDATE realmtui_counter SET last = $5 WHERE id = 1
            )
            SELECT pg_notify($6, $1::text)
            """, [client, String(version), String(base), SyncCodec.text(.array(feed)), String(newLast), channel])
        return .applied(feed: feed.isEmpty ? nil : (last + 1)...newLast)
    }

    /// What the server did with one batch.
    enum SentBatch {
        /// It had the batch already (a retry after a lost reply): nothing changed.
        case duplicate
        /// Applied; the feed numbers its changes took (nil when it changed nothing: updates of
        /// objects the server deleted).
        case applied(feed: ClosedRange<Int64>?)
    }

    /// Adds the feed numbers of a batch this file uploaded to `state.uploaded` (pairs of first
    /// and last), inside the caller's write transaction; numbers the cursor has passed already
    /// (another process of this file downloaded them) are not kept. A file set up before the
    /// property existed records nothing (its own entries are then applied again, as before).
    static func recordUploaded(_ feed: ClosedRange<Int64>, in state: DynamicObject) throws {
        guard state.objectSchema["uploaded"] != nil, let cursor = try state.value(forKey: "cursor").intValue,
            feed.upperBound > cursor, case .list(let pairs) = try state.value(forKey: "uploaded")
        else { return }
        try state.setValue(.list(pairs + [.int(feed.lowerBound), .int(feed.upperBound)]), forKey: "uploaded")
    }

    /// The feed numbers recorded by `recordUploaded` (empty for a file without the property).
    static func uploadedRanges(in state: DynamicObject) throws -> [ClosedRange<Int64>] {
        guard state.objectSchema["uploaded"] != nil, case .list(let values) = try state.value(forKey: "uploaded") else {
            return []
        }
        let numbers = values.compactMap(\.intValue)
        return stride(from: 0, to: numbers.count - 1, by: 2).compactMap { i in
            numbers[i] <= numbers[i + 1] ? numbers[i]...numbers[i + 1] : nil
        }
    }
}

/// Tests only: `REALMTUI_SYNC_KILL_AT=before-commit` (the batch sent, its SQL transaction not
/// committed), `after-commit` (committed on the server, the outbox not yet cleared: a reply
/// that never arrived) or `before-download-commit` (downloaded changes applied, the local commit
/// not made) ends the process with SIGKILL right there, as `kill -9` would, so the kill tests
/// need no timing. `POINT#N` kills the Nth time the process reaches the point (a later batch
/// of a first sync). Unset, it costs one environment read per batch or page.
extension SyncAgent {
    static func dieIfAsked(at point: String) {
        guard let asked = getenv("REALMTUI_SYNC_KILL_AT") else { return }
        let parts = String(cString: asked).split(separator: "#", maxSplits: 1)
        guard parts.first.map(String.init) == point else { return }
        let wanted = parts.count == 2 ? Int(parts[1]) ?? 1 : 1
        if KillCount.shared.reached(point) == wanted { kill(getpid(), SIGKILL) }
    }
}

/// How often each kill point was reached (tests only, see `dieIfAsked`).
private final class KillCount: @unchecked Sendable {
    static let shared = KillCount()
    // Guarded by `lock`.
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    /// Counts one more arrival at `point` and returns the count.
    func reached(_ point: String) -> Int {
        lock.withLock {
            counts[point, default: 0] += 1
            return counts[point, default: 0]
        }
    }
}
