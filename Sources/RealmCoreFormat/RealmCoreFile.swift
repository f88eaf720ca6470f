import Foundation
import RealmEngine

/// A Realm Core file (formats 20–24) opened read-only from its image. Opening reads the header,
/// the group's top array and every table's top and spec: nothing per object. Objects are read
/// lazily through `RealmCoreTable`, a cluster leaf at a time.
///
///     let file = try RealmCoreFile(image: RealmCoreImage(copying: Data(contentsOf: url)), name: url.path)
///     let dogs = file.table(named: "class_Dog")          // columns, primary key, objectCount
///     let page = try dogs?.objects(from: 0, limit: 50)   // [RealmCoreObject]: key, values, backlinks
///     let json = try RealmCoreDumper(file: file, fileName: url.lastPathComponent).dump()
///
/// Every ref is checked before it is followed; a damaged file is a `RealmError.corruptFile`
/// naming the class, column and offset, a format outside 20–24 or a compressed array
/// `RealmError.unsupportedFormat` naming the format.
public final class RealmCoreFile: Sendable {
    /// The header facts (format, form, top ref, selected slot).
    public let header: RealmCoreHeader
    /// The file format of the selected slot.
    public var formatVersion: Int { header.formatVersion }
    /// The snapshot number the top records (1 when absent, as Realm Core reports it).
    public let version: Int64
    /// History type (0 none, 2 in-Realm, 3 sync) and its schema version.
    public let historyType: Int
    public let historySchemaVersion: Int
    /// The logical file size the top records (nil when absent).
    public let logicalFileSize: Int64?
    /// Number of entries in the free lists (0 in streaming files).
    public let freeListEntries: Int
    /// The tables in group order (removed table slots left out).
    public let tables: [RealmCoreTable]
    private let tablesByKey: [Int64: RealmCoreTable]
    /// The node shift the caller stated (nil: inferred per table, and verified).
    public let nodeShift: Int?
    let bytes: CoreBytes

