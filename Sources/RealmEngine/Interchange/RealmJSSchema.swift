import Foundation

/// Schemas in realm-js's JSON form, which `realmtui create --schema` reads and `schema --json`
/// writes:
///
/// ```json
/// [{"name": "Dog", "primaryKey": "id", "properties": {
///     "id": "int", "age": "int?", "owner": "Person?", "tags": "string[]", "friends": "Dog[]",
///     "name": {"type": "string", "indexed": true, "optional": true, "default": "Rex"},
///     "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"}}}]
/// ```
///
/// `properties` may also be realm-js's array form, `[{"name": "id", "type": "int"}, …]`
/// (used by realm-js's query tests). Either way property order is the file's order.
///
/// Types: `bool int int8 int16 int32 int64 float double string date data objectId uuid
/// decimal128` (`int64` is `int`, `decimal` is `decimal128`), `X?` optional, `X[]` list (`X?[]` a list of optional values),
/// `X<>` set, `X{}` dictionary (`X?{}` of optional values), a class name for a link (`Person`,
/// `Person?`: to-one, always optional; `Person[]`: a list; `Person<>`: a set; `Person{}`: a
/// dictionary, whose values may always be null), and the long forms
/// `{"type": "object", "objectType": "Person"}`, `{"type": "list", "objectType": "string"}`,
/// `{"type": "set", …}`, `{"type": "dictionary", …}`, `{"type": "linkingObjects", …}`.
///
/// An embedded class is `{"name": "Address", "embedded": true, "properties": {…}}`: no primary
/// key, reached through to-one links (`"Address"`), lists (`"Address[]"`) and dictionaries
/// (`"Address{}"`) of its parents, never a set. Asymmetric classes are rejected by name.
extension Schema {
    /// Reads a realm-js JSON schema (an array of classes, or `{"schema": [...]}`), then
    /// `validate()`s it. Errors are `RealmError.invalidSchema` (or `.limitExceeded`, or
    /// `.invalidInput` for text that is not JSON) and name the class and property.
    public init(realmJSJSON data: Data) throws {
        try self.init(realmJS: JSONParser.parse(data))
    }

    /// Reads a parsed realm-js schema; see `init(realmJSJSON:)`.
    public init(realmJS json: JSONValue) throws {
        let classList: [JSONValue]
        switch json {
        case .array(let items): classList = items
        case .object where json.member("schema") != nil:
            guard case .array(let items)? = json.member("schema") else {
                throw RealmError.invalidSchema("\"schema\" must be an array of classes")
            }
            classList = items
        default:
            throw RealmError.invalidSchema(
                "a realm-js schema is a JSON array of classes, e.g. [{\"name\": \"Dog\", \"properties\": {\"name\": \"string\"}}]; got \(json.kindName)"
            )
        }
        // Class names first: a type name that is no class and no known type is reported as an
        // unknown type, not as a link to a missing class.
        var names = Set<String>()
        for (i, item) in classList.enumerated() {
            guard let name = item.member("name")?.stringValue else {
                throw RealmError.invalidSchema("class #\(i + 1) has no \"name\" string: \(item.snippet())")
            }
            names.insert(name)
        }
        self.init(try classList.map { try RealmJSSchemaReader(classNames: names).objectSchema($0) })
        try validate()
    }

    /// The schema in realm-js JSON form (object form of `properties`, shorthand types where
    /// nothing else is set), pretty-printed with a final newline. Reading it back gives an equal
    /// schema.
    ///
    /// - Throws: `invalidSchema` if a default value cannot be written (a link as a default).
    public func realmJSJSON(pretty: Bool = true) throws -> Data {
        Data((try realmJSValue().jsonText(pretty: pretty) + "\n").utf8)
    }

    /// The schema as a realm-js JSON value; see `realmJSJSON(pretty:)`.
    public func realmJSValue() throws -> JSONValue {
        .array(
            try objectSchemas.map { objectSchema in
                var members = [JSONMember("name", .string(objectSchema.name))]
                // Only when true, as realm-js writes it: a schema without embedded classes is unchanged.
                if objectSchema.isEmbedded { members.append(JSONMember("embedded", .bool(true))) }
                if let pk = objectSchema.primaryKeyProperty {
                    members.append(JSONMember("primaryKey", .string(pk.name)))
                }
                let properties = try objectSchema.properties.map { property in
                    JSONMember(property.name, try RealmJSSchemaReader.json(for: property, className: objectSchema.name))
                }
                members.append(JSONMember("properties", .object(properties)))
                return .object(members)
            })
    }
}

/// Reads classes and properties of a realm-js schema.
struct RealmJSSchemaReader {
    let classNames: Set<String>

