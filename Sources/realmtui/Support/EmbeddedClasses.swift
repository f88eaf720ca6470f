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
        if let (parent, path) = schema.topLevelPath(to: className) {
            let example = ([path] + [exampleProperty(of: className, in: schema)].compactMap { $0 }).joined(
                separator: ".")
            switch use {
            case .query: message += "; query \(parent) with \(example) == …"
            case .change: message += "; change them through their \(parent) objects (select those with \(example) == …)"
            case .export: message += "; export \(parent), whose objects hold them"
            }
        }
        throw RealmError.invalidOperation(message)
    }

    /// A property of `className` to show in an example predicate: its first scalar one.
    private static func exampleProperty(of className: String, in schema: Schema) -> String? {
        schema[className]?.persistedProperties.first { $0.type != .object && !$0.isCollection }?.name
    }
}
