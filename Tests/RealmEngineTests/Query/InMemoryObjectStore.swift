import Foundation
@testable import RealmEngine

/// A test double of `ObjectStore`: objects as arrays of values in persisted-property order,
/// backlinks and index lookups computed by scanning. Counts index lookups so tests can see
/// whether a query used the index.
final class InMemoryObjectStore: ObjectStore {
    let schema: Schema
    /// Per class: key → values in persisted-property order.
    private var objects: [[ObjectKey: [Value]]]
    private var nextKey: [Int64]
    /// How many times `indexLookup` answered with keys.
    private(set) var indexLookups = 0

    init(schema: Schema) {
        self.schema = schema
        objects = Array(repeating: [:], count: schema.objectSchemas.count)
        nextKey = Array(repeating: 0, count: schema.objectSchemas.count)
    }

    func classIndex(_ name: String) throws -> Int {
        guard let i = schema.objectSchemas.firstIndex(where: { $0.name == name }) else {
            throw RealmError.noSuchClass(name)
        }
        return i
    }

    /// Creates an object from values in persisted-property order (converted by `Property.coerce`;
    /// missing trailing values take the default or nil/empty).
    @discardableResult
    func create(_ className: String, _ values: [Value]) throws -> ObjectKey {
        let cls = try classIndex(className)
        let properties = schema.objectSchemas[cls].persistedProperties
        var row: [Value] = []
        for (i, property) in properties.enumerated() {
            let given = i < values.count ? values[i] : (property.defaultValue ?? (property.isList ? .list([]) : .null))
            row.append(try property.coerce(given, className: className))
        }
        let key = ObjectKey(nextKey[cls])
        nextKey[cls] += 1
        objects[cls][key] = row
        return key
    }

    /// Replaces one value.
    func set(_ className: String, _ key: ObjectKey, _ property: String, _ value: Value) throws {
        let cls = try classIndex(className)
        let properties = schema.objectSchemas[cls].persistedProperties
        guard let column = properties.firstIndex(where: { $0.name == property }), objects[cls][key] != nil else {
            throw RealmError.invalidInput("no \(className).\(property) for \(key)")
        }
        objects[cls][key]?[column] = try properties[column].coerce(value, className: className)
    }

    /// The value of a named property.
    func value(_ className: String, _ key: ObjectKey, _ property: String) throws -> Value {
        let cls = try classIndex(className)
        guard let column = schema.objectSchemas[cls].persistedProperties.firstIndex(where: { $0.name == property })
        else {
            throw RealmError.invalidInput("no property \(className).\(property)")
        }
        return try value(classIndex: cls, key: key, column: column)
    }

    // MARK: ObjectStore

    func count(classIndex: Int) throws -> Int { objects[classIndex].count }

    func keys(classIndex: Int) throws -> [ObjectKey] { objects[classIndex].keys.sorted() }

    func contains(classIndex: Int, key: ObjectKey) throws -> Bool { objects[classIndex][key] != nil }

    func value(classIndex: Int, key: ObjectKey, column: Int) throws -> Value {
        guard let row = objects[classIndex][key], row.indices.contains(column) else {
            throw RealmError.invalidatedObject
        }
        return row[column]
    }

    func backlinks(classIndex: Int, key: ObjectKey, originClass: Int, originColumn: Int) throws -> [ObjectKey] {
        var out: [ObjectKey] = []
        for origin in objects[originClass].keys.sorted() {
            guard let row = objects[originClass][origin] else { continue }
            switch row[originColumn] {
            case .link(let k) where k == key: out.append(origin)
            case .list(let items):
                for case .link(let k) in items where k == key { out.append(origin) }
            default: break
            }
        }
        return out
    }

    func indexLookup(classIndex: Int, column: Int, value: Value) throws -> [ObjectKey]? {
        guard schema.objectSchemas[classIndex].persistedProperties[column].isIndexed else { return nil }
        indexLookups += 1
        return objects[classIndex].filter { $0.value[column] == value }.map(\.key).sorted()
    }
}
