import RealmEngine

/// Taking an embedded object out of its parent so that `u` can put it back: its values (nested
/// embedded objects included) and its place are recorded first (`EmbeddedEntry`); the undo
/// makes it again at that place, the redo takes it out again. Each checks first that nobody
/// changed the parent's property since, and refuses (nothing written) otherwise.
extension EditTransaction {
    /// Takes `object`, held by `parent` through `property`, out of its place with `remove`
    /// (a delete, a list's or a dictionary's removal), recording what an undo needs.
    func takeOut(
        _ object: DynamicObject, of parent: DynamicObject, _ property: Property,
        remove: () throws -> Void
    ) throws -> EmbeddedEntry {
        let before = try parent.value(forKey: property.name)
        let slot: EmbeddedEntry.Slot
        switch before {
        case .list(let items):
            guard let index = items.firstIndex(of: .link(object.key)) else { throw notHeld(object, parent, property) }
            slot = .index(index)
        case .map(let entries):
            guard let key = entries.first(where: { $0.value == .link(object.key) })?.key else {
                throw notHeld(object, parent, property)
            }
            slot = .key(key)
        default:
            guard before == .link(object.key) else { throw notHeld(object, parent, property) }
            slot = .toOne
        }
        let snapshot = try Self.snapshot(object)
        try remove()
        return EmbeddedEntry(
            parentClass: parent.className, parentKey: parent.key, property: property.name, slot: slot,
            className: object.className, object: snapshot, siblings: Self.without(before, slot))
    }

    private func notHeld(_ object: DynamicObject, _ parent: DynamicObject, _ property: Property) -> RealmError {
        RealmError.invalidInput(
            "\(object.className)#\(object.key.rawValue) is not in \(parent.className)#\(parent.key.rawValue).\(property.name) any more"
        )
    }

    /// `u` after a removal: the object made again at its place, with its values.
    func putBack(_ entry: EmbeddedEntry) throws -> WriteReceipt {
        let parent = try existing(entry.parentClass, entry.parentKey)
        let current = try parent.value(forKey: entry.property)
        let free: Bool =
            switch entry.slot {
            case .toOne: current == .null
            case .index: Value.identical(current, entry.siblings)
            case .key(let key):
                Value.identical(Self.without(current, entry.slot), entry.siblings)
                    && (current.mapEntries[key] ?? .null) == .null
            }
        guard free else { throw changedSince(entry) }
        try place(entry, in: parent)
        return WriteReceipt(summary: "undone: \(entry.className) restored in \(entry.placeText)", version: 0)
    }

    /// `u` after a put-back (ctrl-r of a removal): the object taken out of its place again.
    func takeOutAgain(_ entry: EmbeddedEntry) throws -> WriteReceipt {
        let parent = try existing(entry.parentClass, entry.parentKey)
        let current = try parent.value(forKey: entry.property)
        let held: Value? =
            switch (entry.slot, current) {
            case (.toOne, _): current
            case (.index(let index), .list(let items)): items.indices.contains(index) ? items[index] : nil
            case (.key(let key), .map(let entries)): entries[key]
            default: nil
            }
        guard case .link(let key)? = held, Value.identical(Self.without(current, entry.slot), entry.siblings),
            let object = try realm.object(ofType: entry.className, key: key),
            try Self.snapshot(object).isIdentical(to: entry.object)
        else { throw changedSince(entry) }
        try remove(entry, from: parent)
        return WriteReceipt(summary: "undone: \(entry.className) taken out of \(entry.placeText) again", version: 0)
    }

    /// Makes the recorded object again at its place in `parent` (the checks were made).
    func place(_ entry: EmbeddedEntry, in parent: DynamicObject) throws {
        guard let schema = realm.schema[entry.className] else { throw RealmError.noSuchClass(entry.className) }
        let input = try Self.input(entry.object, schema, realm.schema)
        switch entry.slot {
        case .toOne: try parent.setValue(input, forKey: entry.property)
        case .index(let index): try parent.list(forKey: entry.property).insert(input, at: index)
        case .key(let key): try parent.map(forKey: entry.property).setInput(input, forKey: key)
        }
    }

