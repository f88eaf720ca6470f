import Foundation
import RealmEngine

/// One job of the writer thread, run on the thread's own Realm: wait for the write lock (never
/// blocking: `tryBeginWrite` every 10 ms, a cancel checked in between), then the writes in one
/// transaction through the engine (which validates each value against the schema), with
/// progress and cancel checks every 1,000 objects, then the commit. Anything thrown cancels the
/// transaction: nothing is written.
struct EditTransaction {
    let realm: Realm
    let channel: WriterChannel
    /// Runs before the commit, inside the transaction (writes a Realm file whole); what it
    /// throws cancels the transaction.
    var beforeCommit: (@Sendable (Realm) throws -> Void)? = nil

    /// Esc reached the writer before the commit.
    private struct Cancelled: Error {}

    /// Runs `job` to its outcome.
    func run(_ job: WriteJob) -> WriteOutcome {
        do {
            while try !realm.tryBeginWrite() {
                if channel.waitForLock() { return .cancelled }
            }
        } catch {
            return .refused(ExplorerText.describe(error))
        }
        do {
            try tick(0, of: job.objectCount)
            var receipt: WriteReceipt
            switch job {
            case .write(.undo(let record)): receipt = try undo(record)
            case .write(let write): receipt = try apply(write)
            case .batch(let writes, let snapshots): receipt = try commitBatch(writes, snapshots)
            }
            try beforeCommit?(realm)
            try realm.commitWrite()
            receipt.version = realm.version
            return .written(receipt)
        } catch is Cancelled {
            realm.cancelWrite()
            return .cancelled
        } catch let conflicts as BatchConflicts {
            realm.cancelWrite()
            return .conflicts(conflicts.list)
        } catch {
            realm.cancelWrite()
            return .refused(ExplorerText.describe(error))
        }
    }

    /// Reports `done` of `total` every 1,000 objects (and at 0); throws when the job was cancelled.
    func tick(_ done: Int, of total: Int) throws {
        guard done % 1_000 == 0 else { return }
        if channel.progress(done: done, total: total) { throw Cancelled() }
    }

    /// Applies `write` inside the open write transaction.
    func apply(_ write: EditWrite) throws -> WriteReceipt {
        switch write {
        case .set(let className, let keys, let property, let value):
            var changes: [UndoRecord.Change] = []
            changes.reserveCapacity(keys.count)
            for (index, key) in keys.enumerated() {
                try tick(index, of: keys.count)
                let object = try existing(className, key)
                let old = try object.value(forKey: property)
                try object.setValue(value, forKey: property)
                changes.append(UndoRecord.Change(key: key, old: old, new: try object.value(forKey: property)))
            }
            let shown =
                realm.schema[className]?.properties.first { $0.name == property }
                .map { ValueFormatter(realm: realm).shown(value, $0, oneLine: true).text } ?? value.description
            let target =
                keys.count == 1
                ? "\(className)#\(keys[0].rawValue).\(property)"
                : "\(property) of \(ValueFormatter.grouped(keys.count)) \(className) objects"
            return WriteReceipt(
                summary: "\(target) = \(shown)",
                undo: .values(className: className, property: property, changes: changes),
                version: 0)
        case .delete(let className, let keys):
            return try delete(className, keys)
        case .create(let className, let values):
            let object = try realm.create(className, values)
            // Kept as stored (coerced), so undo compares like with like.
            let stored = try Dictionary(uniqueKeysWithValues: values.keys.map { ($0, try object.value(forKey: $0)) })
            return WriteReceipt(
                summary: "created \(className)#\(object.key.rawValue)",
                undo: .created(className: className, key: object.key, values: stored), created: object.key, version: 0)
        case .embed(let className, let key, let property, let values, let index):
            return try embed(className, key, property, values, at: index)
        case .entry(let className, let key, let property, let path, let edit):
            return try changeEntry(className, key, property, path, edit)
        case .embedEntry(let className, let key, let property, let mapKey, let values):
            return try embedEntry(className, key, property, mapKey, values)
        case .list(let className, let key, let property, let edit):
            let parent = try existing(className, key)
            let list = try parent.list(forKey: property)
            if case .remove(let index) = edit,
                list.property.objectClassName.flatMap({ realm.schema[$0] })?.isEmbedded == true
            {
                // An embedded element removed is deleted: recorded with its place, so u makes it again there.
                let entry = try takeOut(try list.object(at: index), of: parent, list.property) {
                    try list.remove(at: index)
                }
                return WriteReceipt(
                    summary: "\(entry.className) removed from \(entry.placeText)", undo: .embeddedRemoved(entry),
                    version: 0)
            }
            if case .removeAll = edit, let target = list.property.objectClassName,
                realm.schema[target]?.isEmbedded == true
            {
                // Every embedded element deleted: recorded as a group, so one u makes them all again.
                let keys = try (0..<list.count).map { try list.object(at: $0).key }
                if !keys.isEmpty, keys.count <= DeletedObjects.limit, let group = try takeOutGroup(target, keys) {
                    return WriteReceipt(
                        summary:
                            "\(className)#\(key.rawValue).\(property) emptied: \(group.objectsText) deleted (u puts them back)",
                        undo: .embeddedGroupRemoved(group), version: 0)
                }
            }
            let before = try list.elements()
            switch edit {
            // A set places its elements itself: a new one is added (nothing if an equal one is
            // there), an edited one removed and the new value added.
            case .insert(let value, _) where list.property.isSet: try list.append(.value(value))
            case .replace(let index, let value) where list.property.isSet:
                try list.remove(at: index)
                try list.append(.value(value))
            case .insert(let value, let index): try list.insert(.value(value), at: index)
            case .remove(let index): try list.remove(at: index)
            case .move(let from, let to): try list.move(from: from, to: to)
            case .replace(let index, let value): try list.replace(index: index, with: .value(value))
            case .removeAll: try list.removeAll()
            }
            // A list's undo rebuilds it from its links; embedded objects it no longer holds are
            // deleted (and removeAll would delete the rest), so such an edit (but a removal,
            // above) is not undoable.
            let embedded =
                list.property.type == .object
                && list.property.objectClassName.flatMap { realm.schema[$0] }?.isEmbedded == true
            if embedded {
                return WriteReceipt(
                    summary:
                        "\(className)#\(key.rawValue).\(property) changed (embedded objects: u cannot take it back)",
                    version: 0)
            }
            return WriteReceipt(
                summary: "\(className)#\(key.rawValue).\(property) changed",
                undo: .list(
                    className: className, key: key, property: property, before: before, after: try list.elements()),
                version: 0)
        case .undo:
            throw RealmError.invalidInput("undo is its own transaction")
        }
    }

