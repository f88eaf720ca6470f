import Foundation
import RealmEngine

/// A Realm Core file as this engine's schema and objects: what `realmtui copy FILE.realm
/// native.realm` writes and what the explorer shows of a Realm file.
///
/// Every class an SDK made (`class_X` tables) becomes a class of the same name; objects keep
/// their keys, links and primary keys; indexed columns stay indexed; Mixed columns (values,
/// lists, sets and dictionaries of Mixed, nested collections, typed links) become this engine's
/// Mixed; embedded tables become embedded classes, owned through the same to-one links, lists
/// and dictionaries (each embedded object checked to have exactly one parent and a top-level
/// ancestor: `RealmCoreConversion+Embedded`). What this engine cannot hold yet — typed-link
/// columns, asymmetric classes — is left out and listed in `omissions` (the caller says so to
/// the user; nothing is left out silently). A
/// link to an object that was deleted while other devices still referred to it (Realm's
/// "unresolved" tombstone keys) is read as no link, as the SDKs show it, and counted.
public struct RealmCoreConversion {
    /// A property (or a whole class, `property` nil) of the Realm file that the conversion
    /// leaves out, and why.
    public struct Omission: Sendable, CustomStringConvertible {
        public let className: String
        public let property: String?
        public let reason: String
        public var description: String { (property.map { "\(className).\($0)" } ?? className) + " (\(reason))" }
    }

    /// The converted schema.
    public let schema: Schema
    /// What the conversion leaves out.
    public let omissions: [Omission]
    let file: RealmCoreFile
    let plans: [ClassPlan]
    /// The class of each kept table, by table key: what a typed link in a Mixed names.
    let tableClasses: [Int64: String]
    /// The converted classes that are embedded.
    let embeddedClasses: Set<String>

    /// One class: its table and, per kept property, the table's column position.
    struct ClassPlan {
        var table: RealmCoreTable
        var name: String
        var columns: [(position: Int, property: Property)]
    }

    /// Plans the conversion of `file` (reads its schema only).
    public init(file: RealmCoreFile) throws {
        self.file = file
        var omissions: [Omission] = []
        let classTables = file.tables.filter { $0.className != nil }
        var kept: [String: RealmCoreTable] = [:]
        for table in classTables {
            guard let name = table.className else { continue }
            switch table.kind {
            case .topLevel, .embedded: kept[table.name] = table
            case .asymmetric:
                omissions.append(
                    Omission(className: name, property: nil, reason: "an asymmetric (write-only, synced) class"))
            }
        }
        var plans: [ClassPlan] = []
        for table in classTables where kept[table.name] != nil {
            guard let name = table.className else { continue }
            var columns: [(Int, Property)] = []
            for (position, column) in table.columns.enumerated() {
                switch Self.property(for: column, in: table, kept: kept) {
                case .success(let property): columns.append((position, property))
                case .failure(let reason):
                    omissions.append(Omission(className: name, property: column.name, reason: reason.text))
                }
            }
            plans.append(ClassPlan(table: table, name: name, columns: columns))
        }
        let schema = Schema(
            plans.map {
                ObjectSchema(name: $0.name, properties: $0.columns.map(\.1), isEmbedded: $0.table.kind == .embedded)
            })
        try schema.validate()
        self.schema = schema
        self.omissions = omissions
        self.plans = plans
        // Not the embedded ones: Realm keeps links to embedded objects out of Mixed (one owning
        // link each), so a typed link naming one is refused as damage.
        tableClasses = Dictionary(
            kept.values.filter { $0.kind != .embedded }.compactMap { t in t.className.map { (t.key, $0) } },
            uniquingKeysWith: { a, _ in a })
        embeddedClasses = Set(plans.filter { $0.table.kind == .embedded }.map(\.name))
    }

    /// The number of objects the conversion copies, in O(1).
    public var objectCount: Int { plans.reduce(0) { $0 + $1.table.objectCount } }

    /// The number of objects of converted class `className`, in O(1) (the cluster tree's root
    /// holds it); nil for a class the conversion does not have.
    public func objectCount(of className: String) -> Int? {
        plans.first { $0.name == className }?.table.objectCount
    }

