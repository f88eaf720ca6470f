import Foundation

/// One value read from a Realm Core file. A Mixed value is one of these too (its case is its type).
public enum CoreValue: Sendable, Equatable {
    case null
    case int(Int64)
    case bool(Bool)
    case float(Float)
    case double(Double)
    /// A string as stored (UTF-8; invalid sequences are replaced when decoding).
    case string(String)
    case binary(Data)
    /// Realm Core's Timestamp as stored: the nanoseconds carry the sign of the seconds.
    case timestamp(seconds: Int64, nanoseconds: Int32)
    /// IEEE 754-2008 decimal128 in binary integer decimal (BID) encoding, as Realm stores it.
    case decimal128(low: UInt64, high: UInt64)
    /// 12 bytes.
    case objectId(Data)
    /// 16 bytes.
    case uuid(Data)
    /// A link to the object `key` of the table `tableKey` (the column's target).
    case link(tableKey: Int64, key: Int64)
    /// A typed link (Mixed, typed-link columns).
    case typedLink(tableKey: Int64, key: Int64)
    case list([CoreValue])
    case set([CoreValue])
    /// A dictionary in Realm Core's stored order.
    case dictionary([CoreDictionaryEntry])

    /// The type name Realm Core's dump uses for this value inside a Mixed.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .int: "int"
        case .bool: "bool"
        case .float: "float"
        case .double: "double"
        case .string: "string"
        case .binary: "binary"
        case .timestamp: "timestamp"
        case .decimal128: "decimal128"
        case .objectId: "object_id"
        case .uuid: "uuid"
        case .link: "link"
        case .typedLink: "typed_link"
        case .list: "list"
        case .set: "set"
        case .dictionary: "dictionary"
        }
    }
}

/// One entry of a dictionary value.
public struct CoreDictionaryEntry: Sendable, Equatable {
    public let key: String
    public let value: CoreValue
    public init(key: String, value: CoreValue) {
        self.key = key
        self.value = value
    }
}
