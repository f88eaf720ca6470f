import Foundation
import RealmEngine

/// The writer's input from this engine's Realm: each class a `class_X` table, each persisted
/// property a column, each object under its own key.
extension RealmCoreWriter {
    /// The Realm Core column type of a property this writer can write, or why it cannot yet.
    static func columnType(_ p: Property, in objectSchema: ObjectSchema) -> Result<CoreColumnType, RealmError> {
        func refuse(_ what: String) -> Result<CoreColumnType, RealmError> {
            .failure(
                .unsupportedFeature(
                    "\(objectSchema.name).\(p.name): \(what) cannot be written to a Realm Core file yet"))
        }
        if p.isPrimaryKey,
            ![.int, .int8, .int16, .int32, .string, .objectId, .uuid].contains(p.type) || p.isList || p.isSet || p.isMap
        {
            return refuse("a primary key of type \(p.type)")
        }
        if p.isIndexed,
            ![.int, .int8, .int16, .int32, .bool, .string, .date, .objectId, .uuid, .mixed].contains(p.type) || p.isList
                || p.isSet || p.isMap
        {
            return refuse("an index on a \(p.collectionName ?? "\(p.type)") property")
        }
        switch p.type {
        case .int, .int8, .int16, .int32: return .success(.int)
        case .bool: return .success(.bool)
        case .float: return .success(.float)
        case .double: return .success(.double)
        case .string: return .success(.string)
        case .date: return .success(.timestamp)
        case .data: return .success(.binary)
        case .objectId: return .success(.objectId)
        case .uuid: return .success(.uuid)
        case .decimal128: return .success(.decimal128)
        case .mixed: return .success(.mixed)
        case .object:
            return .success(.link)
        case .linkingObjects: return refuse("linking objects")
        }
    }

