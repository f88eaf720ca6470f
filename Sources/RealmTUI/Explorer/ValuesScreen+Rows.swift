import RealmEngine

/// One step into a collection nested in a Mixed value (or a list or dictionary property).
public enum MixedStep: Hashable, Sendable {
    case index(Int)
    case key(String)
}

/// A row of a values screen: a list's element (no key) or a dictionary's entry.
struct ValueRow: Equatable {
    var key: String?
    var value: Value

    /// The step from the collection to this row's value.
    func step(at index: Int) -> MixedStep { key.map(MixedStep.key) ?? .index(index) }
}

extension ValuesScreen {
    /// The collection shown, read now: the property's value, then `path` into it. A step that
    /// leads nowhere (the data changed) is an error saying so, never an empty collection.
    func collection() throws -> Value {
        var value = try object.value(forKey: property.name)
        for step in path {
            switch (step, value) {
            case (.index(let index), .list(let items)) where items.indices.contains(index): value = items[index]
            case (.key(let key), .map(let entries)) where entries[key] != nil: value = entries[key] ?? .null
            default:
                throw RealmError.invalidInput(
                    "\(property.name): that nested value is gone (the data changed): Esc goes back")
            }
        }
        return value
    }

    /// The rows: a list's elements in order, or a dictionary's entries in Realm's key order.
    func rows() throws -> [ValueRow] {
        if path.isEmpty, property.isList {
            return try object.list(forKey: property.name).elements().map { ValueRow(key: nil, value: $0) }
        }
        switch try collection() {
        case .list(let items): return items.map { ValueRow(key: nil, value: $0) }
        case .map(let entries): return Value.map(entries).sortedEntries.map { ValueRow(key: $0.key, value: $0.value) }
        default: throw RealmError.invalidInput("\(property.name) no longer holds a list or a dictionary: Esc goes back")
        }
    }

    /// Whether the screen shows a dictionary's entries.
    var isDictionary: Bool {
        if path.isEmpty { return property.isMap }
        if case .map? = try? collection() { return true }
        return false
    }

    /// The property as one of the collection's values (not a list or dictionary of them).
    var elementProperty: Property {
        var element = property
        element.isList = false
        element.isSet = false
        element.isMap = false
        if element.type == .object || element.type == .mixed { element.isOptional = true }
        return element
    }

    /// Whether the values are embedded objects (a dictionary or list of them).
    func holdsEmbedded(_ realm: Realm) -> Bool {
        property.type == .object && property.objectClassName.flatMap { realm.schema[$0] }?.isEmbedded == true
    }
}

extension ExplorerState {
    /// Enter on a row of a values screen: a link (also inside a Mixed) opens its object, an
    /// embedded object its fields, a collection nested in a Mixed value its rows; a Mixed scalar
    /// opens its editor; another value has nothing to open.
    mutating func openValueRow(_ values: ValuesScreen) {
        do {
            let rows = try values.rows()
            guard rows.indices.contains(values.cursor) else { return }
            let row = rows[values.cursor]
            let element = values.elementProperty
            let label = row.key.map { ValueFormatter.key($0) } ?? "[\(values.cursor)]"
            switch row.value {
            case .link(let key):
                guard let className = element.objectClassName,
                    let target = try realm.object(ofType: className, key: key)
                else {
                    return refuse("\(label): \(element.objectClassName ?? "the object")#\(key.rawValue) is gone")
                }
                push(.detail(DetailScreen(crumb: crumbName(target), object: target)))
            case .typedLink(let link):
                guard let target = try realm.object(ofType: link.className, key: link.key) else {
                    return refuse("\(label): \(link.className)#\(link.key.rawValue) is gone")
                }
                push(.detail(DetailScreen(crumb: crumbName(target), object: target)))
            case .list, .map:
                var nested = values
                nested.path.append(row.step(at: values.cursor))
                nested.crumb = label
                nested.cursor = 0
                nested.top = 0
                push(.values(nested))
            case .null where element.type == .object:
                message = Message(text: "\(label) is null: no object to open (e picks one)", isError: false)
            default:
                if element.type == .mixed || values.isDictionary, !readOnly { return beginEdit() }
                message = Message(text: "a value: nothing to open (y copies it)", isError: false)
            }
        } catch {
            refuse(ExplorerText.describe(error))
        }
    }
}
