import Foundation
import RealmEngine

/// Writes a Realm Core file's whole content in the JSON shape of Realm Core's own dump
/// (`dump_format: realm-core-json/1`, as `realm-core-tool dump` prints it): tables sorted by
/// name, columns with their keys, objects in key order with their backlinks, values as Realm
/// Core renders them (floats `%.9g`, doubles `%.17g`, binaries base64, embedded objects inline).
/// The decimal `text` is this reader's rendering; `bid128` is the stored bits.
public struct RealmCoreDumper {
    let file: RealmCoreFile
    /// The file name printed in `file`.
    let fileName: String

    public init(file: RealmCoreFile, fileName: String) {
        self.file = file
        self.fileName = fileName
    }

    /// The whole dump as one string.
    public func dump() throws -> String {
        var out = ""
        try write(to: &out)
        return out
    }

    /// Streams the dump to `out`, table by table and object by object.
    public func write(to out: inout some TextOutputStream) throws {
        out.write(
            "{\"dump_format\": \"realm-core-json/1\", \"file\": \(Self.quote(fileName)), \"reader\": \"realmtui\"")
        out.write(
            ", \"file_format_version\": \(file.formatVersion), \"version\": \(file.version), \"history_type\": \(file.historyType), \"history_schema_version\": \(file.historySchemaVersion)"
        )
        out.write(", \"tables\": [")
        let sorted = file.tables.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        for (ti, t) in sorted.enumerated() {
            out.write(ti == 0 ? "\n {" : ",\n {")
            out.write(
                "\"name\": \(Self.quote(t.name)), \"table_key\": \(t.key), \"type\": \"\(t.kind.rawValue)\", \"primary_key\": "
            )
            out.write(t.primaryKey.map(Self.quote) ?? "null")
            out.write(", \"columns\": [")
            out.write(
                t.columns.map { c in
                    var s =
                        "{\"name\": \(Self.quote(c.name)), \"type\": \"\(c.type.name)\", \"nullable\": \(c.nullable), \"collection\": "
                    s += c.collection.map { "\"\($0.rawValue)\"" } ?? "null"
                    s += ", \"index\": " + (c.index.map { "\"\($0.rawValue)\"" } ?? "null")
                    if let target = c.linkTarget { s += ", \"link_target\": \(Self.quote(target))" }
                    return s + ", \"col_key\": \(c.key)}"
                }.joined(separator: ", "))
            let backlinkNames = try t.backlinkColumns.map { try backlinkName($0, t) }
            out.write("], \"backlink_columns\": [\(backlinkNames.map(Self.quote).joined(separator: ", "))]")
            out.write(", \"object_count\": \(t.objectCount), \"objects\": [")
            var first = true
            var failure: Error?
            try t.forEachObject { o in
                out.write(first ? "\n  " : ",\n  ")
                first = false
                do {
                    out.write(try object(o, t, backlinkNames: backlinkNames))
                } catch {
                    failure = error
                    return false
                }
                return true
            }
            if let failure { throw failure }
            out.write("]}")
        }
        out.write("\n]}\n")
    }

    private func backlinkName(_ c: CoreColumn, _ t: RealmCoreTable) throws -> String {
        guard let (origin, column) = file.backlinkOrigin(c) else {
            throw RealmError.corruptFile(
                path: file.bytes.name, offset: 0,
                reason: "\(t.name): a backlink column names an origin table or column that does not exist")
        }
        return "\(origin.name).\(column.name)"
    }

    /// Embedded objects are written inside their parents; a damaged file could make them
    /// contain each other, so the nesting is bounded.
    static let maxEmbeddedDepth = 64

    private func object(_ o: RealmCoreObject, _ t: RealmCoreTable, backlinkNames: [String]?, depth: Int = 0) throws
        -> String
    {
        guard depth < Self.maxEmbeddedDepth else {
            throw RealmError.corruptFile(
                path: file.bytes.name, offset: 0,
                reason: "\(t.name): embedded objects nested deeper than \(Self.maxEmbeddedDepth) (a cycle?)")
        }
        var s = "{\"_key\": \(o.key), \"fields\": {"
        for (i, c) in t.columns.enumerated() {
            if i > 0 { s += ", " }
            s += Self.quote(c.name) + ": " + (try field(o.values[i], c, depth: depth))
        }
        s += "}"
        if let backlinkNames {
            s += ", \"backlinks\": {"
            var first = true
            for (i, keys) in o.backlinks.enumerated() where !keys.isEmpty {
                s += first ? "" : ", "
                first = false
                s += Self.quote(backlinkNames[i]) + ": [" + keys.map(String.init).joined(separator: ", ") + "]"
            }
            s += "}"
        }
        return s + "}"
    }

