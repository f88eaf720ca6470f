import Foundation

/// A stored value a migration could not carry into a property whose type changed: the object
/// keeps the new type's default unless the block sets the property, and the migration fails
/// unless `Migration.allowsLossyTypeChanges` is set.
public struct UnconvertedValue: Sendable, Hashable, CustomStringConvertible {
    /// The object's class.
    public let className: String
    /// The object's key.
    public let objectKey: ObjectKey
    /// The object's primary key as stored before the migration (nil when the class has none).
    public let primaryKey: Value?
    /// The property of the new schema.
    public let property: String
    /// The value as stored before the migration.
    public let value: Value
    /// The property's type before and after (as a schema spells it: `string`, `int?`, `Dog[]`).
    public let oldType: String
    public let newType: String

    init(object: MigrationObject, property: String, value: Value, from: Property, to: Property) {
        className = object.className
        objectKey = object.key
        primaryKey = object.storedPrimaryKey
        self.property = property
        self.value = value
        oldType = from.typeDescription
        newType = to.typeDescription
    }

    /// `Item with primary key 2, property code: the string "4x" does not convert to int`.
    public var description: String {
        let object = primaryKey.map { "primary key \(Self.show($0))" } ?? "object key \(objectKey.rawValue)"
        return
            "\(className) with \(object), property \(property): the \(oldType) \(Self.show(value)) does not convert to \(newType)"
    }

    /// A value as a message shows it: strings quoted (so `"42 "` and `""` are visible), long
    /// values cut.
    static func show(_ value: Value) -> String {
        let text: String
        switch value {
        case .string(let s): text = JSONWriter.quoted(s)
        case .list(let items): text = "[" + items.map(show).joined(separator: ", ") + "]"
        default: text = value.description
        }
        return text.count > 80 ? String(text.prefix(77)) + "…" : text
    }
}

extension Migration {
    /// The values that did not convert to their property's new type and that the block has not
    /// set since, over the objects not deleted, in class order, then key order, then property
    /// order. Empty when every type change converted (or none happened).
    public var unconvertedValues: [UnconvertedValue] {
        var result: [UnconvertedValue] = []
        for c in newSchema.objectSchemas {
            for o in objects[c.name] ?? [] where !o.isDeleted && !o.unconverted.isEmpty {
                for p in c.persistedProperties {
                    guard let was = o.unconverted[p.name] else { continue }
                    result.append(was)
                }
            }
        }
        return result
    }

    /// The value of old property `from` as a value of new property `to`, when it converts
    /// without loss; nil when it does not. Lossless means the new value reads back as the old
    /// one: `"42"` → 42, 42 → `"42"`, 3 → 3.0 (not 2.5 → 2), `"true"` → true, 1 → true (not 2),
    /// 300 → int8 fails, a string that is an ISO 8601 date, object id or UUID → that value, a
    /// one-element list → its element and back. Nil stays nil (a required property takes its
    /// default, as when a property is made required); a link to another class never converts.
    static func converted(_ value: Value, from: Property, to: Property) -> Value? {
        // A link of a class becomes a Mixed link naming that class.
        if from.type == .object, to.type == .mixed, let className = from.objectClassName {
            var mixed = from
            mixed.type = .mixed
            mixed.objectClassName = nil
            return converted(value.typingLinks(className: className), from: mixed, to: to)
        }
        if from.type == .object || to.type == .object {
            // Keys of one class mean nothing in another.
            guard from.type == to.type, from.objectClassName == to.objectClassName else {
                return isEmpty(value) ? emptyValue(of: to) : nil
            }
        }
        // A dictionary converts only to a dictionary (its keys have no place elsewhere), and only
        // an empty collection or nil becomes one.
        if from.isMap || to.isMap {
            guard from.isMap, to.isMap, case .map(let entries) = value else {
                return isEmpty(value) ? emptyValue(of: to) : nil
            }
            var out = [String: Value](minimumCapacity: entries.count)
            for (key, item) in entries {
                guard let v = convertedElement(item, to: to) else { return nil }
                out[key] = v
            }
            return .map(out)
        }
        switch (from.isList, to.isList, value) {
        case (true, true, .list(let items)):
            var out: [Value] = []
            for item in items {
                guard let v = convertedElement(item, to: to) else { return nil }
                out.append(v)
            }
            // A list becomes a set only when no two elements are equal: merging them would lose one.
            if to.isSet {
                let set = SetElements.normalized(out)
                return set.count == out.count ? .list(set) : nil
            }
            return .list(out)
        case (false, true, _):
            if value.isNull { return .list([]) }
            return convertedElement(value, to: to).map { .list([$0]) }
        case (true, false, .list(let items)):
            if items.isEmpty { return to.isOptional ? .null : nil }
            guard items.count == 1 else { return nil }
            return convertedScalar(items[0], to: to)
        default:
            return convertedScalar(value, to: to)
        }
    }

