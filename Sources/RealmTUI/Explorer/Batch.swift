import Foundation
import RealmEngine

/// Batch mode (`:begin` … `:commit` or ctrl-s, `:rollback`): edits are staged, nothing is written
/// and no lock is held while the user types; `:commit` writes them all in one write transaction,
/// after checking that no staged object was changed or deleted since it was staged.
struct Batch {
    /// The staged writes, oldest first.
    private(set) var writes: [EditWrite] = []
    /// Each touched object's values when it was first staged (the base the edits were made on):
    /// the objects of the writes still staged, no others.
    private(set) var snapshots: [ObjectID: [Value]] = [:]
    /// Per staged write, the keys of the objects it touches, as a set: every frame asks
    /// `stagedValue` for each cell on screen, and a `:set` may touch a million objects.
    private var touchedKeys: [Set<ObjectKey>] = []

    /// An object by class and key.
    struct ObjectID: Hashable {
        var className: String
        var key: ObjectKey
    }

    /// The objects `write` changes.
    static func objects(touchedBy write: EditWrite) -> [ObjectID] {
        switch write {
        case .set(let className, let keys, _, _), .delete(let className, let keys):
            keys.map { ObjectID(className: className, key: $0) }
        case .list(let className, let key, _, _), .embed(let className, let key, _, _, _),
            .entry(let className, let key, _, _, _), .embedEntry(let className, let key, _, _, _):
            [ObjectID(className: className, key: key)]
        case .create, .undo: []
        }
    }

    /// Stages `write`, with the snapshots of the objects it touches that had none yet.
    mutating func append(_ write: EditWrite, snapshots new: [ObjectID: [Value]]) {
        writes.append(write)
        touchedKeys.append(Set(Self.objects(touchedBy: write).map(\.key)))
        snapshots.merge(new) { kept, _ in kept }
    }

    /// Drops the last staged write, and the snapshots of the objects no write still staged touches
    /// (`:commit` checks only those for changes by another writer).
    mutating func removeLast() {
        guard !writes.isEmpty else { return }
        writes.removeLast()
        touchedKeys.removeLast()
        let stillTouched = Set(writes.flatMap { Self.objects(touchedBy: $0) })
        snapshots = snapshots.filter { stillTouched.contains($0.key) }
    }

    /// The value staged last for `property` of object `key` of `className`, if any.
    func stagedValue(_ className: String, _ key: ObjectKey, _ property: String) -> Value? {
        for (write, keys) in zip(writes, touchedKeys).reversed() {
            if case .set(className, _, property, let value) = write, keys.contains(key) { return value }
        }
        return nil
    }
}

extension ExplorerState {
    /// `:begin`, `:commit`, `:rollback`; nil for another command.
    mutating func runBatchCommand(_ name: String) -> [ExplorerEffect]? {
        switch name {
        case "begin":
            guard !readOnly else {
                refuse(readOnlyRefusal)
                return []
            }
            guard batch == nil else {
                refuse("a batch is already open (:commit writes it, :rollback drops it)")
                return []
            }
            batch = Batch()
            message = Message(
                text: "batch: edits are staged until :commit (or ^S); :rollback drops them", isError: false)
            return []
        case "commit":
            return commitBatchAction()
        case "rollback":
            guard let batch else {
                refuse("no batch is open (:begin opens one)")
                return []
            }
            self.batch = nil
            message = Message(
                text:
                    "rolled back: \(batch.writes.count) staged edit\(batch.writes.count == 1 ? "" : "s") dropped, nothing written",
                isError: false)
            return []
        default:
            return nil
        }
    }

    /// ctrl-s or `:commit`.
    mutating func commitBatchAction() -> [ExplorerEffect] {
        guard batch != nil else {
            refuse("no batch is open (:begin opens one)")
            return []
        }
        return [.commitBatch]
    }

    /// `q`: asks first when a batch holds staged edits.
    mutating func confirmQuit() -> [ExplorerEffect] {
        guard let batch, !batch.writes.isEmpty else { return [.quit] }
        mode = .edit(
            .confirming(
                Confirmation(
                    question:
                        "quit and drop \(batch.writes.count) staged edit\(batch.writes.count == 1 ? "" : "s")? (y/n; :commit writes them)",
                    effects: [.quit])))
        return []
    }

    /// Keeps `write` in the batch, with a snapshot of each object it touches.
    mutating func stage(_ write: EditWrite) {
        guard var batch else { return }
        do {
            var snapshots: [Batch.ObjectID: [Value]] = [:]
            for id in Batch.objects(touchedBy: write) where batch.snapshots[id] == nil {
                guard let object = try realm.object(ofType: id.className, key: id.key) else {
                    throw RealmError.invalidInput("\(id.className)#\(id.key.rawValue) was deleted")
                }
                snapshots[id] = try object.values()
            }
            batch.append(write, snapshots: snapshots)
            self.batch = batch
            message = Message(text: "staged, not written (^S commits)", isError: false)
        } catch {
            refuse("not staged: " + ExplorerText.describe(error))
        }
    }

    /// `u` in a batch: drops the last staged edit.
    mutating func unstageLast() {
        guard var batch, !batch.writes.isEmpty else {
            message = Message(text: "nothing staged to undo", isError: false)
            return
        }
        batch.removeLast()
        self.batch = batch
        message = Message(text: "last staged edit dropped (\(batch.writes.count) left)", isError: false)
    }
}

extension ExplorerState {
    /// The staged value of a table cell, formatted, when the open batch sets it.
    func stagedCell(_ table: TableScreen, row: Int, property: Property) -> ValueFormatter.Shown? {
        guard let batch, !batch.writes.isEmpty, let object = try? table.rows.object(at: row),
            let value = batch.stagedValue(object.className, object.key, property.name)
        else { return nil }
        return ValueFormatter(realm: realm).shown(value, property, oneLine: true)
    }
}

extension ExplorerState {
    /// The staged value of a property of `object` (the detail view), formatted.
    func stagedValue(_ object: DynamicObject, _ property: Property) -> ValueFormatter.Shown? {
        guard let batch, !batch.writes.isEmpty, !object.isInvalidated,
            let value = batch.stagedValue(object.className, object.key, property.name)
        else { return nil }
        return ValueFormatter(realm: realm).shown(value, property, oneLine: true)
    }
}

extension Theme {
    /// A staged value (batch mode, not written yet): green and underlined, or underlined alone
    /// without colour.
    var staged: CellStyle {
        title.background == .standard ? CellStyle(underline: true) : CellStyle(foreground: .green, underline: true)
    }
}
