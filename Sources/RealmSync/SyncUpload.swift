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
    func upload(_ report: inout Report) throws {
        _ = realm.refresh()
        let outbox = try realm.objects(SyncClasses.outbox).sorted(byKeyPath: "version")
        let total = try outbox.checkedCount()
        var versions: [Int64] = []
        for entry in outbox {
            if let v = try entry.value(forKey: "version").intValue, versions.last != v { versions.append(v) }
        }
        let size = max(1, batchSize)
        var done = 0
        for version in versions {
            let all = Array(try realm.objects(SyncClasses.outbox).filter("version == %@", .int(version))).sorted { $0.key < $1.key }
            for start in stride(from: 0, to: all.count, by: size) {
                if shouldStop() { return }
                let entries = Array(all[start..<min(start + size, all.count)])
                let changes = try entries.compactMap(change)
                let applied = try db.transaction {
                    let applied = try send(changes, version: version, part: entries[0].key.rawValue)
                    SyncAgent.dieIfAsked(at: "before-commit")
                    return applied
                }
                SyncAgent.dieIfAsked(at: "after-commit")
                report.uploadedBatches += 1
                report.uploadedObjects += entries.count
                if !applied { report.duplicateBatches += 1 }
                // The batch is on the server: take it out of the outbox (the outbox's own changes
                // are never queued).
                try realm.write {
                    for entry in entries where !entry.isInvalidated { try realm.delete(entry) }
                    if let state = try SyncAgent.state(of: realm) { try SyncAgent.stampLastSync(state) }
                }
                done += entries.count
                if total > size { onTransfer?(Transfer(direction: .upload, done: done, total: total)) }
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
              case .list(let nameValues) = try entry.value(forKey: "properties") else {
            throw RealmError.invalidState("\(realm.path): a sync outbox entry is incomplete")
        }
        guard let objectSchema = realm.schema[className], let pk = objectSchema.primaryKeyProperty else {
            throw RealmError.invalidState("\(realm.path): the sync outbox names class \(className), which has no primary key here")
        }
        let primaryKey = try JSONParser.parse(keyText)
        var change = Change(className: className, primaryKey: primaryKey, created: created, deleted: deleted,
                            props: [JSONMember(pk.name, primaryKey)], changed: [])
        if deleted { return change }
        let key = try SyncCodec.decode(primaryKey, pk, in: realm)
        guard let object = try realm.object(ofType: className, forPrimaryKey: key) else { return nil }
        for case .string(let name) in nameValues where name != pk.name {
            guard let property = objectSchema[name] else { continue }
            change.props.append(JSONMember(name, try SyncCodec.encode(try object.value(forKey: name), property, in: realm)))
            change.changed.append(name)
        }
        return change
    }

    /// Applies one batch on the server and appends what it changed to the feed; false when the
    /// server had the batch already (nothing changed). Runs inside the caller's SQL transaction.
    private func send(_ changes: [Change], version: Int64, part: Int64) throws -> Bool {
        // The counter's row lock first: it orders this transaction's feed numbers after every
        // committed one (SyncServerSchema), and makes the duplicate check below race-free.
        guard let lastText = try db.execute("SELECT last FROM realmtui_counter WHERE id = 1 FOR UPDATE").rows.first?.first,
              var last = lastText.flatMap({ Int64($0) }) else {
            throw RealmError.invalidState("\(db.server): the sync feed's counter is missing; run 'realmtui sync init' again")
        }
        let inserted = try db.execute("INSERT INTO realmtui_batches (client, version, part) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                                      [client, String(version), String(part)])
        guard inserted.affected == 1 else { return false }
        for c in changes {
            guard let objectSchema = realm.schema[c.className], let pk = objectSchema.primaryKeyProperty else { continue }
            let table = SyncServerSchema.identifier(c.className)
            let key = SyncServerSchema.identifier(pk.name)
            let row = SyncCodec.text(.object(c.props))
            let appliedProps: String
            if c.deleted {
                let result = try db.execute("DELETE FROM \(table) WHERE \(key) = (jsonb_populate_record(NULL::\(table), $1::jsonb)).\(key)", [row])
                guard result.affected > 0 else { continue }
                appliedProps = "{}"
            } else if c.created {
                // Create/create of one primary key merges: the later create's properties win.
                let columns = c.changed.map(SyncServerSchema.identifier)
                let onConflict = columns.isEmpty
                    ? "DO NOTHING" : "DO UPDATE SET " + columns.map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", ")
                try db.execute("INSERT INTO \(table) SELECT * FROM jsonb_populate_record(NULL::\(table), $1::jsonb) ON CONFLICT (\(key)) \(onConflict)",
                               [row])
                appliedProps = row
            } else {
                guard !c.changed.isEmpty else { continue }
                let sets = c.changed.map(SyncServerSchema.identifier).map { "\($0) = r.\($0)" }.joined(separator: ", ")
                let result = try db.execute("UPDATE \(table) AS t SET \(sets) FROM jsonb_populate_record(NULL::\(table), $1::jsonb) AS r WHERE t.\(key) = r.\(key)",
                                            [row])
                // Deletes win: an update of an object the server deleted is dropped.
                guard result.affected > 0 else { continue }
                appliedProps = row
            }
            last += 1
            try db.execute("INSERT INTO realmtui_feed VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7::jsonb)",
                           [String(last), client, String(version), c.className, SyncCodec.text(c.primaryKey),
                            c.deleted ? "true" : "false", appliedProps])
        }
        try db.execute("UPDATE realmtui_counter SET last = $1 WHERE id = 1", [String(last)])
        // The wake-up for listening agents: delivered when this transaction commits, never before,
        // so a woken agent finds the entries. The payload names this client, which ignores it.
        try db.execute("SELECT pg_notify($1, $2)", [channel, client])
        return true
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
