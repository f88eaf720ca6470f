/// Where the objects of an embedded class live, for messages and for the interchange layer:
/// an embedded object is met only inside its parent, so whoever meets the class on its own
/// (an import group, a query, an export of the class) is told which properties hold them.
extension Schema {
    /// The properties holding objects of embedded class `className`, as `Class.property`, in
    /// schema order: its to-one links, lists and dictionaries (`Person.address`,
    /// `Person.previous`). Empty for a class no property links to.
    public func embeddingProperties(of className: String) -> [String] {
        linkHolders(of: className).map { "\($0.holder.name).\($0.property.name)" }
    }

    /// The to-one link, list, set and dictionary properties linking to `className`, with the
    /// class holding each, in schema order.
    public func linkHolders(of className: String) -> [(holder: ObjectSchema, property: Property)] {
        objectSchemas.flatMap { holder in
            holder.persistedProperties.filter { $0.type == .object && $0.objectClassName == className }.map {
                (holder, $0)
            }
        }
    }

    /// `Address is embedded: its objects live in Person.address, Person.previous` (or `…: no
    /// property holds its objects`): why an embedded class cannot be met on its own.
    public func embeddedClassNote(_ className: String) -> String {
        let places = embeddingProperties(of: className)
        return places.isEmpty
            ? "\(className) is embedded, and no property holds its objects"
            : "\(className) is embedded: its objects live in \(places.joined(separator: ", "))"
    }

    /// The class of top-level objects that hold objects of embedded `className`, and the key
    /// path from it to them (`("Person", "address.geo")` for a `Geo` inside a person's address):
    /// the first property holding them, followed up until a class of its own. Nil when no
    /// top-level class reaches them.
    public func topLevelPath(to className: String) -> (className: String, keyPath: String)? {
        var current = className
        var path: [String] = []
        var seen: Set<String> = [className]
        while true {
            let holders = linkHolders(of: current).map { ($0.holder, $0.property.name) }
            // A top-level holder ends the walk at once; else climb through an embedded one not yet seen.
            if let (holder, name) = holders.first(where: { !$0.0.isEmbedded }) {
                return (holder.name, ([name] + path).joined(separator: "."))
            }
            guard let (holder, name) = holders.first(where: { !seen.contains($0.0.name) }) else { return nil }
            path.insert(name, at: 0)
            seen.insert(holder.name)
            current = holder.name
        }
    }
}
