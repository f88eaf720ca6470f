/// The type of a property's values (for lists: of each element).
public enum PropertyType: String, Codable, Sendable, CaseIterable {
    case bool, int, int8, int16, int32, float, double, string, date, data, objectId, uuid
    /// An IEEE 754-2008 decimal128 (`Decimal128`), compared and summed exactly.
    case decimal128
    /// Realm's Mixed (`AnyRealmValue`): nil, any scalar, a link to an object of any class
    /// (`Value.typedLink`), or a nested list or dictionary of Mixed. Always optional.
    case mixed
    /// A link to an object of `Property.objectClassName`.
    case object
    /// The computed inverse of a link or list property (never stored).
    case linkingObjects

    /// Types that can be a primary key (integers of every width, as RealmSwift allows
    /// `Int8`, `Int16` and `Int32` keys: Realm Core stores them all as its one integer type).
    public var canBePrimaryKey: Bool {
        switch self {
        case .int, .int8, .int16, .int32, .string, .objectId, .uuid: true
        default: false
        }
    }

    /// Types that can carry a search index (Mixed too, as in Realm: its numbers are keyed by
    /// value, so an index lookup of 1 finds 1.0 and Decimal128(1)).
    public var canBeIndexed: Bool {
        switch self {
        case .bool, .int, .int8, .int16, .int32, .string, .date, .objectId, .uuid, .mixed: true
        default: false
        }
    }

    /// Integer types of every width.
    public var isInteger: Bool {
        switch self {
        case .int, .int8, .int16, .int32: true
        default: false
        }
    }

    /// Types compared as numbers (integers, float, double, decimal128).
    public var isNumeric: Bool { isInteger || self == .float || self == .double || self == .decimal128 }

    /// The inclusive range of an integer type.
    var integerRange: ClosedRange<Int64> {
        switch self {
        case .int8: Int64(Int8.min)...Int64(Int8.max)
        case .int16: Int64(Int16.min)...Int64(Int16.max)
        case .int32: Int64(Int32.min)...Int64(Int32.max)
        default: Int64.min...Int64.max
        }
    }

    /// The name used in realm-js schemas (`int`, `string`, …).
    public var schemaName: String { rawValue }
}
