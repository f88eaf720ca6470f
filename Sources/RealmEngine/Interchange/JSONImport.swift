import Foundation

/// Converts JSON import files and command-line JSON values into `ObjectInput` and `Value`,
/// guided by the schema. Pure: no engine access; the engine validates again on create
/// (required values, string limits, primary-key uniqueness).
///
/// The import file is `{"Class": [object, …], …}`; each object is either a JSON object (property
/// name → value; unknown names ignored) or an array of values in the class's persisted-property
/// order. Classes come back in the file's order (a class may appear more than once), so a file
/// can create the targets of primary-key references before the objects that refer to them.
///
/// How a JSON value is read depends on the property (`input(fromJSON:for:className:schema:)`):
///
/// | property            | accepted JSON                                                       |
/// |---------------------|---------------------------------------------------------------------|
/// | bool                | `true` / `false` only (never 0/1)                                   |
/// | int, int8/16/32     | a whole number in the type's range (`3`, `3.0`, `3e0`)              |
/// | float, double       | a number, or `"nan"`, `"inf"`, `"-inf"` (how export writes them)    |
/// | string              | a string                                                            |
/// | date                | an ISO 8601 string (fraction kept) or epoch milliseconds            |
/// | data                | a base64 string, or an array of byte values 0–255                   |
/// | objectId / uuid     | 24 hex digits / the canonical UUID string                           |
/// | link (to-one, item) | object → `.dictionary`; array → `.array`; number/string → `.primaryKey` when the target has one |
/// | list, set           | an array of the element form above → `.array`                      |
/// | dictionary          | an object of key → the element form above (or null) → `.dictionary` |
/// | any                 | `null` → `.value(.null)`                                            |
public enum JSONImport {
    /// Objects of one class, in file order.
    public typealias ClassObjects = (className: String, objects: [ObjectInput])

    // MARK: - Import files

    /// Parses an import file and converts every object by the schema.
    public static func objects(fromJSON data: Data, schema: Schema) throws -> [ClassObjects] {
        try objects(from: JSONParser.parse(data), schema: schema)
    }

    /// Converts a parsed import document by the schema.
    public static func objects(from document: JSONValue, schema: Schema) throws -> [ClassObjects] {
        guard let members = document.objectMembers else {
            throw RealmError.invalidInput(
                "an import file is a JSON object of class name → array of objects, e.g. {\"Dog\": [{\"name\": \"Rex\"}]}; got \(document.kindName) \(document.snippet())"
            )
        }
        var result: [ClassObjects] = []
        for member in members {
            guard let objectSchema = schema[member.key] else { throw RealmError.noSuchClass(member.key) }
            guard case .array(let items) = member.value else {
                throw RealmError.invalidInput(
                    "\"\(member.key)\" must be an array of objects in an import file; got \(member.value.kindName) \(member.value.snippet())"
                )
            }
            let inputs = try items.map { try objectInput(fromJSON: $0, objectSchema: objectSchema, schema: schema) }
            result.append((className: member.key, objects: inputs))
        }
        return result
    }

    /// Throws unless every member of an object's JSON names a different property: one given
    /// twice was imported silently with the last value, as most JSON readers do, losing the
    /// other — an error now, as a primary key given twice is. (Names repeat legitimately only
    /// at the top level, where a class may have several groups.)
    static func requireDistinctNames(_ members: [JSONMember], in label: @autoclosure () -> String) throws {
        guard members.count > 1 else { return }
        if members.count <= 16 {
            // An object of a few properties (nearly every one): comparing pairs costs less
            // than hashing every name into a set (6% of a million-object import was the set).
            for later in 1..<members.count {
                for earlier in 0..<later where members[earlier].key == members[later].key {
                    throw RealmError.invalidInput(
                        "\(label()): property '\(members[later].key)' is given twice in one object; give each property once"
                    )
                }
            }
            return
        }
        var seen = Set<String>()
        for member in members where !seen.insert(member.key).inserted {
            throw RealmError.invalidInput(
                "\(label()): property '\(member.key)' is given twice in one object; give each property once")
        }
    }

