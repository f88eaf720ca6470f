import Foundation

/// The input forms `DataImport` reads, each the exact form an export writes:
///
/// - the whole-file JSON document `{"Class": [object, …], …}` (`realmtui export FILE`);
/// - a bare JSON array of one class's objects (`export --class C`, `query --format json`), read
///   with the class named by the caller;
/// - RFC 4180 CSV of one class (`export --class C --format csv`): a header row of property names,
///   then one row an object. An unquoted empty cell is nil and `""` the empty string; other cells
///   are read by `ValueSyntax` with literal strings (lists as JSON arrays, links as the target's
///   primary key or a reference).
///
/// A link to an object without a primary key is written as a reference,
/// `{"$ref": "Dog", "$index": 3}`: the object at position 3 (from 0) of class Dog in the same
/// input, which is the order export writes a class in (when the input holds no Dog, the Dog at
/// that position in the database: see `DataImport`).
public enum ImportDocument {
    /// Objects of one class as JSON, in input order.
    public struct Group: Sendable {
        /// The class.
        public var className: String
        /// Each object: a JSON object or an array of values in property order.
        public var objects: [JSONValue]
        /// Creates a group.
        public init(className: String, objects: [JSONValue]) {
            self.className = className
            self.objects = objects
        }
    }

    /// The class and position a `{"$ref": C, "$index": N}` object names, or nil for any other JSON.
    public static func reference(_ json: JSONValue) -> (className: String, index: Int)? {
        guard case .object(let members) = json, members.count == 2,
            let className = json.member("$ref")?.stringValue,
            let index = json.member("$index")?.int64Value, index >= 0, index <= Int64(Int.max)
        else { return nil }
        return (className, Int(index))
    }

    /// The JSON reference export writes for the object at `index` of `className`.
    public static func referenceJSON(className: String, index: Int) -> JSONValue {
        .object([JSONMember("$ref", .string(className)), JSONMember("$index", .integer(Int64(index)))])
    }

    /// Reads a whole-file document, or (with `className`) a bare array of that class's objects.
    ///
    /// - Throws: `invalidInput` for JSON that does not parse or has neither form (a bare array
    ///   without `className` says to name the class), `noSuchClass` for an unknown class.
    public static func groups(fromJSON data: Data, className: String?, schema: Schema) throws -> [Group] {
        let document = try JSONParser.parse(data)
        switch document {
        case .array(let items):
            guard let className else {
                throw RealmError.invalidInput(
                    "the input is a JSON array of objects (as 'export --class C' writes); name their class with --class C"
                )
            }
            guard schema[className] != nil else { throw RealmError.noSuchClass(className) }
            return [Group(className: className, objects: items)]
        case .object(let members):
            if let className {
                throw RealmError.invalidInput(
                    "the input is a whole-file document {\"Class\": [objects…]}, which names its classes; import it without --class \(className)"
                )
            }
            return try members.map { member in
                guard schema[member.key] != nil else { throw RealmError.noSuchClass(member.key) }
                guard case .array(let items) = member.value else {
                    throw RealmError.invalidInput(
                        "\"\(member.key)\" must be an array of objects in an import file; got \(member.value.kindName) \(member.value.snippet())"
                    )
                }
                return Group(className: member.key, objects: items)
            }
        default:
            throw RealmError.invalidInput(
                "an import file is a JSON object of class name → array of objects, e.g. {\"Dog\": [{\"name\": \"Rex\"}]}, or (with --class) an array of objects; got \(document.kindName) \(document.snippet())"
            )
        }
    }

