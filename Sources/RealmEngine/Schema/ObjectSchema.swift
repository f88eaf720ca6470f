/// The schema of one class: its properties in declared order.
public struct ObjectSchema: Codable, Hashable, Sendable {
    /// The class name (1–63 bytes of UTF-8).
    public var name: String
    /// Every property in declared order, stored and computed.
    public var properties: [Property]
    /// Whether the class is embedded: its objects have no primary key, are created only through
    /// the one parent that owns them (a to-one link, a list or a dictionary of links) and are
    /// deleted with it; they are never listed as a class of their own.
    public var isEmbedded: Bool

    /// Creates a class description.
    public init(name: String, properties: [Property], isEmbedded: Bool = false) {
        self.name = name
        self.properties = properties
        self.isEmbedded = isEmbedded
    }

    private enum CodingKeys: String, CodingKey {
        case name, properties, isEmbedded
    }

    // Written by hand so that `isEmbedded` appears only when true: a schema without embedded
    // classes is stored exactly as before.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        properties = try c.decode([Property].self, forKey: .properties)
        isEmbedded = try c.decodeIfPresent(Bool.self, forKey: .isEmbedded) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(properties, forKey: .properties)
        if isEmbedded { try c.encode(true, forKey: .isEmbedded) }
    }

    /// The stored properties in order: the columns of the class's table. Arrays of values given in
    /// "property order" follow this order.
    public var persistedProperties: [Property] { properties.filter(\.isPersisted) }

    /// Whether stored column `column` is a Mixed property that is not a collection — without
    /// building `persistedProperties` (the query evaluator asks for every value it reads).
    func isSingleMixedColumn(_ column: Int) -> Bool {
        var index = 0
        for property in properties where property.isPersisted {
            if index == column {
                return property.type == .mixed && !property.isList && !property.isSet && !property.isMap
            }
            index += 1
        }
        return false
    }

    /// The computed linking-objects properties.
    public var computedProperties: [Property] { properties.filter { !$0.isPersisted } }

    /// The primary key property, if any.
    public var primaryKeyProperty: Property? { properties.first(where: \.isPrimaryKey) }

    /// The property with this name.
    public subscript(name: String) -> Property? { properties.first { $0.name == name } }
}
