import Foundation
import RealmEngine

/// Re-bootstrapping from the server's tables, when the feed cannot be replayed: the server's
/// operator trimmed it (`DELETE FROM realmtui_feed WHERE seq <= N`) below this client's cursor,
/// or a new client joins after such a trim. Feed numbers are dense (SyncServerSchema), so a
/// gap after the cursor is the sign.
///
/// The copy reads every class table in one `REPEATABLE READ` snapshot of the server together
/// with the feed's counter (uploads change a table and the counter in one transaction, so the
/// snapshot holds exactly the changes up to that number), and applies it in one local write
/// transaction that also sets the cursor to that number: an object of the server is created or
/// overwritten, an object the server does not have is deleted, and a kill takes everything
/// back (the next run copies again). Like a download it waits while local uploads are
/// pending: the client's own changes reach the server first, so the copy holds them.
extension SyncAgent {
    func rebootstrap(_ report: inout Report) throws {
        let classes = try SyncServerSchema.syncedClasses(realm.schema)
        let size = max(1, batchSize)
        try db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        defer { _ = try? db.execute("ROLLBACK") }
        let last = try SyncServerSchema.lastFeedNumber(db)
        var total = 0
        for c in classes {
            total +=
                try db.execute("SELECT count(*) FROM \(SyncServerSchema.identifier(c.name))").rows.first?.first.flatMap
            { $0 }.flatMap { Int($0) } ?? 0
        }
        realm.queuesToOutbox = false
        defer { realm.queuesToOutbox = true }
        try realm.beginWrite()
        do {
            guard try realm.objects(SyncClasses.outbox).checkedCount() == 0, let state = try SyncAgent.state(of: realm)
            else {
                realm.cancelWrite()
                return
            }
            var done = 0
            let receivedBefore = db.bytesReceived
            // Links last: a link may name an object of a later page or class.
            var linking: [FeedEntry] = []
            for c in classes {
                guard let pk = c.primaryKeyProperty else { continue }
                let table = SyncServerSchema.identifier(c.name)
                let hasLinks = c.persistedProperties.contains { $0.type == .object }
                var onServer: Set<String> = []
                try db.execute("DECLARE realmtui_copy NO SCROLL CURSOR FOR SELECT to_jsonb(t)::text FROM \(table) t")
                while true {
                    let rows = try db.execute("FETCH \(size) FROM realmtui_copy").rows
                    for row in rows {
                        guard let text = row.first.flatMap({ $0 }),
                            let members = try JSONParser.parse(text).objectMembers,
                            let key = members.first(where: { $0.key == pk.name })?.value
                        else {
                            throw RealmError.invalidInput("\(db.server): a malformed row in table \(c.name)")
                        }
                        let entry = FeedEntry(
                            seq: last, className: c.name, primaryKey: key, deleted: false, props: members)
                        try applyValues(entry, links: false)
                        if hasLinks { linking.append(entry) }
                        onServer.insert(SyncCodec.text(key))
                    }
                    done += rows.count
                    if total > size && !rows.isEmpty {
                        onTransfer?(
                            Transfer(
                                direction: .copy, done: done, total: total, bytes: db.bytesReceived - receivedBefore))
                    }
                    if rows.count < size { break }
                }
                try db.execute("CLOSE realmtui_copy")
                // What the server does not have was deleted there (this file's own objects went
                // up before the copy).
                var gone: [DynamicObject] = []
                for object in try realm.objects(c.name) {
                    let key = try SyncCodec.encode(try object.value(forKey: pk.name), pk, in: realm)
                    if !onServer.contains(SyncCodec.text(key)) { gone.append(object) }
                }
                for object in gone where !object.isInvalidated { try realm.delete(object) }
            }
            for entry in linking { try applyValues(entry, links: true) }
            try SyncAgent.setCursor(last, in: state)
            try SyncAgent.stampLastSync(state)
            SyncAgent.dieIfAsked(at: "before-bootstrap-commit")
            try realm.commitWrite()
        } catch {
            realm.cancelWrite()
            throw error
        }
        report.bootstraps += 1
        report.copiedObjects += total
    }
}
