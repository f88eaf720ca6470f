import Foundation
import RealmEngine

/// A list being edited: its object and property (a list of objects shown as a table, or a list
/// of values in its own view).
struct ListTarget {
    var object: DynamicObject
    var property: Property
}

/// A link being picked: the table of the target class is on the stack at `depth`; Enter there
/// picks the object under the cursor, ctrl-n picks null (to-one links), Esc cancels.
struct LinkPick {
    var object: DynamicObject
    var property: Property
    /// For a list: where the picked object goes (nil: a to-one link is set).
    var insertAt: Int?
    /// For a dictionary of links: the key the picked object goes under.
    var mapKey: String? = nil
    /// The stack depth of the picker's table.
    var depth: Int
    /// For a Mixed property (its type picker's `link`): the pick is a link to an object of the
    /// picker's class (`Value.typedLink`), not a link of the property's own class.
    var isMixed = false
    /// For a Mixed list element or entry (its type picker's `link`): the editor that says where
    /// the picked link goes; nil for a property.
    var mixedBase: ValueEditor? = nil
}

extension ExplorerState {
    /// The list the current screen shows, when it is one the user opened from an object.
    func listUnderTable() -> ListTarget? {
        switch current {
        case .values(let values):
            // A dictionary, or a collection inside a Mixed value, is edited by its own keys.
            guard values.path.isEmpty, values.property.isList else { return nil }
            return ListTarget(object: values.object, property: values.property)
        case .table(let table):
            guard stack.count >= 2, case .detail(let detail) = stack[stack.count - 2] else { return nil }
            let properties = detail.object.objectSchema.properties
            guard properties.indices.contains(detail.cursor) else { return nil }
            let property = properties[detail.cursor]
            guard property.isList, property.type == .object, property.name == table.crumb else { return nil }
            return ListTarget(object: detail.object, property: property)
        default: return nil
        }
    }

    /// The list position under the cursor, refusing a table whose query or sort reorders it.
    private mutating func listCursor() -> (ListTarget, Int)? {
        guard !readOnly else {
            refuse(readOnlyRefusal)
            return nil
        }
        guard let list = listUnderTable() else {
            refuse("this key edits a list: open one from its object first")
            return nil
        }
        switch current {
        case .values(let values): return (list, values.cursor)
        case .table(let table):
            guard table.query.isEmpty, table.sort == nil else {
                refuse("list shown sorted or filtered: clear both to edit it")
                return nil
            }
            return (list, table.cursorRow)
        default: return nil
        }
    }

    /// The number of elements of `list`; nil, with the reason on the status line, when they
    /// cannot be read (its object deleted, a damaged file): never 0 for a list not read.
    mutating func readableCount(_ list: ListTarget) -> Int? {
        do {
            return try list.object.list(forKey: list.property.name).elements().count
        } catch {
            refuse(ExplorerText.listUnreadable(error, list.property.name))
            return nil
        }
    }

    /// `a` (append) and `i` (insert before the cursor) in a list: a value editor for a list of
    /// values, the target class's table to pick from for a list of objects.
    mutating func beginListInsert(_ list: ListTarget, at index: Int?) {
        guard let count = readableCount(list) else { return }
        let position = index ?? count
        if list.property.type == .object, ValueFormatter(realm: realm).embeddedTarget(list.property) != nil {
            beginEmbed(in: list.object, list.property, at: index == nil ? nil : position)
        } else if list.property.type == .object {
            beginPick(object: list.object, property: list.property, insertAt: position)
        } else if list.property.type == .mixed {
            // A new Mixed element is typed through the type picker, as every Mixed value is.
            var element = list.property
            element.isList = false
            element.isOptional = true
            beginMixedEdit(
                ValueEditor(object: list.object, property: element, editor: LineEditor(), insertAt: position),
                current: .null, isNew: true)
        } else {
            var element = list.property
            element.isList = false
            let editor = ValueEditor(
                object: list.object, property: element,
                editor: LineEditor(ObjectForm.defaultText(element, realm: realm)), insertAt: position)
            mode = .edit(.editing(editor))
        }
    }

    /// `i`, `x`, `J`, `K` in a list.
    mutating func performListAction(_ action: ActionName) -> [ExplorerEffect] {
        guard let (list, cursor) = listCursor(), let count = readableCount(list) else { return [] }
        let name = list.property.name
        func write(_ edit: ListEdit) -> [ExplorerEffect] {
            [.write(.list(className: list.object.className, key: list.object.key, property: name, edit: edit))]
        }
        switch action {
        case .appendElement:
            beginListInsert(list, at: nil)
        case .insertElement:
            beginListInsert(list, at: min(cursor, count))
        case .removeElement:
            guard cursor < count else { return [] }
            return write(.remove(at: cursor))
        case .moveElementDown, .moveElementUp:
            let to = action == .moveElementDown ? cursor + 1 : cursor - 1
            guard cursor < count, (0..<count).contains(to) else { return [] }
            // The cursor follows the element once the move is written (`finishWrite`).
            return write(.move(from: cursor, to: to))
        default: break
        }
        return []
    }

