import Foundation

/// `check`: walks every node of the newest version and proves the file's invariants.
///
/// - every node reachable from the newest slot lies inside the file, has the right magic, kind
///   and checksum, and is reached once;
/// - reachable nodes, free-list extents and the header tile `[0, logicalSize)` exactly (free
///   space accounted exactly once);
/// - tree keys ascend, subtree counts add up, table counts match;
/// - every search index holds exactly one entry per object with the object's value;
/// - every link points at an existing object, and backlink columns mirror links exactly.
public struct IntegrityReport: Sendable {
    /// The version checked.
    public var version: UInt64
    /// Nodes visited.
    public var nodes: Int
    /// Objects per class.
    public var objects: [String: Int]
    /// Bytes in live nodes, in the free list, and the logical file size.
    public var liveBytes: UInt64
    public var freeBytes: UInt64
    public var fileBytes: UInt64
    /// What the check found that is not damage but must not go unsaid, one sentence each: a
    /// newest commit that was set aside (`Realm.recoveryWarning`) and where its bytes are kept,
    /// a damaged spare copy of an encrypted page. Empty for a file in order.
    public var warnings: [String] = []
}

extension Realm {
    /// Checks the newest version of the file at `path` without changing it. Throws
    /// `RealmError.corruptFile` naming the first problem found, or a damaged header slot. A newest
    /// commit that could not be verified (`recoveredFromDamagedCommit`) is set aside, not damage:
    /// the version before it is checked and the report's `warnings` name it and where its bytes
    /// are kept. An encrypted file needs its `encryptionKey`.
    public static func check(path: String, encryptionKey: Data? = nil) throws -> IntegrityReport {
        let realm = try Realm(
            configuration: .init(
                fileURL: .init(fileURLWithPath: path), readOnly: true, encryptionKey: encryptionKey,
                createIfMissing: false))
        // A commit that did not verify is set aside, not lost: its bytes are still in the file
        // (nothing is erased by a read-only open) or kept in a copy beside it, so the file read
        // at the version before is sound, with a warning. A damaged header slot is damage, and
        // so is a file that went back to an older version (`RejectedCause.rolledBack`): the
        // newer version's bytes are not in the file, nothing can salvage them.
        if let lost = realm.recoveredFromDamagedCommit,
            realm.recoveredFromDamagedHeaderSlot || realm.shared.lock.rejectedCause == .rolledBack
        {
            throw Realm.lostCommitError(
                realm.path, lost: lost, now: realm.version, cause: realm.shared.lock.rejectedCause)
        }
        var report = try realm.checkIntegrity()
        if let warning = realm.recoveryWarning {
            report.warnings = warning.components(separatedBy: "\n") + report.warnings
        }
        return report
    }

    /// Checks the version this instance reads.
    public func checkIntegrity() throws -> IntegrityReport {
        try checkThread()
        let snapshot = try snapshot
        guard let slot = try shared.slots().first(where: { $0.slot.version == snapshot.version })?.slot else {
            throw RealmError.busy("the version being checked was replaced; try again")
        }
        let checker = IntegrityChecker(snapshot: snapshot, headerPages: try shared.layout().headerPages)
        var report = try checker.run(slot: slot)
        if let crypt = shared.file.crypt {
            report.warnings = try crypt.copiesFailingCheck(below: try shared.file.physicalSize()).map { failing in
                "\(path): page \(failing.page): copy \(failing.copy == 0 ? "A" : "B") fails its integrity check (HMAC-SHA-256); "
                    + (failing.readable
                        ? "the page reads from its other copy, but damage or a torn write has left it without a spare"
                        : "no copy of the page is readable, and no live data is on it now")
                    + " (copy the file to rewrite it)"
            }
        }
        return report
    }
}

final class IntegrityChecker {
    let snapshot: Snapshot
    /// The header's pages (`FileHeader.Layout`): neither nodes nor free space.
    let headerPages: [Range<UInt64>]
    var extents: [(UInt64, UInt64, String)] = []
    var nodes = 0

    init(snapshot: Snapshot, headerPages: [Range<UInt64>]) {
        self.snapshot = snapshot
        self.headerPages = headerPages
    }

    var bytes: FileBytes { snapshot.bytes }
    var path: String { bytes.path }

    func corrupt(_ offset: UInt64, _ reason: String) -> RealmError {
        RealmError.corruptFile(path: path, offset: offset, reason: reason)
    }

    func visit(_ ref: UInt64, _ what: String) throws {
        let (length, _, ok) = try bytes.extent(ref)
        guard ok else { throw corrupt(ref, "checksum mismatch in \(what)") }
        extents.append((ref, length, what))
        nodes += 1
    }