    /// One whole object: a JSON object → `.dictionary`, an array in persisted-property order →
    /// `.array`. Anything else is a type error.
    public static func objectInput(fromJSON json: JSONValue, objectSchema: ObjectSchema, schema: Schema) throws
        -> ObjectInput
    {
        switch json {
        case .object(let members):
            try requireDistinctNames(members, in: objectSchema.name)
            var dictionary: [String: ObjectInput] = [:]
            for member in members {
                // Unknown keys are ignored (Realm's create does the same); computed
                // linkingObjects are read-only, so a value for one (as in an export) is skipped.
                guard let property = objectSchema[member.key], property.isPersisted else { continue }
                dictionary[member.key] = try input(
                    fromJSON: member.value, for: property, className: objectSchema.name, schema: schema)
            }
            return .dictionary(dictionary)
        case .array(let values):
            let persisted = objectSchema.persistedProperties
            guard values.count <= persisted.count else {
                throw RealmError.invalidInput(
                    "\(objectSchema.name): an array of \(values.count) values, but the class has \(persisted.count) stored properties (\(persisted.map(\.name).joined(separator: ", ")))"
                )
            }
            return .array(
                try zip(values, persisted).map { value, property in
                    try input(fromJSON: value, for: property, className: objectSchema.name, schema: schema)
                })
        default:
            throw RealmError.typeMismatch(
                className: objectSchema.name, property: "(object)",
                expected: "a JSON object or an array of values in property order",
                got: json.snippet())
        }
    }

    // MARK: - One property

    /// The input for one property (any kind, links included).
    public static func input(fromJSON json: JSONValue, for property: Property, className: String, schema: Schema) throws
        -> ObjectInput
    {
        guard property.isPersisted else {
            throw RealmError.invalidInput(
                "\(className).\(property.name) is a computed linkingObjects property and cannot be set")
        }
        if case .null = json { return .value(.null) }
        if property.type == .mixed {
            return .value(try MixedJSON.value(json, of: property, className: className, resolveLink: nil))
        }
        if property.isMap {
            let members = try mapMembers(json, for: property, className: className)
            var entries = [String: ObjectInput](minimumCapacity: members.count)
            for member in members {
                let label = "\(property.name)['\(member.key)']"
                if case .null = member.value {
                    guard property.isOptional else {
                        throw RealmError.typeMismatch(
                            className: className, property: label, expected: property.type.rawValue, got: "null")
                    }
                    entries[member.key] = .value(.null)
                } else {
                    entries[member.key] = try element(
                        fromJSON: member.value, for: property, className: className, propertyLabel: label,
                        schema: schema)
                }
            }
            return .dictionary(entries)
        }
        guard property.isList else {
            return try element(
                fromJSON: json, for: property, className: className, propertyLabel: property.name, schema: schema)
        }
        guard case .array(let items) = json else {
            throw RealmError.typeMismatch(
                className: className, property: property.name,
                expected: "\(property.typeDescription) (a JSON array)", got: json.snippet())
        }
        return .array(
            try items.enumerated().map { i, item in
                let label = "\(property.name)[\(i)]"
                if case .null = item {
                    if property.isLink || !property.isOptional {
                        throw RealmError.typeMismatch(
                            className: className, property: label,
                            expected: property.isLink
                                ? "an object (lists of objects cannot hold null)" : property.type.rawValue,
                            got: "null")
                    }
                    return .value(.null)
                }
                return try element(
                    fromJSON: item, for: property, className: className, propertyLabel: label, schema: schema)
            })
    }

    /// A scalar property's value, or a list of scalars as `.list`. Links cannot be values without
    /// the engine (use `input(fromJSON:for:className:schema:)`); asking for one is a type error.
    public static func value(fromJSON json: JSONValue, for property: Property, className: String) throws -> Value {
        if case .null = json { return .null }
        if property.type == .mixed {
            return try MixedJSON.value(json, of: property, className: className, resolveLink: nil)
        }
        guard !property.isLink, property.isPersisted else {
            throw RealmError.typeMismatch(
                className: className, property: property.name,
                expected: "\(property.typeDescription) (an object, set through create or import)",
                got: json.snippet())
        }
        if property.isMap {
            var entries = [String: Value]()
            for member in try mapMembers(json, for: property, className: className) {
                if case .null = member.value {
                    entries[member.key] = .null
                    continue
                }
                entries[member.key] = try scalar(
                    fromJSON: member.value, type: property.type, className: className,
                    propertyLabel: "\(property.name)['\(member.key)']", expected: property.type.rawValue)
            }
            return .map(entries)
        }
        guard property.isList else {
            return try scalar(
                fromJSON: json, type: property.type, className: className, propertyLabel: property.name,
                expected: property.typeDescription)
        }
        guard case .array(let items) = json else {
            throw RealmError.typeMismatch(
                className: className, property: property.name,
                expected: "\(property.typeDescription) (a JSON array)", got: json.snippet())
        }
        return .list(
            try items.enumerated().map { i, item in
                if case .null = item { return .null }
                return try scalar(
                    fromJSON: item, type: property.type, className: className,
                    propertyLabel: "\(property.name)[\(i)]", expected: property.type.rawValue)
            })
    }