    private struct Unsupported: Error {
        var text: String
    }

    /// This engine's property for a Realm Core column, or why there is none.
    private static func property(
        for column: CoreColumn, in table: RealmCoreTable,
        kept: [String: RealmCoreTable]
    ) -> Result<Property, Unsupported> {
        let isList = column.collection == .list || column.type == .linkList
        let isSet = column.collection == .set
        let isMap = column.collection == .dictionary
        let isPrimaryKey = column.name == table.primaryKey
        let indexed = column.index == .general
        func scalar(_ type: PropertyType) -> Result<Property, Unsupported> {
            .success(
                Property(
                    name: column.name, type: type, isOptional: column.nullable, isList: isList, isSet: isSet,
                    isMap: isMap,
                    isPrimaryKey: isPrimaryKey, isIndexed: indexed && type.canBeIndexed && !isList && !isSet && !isMap))
        }
        switch column.type {
        case .int: return scalar(.int)
        case .bool: return scalar(.bool)
        case .string: return scalar(.string)
        case .binary: return scalar(.data)
        case .timestamp: return scalar(.date)
        case .float: return scalar(.float)
        case .double: return scalar(.double)
        case .decimal128: return scalar(.decimal128)
        case .objectId: return scalar(.objectId)
        case .uuid: return scalar(.uuid)
        case .mixed: return scalar(.mixed)
        case .typedLink: return .failure(Unsupported(text: "a typed link: not supported yet"))
        case .backlink: return .failure(Unsupported(text: "a backlink column"))
        case .link, .linkList:
            guard let targetName = column.linkTarget, let target = kept[targetName], let className = target.className
            else {
                let target = column.linkTarget.map { $0.hasPrefix("class_") ? String($0.dropFirst(6)) : $0 } ?? "?"
                return .failure(Unsupported(text: "links to \(target), which is left out"))
            }
            if target.kind == .embedded, isSet {
                return .failure(
                    Unsupported(text: "a set of embedded objects of \(className), which Realm does not write"))
            }
            return .success(
                Property(
                    name: column.name, type: .object, isList: isList, isSet: isSet, isMap: isMap,
                    objectClassName: className))
        }
    }

    /// Calls `body` with each object of `className` — its key and its kept values in `schema`'s
    /// property order — in the file's order (ascending keys), one cluster leaf at a time, without
    /// building the file in memory; `body` returns false to stop. Links to deleted objects read
    /// as no link, as in `copy`.
    public func forEachObject(of className: String, _ body: (ObjectKey, [Value]) throws -> Bool) throws {
        guard let plan = plans.first(where: { $0.name == className }) else { throw RealmError.noSuchClass(className) }
        try plan.table.forEachObject { object in
            var values: [Value] = []
            values.reserveCapacity(plan.columns.count)
            for (position, property) in plan.columns {
                values.append(
                    try Self.value(object.values[position], for: property, in: plan.name, tableClasses: tableClasses))
            }
            return try body(ObjectKey(object.key), values)
        }
    }

    /// Names link targets for an export of whole classes (every object of the target class in
    /// the export, in key order): by primary key, or by position in that order when the class has
    /// none or the key is nil — what an export of the converted file writes. Each target class is
    /// read once, when a link to it is first met (its keys, and its primary keys).
    public func exportLinkResolver() -> LinkResolver {
        let index = TargetIndex(conversion: self)
        return { targetClass, key in try index.target(targetClass, key) }
    }

    /// The keys (in order) and primary keys of the classes links point at, read on first use.
    private final class TargetIndex {
        let conversion: RealmCoreConversion
        var keys: [String: [Int64]] = [:]
        var primaryKeys: [String: [Int64: Value]] = [:]

        init(conversion: RealmCoreConversion) { self.conversion = conversion }

        /// The values of every object of an embedded class, by key (written nested in their
        /// parents, so an export reads each once).
        var embedded: [String: [Int64: [Value]]] = [:]