    /// Opens the image. `name` is used in error messages (the path); `nodeShift` is the Realm
    /// Core build's cluster node shift (8 in SDK builds, 2 in node-size-4 test builds) when the
    /// caller knows it.
    public init(image: RealmCoreImage, name: String = "Realm file", nodeShift: Int? = nil) throws {
        let b = CoreBytes(image: image, name: name)
        bytes = b
        if let nodeShift, !(1...10).contains(nodeShift) {
            throw RealmError.invalidInput("node shift \(nodeShift) is not between 1 and 10")
        }
        self.nodeShift = nodeShift
        header = try RealmCoreHeader(b)
        guard header.topRef != 0 else {
            // A file no transaction has committed to yet: no tables.
            version = 1
            historyType = 0
            historySchemaVersion = 0
            logicalFileSize = nil
            freeListEntries = 0
            tables = []
            tablesByKey = [:]
            return
        }
        let top = try b.node(header.topRef, "group top")
        guard top.hasRefs, top.count >= 3 else { throw b.corrupt(header.topRef, "group top array is malformed") }
        let v = try b.tagged(top, 6, "version") ?? 0
        version = v == 0 ? 1 : v
        historyType = Int(try b.tagged(top, 7, "history type") ?? 0)
        historySchemaVersion = Int(try b.tagged(top, 9, "history schema version") ?? 0)
        logicalFileSize = try b.tagged(top, 2, "logical file size")
        if let logicalFileSize, logicalFileSize > Int64(b.size) {
            throw b.corrupt(
                header.topRef, "logical file size \(logicalFileSize) exceeds the file's \(b.size) bytes: truncated?")
        }
        if top.count > 4, let freeRef = try b.ref(top, 3, "free list positions") {
            let positions = try b.intArray(freeRef, "free list positions")
            if let lengthsRef = try b.ref(top, 4, "free list lengths") {
                let lengths = try b.intArray(lengthsRef, "free list lengths")
                guard lengths.count == positions.count else {
                    throw b.corrupt(lengthsRef, "free list arrays disagree in length")
                }
            }
            freeListEntries = positions.count
        } else {
            freeListEntries = 0
        }
        guard let namesRef = try b.ref(top, 0, "table names"), let tablesRef = try b.ref(top, 1, "tables") else {
            throw b.corrupt(header.topRef, "group top without table names or tables")
        }
        let decoder = CoreLeafDecoder(bytes: b, context: "table names", format: header.formatVersion)
        let names = try decoder.stringBytes(namesRef, nullable: false)
        let tableRefs = try b.node(tablesRef, "tables")
        guard tableRefs.count == names.count else {
            throw b.corrupt(tablesRef, "\(tableRefs.count) tables but \(names.count) table names")
        }
        var list: [RealmCoreTable] = []
        for i in 0..<tableRefs.count {
            // A removed table leaves a tagged value in its slot (kept so table keys stay stable).
            guard case .ref(let r) = try b.refOrTagged(tableRefs, i, "table \(i)") else { continue }
            let name = String(decoding: names[i] ?? Data(), as: UTF8.self)
            list.append(
                try RealmCoreTable(bytes: b, ref: r, name: name, format: header.formatVersion, nodeShift: nodeShift))
        }
        // Table keys are unique in a sound file; links name their targets by key.
        guard Set(list.map(\.key)).count == list.count else {
            throw b.corrupt(tablesRef, "two tables have the same table key")
        }
        let byKey = Dictionary(list.map { ($0.key, $0.name) }, uniquingKeysWith: { a, _ in a })
        for t in list { try t.resolveTargets(byKey) }
        tables = list
        tablesByKey = Dictionary(list.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The bytes the free lists record as free (each entry checked to lie inside the file and
    /// not to overlap the next); 0 for a streaming file, which has none.
    public func freeBytes() throws -> Int64 {
        guard header.topRef != 0 else { return 0 }
        let top = try bytes.node(header.topRef, "group top")
        guard top.count > 4, let positionsRef = try bytes.ref(top, 3, "free list positions"),
            let lengthsRef = try bytes.ref(top, 4, "free list lengths")
        else { return 0 }
        let positions = try bytes.intArray(positionsRef, "free list positions")
        let lengths = try bytes.intArray(lengthsRef, "free list lengths")
        guard positions.count == lengths.count else {
            throw bytes.corrupt(lengthsRef, "free list arrays disagree in length")
        }
        var total: Int64 = 0
        var previousEnd: Int64 = 0
        let limit = logicalFileSize ?? Int64(bytes.size)
        for i in 0..<positions.count {
            let start = positions.int(i)
            let length = lengths.int(i)
            let (end, overflow) = start.addingReportingOverflow(length)
            guard start >= previousEnd, length >= 0, !overflow, end <= limit else {
                throw bytes.corrupt(
                    positionsRef,
                    "free list entry \(i) (\(start), \(length) bytes) is outside the file or overlaps the one before")
            }
            previousEnd = end
            total += length
        }
        return total
    }

    /// The table named `name` (`class_Dog`, `metadata`).
    public func table(named name: String) -> RealmCoreTable? { tables.first { $0.name == name } }

    /// The table with Realm Core's table key `key`.
    public func table(key: Int64) -> RealmCoreTable? { tablesByKey[key] }

    /// The origin of a backlink column: the table and the link column whose links it records.
    public func backlinkOrigin(_ column: CoreColumn) -> (table: RealmCoreTable, column: CoreColumn)? {
        guard column.isBacklink, let key = column.linkTargetKey, let origin = table(key: key),
            let linkColumn = origin.columns.first(where: { $0.key == column.originColumnKey })
        else { return nil }
        return (origin, linkColumn)
    }

    /// Object Store's schema version (`metadata.version`), nil without a `metadata` table.
    public func schemaVersion() throws -> Int64? {
        guard let meta = table(named: "metadata"), let col = meta.columns.firstIndex(where: { $0.name == "version" })
        else { return nil }
        guard let first = try meta.objects(from: 0, limit: 1).first, case .int(let v) = first.values[col] else {
            return nil
        }
        return v
    }
}
