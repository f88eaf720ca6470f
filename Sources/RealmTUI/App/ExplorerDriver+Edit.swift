import Foundation
import RealmEngine

extension ExplorerState {
    /// Performs an `EditWrite` in one write transaction through the engine (which validates each
    /// value against the schema), or stages it when a batch is open (`:begin`). On failure the
    /// transaction is cancelled, nothing is written and the status line says why; on success the
    /// screens show the new version at once (tables cache per `realm.version`, which the commit
    /// advances).
    mutating func commit(_ write: EditWrite) {
        if batch != nil {
            stage(write)
            return
        }
        do {
            if case .undo(let record) = write {
                guard try undo(record) else { return wait(.write(write)) }
                lastEdit = nil
                keepCursorInView()
                return
            }
            guard let applied = try transaction({ try apply(write) }) else { return wait(.write(write)) }
            lastEdit = applied.undo
            message = Message(text: "\(applied.summary) (v\(realm.version)\(applied.undo == nil ? "" : "; u undoes"))", isError: false)
            if case .detail(let detail) = current, detail.object.isInvalidated { goBack() }
            if let created = applied.created { moveCursor(to: created) }
        } catch {
            message = Message(text: "nothing written: " + ExplorerText.describe(error), isError: true)
        }
        keepCursorInView()
    }

    /// Runs `body` in a write transaction if the write lock is free now; nil (nothing started)
    /// when another writer holds it, so the explorer never blocks on it.
    func transaction<T>(_ body: () throws -> T) throws -> T? {
        guard try realm.tryBeginWrite() else { return nil }
        let result: T
        do {
            result = try body()
        } catch {
            realm.cancelWrite()
            throw error
        }
        try realm.commitWrite()
        return result
    }

    /// Enters the waiting state for `pending`; the driver retries it on every event.
    mutating func wait(_ pending: PendingWrite) {
        mode = .edit(.waiting(pending))
        message = Message(text: "waiting for another writer (Esc cancels)", isError: true)
    }

    /// Tries the waiting write again (the driver calls this on every event, the session ticks).
    mutating func retryPendingWrite() {
        guard case .edit(.waiting(let pending)) = mode else { return }
        mode = .browse
        switch pending {
        case .write(let write): commit(write)
        case .batch: commitBatch()
        }
    }

    /// What applying one write did.
    struct Applied {
        var summary: String
        var undo: UndoRecord?
        var created: DynamicObject?
    }

    /// Applies `write` inside the open write transaction.
    func apply(_ write: EditWrite) throws -> Applied {
        switch write {
        case .set(let className, let keys, let property, let value):
            let changes: [UndoRecord.Change] = try keys.map { key in
                let object = try existing(className, key)
                let old = try object.value(forKey: property)
                try object.setValue(value, forKey: property)
                return UndoRecord.Change(key: key, old: old, new: try object.value(forKey: property))
            }
            let shown = realm.schema[className]?.properties.first { $0.name == property }
                .map { ValueFormatter(realm: realm).shown(value, $0, oneLine: true).text } ?? value.description
            let target = keys.count == 1 ? "\(className)#\(keys[0].rawValue).\(property)"
                : "\(property) of \(ValueFormatter.grouped(keys.count)) \(className) objects"
            return Applied(summary: "\(target) = \(shown)", undo: .values(className: className, property: property, changes: changes))
        case .delete(let className, let keys):
            for key in keys { try realm.delete(try existing(className, key)) }
            return Applied(summary: "deleted \(ValueFormatter.grouped(keys.count)) \(className) object\(keys.count == 1 ? "" : "s")")
        case .create(let className, let values):
            let object = try realm.create(className, values)
            // Kept as stored (coerced), so undo compares like with like.
            let stored = try Dictionary(uniqueKeysWithValues: values.keys.map { ($0, try object.value(forKey: $0)) })
            return Applied(summary: "created \(className)#\(object.key.rawValue)",
                           undo: .created(className: className, key: object.key, values: stored), created: object)
        case .list(let className, let key, let property, let edit):
            let list = try existing(className, key).list(forKey: property)
            let before = try list.elements()
            switch edit {
            case .insert(let value, let index): try list.insert(.value(value), at: index)
            case .remove(let index): try list.remove(at: index)
            case .move(let from, let to): try list.move(from: from, to: to)
            case .replace(let index, let value): try list.replace(index: index, with: .value(value))
            case .removeAll: try list.removeAll()
            }
            return Applied(summary: "\(className)#\(key.rawValue).\(property) changed",
                           undo: .list(className: className, key: key, property: property, before: before, after: try list.elements()))
        case .undo:
            throw RealmError.invalidInput("undo is its own transaction")
        }
    }