    /// The members of a dictionary's JSON object, keys checked (Realm's rules, no key twice).
    static func mapMembers(_ json: JSONValue, for property: Property, className: String) throws -> [JSONMember] {
        guard case .object(let members) = json else {
            throw RealmError.typeMismatch(
                className: className, property: property.name,
                expected: "\(property.typeDescription) (a JSON object)", got: json.snippet())
        }
        var seen = Set<String>()
        for member in members {
            try MapKey.check(member.key, className: className, property: property.name)
            guard seen.insert(member.key).inserted else {
                throw RealmError.invalidInput("\(className).\(property.name): the key '\(member.key)' is given twice")
            }
        }
        return members
    }

    /// A to-one link, a list element, or a non-list scalar (not null).
    static func element(
        fromJSON json: JSONValue, for property: Property, className: String,
        propertyLabel: @autoclosure () -> String, schema: Schema
    ) throws -> ObjectInput {
        guard property.isLink else {
            return .value(
                try scalar(
                    fromJSON: json, type: property.type, className: className,
                    propertyLabel: propertyLabel(),
                    expected: property.isList ? property.type.rawValue : property.typeDescription))
        }
        let targetName = property.objectClassName ?? ""
        guard let target = schema[targetName] else { throw RealmError.noSuchClass(targetName) }
        if ImportDocument.reference(json) != nil {
            throw RealmError.invalidInput(
                "\(className).\(propertyLabel()): \(json.snippet()) names an object of an import file by position; here give the \(targetName)'s primary key or the object itself"
            )
        }
        switch json {
        case .object, .array:
            return try objectInput(fromJSON: json, objectSchema: target, schema: schema)
        case .number, .string:
            guard let pk = target.primaryKeyProperty else {
                throw RealmError.typeMismatch(
                    className: className, property: propertyLabel(),
                    expected: "a \(targetName) as an object or an array (\(targetName) has no primary key to refer to)",
                    got: json.snippet())
            }
            let key = try scalar(
                fromJSON: json, type: pk.type, className: className, propertyLabel: propertyLabel(),
                expected: "the primary key of a \(targetName) (\(pk.type.rawValue)), an object or an array")
            return .primaryKey(key)
        default:
            throw RealmError.typeMismatch(
                className: className, property: propertyLabel(),
                expected: "a \(targetName): an object, an array in property order, or a primary key",
                got: json.snippet())
        }
    }

