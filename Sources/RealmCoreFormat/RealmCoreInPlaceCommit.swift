import Foundation
import RealmEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One value an in-place commit writes: object `key` of table `table` gets `value` in `column`.
public struct RealmCoreCellChange: Sendable {
    public var table: String
    public var key: Int64
    public var column: String
    public var value: CoreValue

    public init(table: String, key: Int64, column: String, value: CoreValue) {
        self.table = table
        self.key = key
        self.column = column
        self.value = value
    }
}

/// A copy-on-write commit into an existing Realm file, as Realm Core's own `GroupWriter`
/// commits: only the nodes on the paths from the changed column leaves up to the group top are
/// written anew (the changed leaves, their cluster leaves, the inner cluster nodes above them,
/// the table tops, the tables array), then new free lists and a new top; the nodes they replace
/// are recorded as free space; the header's unused top-ref slot gets the new top, the file is
/// flushed, the select bit (byte 23, bit 0) is flipped, and the file is flushed again. Until the
/// flip the old version is what every reader sees, so a crash in between loses only the commit.
///
/// The facts this relies on (Realm Core 14, `group_writer.cpp`, `group.cpp`):
/// - the group top: 0 table names, 1 tables, 2 logical file size (tagged), 3 free positions,
///   4 free lengths, 5 free versions, 6 version (tagged), 7 history type (tagged), 8 history
///   ref, 9 history schema version (tagged), 10+ sync and evacuation facts; 3, 5, 7 or ≥ 10 slots;
/// - the free lists are three integer arrays sorted by position: a chunk of `length` bytes at
///   `position`, free since `version` (0: free for any writer; a chunk freed by the commit that
///   made version v carries v, and Realm Core reuses it once no reader holds a version below v);
/// - `Group::verify` (with its memory check in a write transaction) wants the nodes reachable
///   from the top (every non-zero even element of a has-refs node is a ref) and the free chunks
///   to tile [24, logical file size) exactly: no gap, no overlap. A node occupies its header (8)
///   plus its payload rounded up to 8.
///
/// The in-Realm history (changesets Realm Core keeps between versions) is dropped, as the
/// whole-file rewrite drops it: its ref is set to 0 (an empty history, which Realm Core takes)
/// and its nodes become free space.
///
/// What is done in place: new values of existing objects in scalar columns that are not
/// indexed, not the primary key, not links, not Mixed, not collections and not enum-encoded
/// strings, in a plain (not encrypted) format-24 file in the committed form. Anything else is
/// `.notInPlace(reason)` and the caller rewrites the whole file.
public enum RealmCoreInPlaceCommit {
    /// What a commit did.
    public enum Result: Sendable, Equatable {
        /// Written in place: the new version, its top ref, the bytes written, whether they went
        /// into free space (else at the end of the file), and the logical file size after it.
        case committed(version: Int64, topRef: Int, writtenBytes: Int, reusedFreeSpace: Bool, logicalFileSize: Int)
        /// Nothing written: why the change needs the whole-file rewrite.
        case notInPlace(String)
    }

    /// A free-list entry: `length` bytes at `position`, free since `version`.
    struct FreeChunk: Equatable {
        var position: Int
        var length: Int
        var version: Int64
    }

    /// Beyond this many bytes Realm Core maps a file in several sections, which a node must not
    /// straddle; such files are rewritten whole.
    static let sectionSize = 1 << 26

