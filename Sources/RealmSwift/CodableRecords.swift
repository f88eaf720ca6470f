import Foundation

/// A `Codable` struct with an `id` that persists through a `Container` with no hand-written
/// mapping: `struct Note: CodableRecord { var id: Int; var text: String; var due: Date? }`.
///
/// Its class (named after the type) is derived from its `Decodable` conformance once: each
/// decoded property becomes a stored property of the matching type (`Bool`, integers,
/// `Float`, `Double`, `String`, `Date`, `Data`, `UUID`, arrays of those as lists; optional when
/// decoded with `decodeIfPresent`), and `id` is the primary key. List the type in
/// `Realm.Configuration.codableTypes`. Nested structs and other types are refused with an
/// error naming the property.
public protocol CodableRecord: Codable, Identifiable where ID: _RealmScalar {}

extension CodableRecord {
    /// The stored class name.
    public static var className: String { String(describing: Self.self) }
    /// The stored class, derived from the `Decodable` conformance.
    static func recordSchema() throws -> ObjectSchema { try RecordSchema.of(Self.self) }
}

/// Derives a record's schema by decoding it from a decoder that records what is asked.
enum RecordSchema {
    static func of<T: CodableRecord>(_ type: T.Type) throws -> ObjectSchema {
        let probe = SchemaProbe()
        _ = try T(from: ProbeDecoder(probe: probe))
        if let problem = probe.problem { throw RealmError.invalidSchema("\(T.className): \(problem)") }
        let properties = probe.properties.map { p -> Property in
            var p = p
            if p.name == "id" {
                p.isPrimaryKey = true
                p.isIndexed = true
            }
            return p
        }
        guard properties.contains(where: { $0.name == "id" }) else {
            throw RealmError.invalidSchema("\(T.className) has no 'id' property to be its primary key")
        }
        return ObjectSchema(name: T.className, properties: properties)
    }
}

final class SchemaProbe {
    var properties: [Property] = []
    var problem: String?
}

private struct ProbeDecoder: Decoder {
    let probe: SchemaProbe
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ProbeContainer<Key>(probe: probe))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw RealmError.invalidSchema("a record must be a keyed struct")
    }
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw RealmError.invalidSchema("a record must be a keyed struct")
    }
}

private struct ProbeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let probe: SchemaProbe
    var codingPath: [any CodingKey] = []
    var allKeys: [Key] { [] }
    func contains(_ key: Key) -> Bool { true }

    /// The stored type and a placeholder value of a decodable type, or nil.
    private func scalar<T>(_ type: T.Type) -> (PropertyType, Any)? {
        switch type {
        case is Bool.Type: (.bool, false)
        case is Int.Type: (.int, 0)
        case is Int64.Type: (.int, Int64(0))
        case is Int32.Type: (.int32, Int32(0))
        case is Int16.Type: (.int16, Int16(0))
        case is Int8.Type: (.int8, Int8(0))
        case is Float.Type: (.float, Float(0))
        case is Double.Type: (.double, 0.0)
        case is String.Type: (.string, "")
        case is Date.Type: (.date, Date(timeIntervalSince1970: 0))
        case is Data.Type: (.data, Data())
        case is UUID.Type: (.uuid, UUID())
        case is Decimal128.Type: (.decimal128, Decimal128.zero)
        default: nil
        }
    }

    private func record<T: Decodable>(_ type: T.Type, _ key: Key, optional: Bool) throws -> T {
        if let (kind, placeholder) = scalar(type), let value = placeholder as? T {
            probe.properties.append(Property(name: key.stringValue, type: kind, isOptional: optional))
            return value
        }
        if let element = (type as? any _ScalarArray.Type)?.elementType, let (kind, _) = scalar(element),
            let empty = [Any]() as? T ?? (type as? any _ScalarArray.Type)?.empty as? T
        {
            probe.properties.append(Property(name: key.stringValue, type: kind, isList: true))
            return empty
        }
        probe.problem =
            probe.problem ?? "property '\(key.stringValue)' has the type \(T.self), which a record cannot store"
        throw RealmError.invalidSchema(probe.problem ?? "")
    }

    func decodeNil(forKey key: Key) throws -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try record(type, key, optional: false) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try record(type, key, optional: true)
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try record(type, key, optional: false) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try record(type, key, optional: false) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try record(type, key, optional: false) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try record(type, key, optional: false) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try record(type, key, optional: false) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try record(type, key, optional: false) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try record(type, key, optional: false) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try record(type, key, optional: false) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try record(type, key, optional: false) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try record(type, key, optional: true) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try record(type, key, optional: true)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try record(type, key, optional: true)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try record(type, key, optional: true) }
    func nestedContainer<N: CodingKey>(keyedBy type: N.Type, forKey key: Key) throws -> KeyedDecodingContainer<N> {
        throw RealmError.invalidSchema("property '\(key.stringValue)': nested structs are not supported in records")
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw RealmError.invalidSchema("property '\(key.stringValue)': nested arrays are not supported in records")
    }
    func superDecoder() throws -> any Decoder { ProbeDecoder(probe: probe) }
    func superDecoder(forKey key: Key) throws -> any Decoder { ProbeDecoder(probe: probe) }
}

/// Arrays whose elements a record can store as a list.
protocol _ScalarArray {
    static var elementType: Any.Type { get }
    static var empty: Any { get }
}
extension Array: _ScalarArray {
    static var elementType: Any.Type { Element.self }
    static var empty: Any { [Element]() }
}

