import Foundation

/// A Mixed value in JSON: its natural JSON value where JSON tells the type (null, true/false, a
/// whole number for an int, a number with a fraction or exponent for a double, a string, an
/// array for a list, an object for a dictionary), and a one-member object tagged with `$` where
/// it cannot:
///
/// | value | JSON |
/// |---|---|
/// | date | `{"$date": "2020-01-02T03:04:05.25Z"}` (or epoch milliseconds) |
/// | objectId | `{"$oid": "0123456789abcdef01234567"}` |
/// | uuid | `{"$uuid": "d1b186e1-e9e0-4768-a1a7-c492519d47ee"}` |
/// | data | `{"$binary": "AAH/"}` (base64) |
/// | decimal128 | `{"$decimal": "12.50"}` (every digit) |
/// | float | `{"$float": 1.5}` (`"nan"`, `"inf"`, `"-inf"` as strings) |
/// | double NaN/±∞ | `{"$double": "nan"}` |
/// | link | `{"$link": {"class": "Dog", "key": <primary key>}}`, or for a class without one `{"$link": {"class": "Dog", "index": N}}` (the N-th Dog of the import, as `$ref`/`$index`) |
///
/// No tag is ambiguous: a dictionary key never starts with `$` (Realm refuses it), so an object
/// with one `$`-member is a tag and anything else a dictionary. Export writes exactly these
/// forms, so import → export is byte-identical.
enum MixedJSON {
    /// A link as a document names it: by primary key, or by position among the class's objects.
    enum LinkReference {
        case primaryKey(JSONValue)
        case index(Int)
    }

    typealias Resolver = (_ className: String, _ reference: LinkReference) throws -> ObjectKey

    /// The JSON of a Mixed value; links are named through `resolveLink` (its primary key or its
    /// position in the export).
    static func json(_ value: Value, resolveLink: LinkResolver) throws -> JSONValue {
        func tagged(_ tag: String, _ json: JSONValue) -> JSONValue { .object([JSONMember(tag, json)]) }
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .integer(i)
        case .double(let d): return JSONValue.double(d) ?? tagged("$double", .string(JSONExport.nonFiniteText(d)))
        case .float(let f):
            return tagged("$float", f.isFinite ? .number("\(f)") : .string(JSONExport.nonFiniteText(Double(f))))
        case .string(let s): return .string(s)
        case .data(let d): return tagged("$binary", .string(d.base64EncodedString()))
        case .date(let t): return tagged("$date", .string(t.iso8601))
        case .objectId(let id): return tagged("$oid", .string(id.description))
        case .uuid(let u): return tagged("$uuid", .string(u.uuidString.lowercased()))
        case .decimal128(let d): return tagged("$decimal", .string(d.description))
        case .typedLink(let link):
            let reference: JSONMember
            switch try resolveLink(link.className, link.key) {
            case .primaryKey(let pk)?:
                guard !pk.isNull, let json = JSONExport.plainJSON(pk) else {
                    throw RealmError.invalidOperation(
                        "the Mixed link to \(link) is named by a nil primary key, which import reads as no link")
                }
                reference = JSONMember("key", json)
            case .position(let index)?:
                reference = JSONMember("index", .integer(Int64(index)))
            case .embedded?:
                // Realm never lets a Mixed value link to an embedded object (it would be a second parent).
                throw RealmError.invalidOperation(
                    "the Mixed link to \(link) names an embedded object, which only its parent may hold")
            case nil:
                throw RealmError.invalidOperation("the Mixed link to \(link) names no object of the export")
            }
            return tagged("$link", .object([JSONMember("class", .string(link.className)), reference]))
        case .link(let key):
            throw RealmError.invalidOperation("an untyped link \(key) in a Mixed value names no class")
        case .list(let items): return .array(try items.map { try json($0, resolveLink: resolveLink) })
        case .map:
            return .object(
                try value.sortedEntries.map { JSONMember($0.key, try json($0.value, resolveLink: resolveLink)) })
        }
    }

    /// Whether `json` holds a `$link` tag anywhere (then an import resolves it once every
    /// object exists).
    static func containsLink(_ json: JSONValue) -> Bool {
        switch json {
        case .array(let items): return items.contains(where: containsLink)
        case .object(let members):
            if members.count == 1, members[0].key == "$link" { return true }
            return members.contains { containsLink($0.value) }
        default: return false
        }
    }

    /// The classes `$link` tags name by index (an import needs their objects' keys).
    static func indexedLinkClasses(_ json: JSONValue, into classes: inout Set<String>) {
        switch json {
        case .array(let items): for item in items { indexedLinkClasses(item, into: &classes) }
        case .object(let members):
            if members.count == 1, members[0].key == "$link",
                let className = members[0].value.member("class")?.stringValue,
                members[0].value.member("index") != nil
            {
                classes.insert(className)
                return
            }
            for member in members { indexedLinkClasses(member.value, into: &classes) }
        default: break
        }
    }

    /// The Mixed value `json` spells; `resolveLink` turns a `$link` into an object key (nil:
    /// links cannot be resolved here, and one is refused).
    static func value(_ json: JSONValue, className: String, label: String, resolveLink: Resolver?, depth: Int = 0)
        throws -> Value
    {
        func fail(_ expected: String) -> RealmError {
            RealmError.typeMismatch(className: className, property: label, expected: expected, got: json.snippet())
        }
        switch json {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let text):
            if json.isIntegerLiteral {
                guard let i = Int64(text) else {
                    throw fail("a Mixed int within 64 bits (or a number with a fraction for a double)")
                }
                return .int(i)
            }
            guard let d = Double(text), d.isFinite else { throw fail("a Mixed double within range") }
            return .double(d)
        case .string(let s): return .string(s)
        case .array(let items):
            guard depth < Value.maxMixedDepth else {
                throw fail("a Mixed value nested at most \(Value.maxMixedDepth) levels")
            }
            return .list(
                try items.enumerated().map { i, item in
                    try value(
                        item, className: className, label: "\(label)[\(i)]", resolveLink: resolveLink, depth: depth + 1)
                })
        case .object(let members):
            if members.count == 1, members[0].key.hasPrefix("$") {
                return try tagged(
                    members[0].key, members[0].value, className: className, label: label, resolveLink: resolveLink)
            }
            guard depth < Value.maxMixedDepth else {
                throw fail("a Mixed value nested at most \(Value.maxMixedDepth) levels")
            }
            var entries = [String: Value](minimumCapacity: members.count)
            for member in members {
                try MapKey.check(member.key, className: className, property: label)
                guard entries[member.key] == nil else {
                    throw RealmError.invalidInput("\(className).\(label): the key '\(member.key)' is given twice")
                }
                entries[member.key] = try value(
                    member.value, className: className, label: "\(label)['\(member.key)']",
                    resolveLink: resolveLink, depth: depth + 1)
            }
            return .map(entries)
        }
    }

    private static func tagged(
        _ tag: String, _ json: JSONValue, className: String, label: String, resolveLink: Resolver?
    ) throws -> Value {
        func fail(_ expected: String) -> RealmError {
            RealmError.typeMismatch(
                className: className, property: label, expected: "\(tag): \(expected)", got: json.snippet())
        }
        func scalar(_ type: PropertyType, _ expected: String) throws -> Value {
            try JSONImport.scalar(
                fromJSON: json, type: type, className: className, propertyLabel: label, expected: "\(tag): \(expected)")
        }
        switch tag {
        case "$date": return try scalar(.date, "a date")
        case "$oid": return try scalar(.objectId, "an ObjectId")
        case "$uuid": return try scalar(.uuid, "a UUID")
        case "$decimal": return try scalar(.decimal128, "a decimal")
        case "$float": return try scalar(.float, "a float")
        case "$binary":
            guard case .string(let s) = json, let d = Data(base64Encoded: s) else { throw fail("base64 text") }
            return .data(d)
        case "$double":
            guard case .string(let s) = json, let d = JSONImport.nonFinite(s) else {
                throw fail("\"nan\", \"inf\" or \"-inf\" (other doubles are plain numbers)")
            }
            return .double(d)
        case "$link":
            guard let target = json.member("class")?.stringValue else {
                throw fail("{\"class\": …, \"key\": …} or {\"class\": …, \"index\": …}")
            }
            let reference: LinkReference
            if let key = json.member("key") {
                reference = .primaryKey(key)
            } else if let index = json.member("index")?.int64Value, let i = Int(exactly: index), i >= 0 {
                reference = .index(i)
            } else {
                throw fail("{\"class\": …, \"key\": <primary key>} or {\"class\": …, \"index\": <position>}")
            }
            guard let resolveLink else {
                throw RealmError.invalidInput(
                    "\(className).\(label): a Mixed link is resolved by an import (which knows the objects); here give a value"
                )
            }
            return .typedLink(TypedLink(className: target, key: try resolveLink(target, reference)))
        default:
            throw fail(
                "a known tag ($date, $oid, $uuid, $binary, $decimal, $float, $double, $link); a dictionary key cannot start with '$'"
            )
        }
    }
}

