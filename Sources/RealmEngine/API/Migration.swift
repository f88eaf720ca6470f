import Foundation

/// Runs when a Realm opens a file whose schema version is lower than the configuration's:
/// `(migration, oldSchemaVersion)`. Throwing leaves the file untouched.
public typealias MigrationBlock = @Sendable (Migration, UInt64) throws -> Void

/// A schema migration in progress: every object of the file, as it was (`oldObject`) and as it
/// will be stored (`newObject`), in memory until the migration commits.
///
/// Properties added by the new schema are handled automatically (they start at their default,
/// nil for optionals), properties it removes are dropped, and a property present in both keeps
/// its value. A property whose type changed keeps every value that converts without loss
/// (`"42"` → 42, 42 → `"42"`, 2.0 → 2); a value that does not (`"4x"`, 2.5 → int) fails the
/// migration, naming the object, unless the block sets that property of that object or sets
/// `allowsLossyTypeChanges` (the value then becomes the default; `unconvertedValues` lists
/// them). The block only has to compute what cannot be guessed:
///
/// ```swift
/// migration.enumerateObjects(ofType: "Person") { oldObject, newObject in
///     newObject!["fullName"] = "\(oldObject!["firstName"] as! String) \(oldObject!["lastName"] as! String)"
/// }
/// ```
///
/// The whole migration is one write transaction: it commits once, after the block, with the
/// new schema and version; if the block throws or a value does not fit the new schema
/// (nil for a required property, a duplicate primary key), nothing is written.
public final class Migration {
    /// The schema stored in the file.
    public let oldSchema: Schema
    /// The schema the file is migrated to.
    public let newSchema: Schema
    /// Objects by class name, in key order.
    var objects: [String: [MigrationObject]] = [:]
    /// The next key to hand out per class name.
    var nextKeys: [String: Int64] = [:]
    /// Calls naming a class or property that does not exist (reported when the migration
    /// commits, which then writes nothing: a misspelled name would otherwise drop data).
    var problems: [String] = []
    /// Whether values that do not convert to their property's new type may take the new
    /// type's default (see `unconvertedValues`). False: such a value fails the migration,
    /// which then writes nothing.
    public var allowsLossyTypeChanges = false

    init(oldSchema: Schema, newSchema: Schema) {
        self.oldSchema = oldSchema
        self.newSchema = newSchema
    }

    /// Calls `block` with each object of a class: its stored values (nil for an object created
    /// by this migration) and its values in the new schema (nil for an object deleted by it).
    public func enumerateObjects(
        ofType className: String,
        _ block: (_ oldObject: MigrationObject?, _ newObject: MigrationObject?) throws -> Void
    ) rethrows {
        for object in objects[className] ?? [] {
            try block(object.old, object.isDeleted ? nil : object)
        }
    }

    /// Creates an object of the new schema; missing values take their defaults.
    @discardableResult
    public func create(_ className: String, value: [String: Any] = [:]) -> MigrationObject {
        guard newSchema[className] != nil else {
            problems.append("create: the new schema has no class '\(className)'")
            return MigrationObject(className: className, key: ObjectKey(0), values: [:], old: nil)
        }
        let key = nextKeys[className, default: 0]
        nextKeys[className] = key + 1
        let object = MigrationObject(
            className: className, key: ObjectKey(key),
            values: Migration.defaults(newSchema[className]), old: nil)
        for (k, v) in value { object[k] = v }
        objects[className, default: []].append(object)
        return object
    }

    /// Deletes an object (links to it become nil, and it leaves every list): a new object, one
    /// `create` made, or the old object of an enumeration (its new object goes with it).
    public func delete(_ object: MigrationObject) {
        objects[object.className]?.first { $0 === object || $0.old === object }?.isDeleted = true
        object.isDeleted = true
    }

    /// Deletes every object of a class (the class stays in the file, empty, so that the class
    /// positions other open instances use stay valid). Returns whether the file had the class.
    @discardableResult
    public func deleteData(forType className: String) -> Bool {
        guard oldSchema[className] != nil else { return false }
        for o in objects[className] ?? [] { o.isDeleted = true }
        return true
    }

    /// Moves the values of a property of the old schema to a property of the new one.
    /// A name that is not a property of the class — in the file's schema for `oldName`, in the
    /// new one for `newName` — fails the migration.
    public func renameProperty(onType className: String, from oldName: String, to newName: String) {
        guard oldSchema[className]?[oldName] != nil else {
            problems.append("renameProperty: \(className) has no property '\(oldName)' in the file")
            return
        }
        guard newSchema[className]?[newName] != nil else {
            problems.append("renameProperty: \(className) has no property '\(newName)' in the new schema")
            return
        }
        guard let from = oldSchema[className]?[oldName], let to = newSchema[className]?[newName] else { return }
        for o in objects[className] ?? [] {
            guard let v = o.old?.values[oldName] else { continue }
            if let converted = Migration.converted(v, from: from, to: to) {
                o.values[newName] = converted
                o.unconverted[newName] = nil
            } else {
                o.values[newName] = Migration.defaultValue(to)
                o.unconverted[newName] = UnconvertedValue(object: o, property: newName, value: v, from: from, to: to)
            }
        }
    }

