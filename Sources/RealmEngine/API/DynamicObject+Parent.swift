/// Where an embedded object lives: the one object holding it (Realm keeps exactly one).
extension DynamicObject {
    /// The object holding this embedded object and the property it is held through (a to-one
    /// link, a list or a dictionary); nil for an object of a top-level class.
    ///
    /// Read from the owning link's backlinks, so it answers for a parent of an embedded class
    /// too (which no query can reach).
    public func embeddingParent() throws -> (object: DynamicObject, property: Property)? {
        try realm.checkThread()
        guard objectSchema.isEmbedded else { return nil }
        let view = try realm.readable
        let layout = view.layout
        let owning = layout.tables[classIndex].backlinkColumns.keys
            .filter { layout.owningLinks.contains($0) }
            .sorted { ($0.classIndex, $0.column) < ($1.classIndex, $1.column) }
        for origin in owning {
            let keys = try view.backlinks(
                classIndex: classIndex, key: key, originClass: origin.classIndex, originColumn: origin.column)
            guard let parent = keys.first else { continue }
            let property = layout.schema.objectSchemas[origin.classIndex].persistedProperties[origin.column]
            return (DynamicObject(realm: realm, classIndex: origin.classIndex, key: parent), property)
        }
        return nil
    }
}