        func target(_ className: String, _ key: ObjectKey) throws -> LinkTarget? {
            if let objectSchema = conversion.schema[className], objectSchema.isEmbedded {
                if embedded[className] == nil {
                    var values: [Int64: [Value]] = [:]
                    try conversion.forEachObject(of: className) { key, row in
                        values[key.rawValue] = row
                        return true
                    }
                    embedded[className] = values
                }
                return embedded[className]?[key.rawValue].map { .embedded(objectSchema, $0) }
            }
            if keys[className] == nil { try read(className) }
            if let value = primaryKeys[className]?[key.rawValue], value != .null { return .primaryKey(value) }
            guard let all = keys[className] else { return nil }
            // Binary search: the keys are ascending.
            var low = 0
            var high = all.count
            while low < high {
                let middle = (low + high) / 2
                if all[middle] < key.rawValue { low = middle + 1 } else { high = middle }
            }
            return low < all.count && all[low] == key.rawValue ? .position(low) : nil
        }

        private func read(_ className: String) throws {
            guard let objectSchema = conversion.schema[className] else { throw RealmError.noSuchClass(className) }
            let primaryKeyIndex = objectSchema.persistedProperties.firstIndex { $0.isPrimaryKey }
            var classKeys: [Int64] = []
            var classPrimaryKeys: [Int64: Value] = [:]
            try conversion.forEachObject(of: className) { key, values in
                classKeys.append(key.rawValue)
                if let primaryKeyIndex { classPrimaryKeys[key.rawValue] = values[primaryKeyIndex] }
                return true
            }
            keys[className] = classKeys
            primaryKeys[className] = classPrimaryKeys
        }
    }

    /// How many links to deleted objects (unresolved keys) `copy` read as no link.
    public private(set) var droppedUnresolvedLinks = 0

    /// Writes every object of the file into `realm` (in a write transaction, with `schema`),
    /// under its key. `progress` gets the objects written so far and the total.
    public mutating func copy(into realm: Realm, progress: (Int, Int) -> Void = { _, _ in }) throws {
        let copy = try KeyedCopy(into: realm)
        let total = plans.reduce(0) { $0 + $1.table.objectCount }
        var dropped = 0
        var owners = EmbeddedOwners()
        // Phase 1: every link, so each object's backlinks are known when it is written, and
        // each embedded object's parent.
        for plan in plans {
            let links = plan.columns.filter { $0.property.isLink }
            guard !links.isEmpty else { continue }
            try plan.table.forEachObject { object in
                for (position, property) in links {
                    let owning = property.objectClassName.map(embeddedClasses.contains) ?? false
                    for target in try Self.linkedKeys(
                        object.values[position], dropped: &dropped, in: plan.name, property.name)
                    {
                        try copy.noteLink(
                            from: plan.name, property: property.name, originKey: ObjectKey(object.key), to: target)
                        if owning, let targetClass = property.objectClassName {
                            try owners.note(
                                target.rawValue, of: targetClass,
                                owner: .init(className: plan.name, key: object.key, property: property.name),
                                in: file.bytes, at: plan.table.clusterRoot ?? 0)
                        }
                    }
                }
                return true
            }
        }
        try verify(owners)
        // Phase 2: every object with its values.
        var done = 0
        for plan in plans {
            // A cluster leaf at a time, converted column by column.
            try plan.table.forEachLeaf { keys, columns in
                var converted: [[Value]] = []
                converted.reserveCapacity(plan.columns.count)
                for column in plan.columns {
                    let property = column.property
                    var out: [Value] = []
                    out.reserveCapacity(keys.count)
                    for value in columns[column.position] {
                        out.append(try Self.value(value, for: property, in: plan.name, tableClasses: tableClasses))
                    }
                    converted.append(out)
                }
                for (i, key) in keys.enumerated() {
                    var values: [Value] = []
                    values.reserveCapacity(converted.count)
                    for column in converted { values.append(column[i]) }
                    try copy.insert(plan.name, key: ObjectKey(key), values: values)
                    done += 1
                    if done % 1024 == 0 { progress(done, total) }
                }
                return true
            }
        }
        try copy.finish()
        droppedUnresolvedLinks = dropped
        progress(done, total)
    }

