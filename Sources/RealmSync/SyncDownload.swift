import Foundation
import RealmEngine

/// Downloading the feed: entries after the stored cursor, applied in server order in one local
/// write transaction that also stores the cursor — so observers, `watch` and the explorer see
/// them as one ordinary commit — and that queues nothing in the outbox (they came from there).
///
/// This file's own uploads come back in the feed too. An own entry is passed over (the cursor
/// moves past it, nothing is applied) when the file has it already: its numbers are in the
/// file's `uploaded` record (so a copy of the file, which shares the client id, still applies
/// them), and no other client's entry for the same object lies between the cursor the file had
/// when it uploaded (`base`) and the entry. Such an entry may have been applied here after the
/// local change (it came down later), so the own entry is applied again to restore the
/// server's order: per property the last writer in the feed wins here as on the server. When
/// the feed was trimmed above `base` the server cannot tell, and the entry is applied.
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
        let last =
            try db.execute("SELECT last FROM realmtui_counter WHERE id = 1").rows.first?.first.flatMap { $0 }.flatMap {
                Int64($0)
            } ?? 0
        var total = max(0, Int(last - (try self.cursor())))
        var done = 0
        let receivedBefore = db.bytesReceived
        while !shouldStop() {
            let cursor = try self.cursor()
            let own = try SyncAgent.state(of: realm).map(SyncAgent.uploadedRanges) ?? []
            // `own`: an entry of this file's uploads it has already (see above); its properties
            // stay on the server.
            let rows = try db.execute(
                """
                SELECT seq, class, pk::text, deleted, CASE WHEN own THEN NULL ELSE props::text END, own
                FROM (SELECT f.*, (f.client = $3 AND f.base IS NOT NULL
                        AND EXISTS (SELECT 1 FROM unnest($4::bigint[], $5::bigint[]) AS u(first, last) WHERE f.seq BETWEEN u.first AND u.last)
                        AND f.base >= (SELECT min(seq) FROM realmtui_feed) - 1
                        AND NOT EXISTS (SELECT 1 FROM realmtui_feed o WHERE o.class = f.class AND o.pk = f.pk
                                        AND o.seq > f.base AND o.seq < f.seq AND o.client <> f.client)) AS own
                      FROM realmtui_feed f WHERE f.seq > $1 ORDER BY f.seq LIMIT $2) AS page
                ORDER BY seq
                """,
                [
                    String(cursor), String(size), client, SyncAgent.arrayLiteral(own.map(\.lowerBound)),
                    SyncAgent.arrayLiteral(own.map(\.upperBound)),
                ]
            ).rows
            // Feed numbers are dense: an entry after the cursor other than the next one, or none
            // while the counter is past the cursor, means the server trimmed what this file has
            // not seen. Only a copy of the tables can catch up.
            let next = rows.first?.first.flatMap { $0 }.flatMap { Int64($0) }
            if next.map({ $0 != cursor + 1 }) ?? (cursor < last) {
                try rebootstrap(&report)
                return
            }
            guard let through = rows.last?.first.flatMap({ $0 }).flatMap({ Int64($0) }) else { return }
            var entries: [FeedEntry] = []
            for row in rows {
                guard row.count == 6, let seq = row[0].flatMap({ Int64($0) }), let className = row[1], let pk = row[2],
                    let deleted = row[3], let skip = row[5]
                else {
                    throw RealmError.invalidInput("\(db.server): a malformed row in realmtui_feed")
                }
                if skip == "t" { continue }
                guard let props = row[4], let members = try JSONParser.parse(props).objectMembers else {
                    throw RealmError.invalidInput("\(db.server): a malformed row in realmtui_feed")
                }
                entries.append(
                    FeedEntry(
                        seq: seq, className: className, primaryKey: try JSONParser.parse(pk), deleted: deleted == "t",
                        props: members))
            }
            guard try apply(entries, after: cursor, through: through) else { return }
            report.downloadedChanges += entries.count
            report.ownChanges += rows.count - entries.count
            done += rows.count
            total = max(total, done)
            if total > size {
                onTransfer?(
                    Transfer(direction: .download, done: done, total: total, bytes: db.bytesReceived - receivedBefore))
            }
            if rows.count < size { return }
        }
    }

    /// A PostgreSQL array literal of integers (`{1,2}`), for a `bigint[]` parameter.
    static func arrayLiteral(_ numbers: [Int64]) -> String {
        "{" + numbers.map(String.init).joined(separator: ",") + "}"
    }

    /// Applies `entries` in one write transaction with the cursor set to `through` (the last
    /// feed number of the page, own entries passed over included); false (nothing applied) when
    /// local changes wait for upload or another agent moved the cursor meanwhile.
    private func apply(_ entries: [FeedEntry], after cursor: Int64, through: Int64) throws -> Bool {
        realm.queuesToOutbox = false
        defer { realm.queuesToOutbox = true }
        try realm.beginWrite()
        do {
            // Under the write lock no local commit can slip in: wait for uploads first
            // (PowerSync's rule), so this replays the server's order over a state it has seen.
            guard try realm.objects(SyncClasses.outbox).checkedCount() == 0,
                let state = try SyncAgent.state(of: realm), try state.value(forKey: "cursor").intValue == cursor
            else {
                realm.cancelWrite()
                return false
            }
            // Links last: a link may name an object a later entry of this page creates.
            for entry in entries { try applyValues(entry, links: false) }
            for entry in entries where !entry.deleted { try applyValues(entry, links: true) }
            try SyncAgent.setCursor(through, in: state)
            try SyncAgent.stampLastSync(state)
            SyncAgent.dieIfAsked(at: "before-download-commit")
            try realm.commitWrite()
            return true
        } catch {
            realm.cancelWrite()
            throw error
        }
    }

    /// Sets the cursor inside the caller's write transaction, and forgets the recorded uploads
    /// it has passed.
    static func setCursor(_ cursor: Int64, in state: DynamicObject) throws {
        try state.setValue(.int(cursor), forKey: "cursor")
        let ranges = try uploadedRanges(in: state)
        guard !ranges.isEmpty else { return }
        let kept = ranges.filter { $0.upperBound > cursor }.flatMap { [Value.int($0.lowerBound), .int($0.upperBound)] }
        try state.setValue(.list(kept), forKey: "uploaded")
    }

    /// One entry's deletion, or its non-link (`links` false) or link properties.
    func applyValues(_ entry: FeedEntry, links: Bool) throws {
        guard let objectSchema = realm.schema[entry.className], let pk = objectSchema.primaryKeyProperty else {
            throw RealmError.schemaMismatch(
                "\(db.server): the feed names class \(entry.className), which this file has no synced class for")
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
                throw RealmError.schemaMismatch(
                    "\(db.server): the feed sets \(entry.className).\(member.key), which this file does not have")
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
