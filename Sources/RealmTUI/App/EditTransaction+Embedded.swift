import RealmEngine

/// Writing embedded objects: created only through their parent (Realm has no table of them).
extension EditTransaction {
    /// Creates an embedded object with `values` as the to-one `property` of object `key` of
    /// `className`, or in its list `property` at `index` (nil: appended). Undone by deleting it
    /// (which clears the parent's link, or takes it out of the list), as a created object is.
    func embed(_ className: String, _ key: ObjectKey, _ property: String, _ values: [String: Value], at index: Int?)
        throws -> WriteReceipt
    {
        let parent = try existing(className, key)
        guard let field = parent.objectSchema[property], field.type == .object, let target = field.objectClassName,
            realm.schema[target]?.isEmbedded == true, !field.isMap, !field.isSet
        else {
            throw RealmError.invalidInput(
                "\(className).\(property) does not hold embedded objects in a list or as a to-one")
        }
        let input = ObjectInput.dictionary(values.mapValues { .value($0) })
        let created: DynamicObject
        if field.isList {
            let list = try parent.list(forKey: property)
            let position = index ?? list.count
            guard position >= 0, position <= list.count else {
                throw RealmError.invalidInput(
                    "\(className)#\(key.rawValue).\(property) has \(list.count) elements: no position \(position)")
            }
            try list.insert(input, at: position)
            created = try list.object(at: position)
        } else {
            try parent.setValue(input, forKey: property)
            guard let object = try parent.linkedObject(forKey: property) else {
                throw RealmError.invalidInput("\(className)#\(key.rawValue).\(property) is still null after setting it")
            }
            created = object
        }
        // Kept as stored (coerced), so undo compares like with like.
        let stored = try Dictionary(uniqueKeysWithValues: values.keys.map { ($0, try created.value(forKey: $0)) })
        return WriteReceipt(
            summary: "created \(target)#\(created.key.rawValue) in \(className)#\(key.rawValue).\(property)",
            undo: .created(className: target, key: created.key, values: stored), version: 0)
    }
}
