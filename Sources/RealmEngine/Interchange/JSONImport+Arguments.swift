import Foundation

/// Command-line values: `--set prop=VALUE` for updates and `--arg JSON` for query arguments.
extension JSONImport {
    /// Parses one `--set` assignment, `prop=VALUE`, with the value read by the one value syntax
    /// for the property's type (`ValueSyntax`): `age=4`, `name=Rex` or `name="Rex"`,
    /// `born=2020-01-01T00:00:00.5Z` or `born=1577836800500`, `photo=AAEC` (base64), `owner=1`
    /// (a primary key), `tags=["a","b"]`, `age=null` (and `name="null"` for the string).
    ///
    /// - Throws: `invalidInput` without `=`, `noSuchProperty` for an unknown name (naming the
    ///   nearest), `typeMismatch` for a value the type does not accept.
    public static func assignment(_ text: String, objectSchema: ObjectSchema, schema: Schema) throws
        -> (property: Property, input: ObjectInput)
    {
        guard let eq = text.firstIndex(of: "=") else {
            throw RealmError.invalidInput("'\(text)': expected prop=VALUE, e.g. age=4 or name=Rex")
        }
        let name = String(text[..<eq])
        let raw = String(text[text.index(after: eq)...])
        guard let property = objectSchema[name], property.isPersisted else {
            throw RealmError.noSuchProperty(
                className: objectSchema.name, property: name,
                available: objectSchema.persistedProperties.map(\.name))
        }
        return (property, try ValueSyntax.parse(raw, for: property, className: objectSchema.name, schema: schema))
    }

    /// Parses a query argument (`--arg 4`, `--arg Rex` or `--arg '"Rex"'`, `--arg '[1,2]'`,
    /// `--arg 2020-01-02T03:04:05Z`): JSON when the text is JSON (see
    /// `queryArgument(fromJSON:)`), else the text as a string. The query then reads the value by
    /// the type of the property it is compared with, as `ValueSyntax` does (a date from an ISO
    /// 8601 string or epoch milliseconds, data from base64, an objectId or uuid from its string).
    public static func queryArgument(_ text: String) throws -> Value {
        guard let json = try? JSONParser.parse(text) else { return .string(text) }
        return try queryArgument(fromJSON: json)
    }

    /// Converts a JSON value to an untyped query argument: an integer literal that fits 64 bits →
    /// `.int`, any other number → `.double`, strings, booleans, `null`, arrays → `.list`.
    ///
    /// Typed values that JSON cannot spell use MongoDB Extended JSON's single-key objects:
    /// `{"$date": "2020-01-02T03:04:05Z"}` (or milliseconds), `{"$oid": "24 hex digits"}`,
    /// `{"$uuid": "…"}`, `{"$binary": "base64"}` (or `{"$binary": {"base64": "…"}}`),
    /// `{"$numberDouble": "NaN"}`, `{"$numberLong": "123"}`, `{"$numberInt": "123"}`.
    public static func queryArgument(fromJSON json: JSONValue) throws -> Value {
        switch json {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let text):
            if let i = Int64(text) { return .int(i) }
            guard let d = Double(text), d.isFinite else {
                throw RealmError.invalidInput("query argument \(text) is out of range for a double")
            }
            return .double(d)
        case .string(let s): return .string(s)
        case .array(let items): return .list(try items.map(queryArgument(fromJSON:)))
        case .object(let members):
            guard members.count == 1, let member = members.first, let typed = try extendedJSON(member) else {
                throw RealmError.invalidInput(
                    "query argument \(json.snippet()): objects are not values; for typed values use {\"$date\": …}, {\"$oid\": …}, {\"$uuid\": …}, {\"$binary\": …}"
                )
            }
            return typed
        }
    }

    /// The typed value of a one-member Extended JSON object, nil if the key is not one we know.
    private static func extendedJSON(_ member: JSONMember) throws -> Value? {
        func bad(_ expected: String) -> RealmError {
            RealmError.invalidInput(
                "query argument {\"\(member.key)\": \(member.value.snippet())}: expected \(expected)")
        }
        let v = member.value
        switch member.key {
        case "$date":
            if let inner = v.member("$numberLong"), let ms = inner.stringValue.flatMap({ Int64($0) }) {
                return .date(Timestamp(milliseconds: ms))
            }
            guard let t = timestamp(fromJSON: v) else { throw bad("an ISO 8601 string or epoch milliseconds") }
            return .date(t)
        case "$oid":
            guard let id = v.stringValue.flatMap(ObjectId.init(parsing:)) else { throw bad("24 hexadecimal digits") }
            return .objectId(id)
        case "$uuid":
            guard let id = v.stringValue.flatMap(UUID.init(uuidString:)) else { throw bad("a UUID string") }
            return .uuid(id)
        case "$numberDecimal", "$decimal":
            // MongoDB's Extended JSON (and the export's tagged form): the decimal as text.
            guard let d = v.stringValue.flatMap({ Decimal128(exactly: $0) }) else {
                throw bad("a decimal as a string that a decimal128 holds exactly")
            }
            return .decimal128(d)
        case "$binary":
            let text = v.stringValue ?? v.member("base64")?.stringValue
            guard let d = text.flatMap({ Data(base64Encoded: $0) }) else { throw bad("a base64 string") }
            return .data(d)
        case "$numberDouble":
            guard let s = v.stringValue, let d = nonFinite(s) ?? Double(s) else { throw bad("a number as a string") }
            return .double(d)
        case "$numberLong", "$numberInt":
            guard let i = v.stringValue.flatMap({ Int64($0) }) else { throw bad("an integer as a string") }
            return .int(i)
        default:
            return nil
        }
    }
}
