import Foundation
import RealmEngine

/// Downloading the feed: entries after the stored cursor, applied in server order in one local
/// write transaction that also stores the cursor — so observers, `watch` and the explorer see
/// them as one ordinary commit — and that queues nothing in the outbox (they came from there).
extension SyncAgent {
    struct FeedEntry {
        var seq: Int64
        var className: String
        var primaryKey: JSONValue
        var deleted: Bool
        var props: [JSONMember]
    }

    /// Downloads the feed after the cursor in pages of `batchSize` entries, each applied in one
    /// local commit with the cursor (a kill keeps every page applied before it).
    func download(_ report: inout Report) throws {
        let size = max(1, batchSize)
        // The feed's numbers are dense (SyncServerSchema), so the counter says how many entries
        // wait; for the progress only.
        let last = try db.execute("SELECT last FROM realmtui_counter WHERE id = 1").rows.first?.first.flatMap { $0 }.flatMap { Int64($0) } ?? 0
        var total = max(0, Int(last - (try self.cursor())))
        var done = 0
        while !shouldStop() {
            let cursor = try self.cursor()
            let rows = try db.execute("""
                SELECT seq, class, pk::text, deleted, props::text FROM realmtui_feed WHERE seq > $1 ORDER BY seq LIMIT $2
                """, [String(cursor), String(size)]).rows
            // Feed numbers are dense: an entry after the cursor other than the next one, or none
            // while the counter is past the cursor, means the server trimmed what this file has
            // not seen. Only a copy of the tables can catch up.
            let next = rows.first?.first.flatMap { $0 }.flatMap { Int64($0) }
            if next.map({ $0 != cursor + 1 }) ?? (cursor < last) {
                try rebootstrap(&report)
                return
            }
            guard !rows.isEmpty else { return }
            let entries = try rows.map { row -> FeedEntry in
                guard row.count == 5, let seq = row[0].flatMap({ Int64($0) }), let className = row[1], let pk = row[2],
                      let deleted = row[3], let props = row[4], let members = try JSONParser.parse(props).objectMembers else {
                    throw RealmError.invalidInput("\(db.server): a malformed row in realmtui_feed")
                }
                return FeedEntry(seq: seq, className: className, primaryKey: try JSONParser.parse(pk), deleted: deleted == "t", props: members)
            }
            guard try apply(entries, after: cursor) else { return }
            report.downloadedChanges += entries.count
            done += entries.count
            total = max(total, done)
            if total > size { onTransfer?(Transfer(direction: .download, done: done, total: total)) }
            if rows.count < size { return }
        }
    }

    /// Applies `entries` in one write transaction; false (nothing applied) when local changes
    /// wait for upload or another agent moved the cursor meanwhile.
    private func apply(_ entries: [FeedEntry], after cursor: Int64) throws -> Bool {
        realm.queuesToOutbox = false
        defer { realm.queuesToOutbox = true }
        try realm.beginWrite()
        do {
            // Under the write lock no local commit can slip in: wait for uploads first
            // (PowerSync's rule), so this replays the server's order over a state it has seen.
            guard try realm.objects(SyncClasses.outbox).checkedCount() == 0,
                  let state = try SyncAgent.state(of: realm), try state.value(forKey: "cursor").intValue == cursor else {
                realm.cancelWrite()
                return false
            }
            // Links last: a link may name an object a later entry of this page creates.
            for entry in entries { try applyValues(entry, links: false) }
            for entry in entries where !entry.deleted { try applyValues(entry, links: true) }
            if let last = entries.last { try state.setValue(.int(last.seq), forKey: "cursor") }
            try SyncAgent.stampLastSync(state)
            SyncAgent.dieIfAsked(at: "before-download-commit")
            try realm.commitWrite()
            return true
        } catch {
            realm.cancelWrite()
            throw error
        }
    }

    /// One entry's deletion, or its non-link (`links` false) or link properties.
    func applyValues(_ entry: FeedEntry, links: Bool) throws {
        guard let objectSchema = realm.schema[entry.className], let pk = objectSchema.primaryKeyProperty else {
            throw RealmError.schemaMismatch("\(db.server): the feed names class \(entry.className), which this file has no synced class for")
        }
        let key = try SyncCodec.decode(entry.primaryKey, pk, in: realm)
        let existing = try realm.object(ofType: entry.className, forPrimaryKey: key)
        if entry.deleted {
            if let existing { try realm.delete(existing) }
            return
        }
        if existing == nil && !links {
            // The server updates only rows it has, so an entry for an object this file lacks is
            // either its creation (every property) or an update of an object this file deleted,
            // whose deletion is a later entry of the feed (downloads wait for uploads). The
            // update's few properties cannot make the object, and the object must not return.
            let carried = Set(entry.props.map(\.key))
            guard objectSchema.persistedProperties.allSatisfy({ carried.contains($0.name) }) else { return }
        }
        var values: [String: Value] = [:]
        for member in entry.props where member.key != pk.name {
            guard let property = objectSchema[member.key], property.isPersisted else {
                throw RealmError.schemaMismatch("\(db.server): the feed sets \(entry.className).\(member.key), which this file does not have")
            }
            guard (property.type == .object) == links else { continue }
            values[member.key] = try SyncCodec.decode(member.value, property, in: realm)
        }
        if links {
            guard let existing else { return }  // deleted by a later entry of this page
            for (name, value) in values { try existing.setValue(value, forKey: name) }
        } else if existing == nil || !values.isEmpty {
            values[pk.name] = key
            _ = try realm.create(entry.className, values, update: .modified)
        }
    }
}
