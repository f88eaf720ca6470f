extension IntegrityChecker {
    /// A stored Mixed value (or collection of them) holds what a write can store: every link
    /// names a class of the schema and an existing object of it (deleting an object clears the
    /// links to it), nested dictionary keys are keys Realm accepts, and a set holds no
    /// collection. The bytes themselves were checked when the leaf was read (`MixedCodec`).
    func checkMixed(_ value: Value, _ property: Property, _ object: String, existing: [Set<Int64>]) throws {
        let layout = snapshot.layout
        for link in value.typedLinks {
            guard let target = layout.classIndex(link.className), existing[target].contains(link.key.rawValue) else {
                throw corrupt(0, "\(object).\(property.name) holds a link to \(link), which does not exist")
            }
        }
        func keys(_ v: Value, nested: Bool) throws {
            switch v {
            case .list(let items):
                if nested && property.isSet {
                    throw corrupt(0, "the set \(object).\(property.name) holds a collection")
                }
                for item in items { try keys(item, nested: true) }
            case .map(let entries):
                if nested && property.isSet {
                    throw corrupt(0, "the set \(object).\(property.name) holds a collection")
                }
                for (key, item) in entries {
                    do {
                        try MapKey.check(key, className: "", property: property.name)
                    } catch {
                        throw corrupt(
                            0, "\(object).\(property.name) holds the dictionary key '\(key)', which Realm refuses")
                    }
                    try keys(item, nested: true)
                }
            default: break
            }
        }
        // The property's own list or dictionary is checked by `checkCollection`; below it, every level here.
        try keys(value, nested: !property.isCollection)
    }
}