    func run(slot: FileHeader.Slot) throws -> IntegrityReport {
        try visit(slot.topRef, "top node")
        try visit(snapshot.schemaRef, "schema")
        if snapshot.changeLogRef != 0 {
            try visit(snapshot.changeLogRef, "change log")
            for chunk in try ChangeLog.chunkRefs(bytes, ref: snapshot.changeLogRef) {
                try visit(chunk, "change log chunk")
            }
            _ = try ChangeLog.decode(bytes, ref: snapshot.changeLogRef)
        }
        try visit(slot.freeRef, "free list")
        if slot.commitRef != 0 {
            try visit(slot.commitRef, "commit record")
            guard CommitRecord.verify(slot, base: bytes.base, path: path) else {
                throw corrupt(slot.commitRef, "the commit record does not match the nodes of the commit")
            }
        }
        let chunks = try FreeSpace.load(
            FileBytes(base: bytes.base, size: slot.logicalSize, path: path, placeBound: slot.bindsNodesToPlace),
            ref: slot.freeRef)
        for chunk in chunks where chunk.ref != 0 { try visit(chunk.ref, "free list chunk") }
        let free = chunks.flatMap(\.extents)
        var objects: [String: Int] = [:]
        for (ci, table) in snapshot.tables.enumerated() {
            let name = snapshot.schema.objectSchemas[ci].name
            var count = 0
            if let root = table.root {
                var last: Int64? = nil
                count = try walk(root, depth: 0, what: "table \(name)") { leaf in
                    let c = try ClusterAccess(leaf, columns: snapshot.layout.tables[ci].columns, path: path)
                    for r in 0..<c.count {
                        let k = c.key(at: r)
                        if let l = last, k <= l {
                            throw corrupt(0, "keys of \(name) are not ascending (\(k) after \(l))")
                        }
                        if k >= table.nextKey {
                            throw corrupt(0, "key \(k) of \(name) is not below the next key \(table.nextKey)")
                        }
                        last = k
                    }
                    return c.count
                }
                guard count == root.count else {
                    throw corrupt(root.ref, "\(name) holds \(count) objects, its root says \(root.count)")
                }
            }
            objects[name] = count
            for (column, tree) in table.indexes {
                guard let tree else { continue }
                let n = try walk(tree, depth: 0, what: "index \(name)#\(column)") { leaf in
                    guard case .file(let p, let ref) = leaf else { return 0 }
                    return try IndexLeafCodec.View(p, path: path, ref: ref).count
                }
                guard n == tree.count else {
                    throw corrupt(tree.ref, "index of \(name) column \(column) count mismatch")
                }
            }
        }
        try checkSpace(free: free, logicalSize: slot.logicalSize)
        try checkIndexesAndLinks()
        let live = extents.reduce(0) { $0 + $1.1 }
        return IntegrityReport(
            version: snapshot.version, nodes: nodes, objects: objects,
            liveBytes: live + headerPages.reduce(0) { $0 + UInt64($1.count) },
            freeBytes: free.reduce(0) { $0 + $1.length }, fileBytes: slot.logicalSize)
    }

    /// Visits a tree, checking counts; returns the number of entries.
    func walk(_ child: TreeChild, depth: Int, what: String, leaf: (LeafAccess) throws -> Int) throws -> Int {
        guard depth < 64 else { throw corrupt(child.ref, "\(what) is too deep") }
        try visit(child.ref, what)
        let (_, kind) = try bytes.header(child.ref)
        if kind == NodeKind.inner.rawValue {
            let view = try InnerNodeCodec.View(try bytes.node(child.ref, kind: .inner), path: path, ref: child.ref)
            var total = 0
            for c in view.children() {
                let n = try walk(c, depth: depth + 1, what: what, leaf: leaf)
                guard n == c.count else { throw corrupt(c.ref, "subtree count \(c.count) of \(what) but \(n) entries") }
                total += n
            }
            return total
        }
        let k: NodeKind = kind == NodeKind.indexLeaf.rawValue ? .indexLeaf : .clusterLeaf
        return try leaf(.file(try bytes.node(child.ref, kind: k), ref: child.ref))
    }

    func checkSpace(free: [FreeSpace.Extent], logicalSize: UInt64) throws {
        var all = extents.map { ($0.0, $0.1, $0.2) }
        all += free.map { ($0.offset, $0.length, "free space") }
        all += headerPages.map { ($0.lowerBound, UInt64($0.count), "the header") }
        all.sort { $0.0 < $1.0 }
        var at: UInt64 = 0
        for (offset, length, what) in all {
            if offset < at { throw corrupt(offset, "\(what) overlaps the previous extent (ends at \(at))") }
            if offset > at { throw corrupt(at, "\(offset - at) bytes before \(what) are neither used nor free") }
            at = offset + length
        }
        if at != logicalSize { throw corrupt(at, "space from \(at) to \(logicalSize) is neither used nor free") }
    }

