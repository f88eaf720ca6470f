import RealmEngine

/// Writing one entry of a dictionary (of values, links or embedded objects), or one value of a
/// collection nested in a Mixed value.
extension EditTransaction {
    /// Applies `edit` to the dictionary `property` of object `key` of `className` (or to the
    /// collection `path` leads to inside it). Undone by setting the property back as it was, or,
    /// for embedded objects, by putting a removed one back or renaming its key back.
    func changeEntry(
        _ className: String, _ key: ObjectKey, _ property: String, _ path: [MixedStep],
        _ edit: EntryEdit
    ) throws -> WriteReceipt {
        let object = try existing(className, key)
        guard let field = object.objectSchema[property] else {
            throw RealmError.noSuchProperty(
                className: className, property: property, available: object.objectSchema.properties.map(\.name))
        }
        let place = "\(className)#\(key.rawValue).\(property)"
        if field.isMap, path.isEmpty, field.objectClassName.flatMap({ realm.schema[$0] })?.isEmbedded == true {
            let map = try object.map(forKey: property)
            switch edit {
            case .remove(let mapKey):
                guard case .link(let child)? = try map.value(forKey: mapKey),
                    let embedded = try realm.object(ofType: field.objectClassName ?? "", key: child)
                else {
                    // A key with nil (its object deleted) goes without anything to restore.
                    guard try map.value(forKey: mapKey) != nil else { throw noKey(place, mapKey) }
                    try map.removeValue(forKey: mapKey)
                    return WriteReceipt(summary: "\(place)['\(mapKey)'] removed", version: 0)
                }
                let entry = try takeOut(embedded, of: object, field) { try map.removeValue(forKey: mapKey) }
                return WriteReceipt(
                    summary: "\(place)['\(mapKey)'] removed with its \(entry.className)",
                    undo: .embeddedRemoved(entry), version: 0)
            case .rename(let from, let to):
                try renameEmbedded(object, property, from: from, to: to)
                return WriteReceipt(
                    summary: "\(place)['\(from)'] renamed to '\(to)'",
                    undo: .renamed(className: className, key: key, property: property, from: from, to: to), version: 0)
            case .put, .replace:
                throw RealmError.invalidInput(
                    "\(place) holds embedded objects: a new one is made by its form, one there is edited field by field"
                )
            }
        }
        let before = try object.value(forKey: property)
        let after = try Self.applying(
            edit, to: before, at: path, place: place, className: className, property: property)
        if field.isList {
            // A list property: the element holding the change is replaced (lists are not set whole).
            guard case .index(let index)? = path.first, case .list(let items) = after, items.indices.contains(index)
            else {
                throw RealmError.invalidInput("\(place): a list's elements are changed by position")
            }
            let list = try object.list(forKey: property)
            try list.replace(index: index, with: .value(items[index]))
            return WriteReceipt(
                summary: "\(place)[\(index)] changed",
                undo: .list(
                    className: className, key: key, property: property, before: before.listElements,
                    after: try list.elements()), version: 0)
        }
        try object.setValue(after, forKey: property)
        let stored = try object.value(forKey: property)
        return WriteReceipt(
            summary: "\(place) changed: \(Self.describe(edit))",
            undo: .values(
                className: className, property: property,
                changes: [UndoRecord.Change(key: key, old: before, new: stored)]), version: 0)
    }

    /// Creates an embedded object with `values` under the new key `mapKey` of the dictionary
    /// `property`. Undone by removing the key (which deletes the object).
    func embedEntry(
        _ className: String, _ key: ObjectKey, _ property: String, _ mapKey: String,
        _ values: [String: Value]
    ) throws -> WriteReceipt {
        let parent = try existing(className, key)
        let map = try parent.map(forKey: property)
        guard let target = map.property.objectClassName, realm.schema[target]?.isEmbedded == true else {
            throw RealmError.invalidInput("\(className).\(property) is not a dictionary of embedded objects")
        }
        let place = "\(className)#\(key.rawValue).\(property)"
        guard try map.value(forKey: mapKey) == nil else {
            throw RealmError.invalidInput("\(place) already has the key '\(mapKey)'")
        }
        let before = try parent.value(forKey: property)
        try map.setInput(.dictionary(values.mapValues { .value($0) }), forKey: mapKey)
        guard case .link(let child)? = try map.value(forKey: mapKey),
            let created = try realm.object(ofType: target, key: child)
        else {
            throw RealmError.internalError("\(place)['\(mapKey)'] holds no object after creating one")
        }
        let entry = EmbeddedEntry(
            parentClass: className, parentKey: key, property: property, slot: .key(mapKey), className: target,
            object: try Self.snapshot(created), siblings: before)
        return WriteReceipt(
            summary: "created \(target)#\(child.rawValue) in \(place)['\(mapKey)']", undo: .embeddedAdded(entry),
            version: 0)
    }

