import Foundation

/// A link held by a Mixed value (Realm Core's `ObjLink`): a Mixed property names no target
/// class, so the link carries it.
public struct TypedLink: Hashable, Sendable, CustomStringConvertible {
    /// The class of the linked object.
    public var className: String
    /// The linked object's key in that class.
    public var key: ObjectKey

    /// A link to the object `key` of `className`.
    public init(className: String, key: ObjectKey) {
        self.className = className
        self.key = key
    }

    /// `Dog#3`: how the explorer and messages show a link held by a Mixed value.
    public var description: String { "\(className)#\(key.rawValue)" }
}

extension Value {
    /// The deepest nesting of lists and dictionaries a Mixed value may have. Realm Core sets no
    /// bound; this one keeps every recursive walk (codec, comparison, JSON) far from the stack's
    /// end, also on a corrupt file.
    public static let maxMixedDepth = 100

    /// The name of this value's type as `@type` reports it (one of Realm Core's `TypeOfValue`
    /// names: `int`, `double`, `float`, `decimal128`, `string`, `binary`, `timestamp`,
    /// `objectId`, `uuid`, `bool`, `null`, `link`, `array`, `dictionary`).
    public var mixedTypeName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .double: "double"
        case .string: "string"
        case .data: "binary"
        case .date: "timestamp"
        case .objectId: "objectId"
        case .uuid: "uuid"
        case .decimal128: "decimal128"
        case .link, .typedLink: "link"
        case .list: "array"
        case .map: "dictionary"
        }
    }

    /// Realm Core's rank of a Mixed value's type in sort order (`sorting_rank` in mixed.cpp):
    /// nil, bool, every number, string, binary, date, objectId, uuid, link, list, dictionary.
    /// Values of different ranks order by rank; numbers compare by value across their types.
    var mixedRank: Int {
        switch self {
        case .null: -1
        case .bool: 0
        case .int, .float, .double, .decimal128: 1
        case .string: 2
        case .data: 3
        case .date: 4
        case .objectId: 5
        case .uuid: 6
        case .typedLink: 7
        case .link: 8
        case .list: 9
        case .map: 11
        }
    }

    /// How deep lists and dictionaries nest in this value (0 for a scalar).
    var mixedDepth: Int {
        switch self {
        case .list(let items): 1 + (items.map(\.mixedDepth).max() ?? 0)
        case .map(let entries): 1 + (entries.values.map(\.mixedDepth).max() ?? 0)
        default: 0
        }
    }

    /// Every typed link in this value, at any depth.
    var typedLinks: [TypedLink] {
        switch self {
        case .typedLink(let l): [l]
        case .list(let items): items.flatMap(\.typedLinks)
        case .map(let entries): entries.values.flatMap(\.typedLinks)
        default: []
        }
    }

    /// This value with every typed link to `key` of `className` replaced by nil, at any depth
    /// (what deleting the target does: Realm Core clears a Mixed link to a deleted object, in a
    /// nested list or dictionary too, leaving the element or key in place).
    func clearingTypedLinks(to className: String, key: ObjectKey) -> Value {
        switch self {
        case .typedLink(let l) where l.className == className && l.key == key: .null
        case .list(let items): .list(items.map { $0.clearingTypedLinks(to: className, key: key) })
        case .map(let entries): .map(entries.mapValues { $0.clearingTypedLinks(to: className, key: key) })
        default: self
        }
    }
}

/// Realm Core's `TypeOfValue`: what `mixed.@type == 'name'` compares. Each type is a bit; a
/// name on the right may stand for several (`numeric`: int, double, float and decimal128;
/// `collection`: list and dictionary), and the comparison holds when the bits meet. The names
/// are Core's (query_value.cpp), case-insensitive: note that `object` means a dictionary there,
/// as in JSON, while a link is `objectlink` or `link`.
package enum MixedType {
    static let null = 0x0001, int = 0x0002, double = 0x0004, float = 0x0008, bool = 0x0010
    static let timestamp = 0x0020, string = 0x0040, binary = 0x0080, uuid = 0x0100, objectId = 0x0200
    static let decimal128 = 0x0400, link = 0x0800, dictionary = 0x1000, list = 0x2000

    static let names: [String: Int] = [
        "null": null, "int": int, "integer": int, "int16": int, "int32": int, "int64": int, "short": int, "long": int,
        "byte": int, "char": int, "bool": bool, "boolean": bool, "string": string,
        "binary": binary, "data": binary, "bytearray": binary, "byte[]": binary, "bindata": binary,
        "date": timestamp, "datetimeoffset": timestamp, "timestamp": timestamp,
        "float": float, "double": double, "decimal128": decimal128, "decimal": decimal128,
        "objectlink": link, "link": link, "objectid": objectId, "uuid": uuid, "guid": uuid,
        "numeric": int | double | float | decimal128,
        "object": dictionary, "dictionary": dictionary, "array": list, "list": list, "collection": list | dictionary,
    ]

    /// The type bits `name` stands for, or nil when it names none (the query is then refused).
    package static func bits(named name: String) -> Int? { names[name.lowercased()] }

    /// The names a query may use, for the message refusing another.
    static var knownNames: String { names.keys.sorted().joined(separator: ", ") }

    /// The type bit of `value`.
    static func bits(of value: Value) -> Int {
        switch value {
        case .null: null
        case .bool: bool
        case .int: int
        case .float: float
        case .double: double
        case .string: string
        case .data: binary
        case .date: timestamp
        case .objectId: objectId
        case .uuid: uuid
        case .decimal128: decimal128
        case .link, .typedLink: link
        case .list: list
        case .map: dictionary
        }
    }
}