    /// Base type names, with realm-js's aliases.
    static let scalarTypes: [String: PropertyType] = [
        "bool": .bool, "int": .int, "int8": .int8, "int16": .int16, "int32": .int32, "int64": .int,
        "float": .float, "double": .double, "string": .string, "date": .date, "data": .data,
        "objectId": .objectId, "uuid": .uuid, "decimal128": .decimal128, "decimal": .decimal128,
        "mixed": .mixed,
    ]

    /// realm-js types this engine does not have, with why.
    static let unsupportedTypes: [String: String] = [:]

    static let knownTypeList =
        "bool, int, int8, int16, int32, int64, float, double, string, date, data, objectId, uuid, decimal128, mixed, "
        + "a class name, object, list, set, dictionary, linkingObjects"

    func objectSchema(_ json: JSONValue) throws -> ObjectSchema {
        let name = json.member("name")?.stringValue ?? ""
        let isEmbedded: Bool
        switch json.member("embedded") {
        case nil, .null?: isEmbedded = false
        case .bool(let b)?: isEmbedded = b
        case let other?:
            throw RealmError.invalidSchema(
                "class '\(name)': \"embedded\" must be true or false, got \(other.snippet())")
        }
        if json.member("asymmetric")?.boolValue == true {
            throw RealmError.invalidSchema("class '\(name)': asymmetric objects are not supported")
        }
        var properties: [Property]
        switch json.member("properties") {
        case .object(let members)?:
            properties = try members.map { try property(name: $0.key, spec: $0.value, className: name) }
        case .array(let items)?:
            properties = try items.enumerated().map { i, item in
                guard case .object = item, let propertyName = item.member("name")?.stringValue else {
                    throw RealmError.invalidSchema(
                        "class '\(name)': property #\(i + 1) needs a \"name\" string: \(item.snippet())")
                }
                return try property(name: propertyName, spec: item, className: name)
            }
        case nil:
            throw RealmError.invalidSchema("class '\(name)' has no \"properties\"")
        case let other?:
            throw RealmError.invalidSchema(
                "class '\(name)': \"properties\" must be an object or an array, got \(other.kindName)")
        }
        switch json.member("primaryKey") {
        case nil, .null?:
            break
        case .string(let pk)?:
            guard let i = properties.firstIndex(where: { $0.name == pk }) else {
                throw RealmError.invalidSchema("class '\(name)': primaryKey '\(pk)' is not one of its properties")
            }
            if properties[i].isPrimaryKey { break }
            if properties.contains(where: \.isPrimaryKey) {
                throw RealmError.invalidSchema("class '\(name)' has more than one primary key")
            }
            properties[i].isPrimaryKey = true
            properties[i].isIndexed = true
        case let other?:
            throw RealmError.invalidSchema(
                "class '\(name)': primaryKey must be a property name, got \(other.snippet())")
        }
        // Realm's rules for embedded classes (no primary key, never in a set) are checked by
        // `Schema.validate()`, which names the class and property.
        return ObjectSchema(name: name, properties: properties, isEmbedded: isEmbedded)
    }

    func property(name: String, spec: JSONValue, className: String) throws -> Property {
        let place = "'\(className).\(name)'"
        func fail(_ message: String) -> RealmError { RealmError.invalidSchema("\(place): \(message)") }

        if case .string(let typeString) = spec {
            return try shorthand(typeString, name: name, place: place)
        }
        guard case .object = spec else {
            throw fail("a property is a type string or an object with \"type\", got \(spec.snippet())")
        }
        guard let typeString = spec.member("type")?.stringValue else {
            throw fail("missing \"type\" string in \(spec.snippet())")
        }
        func flag(_ key: String) throws -> Bool {
            switch spec.member(key) {
            case nil, .null?: return false
            case .bool(let b)?: return b
            case let other?: throw fail("\"\(key)\" must be true or false, got \(other.snippet())")
            }
        }
        let objectType = spec.member("objectType")?.stringValue
        var result: Property
        switch typeString {
        case "object":
            guard let target = objectType else { throw fail("type \"object\" needs \"objectType\"") }
            result = try shorthand(target, name: name, place: place)
            guard result.isLink, !result.isList else {
                throw fail("type \"object\" needs a class name as \"objectType\", got '\(target)'")
            }
        case "list", "set", "dictionary":
            guard let element = objectType else { throw fail("type \"\(typeString)\" needs \"objectType\"") }
            let elementProperty = try shorthand(element, name: name, place: place)
            guard !elementProperty.isCollection else {
                throw fail("a \(typeString) of collections ('\(element)') is not supported")
            }
            result = Property(
                name: name, type: elementProperty.type,
                isOptional: elementProperty.isLink ? false : elementProperty.isOptional,
                isList: typeString == "list", isSet: typeString == "set", isMap: typeString == "dictionary",
                objectClassName: elementProperty.objectClassName)
        case "linkingObjects":
            guard let origin = objectType, let originProperty = spec.member("property")?.stringValue else {
                throw fail("type \"linkingObjects\" needs \"objectType\" and \"property\"")
            }
            result = Property(
                name: name, type: .linkingObjects, objectClassName: origin, linkOriginPropertyName: originProperty)
        default:
            result = try shorthand(typeString, name: name, place: place)
        }
        if try flag("optional"), !result.isLink {
            result.isOptional = true
        }
        if try result.isLink && result.isSet && flag("optional") {
            throw fail("a set of objects cannot hold null")
        }
        switch spec.member("indexed") {
        case .string(let kind)?:
            throw fail("\"indexed\": \"\(kind)\" is not supported; use true")
        default:
            if try flag("indexed") { result.isIndexed = true }
        }
        if try flag("primaryKey") {
            result.isPrimaryKey = true
            result.isIndexed = true
        }
        if let defaultJSON = spec.member("default") {
            result.defaultValue = try JSONImport.value(fromJSON: defaultJSON, for: result, className: className)
        }
        return result
    }