    /// Moves the embedded object under `from` to the free key `to` (made again there with the
    /// same values: an embedded object cannot change its place).
    @discardableResult
    func renameEmbedded(_ parent: DynamicObject, _ property: String, from: String, to: String) throws -> DynamicObject?
    {
        let map = try parent.map(forKey: property)
        let place = "\(parent.className)#\(parent.key.rawValue).\(property)"
        guard let value = try map.value(forKey: from) else { throw noKey(place, from) }
        guard try map.value(forKey: to) == nil else {
            throw RealmError.invalidInput("\(place) already has the key '\(to)'")
        }
        guard case .link(let child) = value, let className = map.property.objectClassName,
            let object = try realm.object(ofType: className, key: child), let schema = realm.schema[className]
        else {
            try map.setValue(.null, forKey: to)
            try map.removeValue(forKey: from)
            return nil
        }
        let input = try Self.input(try Self.snapshot(object), schema, realm.schema)
        try map.setInput(input, forKey: to)
        try map.removeValue(forKey: from)
        return object
    }

    private func noKey(_ place: String, _ key: String) -> RealmError {
        RealmError.invalidInput("\(place) has no key '\(key)' (the data changed)")
    }

    /// `value` with `edit` applied to the collection `path` leads to.
    static func applying(
        _ edit: EntryEdit, to value: Value, at path: [MixedStep], place: String,
        className: String, property: String
    ) throws -> Value {
        guard let step = path.first else {
            switch (edit, value) {
            case (.put(let key, let new), .map(var entries)):
                try MapKey.check(key, className: className, property: property)
                entries[key] = new
                return .map(entries)
            case (.remove(let key), .map(var entries)):
                guard entries.removeValue(forKey: key) != nil else {
                    throw RealmError.invalidInput("\(place) has no key '\(key)' (the data changed)")
                }
                return .map(entries)
            case (.rename(let from, let to), .map(var entries)):
                try MapKey.check(to, className: className, property: property)
                guard let moved = entries[from] else {
                    throw RealmError.invalidInput("\(place) has no key '\(from)' (the data changed)")
                }
                guard entries[to] == nil else { throw RealmError.invalidInput("\(place) already has the key '\(to)'") }
                entries.removeValue(forKey: from)
                entries[to] = moved
                return .map(entries)
            case (.replace(let index, let new), .list(var items)) where items.indices.contains(index):
                items[index] = new
                return .list(items)
            default:
                throw RealmError.invalidInput("\(place) changed since: that entry is not there any more")
            }
        }
        let rest = Array(path.dropFirst())
        switch (step, value) {
        case (.index(let index), .list(var items)) where items.indices.contains(index):
            items[index] = try applying(
                edit, to: items[index], at: rest, place: place, className: className, property: property)
            return .list(items)
        case (.key(let key), .map(var entries)):
            guard let inner = entries[key] else {
                throw RealmError.invalidInput("\(place) changed since: that entry is not there any more")
            }
            entries[key] = try applying(
                edit, to: inner, at: rest, place: place, className: className, property: property)
            return .map(entries)
        default:
            throw RealmError.invalidInput("\(place) changed since: that entry is not there any more")
        }
    }

    static func describe(_ edit: EntryEdit) -> String {
        switch edit {
        case .put(let key, _): "'\(key)' set"
        case .remove(let key): "'\(key)' removed"
        case .rename(let from, let to): "'\(from)' renamed to '\(to)'"
        case .replace(let index, _): "[\(index)] replaced"
        }
    }
}

extension Value {
    /// A list's elements; empty for any other value.
    var listElements: [Value] {
        if case .list(let items) = self { return items }
        return []
    }
}