    private func field(_ v: CoreValue, _ c: CoreColumn, depth: Int) throws -> String {
        switch v {
        case .list(let items) where c.collection != nil, .set(let items) where c.collection != nil:
            if c.type == .mixed { return "[" + (try items.map { try tagged($0) }.joined(separator: ", ")) + "]" }
            return "[" + (try items.map { try plain($0, c, depth: depth) }.joined(separator: ", ")) + "]"
        case .dictionary(let entries) where c.collection == .dictionary:
            return "{"
                + (try entries.map { e in
                    Self.quote(e.key) + ": "
                        + (c.type == .mixed ? try tagged(e.value) : try plain(e.value, c, depth: depth))
                }.joined(separator: ", ")) + "}"
        default:
            return c.type == .mixed ? try tagged(v) : try plain(v, c, depth: depth)
        }
    }

    /// A Mixed value: `{"type": T, "value": v}`, nested collections included.
    private func tagged(_ v: CoreValue) throws -> String {
        switch v {
        case .null: return "null"
        case .list(let items):
            return "{\"type\": \"list\", \"value\": [" + (try items.map { try tagged($0) }.joined(separator: ", "))
                + "]}"
        case .dictionary(let entries):
            return "{\"type\": \"dictionary\", \"value\": {"
                + (try entries.map { Self.quote($0.key) + ": " + (try tagged($0.value)) }
                    .joined(separator: ", ")) + "}}"
        default: return "{\"type\": \"\(v.typeName)\", \"value\": \(try plain(v, nil))}"
        }
    }

    /// A value of a known type, untagged. A link to an embedded table is that object, inline.
    private func plain(_ v: CoreValue, _ c: CoreColumn?, depth: Int = 0) throws -> String {
        switch v {
        case .null: return "null"
        case .int(let i): return String(i)
        case .bool(let b): return b ? "true" : "false"
        case .float(let f): return Self.number(Double(f), digits: 9)
        case .double(let d): return Self.number(d, digits: 17)
        case .string(let s): return Self.quote(s)
        case .binary(let d): return "\"" + d.base64EncodedString() + "\""
        case .timestamp(let s, let ns): return "{\"seconds\": \(s), \"nanoseconds\": \(ns)}"
        case .decimal128(let lo, let hi):
            return
                "{\"text\": \(Self.quote(CoreDecimal.text(low: lo, high: hi))), \"bid128\": \"\(Self.hex64(hi))\(Self.hex64(lo))\"}"
        case .objectId(let d): return "\"" + d.map { Self.hex2($0) }.joined() + "\""
        case .uuid(let d):
            let h = d.map { Self.hex2($0) }
            return
                "\"\(h[0..<4].joined())-\(h[4..<6].joined())-\(h[6..<8].joined())-\(h[8..<10].joined())-\(h[10..<16].joined())\""
        case .link(let tableKey, let key):
            let target = c?.linkTargetKey.flatMap { file.table(key: $0) } ?? file.table(key: tableKey)
            if let target, target.kind == .embedded {
                guard let o = try target.object(key: key) else {
                    throw RealmError.corruptFile(
                        path: file.bytes.name, offset: 0,
                        reason: "\(c?.name ?? "link"): embedded object \(key) of \(target.name) does not exist")
                }
                return try object(o, target, backlinkNames: nil, depth: depth + 1)
            }
            return "{\"table\": \(Self.quote(target?.name ?? "?")), \"key\": \(key)}"
        case .typedLink(let tableKey, let key):
            return "{\"table\": \(Self.quote(file.table(key: tableKey)?.name ?? "?")), \"key\": \(key)}"
        case .list, .set, .dictionary:
            return try tagged(v)
        }
    }

    static func number(_ d: Double, digits: Int) -> String {
        if d.isNaN { return "\"NaN\"" }
        if d.isInfinite { return d > 0 ? "\"Infinity\"" : "\"-Infinity\"" }
        // snprintf, as Realm Core's dump prints (String(format:) is much slower on Linux).
        var buffer = [CChar](repeating: 0, count: 40)
        let written = withVaList([d]) { args in
            buffer.withUnsafeMutableBufferPointer {
                vsnprintf($0.baseAddress, 40, digits == 9 ? "%.9g" : "%.17g", args)
            }
        }
        guard written > 0 else { return "0" }
        return String(decoding: buffer.prefix(Int(written)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func hex2(_ b: UInt8) -> String {
        let s = String(b, radix: 16)
        return s.count == 1 ? "0" + s : s
    }

    static func hex64(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    /// A JSON string as Realm Core's dump writes it: `"` and `\` escaped, control characters as
    /// `\u00XX`, everything else raw UTF-8.
    static func quote(_ s: String) -> String {
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) { return "\"" + s + "\"" }
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where u.value < 0x20: out += "\\u00" + hex2(UInt8(u.value))
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}