/// Converting records to stored values and back, through their `Codable` conformance (dates
/// as `timeIntervalSinceReferenceDate`, Foundation's own encoding, so they round-trip exactly).
enum RecordCoding {
    static func input<T: CodableRecord>(_ record: T, schema: ObjectSchema) throws -> ObjectInput {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .deferredToDate
        encoder.dataEncodingStrategy = .base64
        guard let json = try JSONSerialization.jsonObject(with: encoder.encode(record)) as? [String: Any] else {
            throw RealmError.invalidInput("\(T.className) did not encode as a keyed object")
        }
        var values: [String: ObjectInput] = [:]
        for p in schema.persistedProperties {
            let raw = json[p.name]
            if p.isList {
                let items = (raw as? [Any]) ?? []
                values[p.name] = .array(try items.map { .value(try value($0, p, T.className)) })
            } else if let raw {
                values[p.name] = .value(try value(raw, p, T.className))
            } else {
                values[p.name] = .value(.null)
            }
        }
        return .dictionary(values)
    }

    private static func value(_ raw: Any, _ p: Property, _ className: String) throws -> Value {
        if raw is NSNull { return .null }
        let mismatch = RealmError.typeMismatch(
            className: className, property: p.name, expected: p.type.rawValue, got: "\(raw)")
        switch p.type {
        case .bool:
            guard let b = raw as? Bool else { throw mismatch }
            return .bool(b)
        case .int, .int8, .int16, .int32:
            guard let n = raw as? NSNumber else { throw mismatch }
            return .int(n.int64Value)
        case .float:
            guard let n = raw as? NSNumber else { throw mismatch }
            return .float(n.floatValue)
        case .double:
            guard let n = raw as? NSNumber else { throw mismatch }
            return .double(n.doubleValue)
        case .string:
            guard let s = raw as? String else { throw mismatch }
            return .string(s)
        case .date:
            guard let n = raw as? NSNumber else { throw mismatch }
            return .date(try Timestamp(Date(timeIntervalSinceReferenceDate: n.doubleValue)))
        case .data:
            guard let s = raw as? String, let d = Data(base64Encoded: s) else { throw mismatch }
            return .data(d)
        case .uuid:
            guard let s = raw as? String, let u = UUID(uuidString: s) else { throw mismatch }
            return .uuid(u)
        case .decimal128:
            guard let s = raw as? String, let d = Decimal128(s) else { throw mismatch }
            return .decimal128(d)
        default: throw mismatch
        }
    }

    static func record<T: CodableRecord>(_ type: T.Type, from object: RealmEngine.DynamicObject) throws -> T {
        var json: [String: Any] = [:]
        for p in object.objectSchema.persistedProperties {
            json[p.name] = jsonValue(try object.value(forKey: p.name))
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .deferredToDate
        decoder.dataDecodingStrategy = .base64
        return try decoder.decode(T.self, from: JSONSerialization.data(withJSONObject: json))
    }

    private static func jsonValue(_ value: Value) -> Any {
        switch value {
        case .null, .link, .typedLink: NSNull()
        case .bool(let b): b
        case .int(let i): i
        case .float(let f): Double(f)
        case .double(let d): d
        case .string(let s): s
        case .date(let t): t.date.timeIntervalSinceReferenceDate
        case .data(let d): d.base64EncodedString()
        case .objectId(let o): o.description
        case .uuid(let u): u.uuidString
        // Text keeps every digit; `Decimal128`'s Decodable reads it back.
        case .decimal128(let d): d.description
        case .list(let items): items.map(jsonValue)
        case .map(let entries): entries.mapValues(jsonValue)
        }
    }
}

extension Container.WriteTransaction {
    /// Stores a record, replacing the stored one with the same `id`.
    public func add<T: CodableRecord>(_ record: T) {
        do {
            guard let schema = realm.schema[T.className] else {
                preconditionFailure(
                    "\(T.className) is not in the Realm's schema; list it in Realm.Configuration.codableTypes")
            }
            try realm.dynamicRealm.create(
                T.className, value: RecordCoding.input(record, schema: schema), update: .modified)
        } catch {
            realm.record(error)
        }
    }

    /// Deletes the stored record with this `id`, if any.
    public func delete<T: CodableRecord>(_ type: T.Type, id: T.ID) {
        do {
            if let object = try realm.dynamicRealm.object(ofType: T.className, forPrimaryKey: id._rlmValue) {
                try realm.dynamicRealm.delete(object)
            }
        } catch {
            realm.record(error)
        }
    }
}

extension Container {
    /// The stored records of a type, optionally filtered and sorted, live.
    public func records<T: CodableRecord>(
        _ type: T.Type, matching predicate: QueryPredicate? = nil,
        sortedBy sort: [SortDescriptor] = []
    ) throws -> FetchedRecords<T> {
        var results = try realm.dynamicRealm.objects(T.className)
        if let predicate {
            let converted = try PredicateFormat.convert(predicate.format, predicate.arguments)
            results = try results.filter(converted.text, arguments: converted.values)
        }
        if !sort.isEmpty { results = try results.sorted(by: sort) }
        return FetchedRecords(results: results)
    }
}

/// The live records of a query.
public final class FetchedRecords<T: CodableRecord> {
    /// The stored objects behind the records.
    public let results: RealmEngine.Results
    init(results: RealmEngine.Results) { self.results = results }

    /// Number of records.
    public var count: Int { results.count }

    /// The record at `index`; throws when the stored values do not decode as `T`.
    public func value(at index: Int) throws -> T {
        try RecordCoding.record(T.self, from: results.object(at: index))
    }
}
