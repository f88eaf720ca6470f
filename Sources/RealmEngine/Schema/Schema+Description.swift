/// Descriptions of a schema in the layout RealmSwift prints (Realm's `RLMSchema`,
/// `RLMObjectSchema` and `RLMProperty` descriptions): classes sorted by name, each property's
/// attributes one per line, nested levels indented by a tab.
extension Schema: CustomStringConvertible {
    /// `Schema {` and every class's description, sorted by class name, indented by a tab.
    public var description: String {
        var text = "Schema {\n"
        for objectSchema in objectSchemas.sorted(by: { $0.name < $1.name }) {
            text += "\t" + objectSchema.description.replacingTabbedLines() + "\n"
        }
        return text + "}"
    }
}

extension ObjectSchema: CustomStringConvertible {
    /// The class name (`(embedded)` after an embedded class's), then each stored property's
    /// description and each computed one's, indented by a tab.
    public var description: String {
        var text = name + " " + (isEmbedded ? "(embedded) " : "") + "{\n"
        for property in persistedProperties + computedProperties {
            text += "\t" + property.description.replacingTabbedLines() + "\n"
        }
        return text + "}"
    }
}

extension Property: CustomStringConvertible {
    /// The property's name and its attributes (type, linked class, column name, indexed,
    /// primary key, array, set, dictionary, optional), YES or NO as Realm prints them.
    public var description: String {
        func yesNo(_ flag: Bool) -> String { flag ? "YES" : "NO" }
        var text = name + " {\n\ttype = \(realmTypeName);\n"
        if type == .object || type == .linkingObjects {
            text += "\tobjectClassName = \(objectClassName ?? "(null)");\n"
            text += "\tlinkOriginPropertyName = \(linkOriginPropertyName ?? "(null)");\n"
        }
        text += "\tcolumnName = \(name);\n"
        text += "\tindexed = \(yesNo(isIndexed));\n"
        text += "\tisPrimary = \(yesNo(isPrimaryKey));\n"
        text += "\tarray = \(yesNo(isList && !isSet));\n"
        text += "\tset = \(yesNo(isSet));\n"
        text += "\tdictionary = \(yesNo(isMap));\n"
        text += "\toptional = \(yesNo(isOptional));\n"
        return text + "}"
    }

    /// The type's name in Realm's descriptions (every integer width is `int`).
    private var realmTypeName: String {
        switch type {
        case .int, .int8, .int16, .int32: "int"
        case .bool: "bool"
        case .float: "float"
        case .double: "double"
        case .string: "string"
        case .date: "date"
        case .data: "data"
        case .objectId: "object id"
        case .uuid: "uuid"
        case .decimal128: "decimal128"
        case .mixed: "mixed"
        case .object: "object"
        case .linkingObjects: "linking objects"
        }
    }
}

private extension String {
    /// The text with a tab after every line break, so a nested description is indented one level.
    func replacingTabbedLines() -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n\t")
    }
}
