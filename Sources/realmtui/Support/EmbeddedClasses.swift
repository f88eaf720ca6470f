import RealmEngine

/// Commands that name a class (`query`, `update`, `delete`, `watch`, `export --class`) meet an
/// embedded one: its objects live only inside their parents, so the command is refused with
/// where they live and how to reach them (`query Person with address.city == …`).
enum EmbeddedClasses {
    /// What the refused command was, for the hint.
    enum Use {
        case query, change, export
    }

    /// Throws `invalidOperation` when `className` is an embedded class of `schema`.
    static func requireTopLevel(_ className: String, in schema: Schema, for use: Use) throws {
        guard schema[className]?.isEmbedded == true else { return }
        var message = schema.embeddedClassNote(className)
        if let (parent, path) = topLevelPath(to: className, in: schema) {
            let example = ([path] + [exampleProperty(of: className, in: schema)].compactMap { $0 }).joined(separator: ".")
            switch use {
            case .query: message += "; query \(parent) with \(example) == …"
            case .change: message += "; change them through their \(parent) objects (select those with \(example) == …)"
            case .export: message += "; export \(parent), whose objects hold them"
            }
        }
        throw RealmError.invalidOperation(message)
    }

    /// The class of top-level objects that hold objects of embedded `className`, and the key
    /// path from it to them (`("Person", "address.geo")` for a `Geo` inside a person's address):
    /// the first property holding them, followed up until a class of its own. Nil when no
    /// top-level class reaches them.
    static func topLevelPath(to className: String, in schema: Schema) -> (String, String)? {
        var current = className
        var path: [String] = []
        var seen: Set<String> = [className]
        while true {
            let holders = schema.objectSchemas.flatMap { holder in
                holder.persistedProperties.filter { $0.type == .object && $0.objectClassName == current }.map { (holder, $0.name) }
            }
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

    /// A property of `className` to show in an example predicate: its first scalar one.
    private static func exampleProperty(of className: String, in schema: Schema) -> String? {
        schema[className]?.persistedProperties.first { $0.type != .object && !$0.isCollection }?.name
    }
}