    /// Every property's default in a class of the new schema.
    static func defaults(_ schema: ObjectSchema?) -> [String: Value] {
        var values: [String: Value] = [:]
        for p in schema?.persistedProperties ?? [] { values[p.name] = defaultValue(p) }
        return values
    }

    /// A property's default: its declared default, an empty list, nil, or the type's zero.
    static func defaultValue(_ p: Property) -> Value {
        if p.isList { return .list([]) }
        if p.isMap { return .map([:]) }
        if let d = p.defaultValue { return d }
        if p.isOptional || p.type == .object { return .null }
        return zero(p.type)
    }

    /// The zero of a type (nil for links).
    static func zero(_ type: PropertyType) -> Value {
        switch type {
        case .bool: return .bool(false)
        case .int, .int8, .int16, .int32: return .int(0)
        case .float: return .float(0)
        case .double: return .double(0)
        case .string: return .string("")
        case .date: return .date(Timestamp(seconds: 0))
        case .data: return .data(Data())
        case .objectId: return .objectId(ObjectId(words: (0, 0, 0)))
        case .uuid: return .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .decimal128: return .decimal128(.zero)
        case .object, .linkingObjects, .mixed: return .null
        }
    }
}

/// An object during a migration: its values by property name. The old object is read-only;
/// the new object's values are what the migration stores.
public final class MigrationObject {
    /// The object's class.
    public let className: String
    /// The object's key (kept by the migration, so links stay valid).
    public let key: ObjectKey
    var values: [String: Value]
    /// The same object as stored before the migration (nil for old objects and new ones).
    let old: MigrationObject?
    var isDeleted = false
    /// Assignments of values no property can store (reported when the migration commits).
    var invalid: [String] = []
    /// Properties whose stored value did not convert to the new type, by name (cleared when
    /// the block sets the property).
    var unconverted: [String: UnconvertedValue] = [:]
    /// The primary key as stored before the migration (for messages).
    var storedPrimaryKey: Value?

    init(className: String, key: ObjectKey, values: [String: Value], old: MigrationObject?) {
        self.className = className
        self.key = key
        self.values = values
        self.old = old
    }

    /// A property's value (nil for a missing property or nil value).
    public func value(forKey name: String) -> Value? { values[name] }

    /// Sets a property's value (a name the class does not have fails the migration).
    public func setValue(_ value: Value, forKey name: String) {
        guard values.keys.contains(name) else {
            invalid.append("\(className) has no property '\(name)'")
            return
        }
        values[name] = value
        unconverted[name] = nil
    }

    /// A property's value as a Swift value (`String`, `Int`, `Double`, `Date`, `Data`, an
    /// `ObjectKey` for a link, an array for a list), or nil; set with a Swift value or nil.
    public subscript(name: String) -> Any? {
        get { values[name].flatMap(MigrationObject.swiftValue) }
        set {
            if let v = MigrationObject.storedValue(newValue) {
                setValue(v, forKey: name)
            } else {
                invalid.append("\(className).\(name) cannot store a \(type(of: newValue!))")
            }
        }
    }

    static func swiftValue(_ value: Value) -> Any? {
        switch value {
        case .null: nil
        case .bool(let b): b
        case .int(let i): Int(exactly: i) ?? i
        case .float(let f): f
        case .double(let d): d
        case .string(let s): s
        case .date(let t): t.date
        case .data(let d): d
        case .objectId(let o): o
        case .uuid(let u): u
        case .decimal128(let d): d
        case .link(let k): k
        case .typedLink(let l): l
        case .list(let items): items.map { swiftValue($0) as Any }
        case .map(let entries): entries.mapValues { swiftValue($0) as Any }
        }
    }

    static func storedValue(_ any: Any?) -> Value? {
        guard let any else { return .null }
        switch any {
        case let v as Value: return v
        case is NSNull: return .null
        case let b as Bool: return .bool(b)
        case let i as Int: return .int(Int64(i))
        case let i as Int64: return .int(i)
        case let i as Int32: return .int(Int64(i))
        case let i as Int16: return .int(Int64(i))
        case let i as Int8: return .int(Int64(i))
        case let d as Double: return .double(d)
        case let f as Float: return .float(f)
        case let s as String: return .string(s)
        // A date no timestamp holds is nil, which the setter reports as a value it cannot store.
        case let d as Date: return (try? Timestamp(d)).map(Value.date)
        case let d as Data: return .data(d)
        case let o as ObjectId: return .objectId(o)
        case let u as UUID: return .uuid(u)
        case let d as Decimal128: return .decimal128(d)
        case let k as ObjectKey: return .link(k)
        case let o as MigrationObject: return .link(o.key)
        case let a as [Any]:
            var items: [Value] = []
            for e in a {
                guard let v = storedValue(e) else { return nil }
                items.append(v)
            }
            return .list(items)
        case let d as [String: Any]:
            var entries: [String: Value] = [:]
            for (key, e) in d {
                guard let v = storedValue(e) else { return nil }
                entries[key] = v
            }
            return .map(entries)
        default: return nil
        }
    }
}
