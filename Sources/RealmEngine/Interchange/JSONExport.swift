import Foundation

/// How export names the object a link points at.
public enum LinkTarget: Sendable, Equatable {
    /// By its primary key, never nil (`null` reads back as no link): an object whose optional
    /// primary key is nil is named by its position.
    case primaryKey(Value)
    /// By its position (from 0) among the objects of its class in export order: written as
    /// `{"$ref": "Class", "$index": N}`, which import resolves within the same input.
    case position(Int)
    /// An embedded object, written nested inside its parent: the object's class and its
    /// persisted values (whose links are resolved in turn).
    case embedded(ObjectSchema, [Value])
}

/// Finds what a link points at, for export: the object `key` of class `targetClass` by primary
/// key, or by position when that class has none (or its primary key is nil); nil when the
/// object is gone. Throws when the target cannot be read, which fails the export.
public typealias LinkResolver = (_ targetClass: String, _ key: ObjectKey) throws -> LinkTarget?

/// Renders stored objects as JSON text: what `realmtui export` and `query --format json` print.
///
/// Each object is a JSON object with every stored property in schema order (linking objects are
/// computed and left out). Values:
/// - links: the target's primary key, or `{"$ref": "Person", "$index": 12}` (its position in its
///   class) when it has none (`ImportDocument` reads both); lists: arrays;
/// - embedded objects: nested inside their parent as JSON objects (a list of them an array of
///   objects, a dictionary's values objects), at any depth; never a class of their own;
/// - dates: ISO 8601 in UTC with as many fraction digits as the value has
///   (`2020-01-02T03:04:05.25Z`); data: base64; objectId: hex; uuid: lowercase canonical;
/// - float and double: JSON numbers, with `"nan"`, `"inf"`, `"-inf"` as strings (JSON has no
///   spelling for them; import reads them back).
///
/// Every export reads back through `ImportDocument` and `DataImport` unchanged. The functions
/// that resolve links rethrow the resolver's error (a target that cannot be read).
public enum JSONExport {
    /// The JSON of one object. `values` are its persisted values in `persistedProperties` order
    /// (missing trailing values are written as null).
    public static func object(_ values: [Value], schema: ObjectSchema, resolveLink: LinkResolver) throws -> JSONValue {
        let persisted = schema.persistedProperties
        return .object(
            try persisted.enumerated().map { i, property in
                JSONMember(
                    property.name,
                    try json(i < values.count ? values[i] : .null, for: property, resolveLink: resolveLink))
            })
    }

    /// The JSON of one property value.
    ///
    /// - Throws: the resolver's error; `RealmError.invalidOperation` when it names a target by a nil
    ///   primary key, which would read back as no link.
    public static func json(_ value: Value, for property: Property, resolveLink: LinkResolver) throws -> JSONValue {
        if property.type == .mixed { return try MixedJSON.json(value, of: property, resolveLink: resolveLink) }
        switch value {
        case .link(let key):
            let target = property.objectClassName ?? ""
            switch try resolveLink(target, key) {
            case .primaryKey(let pk)?:
                guard !pk.isNull, let json = plainJSON(pk) else {
                    throw RealmError.invalidOperation(
                        "a link to \(target) \(key) is named by a nil primary key, which import reads as no link; name it by position"
                    )
                }
                return json
            case .position(let index)?:
                return ImportDocument.referenceJSON(className: target, index: index)
            case .embedded(let objectSchema, let values)?:
                return try object(values, schema: objectSchema, resolveLink: resolveLink)
            case nil:
                break
            }
            // A dangling link (the resolver found no object): named by its key, which import refuses.
            return .object([JSONMember("class", .string(target)), JSONMember("key", .integer(key.rawValue))])
        case .list(let items):
            return .array(try items.map { try json($0, for: property, resolveLink: resolveLink) })
        case .map:
            // A dictionary is a JSON object, its keys in Realm's order (by bytes).
            return .object(
                try value.sortedEntries.map {
                    JSONMember($0.key, try json($0.value, for: property, resolveLink: resolveLink))
                })
        default:
            return plainJSON(value) ?? .null
        }
    }

    /// The JSON of a value that is not a link (nil for links, which need a resolver).
    public static func plainJSON(_ value: Value) -> JSONValue? {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .integer(i)
        case .float(let f):
            // Float's own shortest text ("0.1"), not Double(f)'s ("0.10000000149011612").
            return f.isFinite ? .number("\(f)") : .string(nonFiniteText(Double(f)))
        case .double(let d):
            return JSONValue.double(d) ?? .string(nonFiniteText(d))
        case .string(let s): return .string(s)
        case .date(let t): return .string(t.iso8601)
        case .data(let d): return .string(d.base64EncodedString())
        case .objectId(let id): return .string(id.description)
        case .uuid(let id): return .string(id.uuidString.lowercased())
        // A string, so every digit survives (a JSON number is read back as a double by most tools).
        case .decimal128(let d): return .string(d.description)
        case .link, .typedLink: return nil
        case .list(let items):
            var out: [JSONValue] = []
            for item in items {
                guard let json = plainJSON(item) else { return nil }
                out.append(json)
            }
            return .array(out)
        case .map:
            var out: [JSONMember] = []
            for (key, item) in value.sortedEntries {
                guard let json = plainJSON(item) else { return nil }
                out.append(JSONMember(key, json))
            }
            return .object(out)
        }
    }

    static func nonFiniteText(_ d: Double) -> String {
        d.isNaN ? "nan" : (d > 0 ? "inf" : "-inf")
    }

    /// A whole export as one string: a JSON array with one object per line.
    public static func array(_ objects: some Sequence<[Value]>, schema: ObjectSchema, resolveLink: LinkResolver) throws
        -> String
    {
        var out = ""
        try write(objects, schema: schema, resolveLink: resolveLink) { out += $0 }
        return out
    }

    /// Streams an export to `sink` in pieces (one object a call), so a large class never sits in
    /// memory as one string:
    ///
    /// ```
    /// [
    /// {"id":1,"name":"张三"},
    /// {"id":2,"name":"李四"}
    /// ]
    /// ```
    /// An empty sequence gives `[]`. The text ends with a newline. When resolving a link
    /// throws, the objects before it have been given to `sink` and the error is rethrown.
    public static func write(
        _ objects: some Sequence<[Value]>, schema: ObjectSchema, resolveLink: LinkResolver,
        to sink: (String) -> Void
    ) throws {
        var first = true
        for values in objects {
            var writer = JSONWriter()
            writer.writeRaw(first ? "[\n" : ",\n")
            writer.write(try object(values, schema: schema, resolveLink: resolveLink))
            sink(writer.output)
            first = false
        }
        sink(first ? "[]\n" : "\n]\n")
    }
}
