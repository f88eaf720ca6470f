import Foundation
@testable import RealmEngine

/// A database the realm-js query conformance file can run against: the in-memory fake here, and
/// later the real engine (implement this protocol over a `Realm` and call `ConformanceRunner.run`).
protocol ConformanceDatabase: AnyObject {
    /// A new, empty database with this schema.
    static func make(schema: Schema) throws -> Self
    /// Creates an object from values in persisted-property order; links are `.link(key)` of objects
    /// created earlier, lists `.list([...])`.
    func create(className: String, values: [Value]) throws -> ObjectKey
    /// The stored value of a property of an object.
    func value(className: String, key: ObjectKey, property: String) throws -> Value
    /// Runs a query (with its SORT/DISTINCT/LIMIT) and returns the matching keys in result order.
    func query(className: String, _ text: String, arguments: [Value]) throws -> [ObjectKey]
}

extension InMemoryObjectStore: ConformanceDatabase {
    static func make(schema: Schema) throws -> Self { Self(schema: schema) }

    func create(className: String, values: [Value]) throws -> ObjectKey { try create(className, values) }

    func value(className: String, key: ObjectKey, property: String) throws -> Value {
        try value(className, key, property)
    }

    func query(className: String, _ text: String, arguments: [Value]) throws -> [ObjectKey] {
        let query = try BoundQuery.parse(
            text, classIndex: try classIndex(className), schema: schema, arguments: arguments)
        return try query.run(in: self, candidates: nil)
    }
}

/// A JSON value, decoded without Foundation's `Any`.
enum JSON: Decodable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int64.self) {
            self = .int(i)
        } else if let d = try? c.decode(Double.self) {
            self = .double(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSON].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSON].self))
        }
    }

    subscript(key: String) -> JSON? { if case .object(let o) = self { o[key] } else { nil } }
    var string: String? { if case .string(let s) = self { s } else { nil } }
    var array: [JSON]? { if case .array(let a) = self { a } else { nil } }
}

struct ConformanceError: Error, CustomStringConvertible { var description: String }

/// Converts the realm-js schema and object forms of the conformance file.
enum ConformanceConverter {
    static let primitives: [String: PropertyType] = [
        "bool": .bool, "int": .int, "float": .float, "double": .double, "string": .string, "date": .date,
        "data": .data, "objectId": .objectId, "uuid": .uuid,
    ]

    /// realm-js array form → Schema.
    static func schema(_ json: JSON) throws -> Schema {
        guard let classes = json.array else { throw ConformanceError(description: "schema is not an array") }
        return Schema(
            try classes.map { cls in
                guard let name = cls["name"]?.string, let props = cls["properties"]?.array else {
                    throw ConformanceError(description: "bad class in schema")
                }
                let primaryKey = cls["primaryKey"]?.string
                return ObjectSchema(
                    name: name,
                    properties: try props.map { p in
                        guard let propName = p["name"]?.string, var type = p["type"]?.string else {
                            throw ConformanceError(description: "bad property in \(name)")
                        }
                        var optional = p["optional"] == .bool(true)
                        var list = false
                        if type.hasSuffix("[]") {
                            list = true
                            type.removeLast(2)
                        }
                        if type.hasSuffix("?") {
                            optional = true
                            type.removeLast()
                        }
                        var objectType = p["objectType"]?.string
                        if type == "list" {
                            list = true
                            type = objectType ?? ""
                        }
                        let propertyType: PropertyType
                        if let primitive = primitives[type] {
                            propertyType = primitive
                        } else {
                            propertyType = .object
                            if type != "object" { objectType = type }
                        }
                        return Property(
                            name: propName, type: propertyType, isOptional: optional, isList: list,
                            objectClassName: propertyType == .object ? objectType : nil,
                            isPrimaryKey: propName == primaryKey)
                    })
            })
    }

    /// Creates an object (and, for nested arrays, its linked objects) from its JSON values.
    static func create(_ className: String, _ values: [JSON], schema: Schema, in db: some ConformanceDatabase) throws
        -> ObjectKey
    {
        guard let objectSchema = schema[className] else { throw ConformanceError(description: "no class \(className)") }
        var converted: [Value] = []
        for (property, json) in zip(objectSchema.persistedProperties, values) {
            if property.isList {
                guard let items = json.array else {
                    converted.append(.list([]))
                    continue
                }
                converted.append(.list(try items.map { try element($0, property, schema: schema, db: db) }))
            } else {
                converted.append(try element(json, property, schema: schema, db: db))
            }
        }
        return try db.create(className: className, values: converted)
    }

    private static func element(_ json: JSON, _ property: Property, schema: Schema, db: some ConformanceDatabase) throws
        -> Value
    {
        if json == .null { return .null }
        switch (property.type, json) {
        case (.object, .array(let nested)):
            return .link(try create(property.objectClassName ?? "", nested, schema: schema, in: db))
        case (.date, .int(let ms)): return .date(Timestamp(milliseconds: ms))
        case (.date, .double(let ms)): return .date(Timestamp(milliseconds: Int64(ms)))
        case (.data, .array(let bytes)):
            return .data(
                Data(bytes.compactMap { if case .int(let b) = $0 { UInt8(truncatingIfNeeded: b) } else { nil } }))
        case (.objectId, .string(let s)):
            guard let oid = ObjectId(parsing: s) else { throw ConformanceError(description: "bad object id \(s)") }
            return .objectId(oid)
        case (.uuid, .string(let s)):
            guard let uuid = UUID(uuidString: s) else { throw ConformanceError(description: "bad uuid \(s)") }
            return .uuid(uuid)
        default:
            return scalar(json)
        }
    }

    static func scalar(_ json: JSON) -> Value {
        switch json {
        case .null: .null
        case .bool(let b): .bool(b)
        case .int(let i): .int(i)
        case .double(let d): .double(d)
        case .string(let s): .string(s)
        case .array(let a): .list(a.map(scalar))
        case .object: .null
        }
    }
}