    private static func isEmpty(_ value: Value) -> Bool {
        if case .list(let items) = value { return items.isEmpty }
        if case .map(let entries) = value { return entries.isEmpty }
        return value.isNull
    }

    /// An empty list, set or dictionary, or nil.
    private static func emptyValue(of p: Property) -> Value {
        p.isMap ? .map([:]) : p.isList ? .list([]) : .null
    }

    /// An element of a list: nil elements of a list made required take the type's zero.
    private static func convertedElement(_ value: Value, to p: Property) -> Value? {
        if value.isNull { return p.isOptional ? .null : zero(p.type) }
        return convertedNonNull(value, to: p.type)
    }

    private static func convertedScalar(_ value: Value, to p: Property) -> Value? {
        if value.isNull { return p.isOptional || p.type == .object ? .null : defaultValue(p) }
        return convertedNonNull(value, to: p.type)
    }

    private static func convertedNonNull(_ value: Value, to type: PropertyType) -> Value? {
        switch (type, value) {
        case (.object, .link): return value
        // Mixed holds every value (nested collections too).
        case (.mixed, _): return value
        case (.int, _), (.int8, _), (.int16, _), (.int32, _):
            let i: Int64?
            switch value {
            case .int(let v): i = v
            case .bool(let b): i = b ? 1 : 0
            case .double(let d): i = Int64(exactly: d)
            case .float(let f): i = Int64(exactly: f)
            case .string(let s): i = Int64(s)
            case .decimal128(let d): i = d.exactInt64
            default: i = nil
            }
            return i.flatMap { type.integerRange.contains($0) ? .int($0) : nil }
        case (.bool, .bool): return value
        case (.bool, .int(let i)) where i == 0 || i == 1: return .bool(i == 1)
        case (.bool, .string("true")): return .bool(true)
        case (.bool, .string("false")): return .bool(false)
        case (.double, .double): return value
        case (.double, .float(let f)): return .double(Double(f))
        case (.double, .int(let i)): return Double(exactly: i).map(Value.double)
        case (.double, .string(let s)): return parseDouble(s).map(Value.double)
        case (.double, .decimal128(let d)):
            // Only a decimal the double holds exactly enough to give the same decimal back.
            return Decimal128(d.doubleValue) == d || d.isNaN ? .double(d.doubleValue) : nil
        case (.decimal128, .decimal128): return value
        case (.decimal128, .int(let i)): return .decimal128(Decimal128(i))
        case (.decimal128, .string(let s)): return Decimal128(exactly: s).map(Value.decimal128)
        case (.decimal128, .double(let d)):
            let decimal = Decimal128(d)
            return decimal.doubleValue == d || d.isNaN ? .decimal128(decimal) : nil
        case (.decimal128, .float(let f)):
            let decimal = Decimal128(Double(f))
            return Float(decimal.doubleValue) == f || f.isNaN ? .decimal128(decimal) : nil
        case (.string, .decimal128(let d)): return .string(d.description)
        case (.float, .float): return value
        case (.float, .double(let d)): return d.isNaN ? .float(.nan) : Float(exactly: d).map(Value.float)
        case (.float, .int(let i)): return Float(exactly: i).map(Value.float)
        case (.float, .string(let s)):
            // Kept only when the float holds every digit the text gave ("0.1" yes, "0.123456789" no).
            guard let d = parseDouble(s), let f = Float(s) else { return nil }
            if d.isNaN { return .float(.nan) }
            return Double(f.description) == d ? .float(f) : nil
        case (.string, .string): return value
        case (.string, .int(let i)): return .string(String(i))
        case (.string, .bool(let b)): return .string(b ? "true" : "false")
        // The shortest text that reads back as the same number.
        case (.string, .double(let d)): return .string(d.description)
        case (.string, .float(let f)): return .string(f.description)
        case (.string, .date(let t)): return .string(t.iso8601)
        case (.string, .objectId(let o)): return .string(o.description)
        case (.string, .uuid(let u)): return .string(u.uuidString.lowercased())
        case (.string, .data(let d)): return String(bytes: d, encoding: .utf8).map(Value.string)
        case (.date, .date): return value
        case (.date, .string(let s)): return Timestamp.parseISO8601(s).map(Value.date)
        case (.data, .data): return value
        case (.data, .string(let s)): return .data(Data(s.utf8))
        case (.objectId, .objectId): return value
        case (.objectId, .string(let s)): return ObjectId(parsing: s).map(Value.objectId)
        case (.uuid, .uuid): return value
        case (.uuid, .string(let s)): return UUID(uuidString: s).map(Value.uuid)
        default: return nil
        }
    }

    /// A double from text, refusing an overflow to infinity (`1e999`) that the text does not spell.
    private static func parseDouble(_ s: String) -> Double? {
        guard let d = Double(s) else { return nil }
        if d.isInfinite && !s.lowercased().contains("inf") { return nil }
        return d
    }
}