    /// Takes the object at the entry's place in `parent` out (the checks were made).
    func remove(_ entry: EmbeddedEntry, from parent: DynamicObject) throws {
        switch entry.slot {
        case .toOne: try parent.setValue(.null, forKey: entry.property)
        case .index(let index): try parent.list(forKey: entry.property).remove(at: index)
        case .key(let key): try parent.map(forKey: entry.property).removeValue(forKey: key)
        }
    }

    private func changedSince(_ entry: EmbeddedEntry) -> RealmError {
        RealmError.invalidInput("\(entry.placeText) changed since; undo would overwrite that change")
    }

    /// `value` without the element at `slot` (a to-one: null).
    static func without(_ value: Value, _ slot: EmbeddedEntry.Slot) -> Value {
        switch (slot, value) {
        case (.index(let index), .list(var items)):
            if items.indices.contains(index) { items.remove(at: index) }
            return .list(items)
        case (.key(let key), .map(var entries)):
            entries.removeValue(forKey: key)
            return .map(entries)
        default:
            return .null
        }
    }

    /// An embedded object's values as a tree: a dictionary of its fields, the embedded objects
    /// it holds as nested dictionaries (in lists and dictionaries where it holds them so).
    static func snapshot(_ object: DynamicObject) throws -> Value {
        let realm = object.realm
        var fields: [String: Value] = [:]
        for property in object.objectSchema.persistedProperties {
            let value = try object.value(forKey: property.name)
            guard let target = property.objectClassName, realm.schema[target]?.isEmbedded == true else {
                fields[property.name] = value
                continue
            }
            func nested(_ link: Value) throws -> Value {
                guard case .link(let key) = link else { return .null }
                guard let child = try realm.object(ofType: target, key: key) else {
                    throw RealmError.invalidInput(
                        "\(target)#\(key.rawValue), held by \(object.className).\(property.name), cannot be read")
                }
                return try snapshot(child)
            }
            switch value {
            case .list(let items): fields[property.name] = .list(try items.map(nested))
            case .map(let entries): fields[property.name] = .map(try entries.mapValues(nested))
            default: fields[property.name] = try nested(value)
            }
        }
        return .map(fields)
    }

    /// The input that makes an embedded object of `schema` with the values of `snapshot` again.
    static func input(_ snapshot: Value, _ schema: ObjectSchema, _ all: Schema) throws -> ObjectInput {
        guard case .map(let fields) = snapshot else {
            throw RealmError.invalidInput("the recorded \(schema.name) is not a set of fields; undo cannot restore it")
        }
        var out: [String: ObjectInput] = [:]
        for property in schema.persistedProperties {
            guard let value = fields[property.name] else {
                throw RealmError.invalidInput(
                    "the schema of \(schema.name) changed since (\(property.name) is new); undo cannot restore it")
            }
            if let target = property.objectClassName.flatMap({ all[$0] }), target.isEmbedded {
                func nested(_ value: Value) throws -> ObjectInput {
                    value == .null ? .value(.null) : try input(value, target, all)
                }
                // By the property's kind: a to-one's recorded object is a dictionary too.
                switch value {
                case .list(let items) where property.isList: out[property.name] = .array(try items.map(nested))
                case .map(let entries) where property.isMap:
                    out[property.name] = .dictionary(try entries.mapValues(nested))
                default: out[property.name] = try nested(value)
                }
            } else if property.isList, case .list(let items) = value {
                out[property.name] = .array(items.map { .value($0) })
            } else {
                out[property.name] = .value(value)
            }
        }
        return .dictionary(out)
    }
}

extension Value {
    /// A dictionary's entries; empty for any other value.
    var mapEntries: [String: Value] {
        if case .map(let entries) = self { return entries }
        return [:]
    }
}
