import RealmEngine

/// Embedded classes in the class list: their objects live inside their parents (Realm never lists
/// or queries them as a class of their own), so the list marks them and says where they live
/// instead of opening a table.
extension ExplorerState {
    /// The first class that is not embedded and holds objects of `className`, directly or
    /// through embedded classes (Geo inside Address inside Person: Person); nil when none does.
    func topLevelParent(of className: String) -> String? {
        realm.schema.topLevelPath(to: className)?.className
    }

    /// Enter on an embedded class: where its objects live, said in the status line.
    mutating func explainEmbeddedClass(_ schema: ObjectSchema) {
        let holders = realm.schema.embeddingProperties(of: schema.name)
        let where_ =
            holders.isEmpty ? "no class holds them (the file has none reachable)" : holders.joined(separator: ", ")
        let parent = topLevelParent(of: schema.name).map { " — open \(ExplorerText.withArticle($0)) to see them" } ?? ""
        message = Message(text: "\(schema.name) objects live inside their parents: \(where_)\(parent)", isError: false)
    }
}

extension Schema {
    /// The embedded classes with a link, list or dictionary property to `className`, by name
    /// (`Address.pet`): their links cannot be found by a query.
    func embeddedOrigins(of className: String) -> [String] {
        linkHolders(of: className).filter(\.holder.isEmbedded).map { "\($0.holder.name).\($0.property.name)" }
    }
}
