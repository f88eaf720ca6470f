import Foundation
import RealmEngine

/// Writes whole Realm Core files, format 24 (what Realm Core 14–20 and the current SDKs open),
/// in the committed form a running database leaves: the header's slot 0 holds the top ref,
/// the group top holds the table names, the tables, the logical file size, empty free lists
/// and version 1, and no history (Realm Core adds its own history on the first write).
///
///     let image = try RealmCoreWriter.image(tables: [dogs], schemaVersion: 3)
///     try RealmCoreWriter.write(tables: [dogs], schemaVersion: 3, toFile: "seed.realm")
///
/// Every node is written once, children before parents, packed with no gap, so Realm Core's
/// memory check (reachable nodes tile the file) holds. Written so far: columns of every type
/// (int, bool, string, binary, timestamp, float, double, decimal128, ObjectId, UUID, Mixed),
/// required or optional, as single values, lists (B+trees with inner nodes beyond 1000
/// elements), sets (in Realm Core's order) and dictionaries; links, lists, sets and
/// dictionaries of links and typed links in Mixed, with the backlink columns Realm Core keeps
/// in their targets; embedded tables; primary keys and indexed columns with Realm Core's search
/// index (`StringIndex`, built as Realm Core builds it: `CoreStringIndexBuilder`). Not yet: sets
/// of Mixed; they are refused with an error naming them (see
/// `RealmCoreWriter.tables(from:)`).
public enum RealmCoreWriter {
    /// The format written.
    public static let formatVersion = 24

    /// Object Store's `metadata` table: one object holding the schema version.
    static func metadataTable(schemaVersion: UInt64) -> RealmCoreWriterTable {
        RealmCoreWriterTable(
            name: "metadata", columns: [.init(name: "version", type: .int, nullable: false)],
            objects: [.init(key: 0, values: [.int(Int64(bitPattern: schemaVersion))])])
    }

    /// The file's bytes. With `schemaVersion`, a `metadata` table holding it comes first (as
    /// the SDKs' Object Store writes it); `tables` follow in order, with table keys 1, 2, ….
    ///
    /// `streaming`: the form `writeCopy` and compaction write (`Group::write`): the top ref in a
    /// footer at the end (padded to whole 4 KiB pages with `pageAligned`, for encryption), the
    /// header's slots 0xFFFF…FF and 0; Realm Core reads it as is and turns it into the
    /// committed form on its first read-write open.
    public static func image(
        tables: [RealmCoreWriterTable], schemaVersion: UInt64?, name: String = "Realm file",
        streaming: Bool = false, pageAligned: Bool = false
    ) throws -> [UInt8] {
        let all = (schemaVersion.map { [metadataTable(schemaVersion: $0)] } ?? []) + tables
        var seen = Set<String>()
        for t in all {
            guard seen.insert(t.name).inserted else {
                throw RealmError.invalidInput("\(name): two tables are named '\(t.name)'")
            }
        }
        var writers = all.enumerated().map { CoreTableWriter(table: $0.element, key: Int64($0.offset)) }
        try connectLinks(&writers, name: name)
        try connectMixedLinks(&writers, name: name)
        try checkEmbeddedParents(writers, name: name)
        var w = CoreNodeWriter(fileName: name)
        let names = try w.shortStrings(all.map { Array($0.name.utf8) }, nullable: false, what: "table names")
        var tableRefs: [CoreSlot] = []
        for writer in writers {
            tableRefs.append(.ref(try writer.write(&w)))
        }
        let tablesRef = try w.slots(tableRefs, what: "tables")
        let freePositions = try w.ints([], what: "free positions")
        let freeLengths = try w.ints([], what: "free lengths")
        let freeVersions = try w.ints([], what: "free versions")
        // The top is written at 64 bits per slot, so its size (8 + 7 × 8) is known before the
        // logical file size it holds.
        let topRef = w.end
        let fileSize = Int64(topRef + 8 + 7 * 8)
        let top = try w.slots(
            [
                .ref(names), .ref(tablesRef), .tagged(fileSize), .ref(freePositions), .ref(freeLengths),
                .ref(freeVersions), .tagged(1),
            ], minimumWidth: 64, what: "group top")
        guard top == topRef, w.end == Int(fileSize) else {
            throw RealmError.internalError(
                "\(name): the group top came out at \(top) ending at \(w.end), expected \(topRef)–\(fileSize)")
        }
        return streaming ? w.finishStreaming(topRef: top, pageAligned: pageAligned) : w.finish(topRef: top)
    }