    /// Converts a non-null JSON value to a scalar of `type`.
    static func scalar(
        fromJSON json: JSONValue, type: PropertyType, className: String,
        propertyLabel: @autoclosure () -> String, expected: @autoclosure () -> String
    ) throws -> Value {
        // The label and the expectation are made only for an error (per value, they were a
        // twentieth of an import's time).
        func mismatch(_ what: String? = nil) -> RealmError {
            RealmError.typeMismatch(
                className: className, property: propertyLabel(), expected: what ?? expected(), got: json.snippet())
        }
        switch type {
        case .bool:
            guard let b = json.boolValue else { throw mismatch("\(expected()) (true or false)") }
            return .bool(b)
        case .int, .int8, .int16, .int32:
            guard let v = json.int64Value else {
                // A whole number, but beyond 64 bits: say the range, not "not a whole number".
                if json.isIntegerLiteral {
                    throw mismatch(
                        "\(type.rawValue) in \(type.integerRange.lowerBound)...\(type.integerRange.upperBound)")
                }
                throw mismatch("\(expected()) (a whole number)")
            }
            guard type.integerRange.contains(v) else {
                throw mismatch("\(type.rawValue) in \(type.integerRange.lowerBound)...\(type.integerRange.upperBound)")
            }
            return .int(v)
        case .float:
            if case .number(let text) = json, let f = Float(text) {
                guard f.isFinite else { throw mismatch("\(expected()) (within float range)") }
                return .float(f)
            }
            if case .string(let s) = json, let d = nonFinite(s) { return .float(Float(d)) }
            throw mismatch("\(expected()) (a number, or \"nan\", \"inf\", \"-inf\")")
        case .double:
            if case .number(let text) = json, let d = Double(text) {
                guard d.isFinite else { throw mismatch("\(expected()) (within double range)") }
                return .double(d)
            }
            if case .string(let s) = json, let d = nonFinite(s) { return .double(d) }
            throw mismatch("\(expected()) (a number, or \"nan\", \"inf\", \"-inf\")")
        case .string:
            guard let s = json.stringValue else { throw mismatch("\(expected()) (a JSON string)") }
            return .string(s)
        case .date:
            guard let t = timestamp(fromJSON: json) else {
                throw mismatch(
                    "\(expected()) (ISO 8601 like \"2020-01-02T03:04:05.25Z\" with at most 9 fraction digits, or epoch milliseconds)"
                )
            }
            return .date(t)
        case .data:
            if case .string(let s) = json, let d = Data(base64Encoded: s) { return .data(d) }
            if case .array(let items) = json {
                var bytes: [UInt8] = []
                bytes.reserveCapacity(items.count)
                for item in items {
                    guard let b = item.int64Value, (0...255).contains(b) else {
                        throw mismatch("\(expected()) (an array of bytes 0–255)")
                    }
                    bytes.append(UInt8(b))
                }
                return .data(Data(bytes))
            }
            throw mismatch("\(expected()) (a base64 string)")
        case .objectId:
            guard let s = json.stringValue, let id = ObjectId(parsing: s) else {
                throw mismatch("\(expected()) (24 hexadecimal digits)")
            }
            return .objectId(id)
        case .uuid:
            guard let s = json.stringValue, let id = UUID(uuidString: s) else {
                throw mismatch("\(expected()) (like \"d1b186e1-e9e0-4768-a1a7-c492519d47ee\")")
            }
            return .uuid(id)
        case .decimal128:
            // The text as written (a string, or a number's own digits — never through a double),
            // refused when a decimal128 would have to round it.
            let text: String
            switch json {
            case .string(let s): text = s
            case .number(let n): text = n
            default: throw mismatch("\(expected()) (a decimal as a string like \"12.50\", or a number)")
            }
            guard let decimal = Decimal128(exactly: text) else {
                if Decimal128(text) != nil {
                    throw mismatch(
                        "\(expected()) that a decimal128 holds exactly (at most 34 significant digits, exponent -6176...6111)"
                    )
                }
                throw mismatch("\(expected()) (a decimal as a string like \"12.50\", \"-1E-6143\", \"NaN\" or \"Inf\")")
            }
            return .decimal128(decimal)
        case .object, .linkingObjects, .mixed:
            throw mismatch()
        }
    }

    /// A date from an ISO 8601 string or a number of milliseconds since 1970 (fraction kept to
    /// the nanosecond as far as a double carries it).
    static func timestamp(fromJSON json: JSONValue) -> Timestamp? {
        switch json {
        case .string(let s):
            return Timestamp.parseISO8601(s)
        case .number(let text):
            if let ms = Int64(text) { return Timestamp(milliseconds: ms) }
            guard let ms = Double(text), ms.isFinite, abs(ms) < 9.2e18 else { return nil }
            let seconds = (ms / 1000).rounded(.down)
            let nanos = ((ms - seconds * 1000) * 1_000_000).rounded()
            return Timestamp(seconds: Int64(seconds), nanoseconds: Int32(max(0, min(nanos, 999_999_999))))
        default:
            return nil
        }
    }

    /// `nan`, `inf`, `-inf`, `+inf`, `infinity`, `-infinity` in any case (what export writes for
    /// non-finite floats, and what other tools commonly write).
    static func nonFinite(_ s: String) -> Double? {
        switch s.lowercased() {
        case "nan", "-nan", "+nan": .nan
        case "inf", "+inf", "infinity", "+infinity": .infinity
        case "-inf", "-infinity": -.infinity
        default: nil
        }
    }
}