extension Property {
    /// A non-nil value for a Mixed property (or one element of a Mixed list, set or
    /// dictionary), checked as Realm checks it: strings and data within the size limit, keys of
    /// nested dictionaries as a dictionary property's keys, nesting within `Value.maxMixedDepth`,
    /// links typed (an untyped link names no class), and no collection in a set (Realm Core
    /// refuses a list or dictionary in a `Set<Mixed>`).
    func coerceMixed(_ value: Value, className: String, depth: Int = 0) throws -> Value {
        switch value {
        case .string(let s) where s.utf8.count > Limits.maxValueBytes:
            throw RealmError.limitExceeded(
                "\(className).\(name): a string of \(s.utf8.count) bytes exceeds the limit of \(Limits.maxValueBytes) bytes"
            )
        case .data(let d) where d.count > Limits.maxValueBytes:
            throw RealmError.limitExceeded(
                "\(className).\(name): data of \(d.count) bytes exceeds the limit of \(Limits.maxValueBytes) bytes")
        case .link:
            throw RealmError.typeMismatch(
                className: className, property: name,
                expected: "a Mixed value (a link in a Mixed value names its class: Class#key)", got: "an untyped link")
        case .list, .map:
            if isSet {
                throw RealmError.typeMismatch(
                    className: className, property: name,
                    expected: "a value that is no list or dictionary (a set of Mixed cannot hold collections)",
                    got: value.kindName)
            }
            guard depth < Value.maxMixedDepth else {
                throw RealmError.limitExceeded(
                    "\(className).\(name): a Mixed value nests lists and dictionaries deeper than \(Value.maxMixedDepth) levels"
                )
            }
            if case .list(let items) = value {
                return .list(try items.map { try coerceMixed($0, className: className, depth: depth + 1) })
            }
            guard case .map(let entries) = value else { return value }
            var out = [String: Value](minimumCapacity: entries.count)
            for (key, v) in entries {
                try MapKey.check(key, className: className, property: name)
                out[key] = try coerceMixed(v, className: className, depth: depth + 1)
            }
            return .map(out)
        case .typedLink(let l) where l.className.isEmpty:
            throw RealmError.typeMismatch(
                className: className, property: name, expected: "a link naming its class", got: "a link without a class"
            )
        default:
            return value
        }
    }
}

extension Schema {
    /// A Mixed property is always optional, names no class, and has no link as its default.
    static func checkMixed(_ property: Property, at place: String) throws {
        if !property.isOptional {
            throw RealmError.invalidSchema(
                "'\(place)': a mixed property always holds nil when unset; it cannot be required")
        }
        if property.objectClassName != nil {
            throw RealmError.invalidSchema("'\(place)': a mixed property names no class")
        }
        if let value = property.defaultValue, !value.typedLinks.isEmpty {
            throw RealmError.invalidSchema("'\(place)': a default value cannot be a link")
        }
    }
}

extension Value {
    /// This value with every link (of a property linking to `className`) made a typed link.
    func typingLinks(className: String) -> Value {
        switch self {
        case .link(let k): .typedLink(TypedLink(className: className, key: k))
        case .list(let items): .list(items.map { $0.typingLinks(className: className) })
        case .map(let entries): .map(entries.mapValues { $0.typingLinks(className: className) })
        default: self
        }
    }
}

extension Value {
    /// This value with every typed link that `keep` refuses replaced by nil, at any depth.
    func keepingTypedLinks(_ keep: (TypedLink) -> Bool) -> Value {
        switch self {
        case .typedLink(let l): keep(l) ? self : .null
        case .list(let items): .list(items.map { $0.keepingTypedLinks(keep) })
        case .map(let entries): .map(entries.mapValues { $0.keepingTypedLinks(keep) })
        default: self
        }
    }
}
