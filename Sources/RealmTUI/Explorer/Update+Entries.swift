import Foundation
import RealmEngine

/// Editing a dictionary in its values screen (and the values of a collection inside a Mixed):
/// `a` asks for a new key, then its value (an editor; the target's table to pick from for a
/// dictionary of links; the form for a dictionary of embedded objects); `e` changes the value
/// under the cursor (a link is picked again, ctrl-n there sets null); `r` renames the key; `x`
/// removes it (an embedded object under it is deleted, and `u` puts it back). A key Realm
/// refuses (`a.b`, `$x`) or one that is there already is refused in the editor, nothing written.
extension ExplorerState {
    /// Whether the current screen is a values screen edited by key or position, not as a list
    /// property (a dictionary, or a collection inside a Mixed value).
    var isEntryScreen: Bool {
        if case .values = current, listUnderTable() == nil { return true }
        return false
    }

    /// The values screen on top and its row under the cursor, or a refusal.
    private mutating func entryUnderCursor() -> (ValuesScreen, ValueRow)? {
        guard !readOnly else {
            refuse(readOnlyRefusal)
            return nil
        }
        guard case .values(let values) = current else { return nil }
        do {
            let rows = try values.rows()
            guard rows.indices.contains(values.cursor) else {
                refuse(values.isDictionary ? "the dictionary is empty: a puts a key" : "the list is empty")
                return nil
            }
            return (values, rows[values.cursor])
        } catch {
            refuse(ExplorerText.describe(error))
            return nil
        }
    }

    /// `a` in a dictionary: the editor of the new key.
    mutating func beginPutKey(_ values: ValuesScreen) {
        guard !readOnly else { return refuse(readOnlyRefusal) }
        guard values.isDictionary else {
            return refuse(
                "a appends to a list property; this list is inside a Mixed value: e changes one of its values")
        }
        mode = .edit(
            .editing(
                ValueEditor(
                    object: values.object, property: values.elementProperty, editor: LineEditor(),
                    entry: EntryTarget(path: values.path, step: .newKey))))
        message = Message(text: "the new key of \(values.property.name): Enter goes on to its value", isError: false)
    }

    /// `r`: the editor of the key under the cursor's new name.
    mutating func beginRenameKey() {
        guard case .values(let values) = current, values.isDictionary else {
            return refuse("r renames a dictionary key: Enter on a dictionary opens its keys")
        }
        guard let (_, row) = entryUnderCursor(), let key = row.key else { return }
        mode = .edit(
            .editing(
                ValueEditor(
                    object: values.object, property: values.elementProperty, editor: LineEditor(key),
                    entry: EntryTarget(path: values.path, step: .rename(key)))))
    }

    /// `x` in a dictionary: removes the key under the cursor.
    mutating func removeEntry() -> [ExplorerEffect] {
        guard let (values, row) = entryUnderCursor() else { return [] }
        guard let key = row.key else {
            refuse("x removes a dictionary key; this list is inside a Mixed value: e on its property edits it as JSON")
            return []
        }
        return [
            .write(
                .entry(
                    className: values.object.className, key: values.object.key, property: values.property.name,
                    path: values.path, edit: .remove(key)))
        ]
    }

    /// `e` on an entry: a link is picked again, an embedded object is opened instead, any other
    /// value gets its editor.
    mutating func beginEntryEdit(_ values: ValuesScreen) {
        guard let (_, row) = entryUnderCursor() else { return }
        let element = values.elementProperty
        let label = row.key.map { ValueFormatter.key($0) } ?? "[\(values.cursor)]"
        if values.path.isEmpty, values.holdsEmbedded(realm) {
            return refuse(
                "\(label) is an embedded \(element.objectClassName ?? "object"): Enter opens it to edit its fields; r renames its key, x removes it"
            )
        }
        if values.path.isEmpty, element.type == .object, let key = row.key {
            beginPick(object: values.object, property: values.property, insertAt: nil)
            pick?.mapKey = key
            return
        }
        let step: EntryTarget.Step = row.key.map { .key($0) } ?? .index(values.cursor)
        if element.type == .mixed {
            // A Mixed value (of a dictionary, or nested in a Mixed) is edited as a type picked first.
            return beginMixedEdit(
                ValueEditor(
                    object: values.object, property: element, editor: LineEditor(),
                    entry: EntryTarget(path: values.path, step: step)), current: row.value)
        }
        let text = EditText.text(for: row.value, element, realm: realm)
        mode = .edit(
            .editing(
                ValueEditor(
                    object: values.object, property: element, editor: LineEditor(text),
                    entry: EntryTarget(path: values.path, step: step))))
    }

