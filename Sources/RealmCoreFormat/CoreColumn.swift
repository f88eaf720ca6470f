import Foundation

/// The element type of a Realm Core column (Realm Core's `ColumnType`).
public enum CoreColumnType: Int, Sendable {
    case int = 0
    case bool = 1
    case string = 2
    case binary = 4
    case mixed = 6
    case timestamp = 8
    case float = 9
    case double = 10
    case decimal128 = 11
    case link = 12
    case linkList = 13
    case backlink = 14
    case objectId = 15
    case typedLink = 16
    case uuid = 17

    /// The name Realm Core's dump prints.
    public var name: String {
        switch self {
        case .int: "int"
        case .bool: "bool"
        case .string: "string"
        case .binary: "binary"
        case .mixed: "mixed"
        case .timestamp: "timestamp"
        case .float: "float"
        case .double: "double"
        case .decimal128: "decimal128"
        case .link, .linkList: "link"
        case .backlink: "backlink"
        case .objectId: "object_id"
        case .typedLink: "typed_link"
        case .uuid: "uuid"
        }
    }
}

/// The collection kind of a column.
public enum CoreCollectionKind: String, Sendable {
    case list, set, dictionary
}

/// The search index kind of a column.
public enum CoreIndexKind: String, Sendable {
    case general, fulltext
}

/// A column of a table, as its spec describes it.
public struct CoreColumn: Sendable {
    public let name: String
    public let type: CoreColumnType
    public let nullable: Bool
    public let collection: CoreCollectionKind?
    public let index: CoreIndexKind?
    /// Realm Core's column key (`ColKey::value`): leaf index, type, attributes and tag.
    public let key: Int64
    /// The target table's key, for links (and the origin table's key for backlink columns).
    public let linkTargetKey: Int64?
    /// The target table's name, for links.
    public let linkTarget: String?
    /// For a backlink column: the origin column's key.
    public let originColumnKey: Int64?
    /// Position in the spec.
    let specIndex: Int
    /// The cluster leaf slot holding this column (1 + the key's leaf index).
    var leafSlot: Int { Int(key & 0xFFFF) + 1 }
    /// Enum string keys (a spec's enum keys ref), when the column stores string indexes.
    let enumKeysRef: Int?
    /// True for a backlink column (hidden; it lists the objects linking to each object).
    public let isBacklink: Bool
}
