import RealmEngine

/// Editing embedded objects: a new one is made in place through the form (it has exactly one
/// parent, so it is never picked from a table); one removed from its place is deleted.
extension ExplorerState {
    /// Opens the form for a new embedded object going into `object`'s `property` (a to-one, or
    /// a list at `index`, nil appending).
    mutating func beginEmbed(in object: DynamicObject, _ property: Property, at index: Int?, mapKey: String? = nil) {
        guard let className = property.objectClassName, let schema = realm.schema[className] else { return }
        let target = ObjectForm.EmbedTarget(object: object, property: property, index: index, mapKey: mapKey)
        mode = .edit(.creating(ObjectForm(schema: schema, realm: realm, embedIn: target)))
        let place =
            mapKey.map { "\(object.className).\(property.name)[\(ValueFormatter.key($0))]" }
            ?? "\(object.className).\(property.name)"
        message = Message(text: "a new \(className) in \(place)", isError: false)
    }

    /// `a` in the detail view: appends a new embedded object (the form) to the list of them
    /// under the cursor.
    mutating func beginDetailAppend() {
        guard !readOnly else { return refuse(readOnlyRefusal) }
        do {
            guard let (object, property) = try cellUnderCursor(), property.isList, property.type == .object,
                ValueFormatter(realm: realm).embeddedTarget(property) != nil
            else {
                return refuse(
                    "a here appends to a list of embedded objects; another list: Enter opens it, a appends there")
            }
            beginEmbed(in: object, property, at: nil)
        } catch {
            refuse(ExplorerText.describe(error))
        }
    }

    /// The embedded object under the cursor: a nested element or entry row of the detail view, a
    /// detail view of one, or a row of a table of them; nil for anything else.
    func embeddedObjectUnderCursor() throws -> DynamicObject? {
        switch current {
        case .detail(let detail) where !detail.cursorPath.isEmpty:
            return try resolveNested(detail, detail.cursorRow)?.element
        case .detail(let detail):
            return detail.object.objectSchema.isEmbedded && !detail.object.isInvalidated ? detail.object : nil
        case .table(let table):
            guard table.schema.isEmbedded, table.cursorRow < table.rows.count else { return nil }
            return try table.rows.object(at: table.cursorRow)
        default:
            return nil
        }
    }

    /// `d` on an embedded object: asks before deleting it, which takes it out of its parent.
    mutating func confirmEmbeddedDelete(_ object: DynamicObject) {
        let formatter = ValueFormatter(realm: realm)
        let fields = formatter.embeddedFields(object.key, object.objectSchema, count: ValueFormatter.embeddedFields)
        mode = .edit(
            .confirming(
                Confirmation(
                    question:
                        "delete embedded \(object.className) ⟨\(fields)⟩? it leaves its parent (u puts it back) (y/n)",
                    write: .delete(className: object.className, keys: [object.key]))))
    }
}
