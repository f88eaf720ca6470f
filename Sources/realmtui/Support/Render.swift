import Foundation
import RealmEngine
import RealmTUI

/// Writes results to standard output in the formats `query` and `export` share.
enum Render {
    /// A JSON array, one object a line (`JSONExport`): every stored property; links as the
    /// target's primary key or `{"class", "key"}`; dates ISO 8601 UTC; data base64.
    /// With `finalNewline` false the text ends at `]` (for embedding in a larger document).
    static func json(_ results: Results, realm: Realm, finalNewline: Bool = true) throws {
        let rows = try RealmFiles.ValueRows(results)
        // Hold back one piece, so the last one can lose its newline.
        var pending: String?
        JSONExport.write(rows, schema: results.objectSchema, resolveLink: RealmFiles.linkResolver(realm)) { piece in
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
        CSVExport.write(rows, schema: results.objectSchema, resolveLink: RealmFiles.linkResolver(realm)) { Console.write($0) }
        try rows.rethrow()
    }

    /// An aligned table fitted to `width` columns (CJK counts double), then `(N objects)`.
    static func table(_ results: Results, realm: Realm, width: Int) throws {
        let schema = results.objectSchema
        let properties = schema.persistedProperties
        let resolve = RealmFiles.linkResolver(realm)
        var rows: [[String]] = []
        for values in try RealmFiles.ValueRows(results).collect() {
            rows.append(properties.enumerated().map { i, p in cell(i < values.count ? values[i] : .null, for: p, resolveLink: resolve) })
        }
        let lines = TableFormatter().format(header: properties.map(\.name), rows: rows, maxWidth: width)
        for line in lines { Console.line(line) }
        Console.line("(\(rows.count) \(rows.count == 1 ? "object" : "objects"))")
    }

    /// A value as a table cell: strings as they are, `null` for nil, everything else as JSON.
    static func cell(_ value: Value, for property: Property, resolveLink: LinkResolver) -> String {
        switch JSONExport.json(value, for: property, resolveLink: resolveLink) {
        case .string(let s): return s
        case let other: return other.jsonText()
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
