/// One property of a class: a stored column, or a computed `linkingObjects`.
public struct Property: Codable, Hashable, Sendable {
    /// The property's name (1–63 bytes of UTF-8).
    public var name: String
    /// The type of the value, or of each element for a list.
    public var type: PropertyType
    /// Whether nil is allowed. To-one links are always optional.
    public var isOptional: Bool
    /// Whether this is a list (to-many for objects).
    public var isList: Bool
    /// The linked class for `.object` and `.linkingObjects`.
    public var objectClassName: String?
    /// For `.linkingObjects`: the link or list property of `objectClassName` that points here.
    public var linkOriginPropertyName: String?
    /// Whether this property is the class's primary key.
    public var isPrimaryKey: Bool
    /// Whether this property has a search index (primary keys always do).
    public var isIndexed: Bool
    /// The value a new object gets when none is given.
    public var defaultValue: Value?

    /// Creates a property description.
    public init(name: String, type: PropertyType, isOptional: Bool = false, isList: Bool = false,
                objectClassName: String? = nil, linkOriginPropertyName: String? = nil,
                isPrimaryKey: Bool = false, isIndexed: Bool = false, defaultValue: Value? = nil) {
        self.name = name
        self.type = type
        self.isOptional = (type == .object && !isList) ? true : isOptional
        self.isList = isList
        self.objectClassName = objectClassName
        self.linkOriginPropertyName = linkOriginPropertyName
        self.isPrimaryKey = isPrimaryKey
        self.isIndexed = isIndexed || isPrimaryKey
        self.defaultValue = defaultValue
    }

    /// Whether the property is stored (everything but linking objects).
    public var isPersisted: Bool { type != .linkingObjects }

    /// Whether values are links to objects (to-one or list).
    public var isLink: Bool { type == .object }

    /// The type as written in a realm-js schema: `int?`, `string[]`, `Dog`, `Dog[]`.
    public var typeDescription: String {
        switch type {
        case .object:
            return (objectClassName ?? "?") + (isList ? "[]" : "")
        case .linkingObjects:
            return "linkingObjects<\(objectClassName ?? "?").\(linkOriginPropertyName ?? "?")>"
        default:
            return type.rawValue + (isOptional ? "?" : "") + (isList ? "[]" : "")
        }
    }
}