    /// Enter (or ctrl-n) in an entry's editor.
    mutating func commitEntryEditor(_ edit: ValueEditor, text: String, isNull: Bool = false) -> [ExplorerEffect] {
        var edit = edit
        guard let entry = edit.entry, case .values(let values) = current else {
            mode = .browse
            return []
        }
        let object = edit.object
        func write(_ change: EntryEdit) -> [ExplorerEffect] {
            mode = .browse
            editAwaitingWrite = .editing(edit)
            return [
                .write(
                    .entry(
                        className: object.className, key: object.key, property: values.property.name,
                        path: entry.path, edit: change))
            ]
        }
        do {
            guard !object.isInvalidated else { throw RealmError.invalidatedObject }
            switch entry.step {
            case .newKey, .rename:
                guard !isNull else { throw RealmError.invalidInput("a key is text: ^N has no key to offer") }
                let key = text
                try MapKey.check(key, className: object.className, property: values.property.name)
                if try values.rows().contains(where: { $0.key == key }) {
                    if case .rename(let old) = entry.step, old == key {
                        mode = .browse
                        return []
                    }
                    throw RealmError.invalidInput(
                        "\(values.property.name) already has the key '\(key)': e changes its value")
                }
                if case .rename(let old) = entry.step { return write(.rename(old, to: key)) }
                mode = .browse
                if values.path.isEmpty, values.holdsEmbedded(realm) {
                    beginEmbed(in: object, values.property, at: nil, mapKey: key)
                } else if values.path.isEmpty, values.property.type == .object {
                    beginPick(object: object, property: values.property, insertAt: nil)
                    pick?.mapKey = key
                } else if edit.property.type == .mixed {
                    // A Mixed value is typed through the type picker, as every Mixed value is.
                    edit.entry?.step = .key(key)
                    edit.refusal = nil
                    beginMixedEdit(edit, current: .null, isNew: true)
                    message = Message(text: "the value of \(ValueFormatter.key(key)): pick its type", isError: false)
                } else {
                    edit.entry?.step = .key(key)
                    edit.editor = LineEditor(ObjectForm.defaultText(edit.property, realm: realm))
                    edit.refusal = nil
                    mode = .edit(.editing(edit))
                    message = Message(text: "the value of \(ValueFormatter.key(key)): Enter writes it", isError: false)
                }
                return []
            case .key(let key):
                return write(.put(key, try entryValue(edit, text: text, isNull: isNull)))
            case .index(let index):
                return write(.replace(index, try entryValue(edit, text: text, isNull: isNull)))
            }
        } catch {
            edit.refusal = "refused, nothing written: " + ExplorerText.describe(error)
            mode = .edit(.editing(edit))
            message = Message(text: edit.refusal ?? "", isError: true)
            return []
        }
    }

    /// The value an entry's editor's text means; a Mixed edited as a list or dictionary must
    /// read as one.
    private func entryValue(_ edit: ValueEditor, text: String, isNull: Bool) throws -> Value {
        let value = try EditText.parse(
            isNull ? "null" : text, for: edit.property, className: edit.object.className, realm: realm, now: Date())
        guard let kind = edit.mixedAs, !isNull else { return value }
        return try kind.checked(value, property: edit.property.name)
    }
}