    /// Commits `changes` into the file at `path` (whose edit lock the caller holds). `flip`
    /// false writes everything but leaves the header selecting the old version (what a crash
    /// before the flip leaves: tests).
    public static func commit(path: String, changes: [RealmCoreCellChange], flip: Bool = true) throws -> Result {
        guard !changes.isEmpty else { return .notInPlace("nothing changed") }
        let access = try RealmCoreFileAccess.open(path: path, lockHeld: true)
        let file = try RealmCoreFile(image: access.image, name: path)
        let b = file.bytes
        guard file.header.form == .committed else {
            return .notInPlace("a file in the streaming form is converted by a whole rewrite")
        }
        guard file.formatVersion == RealmCoreWriter.formatVersion else {
            return .notInPlace("format \(file.formatVersion) is upgraded by a whole rewrite")
        }
        guard file.header.topRef != 0, let logical = file.logicalFileSize.map(Int.init), logical % 8 == 0,
            logical <= b.size
        else {
            return .notInPlace("the file has no committed version with a logical size")
        }
        guard file.historyType == 0 || file.historyType == 2 else {
            return .notInPlace("history type \(file.historyType)")
        }
        let top = try b.node(file.header.topRef, "group top")
        guard top.hasRefs, top.widthType == .bits, top.count == 7 || top.count >= 10 else {
            return .notInPlace("a group top of \(top.count) slots (no free lists or version)")
        }
        guard let oldVersion = try b.tagged(top, 6, "version"), oldVersion >= 1 else {
            return .notInPlace("no version in the group top")
        }
        let newVersion = oldVersion + 1
        guard let tablesRef = try b.ref(top, 1, "tables") else { throw b.corrupt(top.ref, "group top without tables") }
        let tablesNode = try b.node(tablesRef, "tables")

        // The changes by table, then by cluster leaf.
        var plans: [TablePlan] = []
        for (tableName, tableChanges) in Dictionary(grouping: changes, by: \.table).sorted(by: { $0.key < $1.key }) {
            guard let table = file.table(named: tableName) else {
                return .notInPlace("\(tableName) is not a table of the file")
            }
            guard
                let slot = try (0..<tablesNode.count).first(where: { i in
                    guard case .ref(let r) = try b.refOrTagged(tablesNode, i, "table \(i)") else { return false }
                    return try b.tagged(try b.node(r, "\(tableName) table top"), 3, "table key") == table.key
                }), let tableTopRef = try b.ref(tablesNode, slot, "table \(slot)")
            else {
                throw b.corrupt(tablesRef, "\(tableName): no slot of the tables array holds table key \(table.key)")
            }
            guard let tree = try table.tree() else { return .notInPlace("\(tableName) has no objects") }
            var plan = TablePlan(table: table, slot: slot, topRef: tableTopRef, rootRef: tree.rootRef)
            for change in tableChanges {
                guard let column = table.columns.first(where: { $0.name == change.column }) else {
                    return .notInPlace("\(tableName).\(change.column) is not a column of the file")
                }
                if let reason = refusal(column, table) {
                    return .notInPlace("\(tableName).\(change.column): \(reason)")
                }
                var path: [(ref: Int, slot: Int)] = []
                guard let (leaf, index) = try tree.find(key: change.key, path: &path) else {
                    return .notInPlace("\(tableName) has no object \(change.key)")
                }
                plan.leaves[leaf.node.ref, default: LeafPlan(leaf: leaf, path: path)].changes.append(
                    (column, index, change.value))
            }
            plans.append(plan)
        }

        // What this commit frees: the old nodes it replaces, the old top and free lists, the history.
        var freed: [FreeChunk] = []
        func free(_ ref: Int) throws {
            freed.append(FreeChunk(position: ref, length: nodeSize(try b.node(ref, "node")), version: newVersion))
        }
        for plan in plans {
            for (_, leafPlan) in plan.leaves {
                try free(leafPlan.leaf.node.ref)
                for column in Set(leafPlan.changes.map(\.column.leafSlot)) {
                    guard let ref = try b.ref(leafPlan.leaf.node, column, "\(plan.table.name) column leaf") else {
                        throw b.corrupt(
                            leafPlan.leaf.node.ref, "\(plan.table.name): cluster leaf without column \(column - 1)")
                    }
                    try subtree(ref, b, into: &freed, version: newVersion)
                }
            }
            for ref in Set(plan.leaves.values.flatMap { $0.path.map(\.ref) }) { try free(ref) }
            try free(plan.topRef)
        }
        try free(tablesRef)
        try free(top.ref)
        var kept: [FreeChunk] = []
        if let positionsRef = try b.ref(top, 3, "free positions"), let lengthsRef = try b.ref(top, 4, "free lengths") {
            let positions = try b.intArray(positionsRef, "free positions")
            let lengths = try b.intArray(lengthsRef, "free lengths")
            let versions = try b.ref(top, 5, "free versions").map { try b.intArray($0, "free versions") }
            guard positions.count == lengths.count, versions.map({ $0.count == positions.count }) ?? true else {
                throw b.corrupt(positionsRef, "the free lists disagree in length")
            }
            for i in 0..<positions.count {
                kept.append(
                    FreeChunk(
                        position: Int(positions.int(i)), length: Int(lengths.int(i)), version: versions?.int(i) ?? 0))
            }
            try free(positionsRef)
            try free(lengthsRef)
            if let versions { try free(versions.ref) }
        }
        var historyDropped = false
        if top.count > 8, let historyRef = try b.ref(top, 8, "history") {
            try subtree(historyRef, b, into: &freed, version: newVersion)
            historyDropped = true
        }
        guard Set(freed.map(\.position)).count == freed.count else {
            throw b.corrupt(top.ref, "a node is reachable twice")
        }

        // The new nodes: once at the end of the file to learn their size, then where they go.
        func writeData(origin: Int) throws -> (CoreNodeWriter, tables: Int) {
            var w = CoreNodeWriter(fileName: path, origin: origin)
            var tableSlots: [Int: Int64] = [:]
            for plan in plans { tableSlots[plan.slot] = Int64(try plan.write(&w, b)) }
            let tables = try w.copy(of: tablesNode, replacing: tableSlots, what: "tables")
            return (w, tables)
        }
        let firstPass = try writeData(origin: logical).0.bytes.count
        let topSize = 8 + 8 * top.count
        func freeListSize(_ n: Int) -> Int { 3 * (8 + 8 * n) }
        let bound = kept.count + freed.count + 1
        // Best fit among the chunks free before this commit (no reader holds an older version
        // while the edit lock is held, so each of them may be overwritten), keeping at least 8
        // bytes of it free so the free lists' length is known before they are written.
        let chunk = kept.enumerated()
            .filter { $0.element.length >= firstPass + freeListSize(bound) + topSize + 8 }
            .min { $0.element.length < $1.element.length }
        let origin = chunk?.element.position ?? logical
        var (w, newTables) = try writeData(origin: origin)
        guard w.bytes.count == firstPass else {
            throw RealmError.internalError("\(path): the in-place commit's nodes changed size when moved")
        }
        var entries = kept
        if let chunk {
            // The chunk's rest stays free; its start is fixed by the sizes below, its count is not.
            entries[chunk.offset] = FreeChunk(
                position: chunk.element.position + 8, length: chunk.element.length - 8, version: chunk.element.version)
        }
        let count = merged(entries + freed).count
        let used = firstPass + freeListSize(count) + topSize
        if let chunk {
            entries[chunk.offset] = FreeChunk(
                position: chunk.element.position + used, length: chunk.element.length - used,
                version: chunk.element.version)
        }
        let final = merged(entries + freed)
        guard final.count == count else {
            throw RealmError.internalError("\(path): the free list's length changed while it was placed")
        }
        let newLogical = chunk == nil ? logical + used : logical
        guard newLogical < sectionSize else { return .notInPlace("a file beyond \(sectionSize >> 20) MB") }
        let positions = try w.ints(final.map { Int64($0.position) }, width: 64, what: "free positions")
        let lengths = try w.ints(final.map { Int64($0.length) }, width: 64, what: "free lengths")
        let versions = try w.ints(final.map(\.version), width: 64, what: "free versions")
        var topSlots: [Int: Int64] = [
            1: Int64(newTables), 2: CoreSlot.tagged(Int64(newLogical)).stored, 3: Int64(positions),
            4: Int64(lengths), 5: Int64(versions), 6: CoreSlot.tagged(newVersion).stored,
        ]
        if historyDropped { topSlots[8] = 0 }
        let newTop = try w.copy(of: top, replacing: topSlots, minimumWidth: 64, what: "group top")
        guard w.end == origin + used else {
            throw RealmError.internalError(
                "\(path): the in-place commit wrote \(w.end - origin) bytes, planned \(used)")
        }
        try write(w.bytes, at: origin, topRef: newTop, header: file.header, path: path, flip: flip)
        return .committed(
            version: newVersion, topRef: newTop, writtenBytes: used, reusedFreeSpace: chunk != nil,
            logicalFileSize: newLogical)
    }