    /// Gives every link column its target's backlink column (in the target, in the order of the
    /// origin tables and their columns) and fills it from the links; a link to a table or an
    /// object that does not exist is an error.
    static func connectLinks(_ writers: inout [CoreTableWriter], name: String) throws {
        let index = Dictionary(
            writers.enumerated().map { ($0.element.table.name, $0.offset) }, uniquingKeysWith: { a, _ in a })
        for o in writers.indices {
            let origin = writers[o].table
            for (c, column) in origin.columns.enumerated() where column.type == .link {
                let what = "\(origin.name).\(column.name)"
                guard let targetName = column.linkTarget, let t = index[targetName] else {
                    throw RealmError.invalidInput(
                        "\(name): \(what) links to \(column.linkTarget ?? "no table"), which is not written")
                }
                let targetKeys = Set(writers[t].table.objects.map(\.key))
                var backlink = CoreBacklinkColumn(originTable: writers[o].key, originColumn: writers[o].columnKey(c))
                for object in origin.objects {
                    var links: [CoreValue] = []
                    switch object.values[c] {
                    case .list(let items), .set(let items): links = items
                    case .dictionary(let entries): links = entries.map(\.value)
                    case .null: break
                    case let v: links = [v]
                    }
                    for link in links {
                        guard case .link(_, let key) = link else { continue }
                        guard targetKeys.contains(key) else {
                            throw RealmError.invalidInput(
                                "\(name): \(what) of object \(object.key) links to object \(key) of \(targetName), which does not exist"
                            )
                        }
                        backlink.origins[key, default: []].append(object.key)
                    }
                }
                for k in backlink.origins.keys { backlink.origins[k]?.sort() }
                writers[o].linkOpposites[c] = (writers[t].key, writers[t].backlinkKey(writers[t].backlinks.count))
                writers[t].backlinks.append(backlink)
            }
        }
    }

    /// Writes a new file at `path` (refused when it exists): under a temporary name in the same
    /// folder first, flushed to disk, then renamed, so no half-written file is ever at `path`.
    public static func write(tables: [RealmCoreWriterTable], schemaVersion: UInt64?, toFile path: String) throws {
        let bytes = try image(tables: tables, schemaVersion: schemaVersion, name: path)
        try writeNewFile(bytes, to: path)
    }

    static func writeNewFile(_ bytes: [UInt8], to path: String) throws {
        if FileManager.default.fileExists(atPath: path) {
            throw RealmError.invalidInput("\(path) already exists; the Realm file writer makes a new file")
        }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/." + url.lastPathComponent + ".writing-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else {
            throw RealmError.io(
                path: temporary, operation: "create", errno: errno, message: String(cString: strerror(errno)))
        }
        var ok = false
        defer {
            if !ok { unlink(temporary) }
        }
        do {
            defer { close(fd) }
            var done = 0
            while done < bytes.count {
                let n = bytes.withUnsafeBytes { buffer in
                    buffer.baseAddress.map { Glibc.write(fd, $0 + done, buffer.count - done) } ?? 0
                }
                guard n > 0 else {
                    throw RealmError.io(
                        path: temporary, operation: "write", errno: errno, message: String(cString: strerror(errno)))
                }
                done += n
            }
            guard fsync(fd) == 0 else {
                throw RealmError.io(
                    path: temporary, operation: "fsync", errno: errno, message: String(cString: strerror(errno)))
            }
        }
        // link + unlink rather than rename: a file that appeared at `path` meanwhile is not replaced.
        guard link(temporary, path) == 0 else {
            throw RealmError.io(
                path: path, operation: "create", errno: errno, message: String(cString: strerror(errno)))
        }
        ok = true
        unlink(temporary)
        let dir = open(folder, O_RDONLY)
        if dir >= 0 {
            _ = fsync(dir)
            close(dir)
        }
    }
}