    func checkIndexesAndLinks() throws {
        let layout = snapshot.layout
        // Expected backlinks: (target class, target key, backlink column) → origin keys (multiset).
        var expected: [Int: [Int64: [Int: [Int64]]]] = [:]
        var existing: [Set<Int64>] = []
        for ci in layout.tables.indices {
            existing.append(Set(try snapshot.keys(classIndex: ci).map(\.rawValue)))
        }
        for (ci, t) in layout.tables.enumerated() {
            let name = layout.schema.objectSchemas[ci].name
            var wantedEntries: [Int: [TreeKey]] = [:]
            try snapshot.forEachObject(classIndex: ci) { k, c, r in
                for column in t.indexedColumns {
                    wantedEntries[column, default: []].append(
                        TreeKey(
                            hi: SearchIndex.key(c.value(row: r, column: column), type: t.columns[column].type),
                            lo: k.rawValue))
                }
                for column in 0..<t.persistedCount where t.columns[column].isSet || t.columns[column].isMap {
                    try checkCollection(c.value(row: r, column: column), t.columns[column], "\(name) \(k)")
                }
                for place in layout.mixedColumns where place.classIndex == ci {
                    try checkMixed(
                        c.value(row: r, column: place.column), t.columns[place.column], "\(name) \(k)",
                        existing: existing)
                }
                for column in 0..<t.persistedCount where t.columns[column].type == .object {
                    guard let (target, bc) = layout.linkTargets[.init(classIndex: ci, column: column)] else { continue }
                    let links: [Int64]
                    switch c.value(row: r, column: column) {
                    case .link(let l): links = [l.rawValue]
                    case .list(let items):
                        links = items.compactMap { if case .link(let l) = $0 { l.rawValue } else { nil } }
                    case .map(let entries):
                        links = entries.values.compactMap { if case .link(let l) = $0 { l.rawValue } else { nil } }
                    default: links = []
                    }
                    for l in links {
                        guard existing[target].contains(l) else {
                            throw corrupt(0, "\(name) \(k) links to missing object \(l)")
                        }
                        expected[target, default: [:]][l, default: [:]][bc, default: []].append(k.rawValue)
                    }
                }
            }
            for column in t.indexedColumns {
                var stored: [TreeKey] = []
                if let tree = snapshot.tables[ci].indexes[column] ?? nil {
                    try snapshot.reader.forEachLeaf(tree) { leaf in
                        if case .file(let p, let ref) = leaf {
                            stored += try IndexLeafCodec.View(p, path: path, ref: ref).entries()
                        }
                        return true
                    }
                }
                guard stored == (wantedEntries[column] ?? []).sorted() else {
                    throw corrupt(0, "the index of \(name).\(t.columns[column].name) does not match its values")
                }
            }
        }
        for (ci, t) in layout.tables.enumerated() where t.columns.count > t.persistedCount {
            try snapshot.forEachObject(classIndex: ci) { k, c, r in
                for bc in t.persistedCount..<t.columns.count {
                    guard case .list(let items) = c.value(row: r, column: bc) else { continue }
                    let stored = items.compactMap { if case .link(let l) = $0 { l.rawValue } else { nil } }.sorted()
                    let want = (expected[ci]?[k.rawValue]?[bc] ?? []).sorted()
                    guard stored == want else {
                        throw corrupt(
                            0, "backlinks of \(layout.schema.objectSchemas[ci].name) \(k) do not match the links to it")
                    }
                }
            }
        }
        try checkEmbeddedOwnership()
    }

    /// A stored set is sorted and free of duplicates (what every write keeps); a stored
    /// dictionary's keys are keys Realm accepts. Either broken would make `contains`, `insert`
    /// and queries answer wrongly without any read failing.
    private func checkCollection(_ value: Value, _ property: Property, _ object: String) throws {
        switch value {
        case .list(let items) where property.isSet:
            guard SetElements.isNormalized(items) else {
                throw corrupt(0, "the set \(object).\(property.name) is not sorted or holds an element twice")
            }
        case .map(let entries) where property.isMap:
            for key in entries.keys {
                do {
                    try MapKey.check(key, className: "", property: property.name)
                } catch {
                    throw corrupt(
                        0, "the dictionary \(object).\(property.name) holds the key '\(key)', which Realm refuses")
                }
            }
        default:
            throw corrupt(0, "\(object).\(property.name) does not hold a \(property.collectionName ?? "collection")")
        }
    }
}