    /// Why a column's values are not rewritten in place (nil: they are).
    static func refusal(_ c: CoreColumn, _ table: RealmCoreTable) -> String? {
        if c.collection != nil { return "a collection (its elements are separate trees)" }
        if c.index != nil || table.primaryKey == c.name {
            return "indexed (the search index would need the change too)"
        }
        if c.enumKeysRef != nil { return "enum-encoded strings" }
        switch c.type {
        case .link, .linkList, .typedLink, .backlink: return "links (the target's backlinks would change too)"
        case .mixed: return "Mixed (it may hold links and nested collections)"
        default: return nil
        }
    }

    /// The bytes a node occupies: its header and its payload rounded up to 8 (Realm Core's
    /// `calc_byte_size`).
    static func nodeSize(_ n: CoreNode) -> Int { 8 + (n.payloadSize + 7) & ~7 }

    /// Every node of the tree at `ref` (a has-refs node's non-zero even elements are refs).
    static func subtree(_ ref: Int, _ b: CoreBytes, into out: inout [FreeChunk], version: Int64, depth: Int = 0) throws
    {
        guard depth < 64 else { throw b.corrupt(ref, "a tree deeper than 64 levels (a cycle?)") }
        let n = try b.node(ref, "node")
        out.append(FreeChunk(position: ref, length: nodeSize(n), version: version))
        guard n.hasRefs else { return }
        guard n.widthType == .bits else { throw b.corrupt(ref, "a node with refs that is not an integer array") }
        for i in 0..<n.count {
            let v = n.int(i)
            if v != 0 && v & 1 == 0 { try subtree(Int(v), b, into: &out, version: version, depth: depth + 1) }
        }
    }

