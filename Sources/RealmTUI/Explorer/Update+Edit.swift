import Foundation
import RealmEngine

/// The edit flow's transitions (see `EditFlow`): opening an editor, keys in it, the `y/n`
/// prompt, `:delete`, `:set`, `:copy` and `u`.
extension ExplorerState {
    /// The message every edit key gets on a read-only file.
    var readOnlyRefusal: String {
        "\(fileName) is open read-only: :copy PATH writes a writable copy and opens it"
    }

    /// The object and property under the cursor (a table cell or a detail line).
    func cellUnderCursor() throws -> (object: DynamicObject, property: Property)? {
        switch current {
        case .table(let table):
            guard table.cursorRow < table.rows.count, let property = table.cursorProperty else { return nil }
            return (try table.rows.object(at: table.cursorRow), property)
        case .detail(let detail):
            let properties = detail.object.objectSchema.properties
            guard properties.indices.contains(detail.cursor), !detail.object.isInvalidated else { return nil }
            if !detail.cursorPath.isEmpty {
                // A field of an embedded object (written through it: it lives inside the
                // parent); an element or entry row is an object, not a value.
                guard let row = try resolveNested(detail, detail.cursorRow), row.element == nil else { return nil }
                return (row.owner, row.property)
            }
            return (detail.object, properties[detail.cursor])
        default: return nil
        }
    }

    /// Enter in the detail view: a scalar (or a to-one link) opens its editor; anything else
    /// opens as before. Returns whether an editor opened.
    mutating func editOnEnter() -> Bool {
        guard case .detail = current, !readOnly, let cell = try? cellUnderCursor(),
            !TableView.opens(cell.property), !cell.property.isMap
        else { return false }
        // A Mixed holding a link or a collection opens it; a Mixed scalar is edited.
        if cell.property.type == .mixed, let value = try? cell.object.value(forKey: cell.property.name) {
            switch value {
            case .typedLink, .list, .map: return false
            default: break
            }
        }
        beginEdit()
        return true
    }

    /// `e`: opens the editor for the value under the cursor, filled with its current value.
    mutating func beginEdit() {
        guard !readOnly else { return refuse(readOnlyRefusal) }
        if case .values(let values) = current {
            if listUnderTable() == nil { return beginEntryEdit(values) }
            return beginElementEdit(values)
        }
        do {
            guard let (object, property) = try cellUnderCursor() else {
                return refuse("e edits a value: put the cursor on a table cell or a property")
            }
            if property.isPrimaryKey {
                return refuse(
                    "\(property.name) is the primary key: Realm never changes a primary key (create a new object instead)"
                )
            }
            if property.type == .linkingObjects {
                return refuse("\(property.name) lists the objects that link here: edit the links on their side")
            }
            if property.isList {
                // In a table, Enter opens the object; the list is one Enter further.
                let open =
                    if case .table = current { "Enter on the object, then on \(property.name), opens it" } else {
                        "Enter opens it"
                    }
                return refuse("\(property.name) is a list: \(open); a, i, x, J, K edit it there")
            }
            if property.isMap && property.type == .object {
                return refuse(
                    "\(property.name) is a dictionary of links: set it with realmtui update --set '\(property.name)={\"key\": primary key, …}'"
                )
            }
            if property.type == .object && !property.isMap,
                let target = ValueFormatter(realm: realm).embeddedTarget(property)
            {
                // An embedded object is made in place, never picked (it has one parent).
                if try object.value(forKey: property.name) == .null { return beginEmbed(in: object, property, at: nil) }
                return refuse(
                    "\(property.name) is an embedded \(target.name): space expands it, e on one of its fields edits that field"
                )
            }
            if property.type == .object && !property.isMap {
                return beginPick(object: object, property: property, insertAt: nil)
            }
            let value = try object.value(forKey: property.name)
            if property.type == .mixed {
                // A Mixed value is edited as a type picked first (the current one preselected).
                return beginMixedEdit(
                    ValueEditor(object: object, property: property, editor: LineEditor()), current: value)
            }
            if case .detail = current, property.type == .string {
                // The detail view edits the string itself, newlines and all, in the value syntax
                // of every editor (`null` is nil, a string reading `null` is quoted).
                let text = EditText.multilineText(for: value, property, realm: realm)
                mode = .edit(
                    .editing(
                        ValueEditor(object: object, property: property, editor: LineEditor(text), isMultiline: true)))
                return
            }
            let text = EditText.text(for: value, property, realm: realm)
            mode = .edit(.editing(ValueEditor(object: object, property: property, editor: LineEditor(text))))
        } catch {
            refuse(ExplorerText.describe(error))
        }
    }

