import Foundation

/// Renders stored objects as CSV (RFC 4180): what `realmtui export --format csv` prints.
///
/// - The first row names the stored properties in schema order.
/// - A cell is quoted when it contains a comma, a double quote, CR or LF, or starts or ends with
///   a space; quotes inside are doubled. Rows end with CRLF (RFC 4180) unless told otherwise.
/// - nil is an empty unquoted cell and the empty string is `""`, so the two stay apart (the
///   convention of PostgreSQL's CSV COPY).
/// - Scalars are written as JSON export writes them, without JSON quotes (dates ISO 8601, data
///   base64, `nan`/`inf`); links are the target's primary key or `{"$ref":…,"$index":…}`; lists
///   are a JSON array in one (quoted) cell.
public enum CSVExport {
    /// The header row and one row an object, as one string.
    public static func table(
        _ objects: some Sequence<[Value]>, schema: ObjectSchema, lineEnding: String = "\r\n",
        resolveLink: LinkResolver
    ) throws -> String {
        var out = ""
        try write(objects, schema: schema, lineEnding: lineEnding, resolveLink: resolveLink) { out += $0 }
        return out
    }

    /// Streams the header row and then one row a call to `sink`; rethrows the resolver's error
    /// (the rows before it have been given to `sink`).
    public static func write(
        _ objects: some Sequence<[Value]>, schema: ObjectSchema, lineEnding: String = "\r\n",
        resolveLink: LinkResolver, to sink: (String) -> Void
    ) throws {
        let persisted = schema.persistedProperties
        sink(row(persisted.map { quote($0.name) }, lineEnding: lineEnding))
        for values in objects {
            let cells = try persisted.enumerated().map { i, property in
                try cell(i < values.count ? values[i] : .null, for: property, resolveLink: resolveLink)
            }
            sink(row(cells, lineEnding: lineEnding))
        }
    }

    /// One cell, quoted as needed.
    public static func cell(_ value: Value, for property: Property, resolveLink: LinkResolver) throws -> String {
        if value.isNull { return "" }
        // A Mixed cell is JSON text: `"5"` is the string, `5` the number.
        if property.type == .mixed {
            return quote(try JSONExport.json(value, for: property, resolveLink: resolveLink).jsonText())
        }
        switch try JSONExport.json(value, for: property, resolveLink: resolveLink) {
        case .null: return ""
        case .string(let s): return quote(s, forceIfEmpty: true)
        case .number(let text): return text
        case .bool(let b): return b ? "true" : "false"
        case let other: return quote(other.jsonText())
        }
    }

    /// `text` as an RFC 4180 field. The empty string is quoted only when `forceIfEmpty`
    /// (to tell it from nil).
    public static func quote(_ text: String, forceIfEmpty: Bool = false) -> String {
        if text.isEmpty { return forceIfEmpty ? "\"\"" : "" }
        let needs =
            text.unicodeScalars.contains { c in
                c == "," || c == "\"" || c == "\r" || c == "\n"
            } || text.hasPrefix(" ") || text.hasSuffix(" ")
        guard needs else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func row(_ cells: [String], lineEnding: String) -> String {
        cells.joined(separator: ",") + lineEnding
    }
}