    /// `chunks` sorted by position, neighbours joined (the later of their versions, so a chunk
    /// is never reused before both parts could be).
    static func merged(_ chunks: [FreeChunk]) -> [FreeChunk] {
        var out: [FreeChunk] = []
        for c in chunks.sorted(by: { $0.position < $1.position }) where c.length > 0 {
            if let last = out.last, last.position + last.length == c.position {
                out[out.count - 1].length += c.length
                out[out.count - 1].version = max(last.version, c.version)
            } else {
                out.append(c)
            }
        }
        return out
    }

    /// Writes the new nodes, then the new top ref into the header slot not in use, flushes,
    /// selects that slot and flushes again (Realm Core's order: the old version stays what the
    /// header selects until the new one is on disk).
    static func write(_ bytes: [UInt8], at offset: Int, topRef: Int, header: RealmCoreHeader, path: String, flip: Bool)
        throws
    {
        func failure(_ what: String, _ code: Int32) -> RealmError { CoreFileWrites.failure(what, path, code) }
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open for writing", errno) }
        defer { close(fd) }
        func put(_ data: [UInt8], _ at: Int) throws { try CoreFileWrites.write(data, to: fd, at: at, path: path) }
        var flags = [UInt8](repeating: 0, count: 1)
        guard pread(fd, &flags, 1, 23) == 1 else { throw failure("read the header", errno) }
        let slot = 1 - header.selectedSlot
        try put(bytes, offset)
        try put(withUnsafeBytes(of: UInt64(topRef).littleEndian) { Array($0) }, 8 * slot)
        try put([UInt8(RealmCoreWriter.formatVersion)], 20 + slot)
        guard fsync(fd) == 0 else { throw failure("fsync", errno) }
        guard flip else { return }
        try put([flags[0] & ~1 | UInt8(slot)], 23)
        guard fsync(fd) == 0 else { throw failure("fsync", errno) }
    }