    /// `e` in a list of values: edits the element under the cursor in place.
    mutating func beginElementEdit(_ values: ValuesScreen) {
        do {
            let items = try values.object.list(forKey: values.property.name).elements()
            guard items.indices.contains(values.cursor) else { return refuse("the list is empty: a appends") }
            var element = values.property
            element.isList = false
            if element.type == .mixed {
                // A Mixed element is edited as a type picked first, as a Mixed property is.
                element.isOptional = true
                return beginMixedEdit(
                    ValueEditor(
                        object: values.object, property: element, editor: LineEditor(),
                        replaceAt: values.cursor), current: items[values.cursor])
            }
            let text = EditText.text(for: items[values.cursor], element, realm: realm)
            mode = .edit(
                .editing(
                    ValueEditor(
                        object: values.object, property: element, editor: LineEditor(text),
                        replaceAt: values.cursor)))
        } catch {
            refuse(ExplorerText.listUnreadable(error, values.property.name))
        }
    }

    /// A key while the edit flow is active.
    mutating func handleEditKey(_ key: Key, _ flow: EditFlow) -> [ExplorerEffect] {
        switch flow {
        case .confirming(let confirmation):
            mode = .browse
            if key == .character("y") || key == .character("Y") { return confirmation.effects }
            // Not quitting keeps the staged edits; not writing writes nothing.
            let text =
                confirmation.effects == [.quit]
                ? "not quitting: the staged edits are kept" : "cancelled: nothing written"
            message = Message(text: text, isError: false)
            return []
        case .creating(let form):
            return handleFormKey(key, form)
        case .writing(let status):
            return handleWritingKey(key, status)
        case .choosingType(let picker):
            return handleTypePickerKey(key, picker)
        case .editing(var edit):
            switch key {
            case .escape:
                mode = .browse
                message = Message(text: "edit cancelled: nothing written", isError: false)
                return []
            case .enter where edit.isMultiline:
                edit.editor.replace(edit.editor.cursor..<edit.editor.cursor, with: "\n")
            case .enter, .control("s"):
                if edit.entry != nil { return commitEntryEditor(edit, text: edit.editor.text) }
                return commitEditor(edit, text: edit.editor.text)
            case .control("n") where edit.entry != nil:
                return commitEntryEditor(edit, text: "null", isNull: true)
            case .control("n"):
                guard edit.property.isOptional else {
                    edit.refusal = "\(edit.property.name) is required: it cannot be null"
                    mode = .edit(.editing(edit))
                    return []
                }
                return commitEditor(edit, text: "null", isNull: true)
            case .character(" ") where edit.property.type == .bool && !edit.isKeyEditor:
                let text = edit.editor.text.trimmingCharacters(in: .whitespaces)
                edit.editor.set(text == "true" ? "false" : "true")
            default:
                guard edit.editor.handle(key) else { return [] }
            }
            edit.refusal = nil
            mode = .edit(.editing(edit))
            return []
        }
    }

