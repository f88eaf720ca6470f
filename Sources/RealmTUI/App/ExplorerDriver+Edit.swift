import Foundation
import RealmEngine

extension ExplorerState {
    /// Performs an `EditWrite` in one write transaction through the engine (which validates each
    /// value against the schema). On failure the transaction is cancelled, nothing is written and
    /// the status line says why; on success the screens show the new version at once (tables
    /// cache per `realm.version`, which the commit advances).
    mutating func commit(_ write: EditWrite) {
        do {
            switch write {
            case .set(let className, let keys, let property, let value):
                let changes: [UndoRecord.Change] = try realm.write {
                    try keys.map { key in
                        let object = try existing(className, key)
                        let old = try object.value(forKey: property)
                        try object.setValue(value, forKey: property)
                        return UndoRecord.Change(key: key, old: old, new: try object.value(forKey: property))
                    }
                }
                lastEdit = UndoRecord(className: className, property: property, changes: changes)
                let shown = realm.schema[className]?.properties.first { $0.name == property }
                    .map { ValueFormatter(realm: realm).shown(value, $0, oneLine: true).text } ?? value.description
                let target = keys.count == 1 ? "\(className)#\(keys[0].rawValue).\(property)" : "\(property) of \(ValueFormatter.grouped(keys.count)) \(className) objects"
                message = Message(text: "\(target) = \(shown) (v\(realm.version); u undoes)", isError: false)
            case .delete(let className, let keys):
                try realm.write {
                    for key in keys { try realm.delete(try existing(className, key)) }
                }
                lastEdit = nil
                message = Message(text: "deleted \(ValueFormatter.grouped(keys.count)) \(className) object\(keys.count == 1 ? "" : "s") (v\(realm.version))",
                                  isError: false)
                if case .detail(let detail) = current, detail.object.isInvalidated { goBack() }
            case .undo(let record):
                try realm.write {
                    for change in record.changes {
                        let object = try existing(record.className, change.key)
                        guard try object.value(forKey: record.property) == change.new else {
                            throw RealmError.invalidInput(
                                "\(record.className)#\(change.key.rawValue).\(record.property) changed since; undo would overwrite that change")
                        }
                        try object.setValue(change.old, forKey: record.property)
                    }
                }
                lastEdit = nil
                message = Message(text: "undone: \(record.property) restored on \(record.changes.count) object\(record.changes.count == 1 ? "" : "s") (v\(realm.version))",
                                  isError: false)
            }
        } catch {
            message = Message(text: "nothing written: " + ExplorerText.describe(error), isError: true)
        }
        keepCursorInView()
    }

    /// The object `key` of `className`, or an error saying it is gone.
    private func existing(_ className: String, _ key: ObjectKey) throws -> DynamicObject {
        guard let object = try realm.object(ofType: className, key: key) else {
            throw RealmError.invalidInput("\(className)#\(key.rawValue) was deleted meanwhile")
        }
        return object
    }
}

extension ExplorerDriver {
    /// `:copy PATH`: writes a compacted copy of the file (the engine's `writeCopy`) and opens the
    /// copy writable in place of the original, on the class list.
    mutating func copyAndReopen(path: String) {
        let expanded = (path as NSString).expandingTildeInPath
        do {
            try state.realm.writeCopy(toFile: expanded)
            let copy = try Realm(path: expanded)
            let old = state
            state = ExplorerState(realm: copy, fileName: URL(fileURLWithPath: expanded).lastPathComponent, readOnly: false,
                                  width: old.width, height: old.height, theme: old.theme, keyMap: old.keyMap, history: old.history)
            state.message = .init(text: "copied: \(state.fileName) is open writable", isError: false)
        } catch {
            state.message = .init(text: ":copy failed: \(ExplorerText.describe(error))", isError: true)
        }
    }
}
