import Foundation
import RealmCoreFormat
import RealmEngine

/// `watch` on a Realm file (what a Realm app writes). A Realm app tells no other program of its
/// commits, so the watcher polls the file's commit marker (`RealmCoreFileAccess.commitMarker`:
/// inode, size, modification time, header and footer) and, when it changed, reads the file again
/// and compares the watched result with the one before, object by object (by key). It prints the
/// same JSON lines as `watch` on a realmtui file: a result's deletions and modifications as
/// positions in the result before, insertions in the one after; the objects by primary key, or
/// `{"key": K}`. An object whose sort position changed is a modification, not a move.
struct RealmCoreWatch {
    let path: String
    let key: [UInt8]?
    let className: String
    let predicate: String
    let arguments: [Value]
    let sort: [RealmEngine.SortDescriptor]
    let distinct: [String]
    let limit: Int?
    /// How often the commit marker is read: often enough to feel live, rarely enough to cost
    /// nothing (one `fstat` and a 40-byte read).
    var pollInterval: Duration = .milliseconds(200)

    /// The watched result at one version of the file.
    private struct Snapshot {
        var version: Int64
        var keys: [ObjectKey]
        var rows: [ObjectKey: [Value]]
        var identities: [ObjectKey: String]
    }

    /// Prints the initial line, then a line per commit that changed the result, until
    /// `maxEvents` updates, `control` stops it, or a version cannot be read (thrown).
    func run(maxEvents: Int?, control: WatchControl, emit: (String) -> Void) throws {
        var marker = try RealmCoreFileAccess.commitMarker(path: path)
        var before = try snapshot(quiet: false)
        emit("{\"event\": \"initial\", \"version\": \(before.version), \"count\": \(before.keys.count)}")
        var updates = 0
        while !control.isStopped {
            if let maxEvents, updates >= maxEvents { return }
            let now = try RealmCoreFileAccess.commitMarker(path: path)
            if now == marker {
                Thread.sleep(
                    forTimeInterval: Double(pollInterval.components.attoseconds) / 1e18
                        + Double(pollInterval.components.seconds))
                continue
            }
            marker = now
            let after = try snapshot(quiet: true)
            defer { before = after }
            let old = Set(before.keys)
            let new = Set(after.keys)
            let deletions = before.keys.indices.filter { !new.contains(before.keys[$0]) }
            let insertions = after.keys.indices.filter { !old.contains(after.keys[$0]) }
            let modifications = before.keys.indices.filter { index in
                let key = before.keys[index]
                return new.contains(key) && before.rows[key] != after.rows[key]
            }
            guard !(deletions.isEmpty && insertions.isEmpty && modifications.isEmpty) else { continue }
            updates += 1
            func positions(_ list: [Int]) -> String { "[" + list.map(String.init).joined(separator: ", ") + "]" }
            func identities(_ list: [Int], _ side: Snapshot) -> String {
                "[" + list.map { side.identities[side.keys[$0]] ?? "null" }.joined(separator: ", ") + "]"
            }
            emit(
                "{\"event\": \"update\", \"version\": \(after.version), \"count\": \(after.keys.count), "
                    + "\"deletions\": \(positions(deletions)), \"insertions\": \(positions(insertions)), "
                    + "\"modifications\": \(positions(modifications)), \"deleted\": \(identities(deletions, before)), "
                    + "\"inserted\": \(identities(insertions, after)), \"modified\": \(identities(modifications, before))}"
            )
        }
    }

    /// The file read now and the watched result in it.
    private func snapshot(quiet: Bool) throws -> Snapshot {
        let realm = try RealmCoreFiles.openConverted(path, key: key, quiet: quiet)
        guard let objectSchema = realm.schema[className] else { throw RealmError.noSuchClass(className) }
        var results = try realm.objects(className)
        if !predicate.trimmingCharacters(in: .whitespaces).isEmpty {
            results = try results.filter(predicate, arguments: arguments)
        }
        if !sort.isEmpty { results = try results.sorted(by: sort) }
        if !distinct.isEmpty { results = try results.distinct(by: distinct) }
        if let limit { results = results.limit(limit) }
        let keys = try results.keys()
        var rows: [ObjectKey: [Value]] = [:]
        var identities: [ObjectKey: String] = [:]
        let primaryKey = objectSchema.primaryKeyProperty
        for (index, key) in keys.enumerated() {
            let object = try results.object(at: index)
            rows[key] = try object.values()
            if let primaryKey, let json = JSONExport.plainJSON(try object.value(forKey: primaryKey.name)) {
                identities[key] = json.jsonText()
            } else {
                identities[key] = "{\"key\": \(key.rawValue)}"
            }
        }
        return Snapshot(
            version: RealmCoreFiles.lastOpened?.version ?? 0, keys: keys, rows: rows, identities: identities)
    }
}