    /// Enter in an editor: a value that fits asks for the write; one that does not is refused
    /// and the editor stays open.
    mutating func commitEditor(_ edit: ValueEditor, text: String, isNull: Bool = false) -> [ExplorerEffect] {
        var edit = edit
        do {
            guard !edit.object.isInvalidated else { throw RealmError.invalidatedObject }
            // The multi-line editor reads its text like every other editor (text that does not
            // parse as JSON is the string itself, newlines and all; the engine checks its size).
            var value: Value =
                if isNull {
                    .null
                } else {
                    try EditText.parse(
                        text, for: edit.property, className: edit.object.className, realm: realm, now: Date())
                }
            // A Mixed edited as a list or dictionary: the JSON typed must be one.
            if let kind = edit.mixedAs, !isNull { value = try kind.checked(value, property: edit.property.name) }
            mode = .browse
            editAwaitingWrite = .editing(edit)
            if let index = edit.replaceAt {
                return [
                    .write(
                        .list(
                            className: edit.object.className, key: edit.object.key, property: edit.property.name,
                            edit: .replace(at: index, with: value)))
                ]
            }
            if let index = edit.insertAt {
                return [
                    .write(
                        .list(
                            className: edit.object.className, key: edit.object.key, property: edit.property.name,
                            edit: .insert(value, at: index)))
                ]
            }
            return [
                .write(
                    .set(
                        className: edit.object.className, keys: [edit.object.key], property: edit.property.name,
                        value: value))
            ]
        } catch {
            edit.refusal = "refused, nothing written: " + ExplorerText.describe(error)
            mode = .edit(.editing(edit))
            return []
        }
    }

    /// `d`: asks before deleting the object under the cursor, saying how many objects link to it.
    mutating func beginDelete() {
        guard !readOnly else { return refuse(readOnlyRefusal) }
        do {
            if let embedded = try embeddedObjectUnderCursor() { return confirmEmbeddedDelete(embedded) }
            guard let (object, _) = try cellUnderCursor() else {
                return refuse("d deletes an object: put the cursor on one")
            }
            let links = try incomingLinkCount(object)
            let name = ValueFormatter(realm: realm).name(of: object)
            var linked =
                links == 0 ? "no object links to it" : "\(links) object\(links == 1 ? " links" : "s link") to it"
            let embeddedOrigins = realm.schema.embeddedOrigins(of: object.className)
            if !embeddedOrigins.isEmpty {
                // Realm queries no embedded class: links from inside embedded objects are not
                // counted, and said so (they become null with the delete).
                linked =
                    (links == 0 ? "no other object links to it" : linked)
                    + ", links from embedded \(embeddedOrigins.joined(separator: ", ")) not counted"
            }
            mode = .edit(
                .confirming(
                    Confirmation(
                        question: "delete \(object.className) \(name)? \(linked) (y/n)",
                        write: .delete(className: object.className, keys: [object.key]))))
        } catch {
            refuse(ExplorerText.describe(error))
        }
    }

    /// The number of objects (of any class but an embedded one: Realm queries none) with a link
    /// or list element pointing at `object`.
    func incomingLinkCount(_ object: DynamicObject) throws -> Int {
        var total = 0
        for origin in realm.schema.objectSchemas where !origin.isEmbedded {
            for property in origin.properties
            where property.type == .object && property.objectClassName == object.className {
                let query = property.isList ? "ANY \(property.name) == $0" : "\(property.name) == $0"
                total += try realm.objects(origin.name).filter(query, arguments: [.link(object.key)]).count
            }
        }
        return total
    }