    /// The keys a link or list-of-links value names (unresolved ones left out and counted).
    static func linkedKeys(_ value: CoreValue, dropped: inout Int, in className: String, _ property: String) throws
        -> [ObjectKey]
    {
        switch value {
        case .null: return []
        case .link(_, let key):
            if key < 0 {
                dropped += 1
                return []
            }
            return [ObjectKey(key)]
        case .list(let items), .set(let items):
            var keys: [ObjectKey] = []
            for item in items { keys += try linkedKeys(item, dropped: &dropped, in: className, property) }
            return keys
        case .dictionary(let entries):
            var keys: [ObjectKey] = []
            for entry in entries { keys += try linkedKeys(entry.value, dropped: &dropped, in: className, property) }
            return keys
        default:
            throw RealmError.invalidInput("\(className).\(property): a link column holds \(value.typeName)")
        }
    }

    /// This engine's value for a Realm Core value of `property`.
    static func value(
        _ value: CoreValue, for property: Property, in className: String, tableClasses: [Int64: String] = [:]
    ) throws -> Value {
        if property.type == .mixed {
            return try mixedProperty(value, for: property, in: className, tableClasses: tableClasses)
        }
        switch value {
        case .null: return .null
        case .int(let v): return .int(v)
        case .bool(let v): return .bool(v)
        case .float(let v): return .float(v)
        case .double(let v): return .double(v)
        case .string(let v): return .string(v)
        case .binary(let v): return .data(v)
        case .timestamp(let seconds, let nanoseconds):
            return .date(Timestamp(seconds: seconds, nanoseconds: nanoseconds))
        case .decimal128(let low, let high): return .decimal128(Decimal128(low: low, high: high))
        case .objectId(let bytes):
            guard bytes.count == 12 else {
                throw RealmError.invalidInput("\(className).\(property.name): an ObjectId of \(bytes.count) bytes")
            }
            func word(_ at: Int) -> UInt32 {
                bytes[bytes.startIndex + at..<bytes.startIndex + at + 4].reduce(0) { $0 << 8 | UInt32($1) }
            }
            return .objectId(ObjectId(words: (word(0), word(4), word(8))))
        case .uuid(let bytes):
            guard bytes.count == 16 else {
                throw RealmError.invalidInput("\(className).\(property.name): a UUID of \(bytes.count) bytes")
            }
            let b = Array(bytes)
            return .uuid(
                UUID(
                    uuid: (
                        b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
                        b[15]
                    )))
        case .link(_, let key): return key < 0 ? .null : .link(ObjectKey(key))
        case .list(let items):
            var out: [Value] = []
            out.reserveCapacity(items.count)
            for item in items {
                if case .link(_, let key) = item, key < 0 { continue }
                out.append(try Self.value(item, for: property, in: className))
            }
            return .list(out)
        case .set(let items) where property.isSet:
            var out: [Value] = []
            out.reserveCapacity(items.count)
            for item in items {
                if case .link(_, let key) = item, key < 0 { continue }
                out.append(try Self.value(item, for: property, in: className))
            }
            // Realm Core keeps a set sorted too, but its order of NaN against numbers depends on
            // where the NaN was inserted; this engine keeps one order. Elements it holds equal
            // that Core kept apart would be merged: refused rather than lost.
            let set = SetElements.normalized(out)
            guard set.count == out.count else {
                throw RealmError.invalidInput(
                    "\(className).\(property.name): a set holds elements this engine takes as equal: \(Value.list(out))"
                )
            }
            return .list(set)
        case .dictionary(let entries) where property.isMap:
            var out = [String: Value](minimumCapacity: entries.count)
            for entry in entries {
                try MapKey.check(entry.key, className: className, property: property.name)
                guard out[entry.key] == nil else {
                    throw RealmError.invalidInput(
                        "\(className).\(property.name): the dictionary holds the key '\(entry.key)' twice")
                }
                // A link to an object deleted elsewhere (an unresolved key) reads as nil, as the SDKs show it.
                out[entry.key] = try Self.value(entry.value, for: property, in: className)
            }
            return .map(out)
        case .typedLink, .set, .dictionary:
            throw RealmError.internalError(
                "internal error: \(className).\(property.name) holds \(value.typeName), which the conversion leaves out"
            )
        }
    }
}