    /// Reads CSV of one class (see `ImportDocument`) into JSON objects for `DataImport`.
    ///
    /// - Throws: `invalidInput` for malformed CSV (naming the line): no header row, bytes that
    ///   are not UTF-8, a row with another number of cells than the header (a row cut off reads
    ///   as one with fewer), or a header naming a property the class does not have (unless
    ///   `ignoreUnknown`: that column's cells go to `DataImport` as unknown properties, which it
    ///   skips and counts in `Summary.ignoredProperties`).
    public static func groups(fromCSV data: Data, className: String, schema: Schema, ignoreUnknown: Bool = false) throws
        -> [Group]
    {
        guard let objectSchema = schema[className] else { throw RealmError.noSuchClass(className) }
        let rows = try CSVReader.rows(data)
        guard let header = rows.first else {
            throw RealmError.invalidInput(
                "the CSV input is empty: it needs a header row naming \(className)'s properties")
        }
        var columns: [Property?] = []
        for cell in header {
            guard let property = objectSchema[cell.text], property.isPersisted else {
                if ignoreUnknown {
                    columns.append(nil)
                    continue
                }
                throw RealmError.invalidInput(
                    "CSV header: unknown property '\(cell.text)'; \(className) has \(objectSchema.persistedProperties.map(\.name).joined(separator: ", ")) (--ignore-unknown skips unknown columns)"
                )
            }
            columns.append(property)
        }
        var objects: [JSONValue] = []
        objects.reserveCapacity(rows.count - 1)
        for (r, row) in rows.dropFirst().enumerated() {
            guard row.count == columns.count else {
                throw RealmError.invalidInput(
                    "\(className)[\(r)] (CSV line \(r + 2)): \(row.count) cells, but the header has \(columns.count)")
            }
            var members: [JSONMember] = []
            for (position, (cell, property)) in zip(row, columns).enumerated() {
                guard let property else {
                    members.append(JSONMember(header[position].text, .string(cell.text)))
                    continue
                }
                if cell.text.isEmpty && !cell.quoted {
                    members.append(JSONMember(property.name, .null))
                    continue
                }
                let keyType = property.objectClassName.flatMap { schema[$0] }?.primaryKeyProperty?.type
                members.append(
                    JSONMember(
                        property.name,
                        ValueSyntax.json(fromText: cell.text, for: property, keyType: keyType, strings: .literal)))
            }
            objects.append(.object(members))
        }
        return [Group(className: className, objects: objects)]
    }
}

/// An RFC 4180 reader that remembers whether each cell was quoted (to tell `""` from nil).
enum CSVReader {
    struct Cell {
        var text: String
        var quoted: Bool
    }

    /// Every row; CRLF or LF line ends; a final line end is optional; blank lines are skipped.
    static func rows(_ data: Data) throws -> [[Cell]] {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var rows: [[Cell]] = []
        var row: [Cell] = []
        var field: [UInt8] = []
        var quoted = false
        var inQuotes = false
        var line = 1
        var i = 0
        func endField() throws {
            guard let text = String(validating: field, as: UTF8.self) else {
                throw RealmError.invalidInput("CSV line \(line): not valid UTF-8 (save the file as UTF-8)")
            }
            row.append(Cell(text: text, quoted: quoted))
            field.removeAll(keepingCapacity: true)
            quoted = false
        }
        func endRow() throws {
            try endField()
            if !(row.count == 1 && row[0].text.isEmpty && !row[0].quoted) { rows.append(row) }
            row = []
        }
        while i < bytes.count {
            let c = bytes[i]
            if inQuotes {
                if c == UInt8(ascii: "\"") {
                    if i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\"") {
                        field.append(c)
                        i += 2
                        continue
                    }
                    inQuotes = false
                    i += 1
                    guard
                        i >= bytes.count
                            || [UInt8(ascii: ","), UInt8(ascii: "\r"), UInt8(ascii: "\n")].contains(bytes[i])
                    else {
                        throw RealmError.invalidInput(
                            "CSV line \(line): text after a closing quote (a quote inside a quoted cell is written \"\")"
                        )
                    }
                    continue
                }
                if c == UInt8(ascii: "\n") { line += 1 }
                field.append(c)
                i += 1
                continue
            }
            switch c {
            case UInt8(ascii: "\""):
                guard field.isEmpty else {
                    throw RealmError.invalidInput(
                        "CSV line \(line): a quote inside an unquoted cell (quote the whole cell and double the quote)")
                }
                inQuotes = true
                quoted = true
            case UInt8(ascii: ","):
                try endField()
            case UInt8(ascii: "\r") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\n"):
                i += 1
                try endRow()
                line += 1
            case UInt8(ascii: "\n"):
                try endRow()
                line += 1
            default:
                field.append(c)
            }
            i += 1
        }
        if inQuotes {
            throw RealmError.invalidInput("CSV line \(line): a quoted cell is not closed before the end of the input")
        }
        if !field.isEmpty || !row.isEmpty || quoted { try endRow() }
        return rows
    }
}
