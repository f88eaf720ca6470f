import RealmEngine

/// How embedded objects look: an embedded object has no name of its own (no primary key, never a
/// table), so it is shown by its class and its first fields' values: `⟨Address⟩ Oslo, Main St, …`;
/// in a list or dictionary each element by its first field, the class once after the count:
/// `[2] ⟨Address⟩ Bergen, Tromsø`, `{1} ⟨Address⟩ work: Trondheim`.
extension ValueFormatter {
    /// How many fields a to-one embedded object's cell shows before `…`.
    static let embeddedFields = 2

    /// The embedded class a property holds objects of, nil for any other property.
    func embeddedTarget(_ property: Property) -> ObjectSchema? {
        guard property.type == .object, let name = property.objectClassName,
            let target = realm.schema[name], target.isEmbedded
        else { return nil }
        return target
    }

    /// The shown form of an embedded to-one, list or dictionary value; nil when `property` does
    /// not hold embedded objects.
    func embeddedShown(_ value: Value, _ property: Property, oneLine: Bool) -> Shown? {
        guard let target = embeddedTarget(property) else { return nil }
        let badge = "⟨\(target.name)⟩"
        switch value {
        case .link(let key):
            return Shown(text: badge + " " + embeddedFields(key, target, count: Self.embeddedFields))
        case .list(let items):
            let limit = oneLine ? 8 : DetailLayout.listLimit
            let parts = items.prefix(limit).map { element($0, target) }
            let more = items.count > parts.count ? ", …" : ""
            return Shown(
                text: "[\(items.count)]" + (parts.isEmpty ? "" : " \(badge) " + parts.joined(separator: ", ") + more))
        case .map:
            let entries = value.sortedEntries
            let limit = oneLine ? 8 : DetailLayout.listLimit
            let parts = entries.prefix(limit).map { "\(ValueFormatter.key($0.key)): \(element($0.value, target))" }
            let more = entries.count > parts.count ? ", …" : ""
            return Shown(
                text: "{\(entries.count)}" + (parts.isEmpty ? "" : " \(badge) " + parts.joined(separator: ", ") + more))
        default:
            return nil
        }
    }

    /// One element of a list or dictionary of embedded objects: its first field's value.
    private func element(_ value: Value, _ target: ObjectSchema) -> String {
        guard case .link(let key) = value else { return value == .null ? "null" : value.description }
        return embeddedFields(key, target, count: 1, marksMore: false)
    }

    /// The values of the first `count` persisted fields of embedded object `key` of `target`
    /// (a nested embedded object as its badge), `…` after them when it has more and `marksMore`;
    /// a field that cannot be read is `⚠`, never a plausible value.
    func embeddedFields(_ key: ObjectKey, _ target: ObjectSchema, count: Int, marksMore: Bool = true) -> String {
        let fields = target.persistedProperties
        guard let object = try? realm.object(ofType: target.name, key: key) else {
            return "⚠ \(target.name)#\(key.rawValue) missing"
        }
        var parts: [String] = fields.prefix(count).map { field in
            guard let value = try? object.value(forKey: field.name) else { return "⚠" }
            if let nested = embeddedTarget(field), !field.isList, !field.isMap {
                return value == .null ? "null" : "⟨\(nested.name)⟩"
            }
            return shown(value, field, oneLine: true, element: true).text
        }
        if marksMore && fields.count > count { parts.append("…") }
        return parts.joined(separator: ", ")
    }
}
