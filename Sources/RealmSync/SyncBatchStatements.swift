import Foundation
import RealmEngine

/// The class-table statements of one upload batch: per class, one `DELETE` for its deletions,
/// one `INSERT … ON CONFLICT` per set of created properties (one set in practice: a creation
/// names every property) and one `UPDATE` for its updates, each taking the batch's rows as one
/// `jsonb` array — so a batch of a thousand objects costs as many statements as a batch of one.
/// (One statement per object made an upload a round trip per object.)
///
/// The rules are those of the statement-per-object upload:
/// - deletes win: a deletion removes the row; an update of a row the server no longer has
///   changes nothing and makes no feed entry; a deletion of a row it does not have neither;
/// - a creation of a primary key the server has merges into its row (the created properties
///   overwrite) and always makes a feed entry;
/// - an update sets only the properties the local commit changed (per row: a row's JSON holds
///   the primary key and its changed properties, `doc ? 'name'` says which).
///
/// A statement can change a row once, so a batch naming one object twice (a commit that deleted
/// an object and created another with its primary key) is split into runs with distinct objects,
/// applied one after the other in the batch's order.
struct SyncBatchStatements {
    let db: PostgresConnection
    let schema: Schema

    /// Applies `changes` to the class tables; for each change, whether it changed the server (and
    /// so goes into the feed).
    func apply(_ changes: [SyncAgent.Change]) throws -> [Bool] {
        var applied = Array(repeating: false, count: changes.count)
        var run: [Int] = []
        var seen: Set<String> = []
        for (i, c) in changes.enumerated() {
            let object = c.className + "\u{0}" + SyncCodec.text(c.primaryKey)
            if seen.contains(object) {
                try applyRun(run, changes, &applied)
                run = []
                seen = []
            }
            seen.insert(object)
            run.append(i)
        }
        try applyRun(run, changes, &applied)
        return applied
    }

    /// One run of changes of distinct objects: the statements of each class in turn.
    private func applyRun(_ run: [Int], _ changes: [SyncAgent.Change], _ applied: inout [Bool]) throws {
        var classes: [String] = []
        var byClass: [String: [Int]] = [:]
        for i in run {
            if byClass[changes[i].className] == nil { classes.append(changes[i].className) }
            byClass[changes[i].className, default: []].append(i)
        }
        for className in classes {
            guard let indices = byClass[className], let objectSchema = schema[className],
                let pk = objectSchema.primaryKeyProperty
            else { continue }
            let table = Table(name: SyncServerSchema.identifier(className), key: SyncServerSchema.identifier(pk.name))
            let deletions = indices.filter { changes[$0].deleted }
            for i in try delete(deletions.map { changes[$0] }, table) { applied[deletions[i]] = true }
            // Creations grouped by the properties they set, in the order each set first appears.
            var sets: [[String]] = []
            var creations: [[String]: [Int]] = [:]
            for i in indices where changes[i].created && !changes[i].deleted {
                if creations[changes[i].changed] == nil { sets.append(changes[i].changed) }
                creations[changes[i].changed, default: []].append(i)
            }
            for set in sets {
                let group = creations[set] ?? []
                try create(group.map { changes[$0] }, columns: set, table)
                for i in group { applied[i] = true }
            }
            // An update that changed nothing but the primary key has nothing to send.
            let updates = indices.filter {
                !changes[$0].created && !changes[$0].deleted && !changes[$0].changed.isEmpty
            }
            for i in try update(updates.map { changes[$0] }, table) { applied[updates[i]] = true }
        }
    }

    /// A class table, its name and primary key column quoted.
    private struct Table {
        var name: String
        var key: String
    }

    /// The rows as one `jsonb` array parameter: the primary key and the changed properties.
    private func rows(_ changes: [SyncAgent.Change]) -> String {
        SyncCodec.text(.array(changes.map { .object($0.props) }))
    }

    /// The rows of parameter `$1` with their position (`ord`, from 1), the JSON (`doc`) and the
    /// table's record made from it (`rec`, absent properties NULL). The record is taken whole
    /// under a name no property has (a bare name would mean a column of that name if one had it).
    private func source(_ table: Table) -> String {
        """
        (SELECT e.ord, e.doc, realmtui_record AS rec FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS e(doc, ord)
            CROSS JOIN LATERAL jsonb_populate_record(NULL::\(table.name), e.doc) AS realmtui_record)
        """
    }

    /// The positions (from 0) in `changes` of the rows a statement returned as `ord`.
    private func positions(_ result: PostgresRows, count: Int) throws -> [Int] {
        try result.rows.map { row in
            guard let text = row.first.flatMap({ $0 }), let ord = Int(text), ord >= 1, ord <= count else {
                throw RealmError.invalidInput("\(db.server): an upload statement returned an unexpected row")
            }
            return ord - 1
        }
    }

    private func delete(_ changes: [SyncAgent.Change], _ table: Table) throws -> [Int] {
        guard !changes.isEmpty else { return [] }
        let result = try db.execute(
            """
            DELETE FROM \(table.name) AS t USING \(source(table)) AS r WHERE t.\(table.key) = (r.rec).\(table.key) RETURNING r.ord
            """, [rows(changes)])
        return try positions(result, count: changes.count)
    }

    private func create(_ changes: [SyncAgent.Change], columns: [String], _ table: Table) throws {
        guard !changes.isEmpty else { return }
        // Create/create of one primary key merges: the later create's properties win.
        let quoted = columns.map(SyncServerSchema.identifier)
        let onConflict =
            quoted.isEmpty
            ? "DO NOTHING" : "DO UPDATE SET " + quoted.map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", ")
        try db.execute(
            """
            INSERT INTO \(table.name) SELECT (r.rec).* FROM \(source(table)) AS r ORDER BY r.ord
            ON CONFLICT (\(table.key)) \(onConflict)
            """, [rows(changes)])
    }

    private func update(_ changes: [SyncAgent.Change], _ table: Table) throws -> [Int] {
        guard !changes.isEmpty else { return [] }
        var columns: [String] = []
        for c in changes { for name in c.changed where !columns.contains(name) { columns.append(name) } }
        // Each row sets only its own changed properties; the others keep the server's value.
        let sets = columns.map { name in
            let column = SyncServerSchema.identifier(name)
            return "\(column) = CASE WHEN r.doc ? \(literal(name)) THEN (r.rec).\(column) ELSE t.\(column) END"
        }.joined(separator: ", ")
        let result = try db.execute(
            """
            UPDATE \(table.name) AS t SET \(sets) FROM \(source(table)) AS r WHERE t.\(table.key) = (r.rec).\(table.key) RETURNING r.ord
            """, [rows(changes)])
        return try positions(result, count: changes.count)
    }

    /// A SQL string literal.
    private func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
}