extension MixedJSON {
    /// The JSON of a Mixed property's value: the value's, or for a list, set or dictionary of
    /// Mixed an array or object of them.
    static func json(_ value: Value, of property: Property, resolveLink: LinkResolver) throws -> JSONValue {
        switch value {
        case .list(let items) where property.isList:
            return .array(try items.map { try json($0, resolveLink: resolveLink) })
        case .map where property.isMap:
            return .object(
                try value.sortedEntries.map { JSONMember($0.key, try json($0.value, resolveLink: resolveLink)) })
        default:
            return try json(value, resolveLink: resolveLink)
        }
    }

    /// The value of a Mixed property from its JSON: an array for a list or set of Mixed, an
    /// object for a dictionary (keys checked), the value's JSON otherwise.
    static func value(_ json: JSONValue, of property: Property, className: String, resolveLink: Resolver?) throws
        -> Value
    {
        if case .null = json { return property.isMap ? .map([:]) : property.isList ? .list([]) : .null }
        if property.isMap {
            var entries = [String: Value]()
            for member in try JSONImport.mapMembers(json, for: property, className: className) {
                entries[member.key] = try value(
                    member.value, className: className, label: "\(property.name)['\(member.key)']",
                    resolveLink: resolveLink)
            }
            return .map(entries)
        }
        if property.isList {
            guard case .array(let items) = json else {
                throw RealmError.typeMismatch(
                    className: className, property: property.name,
                    expected: "\(property.typeDescription) (a JSON array)", got: json.snippet())
            }
            return .list(
                try items.enumerated().map { i, item in
                    try value(item, className: className, label: "\(property.name)[\(i)]", resolveLink: resolveLink)
                })
        }
        return try value(json, className: className, label: property.name, resolveLink: resolveLink)
    }
}

extension Value {
    /// The text an editor starts with for this Mixed value, which `Value.parse` reads back as
    /// the same value: its JSON, tagged where JSON cannot tell (`"5"` a string, `5` an int,
    /// `{"$date": …}`); a link is `Class#key` (which the explorer's editor reads). Nil for a
    /// collection holding a link, which has no text form outside an import.
    public var mixedText: String? {
        if case .typedLink(let link) = self { return link.description }
        return (try? MixedJSON.json(self, resolveLink: { _, _ in nil }))?.jsonText()
    }
}