    /// `e` on a link (or `a`/`i` in a list of objects): the target class's table, to pick from.
    mutating func beginPick(object: DynamicObject, property: Property, insertAt: Int?) {
        guard let className = property.objectClassName, let target = realm.schema[className] else { return }
        do {
            let results = try realm.objects(className)
            push(.table(TableScreen(crumb: "pick \(className)", schema: target, base: results)))
            pick = LinkPick(object: object, property: property, insertAt: insertAt, depth: stack.count)
            message = Message(
                text:
                    "pick \(ExplorerText.withArticle(className)) for \(property.name): Enter picks\(insertAt == nil ? ", ^N null" : ""), Esc cancels",
                isError: false)
        } catch {
            refuse(ExplorerText.describe(error))
        }
    }

    /// Keys on the picker's table: Enter picks, ctrl-n clears a to-one link, Esc cancels; nil
    /// for keys that act as usual (moving, the query bar, sorting).
    mutating func handlePickKey(_ key: Key) -> [ExplorerEffect]? {
        guard let pick else { return nil }
        guard stack.count == pick.depth, case .table(let table) = current else {
            if stack.count < pick.depth { self.pick = nil }
            return nil
        }
        let className = pick.object.className
        var picked: Value
        switch key {
        case .enter:
            guard let object = try? table.rows.object(at: table.cursorRow) else {
                refuse("no object to pick here")
                return []
            }
            picked =
                pick.isMixed ? .typedLink(TypedLink(className: object.className, key: object.key)) : .link(object.key)
        case .control("n"):
            guard pick.insertAt == nil else {
                refuse("a list holds objects, not null: Esc cancels")
                return []
            }
            picked = .null
        case .escape, .backspace:
            self.pick = nil
            goBack()
            message = Message(text: "nothing picked: nothing written", isError: false)
            return []
        default:
            return nil
        }
        self.pick = nil
        goBack()
        if let base = pick.mixedBase {
            return [.write(mixedWrite(picked, into: base))]
        }
        if let mapKey = pick.mapKey {
            return [
                .write(
                    .entry(
                        className: className, key: pick.object.key, property: pick.property.name, path: [],
                        edit: .put(mapKey, picked)))
            ]
        }
        if let index = pick.insertAt {
            return [
                .write(
                    .list(
                        className: className, key: pick.object.key, property: pick.property.name,
                        edit: .insert(picked, at: index)))
            ]
        }
        return [
            .write(.set(className: className, keys: [pick.object.key], property: pick.property.name, value: picked))
        ]
    }

    /// The write putting `value` where the Mixed editor `base` writes: its list position, its
    /// entry, or its property.
    func mixedWrite(_ value: Value, into base: ValueEditor) -> EditWrite {
        let object = base.object
        let name = base.property.name
        if let entry = base.entry {
            switch entry.step {
            case .index(let index):
                return .entry(
                    className: object.className, key: object.key, property: name, path: entry.path,
                    edit: .replace(index, value))
            case .key(let key), .rename(let key):
                return .entry(
                    className: object.className, key: object.key, property: name, path: entry.path,
                    edit: .put(key, value))
            case .newKey:
                break
            }
        }
        if let index = base.replaceAt {
            return .list(
                className: object.className, key: object.key, property: name, edit: .replace(at: index, with: value))
        }
        if let index = base.insertAt {
            return .list(className: object.className, key: object.key, property: name, edit: .insert(value, at: index))
        }
        return .set(className: object.className, keys: [object.key], property: name, value: value)
    }

    /// `:clear`: asks before emptying the list on screen.
    mutating func beginClearList() {
        guard !readOnly else { return refuse(readOnlyRefusal) }
        guard let list = listUnderTable() else { return refuse(":clear empties a list: open one first") }
        guard let count = readableCount(list) else { return }
        mode = .edit(
            .confirming(
                Confirmation(
                    question: "remove all \(count) element\(count == 1 ? "" : "s") of \(list.property.name)? (y/n)",
                    write: .list(
                        className: list.object.className, key: list.object.key, property: list.property.name,
                        edit: .removeAll))))
    }
}
