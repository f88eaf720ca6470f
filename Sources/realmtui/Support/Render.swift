import Foundation
import RealmEngine
import RealmTUI

/// Writes results to standard output in the formats `query` and `export` share.
enum Render {
    /// A JSON array, one object a line (`JSONExport`): every stored property; links as the
    /// target's primary key or `{"$ref", "$index"}`; dates ISO 8601 UTC; data base64. A link
    /// whose target cannot be read fails the command (after the objects before it).
    /// With `finalNewline` false the text ends at `]` (for embedding in a larger document).
    static func json(_ results: Results, realm: Realm, finalNewline: Bool = true) throws {
        let rows = try RealmFiles.ValueRows(results)
        // Hold back one piece, so the last one can lose its newline.
        var pending: String?
        try JSONExport.write(
            rows, schema: results.objectSchema, resolveLink: RealmFiles.linkResolver(realm, writing: rows)
        ) { piece in
            if let pending { Console.write(pending) }
            pending = piece
        }
        if var last = pending {
            if !finalNewline, last.hasSuffix("\n") { last.removeLast() }
            Console.write(last)
        }
        try rows.rethrow()
    }

    /// RFC 4180 CSV with a header row (`CSVExport`). Lines end in CRLF as the RFC says.
    static func csv(_ results: Results, realm: Realm) throws {
        let rows = try RealmFiles.ValueRows(results)
        try CSVExport.write(
            rows, schema: results.objectSchema, resolveLink: RealmFiles.linkResolver(realm, writing: rows)
        ) { Console.write($0) }
        try rows.rethrow()
    }

    /// The stored properties to show: `names` in that order, or all of them.
    ///
    /// - Throws: a `CLIFailure` naming an unknown property and the nearest one.
    static func columns(_ names: [String], of schema: ObjectSchema) throws -> [(index: Int, property: Property)] {
        let persisted = schema.persistedProperties
        if names.isEmpty { return Array(persisted.enumerated()).map { ($0.offset, $0.element) } }
        return try names.map { name in
            guard let i = persisted.firstIndex(where: { $0.name == name }) else {
                throw CLIFailure(
                    "--columns: \(schema.name) has no stored property '\(name)'"
                        + NameSuggestion.hint(name, among: persisted.map(\.name))
                        + "; its properties are: " + persisted.map(\.name).joined(separator: ", "))
            }
            return (i, persisted[i])
        }
    }

    /// An aligned table fitted to `width` columns (CJK counts double), then `(N objects)`.
    /// Dates and the primary key are kept whole while cutting other columns makes room.
    static func table(_ results: Results, realm: Realm, width: Int, columns names: [String] = []) throws {
        let shown = try columns(names, of: results.objectSchema)
        let resolve = RealmFiles.linkResolver(realm)
        var rows: [[String]] = []
        for values in try RealmFiles.ValueRows(results).collect() {
            rows.append(
                try shown.map { i, p in try cell(i < values.count ? values[i] : .null, for: p, resolveLink: resolve) })
        }
        // Dates and the primary key (what tells rows apart) stay whole while others give way.
        let whole = Set(
            shown.indices.filter {
                (shown[$0].property.type == .date && !shown[$0].property.isList) || shown[$0].property.isPrimaryKey
            })
        let lines = TableFormatter().format(
            header: shown.map(\.property.name), rows: rows, maxWidth: width, keepWhole: whole)
        for line in lines { Console.line(line) }
        Console.line("(\(objectCount(rows.count)))")
    }

    /// sqlite3's `.mode line`: each object as `property = value` lines (names right-aligned),
    /// objects separated by a blank line.
    static func lines(_ results: Results, realm: Realm, columns names: [String] = []) throws {
        let shown = try columns(names, of: results.objectSchema)
        let resolve = RealmFiles.linkResolver(realm)
        let nameWidth = shown.map { displayWidth($0.property.name) }.max() ?? 0
        var first = true
        for values in try RealmFiles.ValueRows(results).collect() {
            if !first { Console.line("") }
            first = false
            for (i, p) in shown {
                let pad = String(repeating: " ", count: max(0, nameWidth - displayWidth(p.name)))
                Console.line(
                    pad + p.name + " = "
                        + (try cell(i < values.count ? values[i] : .null, for: p, resolveLink: resolve)))
            }
        }
    }

    /// A value as a table cell: strings as they are, nil as `null`, embedded objects as
    /// `Address{city: "Oslo", geo: Geo{lat: 59.9}}`, everything else as JSON. A string that
    /// would read as nil (`null`) is shown in JSON quotes, `"null"`, so the two never look alike.
    static func cell(_ value: Value, for property: Property, resolveLink: LinkResolver) throws -> String {
        if let text = try embeddedText(value, for: property, resolveLink: resolveLink) { return text }
        switch try JSONExport.json(value, for: property, resolveLink: resolveLink) {
        case .string(let s): return s == "null" ? "\"null\"" : s
        case let other: return other.jsonText()
        }
    }
}

extension Render {
    /// A value of a property holding embedded objects, each shown with its class and its
    /// properties (`Address{city: "Oslo", street: null}`) rather than as bare JSON, whose
    /// braces would not tell an object from a dictionary: a to-one link as the object, a list
    /// as `[Address{…}, …]`, a dictionary as `{"key": Address{…}}`. Nil for any other value
    /// (the resolver names the target by key or position: it is no embedded object).
    static func embeddedText(_ value: Value, for property: Property, resolveLink: LinkResolver) throws -> String? {
        guard property.type == .object, let target = property.objectClassName else { return nil }
        switch value {
        case .link(let key):
            guard case .embedded(let objectSchema, let values)? = try resolveLink(target, key) else { return nil }
            let fields = try objectSchema.persistedProperties.enumerated().map { i, p in
                let inner = i < values.count ? values[i] : .null
                return p.name + ": "
                    + (try embeddedText(inner, for: p, resolveLink: resolveLink)
                        ?? JSONExport.json(inner, for: p, resolveLink: resolveLink).jsonText())
            }
            return objectSchema.name + "{" + fields.joined(separator: ", ") + "}"
        case .list(let items):
            // An empty list is `[]` either way.
            guard property.isList, !property.isSet, !items.isEmpty else { return nil }
            var parts: [String] = []
            for item in items {
                guard let text = try embeddedText(item, for: property, resolveLink: resolveLink) else { return nil }
                parts.append(text)
            }
            return "[" + parts.joined(separator: ", ") + "]"
        case .map:
            guard property.isMap else { return nil }
            var parts: [String] = []
            var objects = 0
            for (key, item) in value.sortedEntries {
                if item.isNull {
                    parts.append(JSONWriter.quoted(key) + ": null")
                    continue
                }
                guard let text = try embeddedText(item, for: property, resolveLink: resolveLink) else { return nil }
                parts.append(JSONWriter.quoted(key) + ": " + text)
                objects += 1
            }
            // Nothing but nulls tells no embedded object from a link: JSON then, as for links.
            return objects > 0 ? "{" + parts.joined(separator: ", ") + "}" : nil
        default:
            return nil
        }
    }
}

extension RealmFiles.ValueRows {
    /// Every row, or the error that stopped reading.
    func collect() throws -> [[Value]] {
        var out: [[Value]] = []
        while let row = next() { out.append(row) }
        try rethrow()
        return out
    }
}

/// "1 object", "2 objects": a count of objects as the commands print it.
func objectCount(_ count: Int) -> String {
    "\(count) \(count == 1 ? "object" : "objects")"
}

/// "1 class", "2 classes".
func classCount(_ count: Int) -> String {
    "\(count) \(count == 1 ? "class" : "classes")"
}