    /// Takes back `record` in a new write transaction, unless its objects changed since.
    private mutating func undo(_ record: UndoRecord) throws -> Bool {
        switch record {
        case .values(let className, let property, let changes):
            let done: Void? = try transaction {
                for change in changes {
                    let object = try existing(className, change.key)
                    guard try object.value(forKey: property) == change.new else {
                        throw RealmError.invalidInput(
                            "\(className)#\(change.key.rawValue).\(property) changed since; undo would overwrite that change")
                    }
                    try object.setValue(change.old, forKey: property)
                }
            }
            guard done != nil else { return false }
            message = Message(text: "undone: \(property) restored on \(changes.count) object\(changes.count == 1 ? "" : "s") (v\(realm.version))",
                              isError: false)
        case .created(let className, let key, let values):
            let done: Void? = try transaction {
                let object = try existing(className, key)
                for (name, value) in values where try object.value(forKey: name) != value {
                    throw RealmError.invalidInput("\(className)#\(key.rawValue).\(name) changed since; undo would delete that change")
                }
                try realm.delete(object)
            }
            guard done != nil else { return false }
            message = Message(text: "undone: \(className)#\(key.rawValue) deleted again (v\(realm.version))", isError: false)
        case .list(let className, let key, let property, let before, let after):
            let done: Void? = try transaction {
                let list = try existing(className, key).list(forKey: property)
                guard try list.elements() == after else {
                    throw RealmError.invalidInput("\(className)#\(key.rawValue).\(property) changed since; undo would overwrite that change")
                }
                try list.removeAll()
                for value in before { try list.append(.value(value)) }
            }
            guard done != nil else { return false }
            message = Message(text: "undone: \(property) restored (v\(realm.version))", isError: false)
        }
        return true
    }

    /// Puts the table's cursor on `object` when the table shows it (looked for among the
    /// first 100,000 rows only, so a huge table never stalls a commit).
    private mutating func moveCursor(to object: DynamicObject) {
        guard case .table(var table) = current, table.rows.count <= 100_000,
              let row = try? table.rows.results.keys().firstIndex(of: object.key) else { return }
        table.cursorRow = row
        current = .table(table)
    }

    /// The object `key` of `className`, or an error saying it is gone.
    func existing(_ className: String, _ key: ObjectKey) throws -> DynamicObject {
        guard let object = try realm.object(ofType: className, key: key) else {
            throw RealmError.invalidInput("\(className)#\(key.rawValue) was deleted meanwhile")
        }
        return object
    }
}

extension ExplorerDriver {
    /// `:copy PATH`: writes a compacted copy of the file (the engine's `writeCopy`) and opens the
    /// copy writable in place of the original, on the class list. The copy of an encrypted file
    /// is encrypted with the same key.
    mutating func copyAndReopen(path: String) {
        let expanded = (path as NSString).expandingTildeInPath
        do {
            let key = state.realm.configuration.encryptionKey
            try state.realm.writeCopy(toFile: expanded, encryptionKey: key)
            let copy = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: expanded), encryptionKey: key))
            let old = state
            state = ExplorerState(realm: copy, fileName: URL(fileURLWithPath: expanded).lastPathComponent, readOnly: false,
                                  width: old.width, height: old.height, theme: old.theme, keyMap: old.keyMap, history: old.history)
            state.message = .init(text: "copied: \(state.fileName) is open writable", isError: false)
        } catch {
            state.message = .init(text: ":copy failed: \(ExplorerText.describe(error))", isError: true)
        }
    }
}