    /// The staged edits of a batch. First, inside the transaction (so no other writer can slip
    /// in between the check and the writes), every staged object is compared with its snapshot:
    /// one changed or deleted by anyone since it was staged is a conflict, and the whole batch
    /// is refused with the list, nothing written (the batch stays open).
    func commitBatch(_ writes: [EditWrite], _ snapshots: [BatchSnapshot]) throws -> WriteReceipt {
        var conflicts: [String] = []
        for snapshot in snapshots.sorted(by: { ($0.className, $0.key) < ($1.className, $1.key) }) {
            guard let object = try realm.object(ofType: snapshot.className, key: snapshot.key) else {
                conflicts.append("\(snapshot.className)#\(snapshot.key.rawValue) deleted")
                continue
            }
            if !Value.identical(try object.values(), snapshot.values) {
                conflicts.append("\(snapshot.className)#\(snapshot.key.rawValue) changed")
            }
        }
        if !conflicts.isEmpty { throw BatchConflicts(list: conflicts) }
        for write in writes { _ = try apply(write) }
        return WriteReceipt(
            summary: "committed \(writes.count) staged edit\(writes.count == 1 ? "" : "s") in one transaction",
            version: 0)
    }

    /// The object `key` of `className`, or an error saying it is gone.
    func existing(_ className: String, _ key: ObjectKey) throws -> DynamicObject {
        guard let object = try realm.object(ofType: className, key: key) else {
            throw RealmError.invalidInput("\(className)#\(key.rawValue) was deleted meanwhile")
        }
        return object
    }
}

/// Staged objects that another writer changed or deleted since they were staged.
struct BatchConflicts: Error {
    var list: [String]
}

extension WriteJob {
    /// How many objects the job writes (the progress report's total).
    var objectCount: Int {
        switch self {
        case .write(.set(_, let keys, _, _)), .write(.delete(_, let keys)): keys.count
        case .write(.undo(.values(_, _, let changes))): changes.count
        case .write(.undo(.deleted(let deleted))): deleted.objects.count
        case .write: 1
        case .batch(let writes, _): writes.count
        }
    }
}