    /// `int`, `int?`, `string[]`, `int?[]`, `int<>`, `string?{}`, `Person`, `Person?`,
    /// `Person[]`, `Person<>`, `Person{}`.
    func shorthand(_ typeString: String, name: String, place: String) throws -> Property {
        var base = Substring(typeString)
        var isList = false
        var isSet = false
        var isMap = false
        if base.hasSuffix("[]") {
            isList = true
            base = base.dropLast(2)
        } else if base.hasSuffix("<>") {
            isSet = true
            base = base.dropLast(2)
        } else if base.hasSuffix("{}") {
            isMap = true
            base = base.dropLast(2)
        }
        if base.hasSuffix("[]") || base.hasSuffix("<>") || base.hasSuffix("{}") {
            throw RealmError.invalidSchema("\(place): a collection of collections ('\(typeString)') is not supported")
        }
        var isOptional = false
        if base.hasSuffix("?") {
            isOptional = true
            base = base.dropLast()
        }
        let baseName = String(base)
        if let type = RealmJSSchemaReader.scalarTypes[baseName] {
            return Property(name: name, type: type, isOptional: isOptional, isList: isList, isSet: isSet, isMap: isMap)
        }
        if let why = RealmJSSchemaReader.unsupportedTypes[baseName] {
            throw RealmError.invalidSchema("\(place): \(why)")
        }
        if classNames.contains(baseName) {
            if (isList || isSet) && isOptional {
                throw RealmError.invalidSchema(
                    "\(place): a \(isSet ? "set" : "list") of objects cannot hold null ('\(typeString)')")
            }
            return Property(
                name: name, type: .object, isList: isList, isSet: isSet, isMap: isMap, objectClassName: baseName)
        }
        if ["object", "list", "linkingObjects"].contains(baseName) {
            throw RealmError.invalidSchema("\(place): type '\(baseName)' needs the object form with \"objectType\"")
        }
        throw RealmError.invalidSchema(
            "\(place): unknown type '\(typeString)' (types are \(RealmJSSchemaReader.knownTypeList); no class is named '\(baseName)')"
        )
    }

    // MARK: - Writing

    /// A property in realm-js form: a shorthand string when nothing but the type is set.
    static func json(for property: Property, className: String) throws -> JSONValue {
        if property.type == .linkingObjects {
            return .object([
                JSONMember("type", .string("linkingObjects")),
                JSONMember("objectType", .string(property.objectClassName ?? "")),
                JSONMember("property", .string(property.linkOriginPropertyName ?? "")),
            ])
        }
        let base = property.isLink ? (property.objectClassName ?? "") : typeName(property.type)
        let shorthand: String
        let suffix = property.isMap ? "{}" : property.isSet ? "<>" : property.isList ? "[]" : ""
        if property.isLink {
            shorthand = property.isCollection ? base + suffix : base + "?"
        } else {
            // Mixed is optional by nature: realm-js writes `mixed`, never `mixed?` (as `typeDescription`).
            shorthand = base + (property.isOptional && property.type != .mixed ? "?" : "") + suffix
        }
        let needsIndexFlag = property.isIndexed && !property.isPrimaryKey
        guard needsIndexFlag || property.defaultValue != nil else { return .string(shorthand) }
        var members = [JSONMember("type", .string(shorthand))]
        if needsIndexFlag { members.append(JSONMember("indexed", .bool(true))) }
        if let value = property.defaultValue {
            guard let json = JSONExport.plainJSON(value) else {
                throw RealmError.invalidSchema(
                    "'\(className).\(property.name)': default value \(value) cannot be written as JSON")
            }
            members.append(JSONMember("default", json))
        }
        return .object(members)
    }

    static func typeName(_ type: PropertyType) -> String { type.schemaName }
}
