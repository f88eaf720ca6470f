/// The schema of one class: its properties in declared order.
public struct ObjectSchema: Codable, Hashable, Sendable {
    /// The class name (1–63 bytes of UTF-8).
    public var name: String
    /// Every property in declared order, stored and computed.
    public var properties: [Property]

    /// Creates a class description.
    public init(name: String, properties: [Property]) {
        self.name = name
        self.properties = properties
    }

    /// The stored properties in order: the columns of the class's table. Arrays of values given in
    /// "property order" follow this order.
    public var persistedProperties: [Property] { properties.filter(\.isPersisted) }

    /// The computed linking-objects properties.
    public var computedProperties: [Property] { properties.filter { !$0.isPersisted } }

    /// The primary key property, if any.
    public var primaryKeyProperty: Property? { properties.first(where: \.isPrimaryKey) }

    /// The property with this name.
    public subscript(name: String) -> Property? { properties.first { $0.name == name } }
}
