/// Where the objects of an embedded class live, for messages and for the interchange layer:
/// an embedded object is met only inside its parent, so whoever meets the class on its own
/// (an import group, a query, an export of the class) is told which properties hold them.
extension Schema {
    /// The properties holding objects of embedded class `className`, as `Class.property`, in
    /// schema order: its to-one links, lists and dictionaries (`Person.address`,
    /// `Person.previous`). Empty for a class no property links to.
    public func embeddingProperties(of className: String) -> [String] {
        objectSchemas.flatMap { objectSchema in
            objectSchema.persistedProperties
                .filter { $0.type == .object && $0.objectClassName == className }
                .map { "\(objectSchema.name).\($0.name)" }
        }
    }

    /// `Address is embedded: its objects live in Person.address, Person.previous` (or `…: no
    /// property holds its objects`): why an embedded class cannot be met on its own.
    public func embeddedClassNote(_ className: String) -> String {
        let places = embeddingProperties(of: className)
        return places.isEmpty ? "\(className) is embedded, and no property holds its objects"
            : "\(className) is embedded: its objects live in \(places.joined(separator: ", "))"
    }
}