    /// `:delete`, `:set PROP = VALUE` and `:copy PATH`; nil for another command.
    mutating func runEditCommand(_ text: String) -> [ExplorerEffect]? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let name = trimmed.prefix { $0 != " " }
        let rest = trimmed.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        if let effects = runBatchCommand(String(name)) { return effects }
        switch name {
        case "clear":
            beginClearList()
            return []
        case "copy":
            guard !rest.isEmpty else {
                refuse("usage: :copy PATH (writes a compacted copy and opens it writable)")
                return []
            }
            if let leftOut = copyLeavesOut {
                mode = .edit(
                    .confirming(
                        Confirmation(
                            question: "the copy leaves out what is not shown (\(leftOut)): copy anyway? (y/n)",
                            effects: [.copyFile(path: rest)])))
                return []
            }
            return [.copyFile(path: rest)]
        case "delete":
            guard !readOnly else {
                refuse(readOnlyRefusal)
                return []
            }
            guard let (schema, keys) = currentResultKeys() else { return [] }
            guard !keys.isEmpty else {
                refuse(":delete: this table shows no objects")
                return []
            }
            mode = .edit(
                .confirming(
                    Confirmation(
                        question:
                            "delete all \(ValueFormatter.grouped(keys.count)) \(schema.name) object\(keys.count == 1 ? "" : "s") of this table? (y/n)",
                        write: .delete(className: schema.name, keys: keys))))
            return []
        case "set":
            guard !readOnly else {
                refuse(readOnlyRefusal)
                return []
            }
            guard let equals = rest.firstIndex(of: "=") else {
                refuse("usage: :set PROPERTY = VALUE (on every object of this table)")
                return []
            }
            let propertyName = rest[..<equals].trimmingCharacters(in: .whitespaces)
            let valueText = rest[rest.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard let (schema, keys) = currentResultKeys() else { return [] }
            guard !keys.isEmpty else {
                refuse(":set: this table shows no objects")
                return []
            }
            guard let property = schema.properties.first(where: { $0.name == propertyName }) else {
                refuse(
                    ":set: \(schema.name) has no property \(propertyName) (\(schema.properties.map(\.name).joined(separator: ", ")))"
                )
                return []
            }
            if property.isPrimaryKey {
                refuse("\(property.name) is the primary key: Realm never changes a primary key")
                return []
            }
            guard property.isPersisted, !property.isList, !(property.isMap && property.type == .object) else {
                refuse(
                    ":set sets a single value; \(property.name) is \(ExplorerText.withArticle(property.typeDescription))"
                )
                return []
            }
            do {
                let value = try EditText.parse(
                    valueText, for: property, className: schema.name, realm: realm, now: Date())
                let shown = ValueFormatter(realm: realm).shown(value, property, oneLine: true).text
                mode = .edit(
                    .confirming(
                        Confirmation(
                            question:
                                "set \(property.name) = \(shown) on all \(ValueFormatter.grouped(keys.count)) \(schema.name) object\(keys.count == 1 ? "" : "s") of this table? (y/n)",
                            write: .set(className: schema.name, keys: keys, property: property.name, value: value))))
            } catch {
                refuse("refused, nothing written: " + ExplorerText.describe(error))
            }
            return []
        default:
            return nil
        }
    }

    /// The class and the keys of every object the current table shows (its query applied).
    private mutating func currentResultKeys() -> (ObjectSchema, [ObjectKey])? {
        guard case .table(let table) = current else {
            refuse("this command works on a table (open a class first)")
            return nil
        }
        do {
            let keys = try table.rows.counted.keys()
            return (table.schema, keys)
        } catch {
            refuse(ExplorerText.describe(error))
            return nil
        }
    }

    /// `u`: asks to restore what the last `set` of this explorer replaced.
    mutating func beginUndo() -> [ExplorerEffect] {
        guard !readOnly else {
            refuse(readOnlyRefusal)
            return []
        }
        if batch != nil {
            unstageLast()
            return []
        }
        guard let record = undoHistory.undoable.last else {
            message = Message(
                text: "nothing to undo (u takes back the last change this explorer committed)", isError: false)
            return []
        }
        undoHistory.inFlight = .undo
        return [.write(.undo(record))]
    }

    /// ctrl-r: makes again what `u` took back last (the undo of its inverse).
    mutating func beginRedo() -> [ExplorerEffect] {
        guard !readOnly else {
            refuse(readOnlyRefusal)
            return []
        }
        if batch != nil {
            refuse("ctrl-r redoes committed changes: with a batch open, u unstages and ctrl-s commits")
            return []
        }
        guard let record = undoHistory.redoable.last else {
            message = Message(text: "nothing to redo (ctrl-r makes again what u took back)", isError: false)
            return []
        }
        undoHistory.inFlight = .redo
        return [.write(.undo(record))]
    }

    /// The version of the file the explorer reads (a commit advances it).
    public var realmVersion: UInt64 { realm.version }

    mutating func refuse(_ text: String) {
        message = Message(text: text, isError: true)
    }
}