    /// One changed cluster leaf: its object indexes' new values, and the inner nodes above it.
    struct LeafPlan {
        let leaf: CoreClusterLeaf
        let path: [(ref: Int, slot: Int)]
        var changes: [(column: CoreColumn, index: Int, value: CoreValue)] = []
    }

    /// One changed table: its slot in the tables array, its top, its tree's root and leaves.
    struct TablePlan {
        let table: RealmCoreTable
        let slot: Int
        let topRef: Int
        let rootRef: Int
        var leaves: [Int: LeafPlan] = [:]

        /// Writes the changed column leaves, cluster leaves and inner nodes (deepest first) and
        /// the table top; returns the new table top's ref.
        func write(_ w: inout CoreNodeWriter, _ b: CoreBytes) throws -> Int {
            var replaced: [Int: Int] = [:]
            for (ref, plan) in leaves.sorted(by: { $0.key < $1.key }) {
                var slots: [Int: Int64] = [:]
                for (slot, changes) in Dictionary(grouping: plan.changes, by: \.column.leafSlot).sorted(by: {
                    $0.key < $1.key
                }) {
                    let column = changes[0].column
                    let what = "\(table.name).\(column.name)"
                    guard let old = try b.ref(plan.leaf.node, slot, what) else {
                        throw b.corrupt(ref, "\(what): no column leaf")
                    }
                    var values = try table.column(
                        column, ref: old, CoreLeafDecoder(bytes: b, context: what, format: table.format))
                    for change in changes {
                        guard values.indices.contains(change.index) else {
                            throw b.corrupt(old, "\(what): leaf shorter than its cluster")
                        }
                        values[change.index] = change.value
                    }
                    slots[slot] = Int64(
                        try w.leaf(values[...], type: column.type, nullable: column.nullable, what: what))
                }
                replaced[ref] = try w.copy(of: plan.leaf.node, replacing: slots, what: "\(table.name) cluster leaf")
            }
            // Inner nodes by depth, deepest first, each once with every changed child.
            var byDepth: [Int: [Int: [Int: Int]]] = [:]  // depth → node → slot → old child
            for (leafRef, plan) in leaves {
                for (d, step) in plan.path.enumerated() {
                    let child = d + 1 < plan.path.count ? plan.path[d + 1].ref : leafRef
                    byDepth[d, default: [:]][step.ref, default: [:]][step.slot] = child
                }
            }
            for depth in byDepth.keys.sorted(by: >) {
                for (ref, children) in (byDepth[depth] ?? [:]).sorted(by: { $0.key < $1.key }) {
                    var slots: [Int: Int64] = [:]
                    for (slot, child) in children {
                        guard let new = replaced[child] else {
                            throw RealmError.internalError("\(table.name): child \(child) not rewritten")
                        }
                        slots[slot] = Int64(new)
                    }
                    replaced[ref] = try w.copy(
                        of: try b.node(ref, "\(table.name) inner cluster node"), replacing: slots,
                        what: "\(table.name) inner cluster node")
                }
            }
            guard let root = replaced[rootRef] else {
                throw RealmError.internalError("\(table.name): the cluster root was not rewritten")
            }
            return try w.copy(
                of: try b.node(topRef, "\(table.name) table top"), replacing: [2: Int64(root)],
                what: "\(table.name) table top")
        }
    }
}
