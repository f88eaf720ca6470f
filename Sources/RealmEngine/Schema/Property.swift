/// One property of a class: a stored column, or a computed `linkingObjects`.
public struct Property: Codable, Hashable, Sendable {
    /// The property's name (1–63 bytes of UTF-8).
    public var name: String
    /// The type of the value, or of each element for a list.
    public var type: PropertyType
    /// Whether nil is allowed. To-one links are always optional.
    public var isOptional: Bool
    /// Whether values are stored as a sequence of elements: a list (to-many for objects), or a
    /// set (`isSet`), which is a list kept sorted and free of duplicates.
    public var isList: Bool
    /// Whether this is a set (`MutableSet`): elements unique by value, in Realm's sort order.
    /// A set is stored as a list (`isList` is true), so every list path — storage, backlinks,
    /// `ANY`/`IN`/`@count` queries — serves it; writes keep it sorted and unique.
    public var isSet: Bool
    /// Whether this is a dictionary (`Map<String, T>`): string keys to values of `type`
    /// (links in a map are always optional: a deleted target leaves its key with nil).
    public var isMap: Bool
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
    ///
    /// `isSet` makes a set (and implies `isList`); `isMap` a dictionary (never with `isList`).
    public init(
        name: String, type: PropertyType, isOptional: Bool = false, isList: Bool = false,
        isSet: Bool = false, isMap: Bool = false,
        objectClassName: String? = nil, linkOriginPropertyName: String? = nil,
        isPrimaryKey: Bool = false, isIndexed: Bool = false, defaultValue: Value? = nil
    ) {
        self.name = name
        self.type = type
        let sequence = (isList || isSet) && !isMap
        // A to-one link, and a link in a map, may always be nil (a deleted target leaves nil).
        // Mixed holds nil by nature.
        self.isOptional = (type == .object && (!sequence || isMap)) || type == .mixed ? true : isOptional
        self.isList = sequence
        self.isSet = isSet && !isMap
        self.isMap = isMap
        self.objectClassName = objectClassName
        self.linkOriginPropertyName = linkOriginPropertyName
        self.isPrimaryKey = isPrimaryKey
        self.isIndexed = isIndexed || isPrimaryKey
        self.defaultValue = defaultValue
    }

    /// Whether the property holds many values: a list, a set or a map.
    public var isCollection: Bool { isList || isMap }

    /// Whether the property is stored (everything but linking objects).
    public var isPersisted: Bool { type != .linkingObjects }

    /// Whether values are links to objects (to-one or list).
    public var isLink: Bool { type == .object }

    /// The type as written in a realm-js schema: `int?`, `string[]`, `Dog`, `Dog[]`, a set
    /// `int<>` / `Dog<>`, a dictionary `string{}` / `int?{}` / `Dog{}`.
    public var typeDescription: String {
        let suffix = isMap ? "{}" : isSet ? "<>" : isList ? "[]" : ""
        switch type {
        case .object:
            return (objectClassName ?? "?") + suffix
        case .linkingObjects:
            return "linkingObjects<\(objectClassName ?? "?").\(linkOriginPropertyName ?? "?")>"
        default:
            // Mixed is optional by nature: realm-js writes `mixed`, never `mixed?`.
            return type.rawValue + (isOptional && type != .mixed ? "?" : "") + suffix
        }
    }

    /// The name of the kind of collection for messages: "list", "set", "dictionary", or nil.
    public var collectionName: String? { isMap ? "dictionary" : isSet ? "set" : isList ? "list" : nil }
}

extension Property {
    private enum CodingKeys: String, CodingKey {
        case name, type, isOptional, isList, isSet, isMap, objectClassName, linkOriginPropertyName
        case isPrimaryKey, isIndexed, defaultValue
    }

    // Written by hand so that `isSet` and `isMap` appear only when true: a schema without sets
    // or maps is stored byte for byte as before, and files written before them decode.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        type = try c.decode(PropertyType.self, forKey: .type)
        isOptional = try c.decode(Bool.self, forKey: .isOptional)
        isList = try c.decode(Bool.self, forKey: .isList)
        isSet = try c.decodeIfPresent(Bool.self, forKey: .isSet) ?? false
        isMap = try c.decodeIfPresent(Bool.self, forKey: .isMap) ?? false
        objectClassName = try c.decodeIfPresent(String.self, forKey: .objectClassName)
        linkOriginPropertyName = try c.decodeIfPresent(String.self, forKey: .linkOriginPropertyName)
        isPrimaryKey = try c.decode(Bool.self, forKey: .isPrimaryKey)
        isIndexed = try c.decode(Bool.self, forKey: .isIndexed)
        defaultValue = try c.decodeIfPresent(Value.self, forKey: .defaultValue)
        if (isSet && !isList) || (isMap && isList) {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: c.codingPath,
                    debugDescription: "property '\(name)' is a set that is not a list, or a map that is a list"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(type, forKey: .type)
        try c.encode(isOptional, forKey: .isOptional)
        try c.encode(isList, forKey: .isList)
        if isSet { try c.encode(true, forKey: .isSet) }
        if isMap { try c.encode(true, forKey: .isMap) }
        try c.encodeIfPresent(objectClassName, forKey: .objectClassName)
        try c.encodeIfPresent(linkOriginPropertyName, forKey: .linkOriginPropertyName)
        try c.encode(isPrimaryKey, forKey: .isPrimaryKey)
        try c.encode(isIndexed, forKey: .isIndexed)
        try c.encodeIfPresent(defaultValue, forKey: .defaultValue)
    }
}
