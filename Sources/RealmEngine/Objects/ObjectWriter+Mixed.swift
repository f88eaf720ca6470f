/// Links inside Mixed values (`Value.typedLink`): checked when written, cleared when their target
/// is deleted.
///
/// Realm Core keeps backlinks for Mixed links too; this engine does not (a Mixed value may link
/// to any class, so every class would need a backlink column per Mixed property). Deleting an
/// object therefore scans the Mixed columns of the schema — only when the schema has one, and
/// only their values — and clears every link to it, at any depth, as Core does: the value, the
/// list element or the dictionary entry becomes nil and stays in place (a set drops the element).
extension WriteTransaction {
    /// Throws unless every typed link in the Mixed columns of `row` names a class of the schema
    /// and an object of that class.
    func checkTypedLinks(_ row: [Value], classIndex: Int) throws {
        for place in layout.mixedColumns where place.classIndex == classIndex && place.column < row.count {
            try checkTypedLinks(row[place.column], classIndex: classIndex, column: place.column)
        }
    }

    /// Throws unless every typed link in `value` (for `column` of `classIndex`) exists.
    func checkTypedLinks(_ value: Value, classIndex: Int, column: Int) throws {
        let links = value.typedLinks
        guard !links.isEmpty else { return }
        let place = "\(layout.schema.objectSchemas[classIndex].name).\(layout.tables[classIndex].columns[column].name)"
        for link in links {
            guard let target = layout.classIndex(link.className) else {
                throw RealmError.invalidInput("\(place): the link \(link) names no class of this file")
            }
            // As in Realm: an embedded object has exactly one parent, which holds it through a link property.
            if layout.schema.objectSchemas[target].isEmbedded {
                throw RealmError.invalidInput(
                    "\(place): \(link.className) is an embedded class: a Mixed value cannot link to its objects, which live only inside their parent"
                )
            }
            guard try state.contains(classIndex: target, key: link.key) else {
                throw RealmError.invalidInput(
                    "\(place): the link \(link) names no object: \(link.className) has no object with key \(link.key)")
            }
        }
    }

    /// Clears every Mixed link to `key` of `classIndex` (called when that object is deleted).
    func clearMixedLinks(to classIndex: Int, key: ObjectKey) throws {
        guard !layout.mixedColumns.isEmpty else { return }
        let className = layout.schema.objectSchemas[classIndex].name
        for place in layout.mixedColumns {
            var changed: [(ObjectKey, Value)] = []
            try state.forEachObject(classIndex: place.classIndex) { origin, cluster, row in
                let value = cluster.value(row: row, column: place.column)
                guard value.typedLinks.contains(where: { $0.className == className && $0.key == key }) else { return }
                var cleared = value.clearingTypedLinks(to: className, key: key)
                // A set drops the element (it cannot hold two nils), as a set of links does.
                if case .list(let items) = value, layout.tables[place.classIndex].columns[place.column].isSet {
                    cleared = .list(items.filter { $0 != .typedLink(TypedLink(className: className, key: key)) })
                }
                changed.append((origin, cleared))
            }
            for (origin, value) in changed {
                try setValue(place.classIndex, origin, column: place.column, value)
            }
        }
    }
}

extension SchemaLayout {
    /// Every (class, column) of a Mixed property (value, list, set or dictionary of Mixed).
    static func mixedColumns(of schema: Schema) -> [TableLayout.OriginLink] {
        schema.objectSchemas.enumerated().flatMap { ci, c in
            c.persistedProperties.enumerated().compactMap { col, p in
                p.type == .mixed ? TableLayout.OriginLink(classIndex: ci, column: col) : nil
            }
        }
    }
}