    /// Every class of `realm` as a table, with every object, or an `unsupportedFeature` error naming
    /// the first class and property this writer cannot write yet (nothing is left out).
    /// Typed links in Mixed values carry the table keys `write(_:toFile:)` gives: the
    /// `metadata` table 0, then the classes in schema order from 1.
    /// Embedded objects, which the engine lists only through their parents, are gathered by
    /// following the links that own them.
    public static func tables(from realm: Realm) throws -> [RealmCoreWriterTable] {
        let schemas = realm.schema.objectSchemas
        let tableKeys = Dictionary(
            schemas.enumerated().map { ($0.element.name, Int64($0.offset + 1)) },
            uniquingKeysWith: { a, _ in a })
        let embedded = Set(schemas.filter(\.isEmbedded).map(\.name))
        var columnsByClass: [String: [RealmCoreWriterTable.Column]] = [:]
        for objectSchema in schemas {
            columnsByClass[objectSchema.name] = try objectSchema.persistedProperties.map { p in
                var column =
                    p.isLink
                    ? RealmCoreWriterTable.Column(
                        name: p.name, type: try columnType(p, in: objectSchema).get(), nullable: !p.isList,
                        isList: p.isList && !p.isSet, isSet: p.isSet, isDictionary: p.isMap,
                        linkTarget: "class_" + (p.objectClassName ?? ""))
                    : RealmCoreWriterTable.Column(
                        name: p.name, type: try columnType(p, in: objectSchema).get(),
                        nullable: p.isOptional || p.type == .mixed, isList: p.isList && !p.isSet, isSet: p.isSet,
                        isDictionary: p.isMap)
                // The primary key is indexed through the table (as Object Store creates it).
                column.isIndexed = p.isIndexed && !p.isPrimaryKey
                return column
            }
        }
        var objectsByClass: [String: [RealmCoreWriterTable.Object]] = [:]
        // Embedded objects still to read, and those already queued (a second parent is
        // reported by the writer's check, not read twice).
        var pending: [(String, ObjectKey)] = []
        var queued: [String: Set<Int64>] = [:]
        func read(_ objectSchema: ObjectSchema, _ key: ObjectKey) throws {
            guard let object = try realm.object(ofType: objectSchema.name, key: key) else {
                throw RealmError.invalidInput(
                    "\(objectSchema.name): object \(key.rawValue) is linked to but does not exist")
            }
            let properties = objectSchema.persistedProperties
            let values = try object.values()
            guard values.count == properties.count else {
                throw RealmError.internalError(
                    "\(objectSchema.name): object \(key.rawValue) has \(values.count) values for \(properties.count) properties"
                )
            }
            for (value, p) in zip(values, properties) {
                guard p.isLink, let target = p.objectClassName, embedded.contains(target) else { continue }
                let links: [Value] =
                    switch value {
                    case .list(let items): items
                    case .map(let entries): Array(entries.values)
                    default: [value]
                    }
                for case .link(let k) in links where queued[target, default: []].insert(k.rawValue).inserted {
                    pending.append((target, k))
                }
            }
            objectsByClass[objectSchema.name, default: []].append(
                .init(
                    key: key.rawValue,
                    values: try zip(values, properties).map { value, p in
                        try coreValue(value, objectSchema.name, p, tableKeys: tableKeys)
                    }))
        }
        for objectSchema in schemas where !objectSchema.isEmbedded {
            for key in try realm.objects(objectSchema.name).keys() { try read(objectSchema, key) }
        }
        let byName = Dictionary(schemas.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        while let (className, key) = pending.popLast() {
            guard let objectSchema = byName[className] else { continue }
            try read(objectSchema, key)
        }
        return schemas.map { objectSchema in
            var table = RealmCoreWriterTable(
                name: "class_" + objectSchema.name, columns: columnsByClass[objectSchema.name] ?? [],
                objects: objectsByClass[objectSchema.name] ?? [], isEmbedded: objectSchema.isEmbedded)
            table.primaryKey = objectSchema.primaryKeyProperty?.name
            return table
        }
    }

    /// Writes `realm`'s newest version as a new Realm Core file at `path`: every class, every
    /// object under its key, the schema version in `metadata`. Refused (nothing written) when
    /// the schema holds what the writer cannot write yet.
    public static func write(_ realm: Realm, toFile path: String) throws {
        let tables = try tables(from: realm)
        try write(tables: tables, schemaVersion: realm.schemaVersion, toFile: path)
    }

    /// A value as Realm Core stores it in a column of `property`'s type.
    /// `tableKeys` gives the table key of each class typed links in Mixed values name.
    static func coreValue(_ value: Value, _ className: String, _ property: Property, tableKeys: [String: Int64] = [:])
        throws -> CoreValue
    {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .float(let f): return .float(f)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .date(let t):
            // This engine keeps nanoseconds in 0..<1e9 (−1.25 s is −2 s + 0.75e9 ns); Realm Core
            // gives them the sign of the seconds (−1 s − 0.25e9 ns) and asserts it.
            if t.seconds < 0, t.nanoseconds > 0 {
                return .timestamp(seconds: t.seconds + 1, nanoseconds: t.nanoseconds - 1_000_000_000)
            }
            return .timestamp(seconds: t.seconds, nanoseconds: t.nanoseconds)
        case .data(let d): return .binary(d)
        case .decimal128(let d): return .decimal128(low: d.low, high: d.high)
        case .objectId(let o):
            // Big-endian words, as `RealmCoreConversion` reads them back.
            var bytes: [UInt8] = []
            for word in [o.bytes.0, o.bytes.1, o.bytes.2] {
                bytes += [UInt8(word >> 24), UInt8(word >> 16 & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word & 0xFF)]
            }
            return .objectId(Data(bytes))
        case .uuid(let u):
            return .uuid(withUnsafeBytes(of: u.uuid) { Data($0) })
        case .link(let key) where property.isLink:
            // The writer gives a link column its target's table key.
            return .link(tableKey: -1, key: key.rawValue)
        case .list(let items) where property.isSet:
            // The engine keeps a set as a list in its own order; the writer puts it in Realm Core's.
            return .set(try items.map { try coreValue($0, className, property, tableKeys: tableKeys) })
        case .list(let items) where property.isList || property.type == .mixed:
            // A Mixed value may nest lists (Realm Core format 24).
            return .list(try items.map { try coreValue($0, className, property, tableKeys: tableKeys) })
        case .map(let entries) where property.isMap || property.type == .mixed:
            // A map property, or a dictionary nested in a Mixed value (format 24).
            return .dictionary(
                try entries.map { key, v in
                    CoreDictionaryEntry(key: key, value: try coreValue(v, className, property, tableKeys: tableKeys))
                })
        case .typedLink(let link) where property.type == .mixed:
            guard let table = tableKeys[link.className] else {
                throw RealmError.invalidInput(
                    "\(className).\(property.name): a Mixed link to \(link.className), a class that is not written")
            }
            return .typedLink(tableKey: table, key: link.key.rawValue)
        default:
            throw RealmError.unsupportedFeature(
                "\(className).\(property.name): a \(value) value cannot be written to a Realm Core file yet")
        }
    }
}
