import RealmEngine

/// Deleting several embedded objects in one write so that one `u` puts them all back
/// (`EmbeddedGroup`): each is taken out of its place as a single delete takes one out; the undo
/// puts them back newest first, the redo takes them out again in the same order. Both first check
/// that nobody changed the touched properties since, and refuse (nothing written) otherwise.
extension EditTransaction {
    /// Deletes the embedded objects `keys` of `className`, recording the group; nil (nothing
    /// written) when one of them cannot be put back by itself: it has no parent, or it lies
    /// inside another one of them (it comes back with that one, at a key its entry cannot know).
    func takeOutGroup(_ className: String, _ keys: [ObjectKey]) throws -> EmbeddedGroup? {
        let deleted = Set(keys)
        var held: [(object: DynamicObject, parent: DynamicObject, property: Property)] = []
        for key in keys {
            let object = try existing(className, key)
            guard let (parent, property) = try object.embeddingParent() else { return nil }
            var ancestor: DynamicObject? = parent
            while let current = ancestor {
                if current.className == className && deleted.contains(current.key) { return nil }
                ancestor = try current.embeddingParent()?.0
            }
            held.append((object, parent, property))
        }
        var places: [EmbeddedGroup.Place] = []
        for (_, parent, property) in held
        where !places.contains(where: {
            $0.parentClass == parent.className && $0.parentKey == parent.key && $0.property == property.name
        }) {
            let before = try contents(parent, property)
            places.append(
                .init(
                    parentClass: parent.className, parentKey: parent.key, property: property.name, before: before,
                    after: before))
        }
        var entries: [EmbeddedEntry] = []
        for (index, (object, parent, property)) in held.enumerated() {
            try tick(index, of: held.count)
            entries.append(try takeOut(object, of: parent, property) { try realm.delete(object) })
        }
        for index in places.indices {
            places[index].after = try contents(of: places[index])
        }
        return EmbeddedGroup(className: className, entries: entries, places: places)
    }

    /// `u` after a group delete: every object made again at its place, with its values.
    func putBack(_ group: EmbeddedGroup) throws -> WriteReceipt {
        for place in group.places where try !contents(of: place).isIdentical(to: place.after) {
            throw changedSince(place)
        }
        for entry in group.entries.reversed() { try place(entry, in: try existing(entry.parentClass, entry.parentKey)) }
        return WriteReceipt(summary: "undone: \(group.objectsText) restored in their places", version: 0)
    }

    /// `u` after a group put back (ctrl-r of a group delete): the objects taken out again.
    func takeOutAgain(_ group: EmbeddedGroup) throws -> WriteReceipt {
        for place in group.places where try !contents(of: place).isIdentical(to: place.before) {
            throw changedSince(place)
        }
        for entry in group.entries { try remove(entry, from: try existing(entry.parentClass, entry.parentKey)) }
        return WriteReceipt(summary: "undone: \(group.objectsText) taken out of their places again", version: 0)
    }

    private func changedSince(_ place: EmbeddedGroup.Place) -> RealmError {
        RealmError.invalidInput(
            "\(place.parentClass)#\(place.parentKey.rawValue).\(place.property) changed since; undo would overwrite that change"
        )
    }

    private func contents(of place: EmbeddedGroup.Place) throws -> Value {
        let parent = try existing(place.parentClass, place.parentKey)
        guard let property = parent.objectSchema[place.property] else {
            throw RealmError.noSuchProperty(
                className: place.parentClass, property: place.property,
                available: parent.objectSchema.properties.map(\.name))
        }
        return try contents(parent, property)
    }

    /// `property` of `parent` with each embedded object in it as its values (`snapshot`): an
    /// object put back has a new key but the same values.
    private func contents(_ parent: DynamicObject, _ property: Property) throws -> Value {
        func content(_ value: Value) throws -> Value {
            guard case .link(let key) = value, let target = property.objectClassName else { return value }
            guard let object = try realm.object(ofType: target, key: key) else {
                throw RealmError.invalidInput(
                    "\(target)#\(key.rawValue), held by \(parent.className).\(property.name), cannot be read")
            }
            return try Self.snapshot(object)
        }
        switch try parent.value(forKey: property.name) {
        case .list(let items): return .list(try items.map(content))
        case .map(let entries): return .map(try entries.mapValues(content))
        case let value: return try content(value)
        }
    }
}
