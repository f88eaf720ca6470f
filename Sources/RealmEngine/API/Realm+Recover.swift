import Foundation

/// What `Realm.recover(from:to:)` saved and what it could not.
public struct RecoveryReport: Sendable, Equatable {
    /// Objects lost from one class: a subtree or leaf that could not be read.
    public struct Loss: Sendable, Equatable {
        /// The class the objects belonged to.
        public var className: String
        /// How many objects the damaged part held, as its parent recorded (nil when the class's
        /// root itself was unreadable and even the count is in doubt).
        public var objects: Int?
        /// The object keys the damaged part covered: from its first key up to the next readable
        /// part's first key (exclusive; nil upper bound: to the end of the class).
        public var firstKey: Int64
        public var endKey: Int64?
        /// Why it could not be read.
        public var reason: String
    }

    /// The version of the damaged file the objects were read from.
    public var version: UInt64
    /// Objects copied, by class name (every class of the schema, 0 included).
    public var recovered: [String: Int]
    /// The parts that could not be read, in class and key order.
    public var lost: [Loss]
    /// Links (and list elements) dropped because they pointed at a lost object.
    public var droppedLinks: Int
    /// Newer versions whose top node or schema could not be read (version, reason): their
    /// changes since `version` are lost as a whole.
    public var unreadableVersions: [UnreadableVersion]

    /// A newer version than the one recovered, and why it could not be read.
    public struct UnreadableVersion: Sendable, Equatable {
        public var version: UInt64
        public var reason: String
    }

    /// Whether nothing was lost.
    public var isComplete: Bool { lost.isEmpty && unreadableVersions.isEmpty }
}

extension Realm {
    /// Salvages a damaged file (sqlite3's `.recover`): copies every object that can still be read,
    /// leaf by leaf, into a new file at `destination`, and reports what was lost.
    ///
    /// The source is opened read-only and never written — not even its torn commits are erased
    /// and no lock file is made. It needs a header slot whose top node and schema can be read
    /// (the newest such version is used; a file cut short keeps what lies before the cut). Each
    /// node is checksum-verified: a damaged leaf loses its objects, a damaged inner node its whole
    /// subtree, and the report says which class, how many objects and which keys. Links to lost
    /// objects are dropped (a to-one link becomes nil), so the copy is consistent and passes
    /// `checkIntegrity()`. Object keys are kept. Fails if `destination` exists.
    @discardableResult
    /// An encrypted source needs its `encryptionKey` (pages that fail their check are lost like
    /// damaged nodes); the copy is encrypted with the same key.
    public static func recover(from source: String, to destination: String, encryptionKey: Data? = nil) throws
        -> RecoveryReport
    {
        if FileManager.default.fileExists(atPath: destination) {
            throw RealmError.invalidInput("\(destination) already exists; recover does not overwrite files")
        }
        let file = try DatabaseFile(
            path: URL(fileURLWithPath: source).standardizedFileURL.path, readOnly: true, create: false,
            encryptionKey: encryptionKey.map { [UInt8]($0) })
        // The leaves read point into the file's mapping: keep it until the copy is done.
        return try withExtendedLifetime(file) {
            try recover(Salvage(file), to: destination, encryptionKey: encryptionKey)
        }
    }

    /// Writes the salvaged objects under a temporary name (`StagedFile`): a recovery killed
    /// half-way must not leave a destination that opens as a sound file with fewer objects.
    private static func recover(_ salvage: Salvage, to destination: String, encryptionKey: Data?) throws
        -> RecoveryReport
    {
        try StagedFile.create(destination, what: "recover") { temporary in
            let copy = try Realm(
                configuration: .init(
                    fileURL: URL(fileURLWithPath: temporary), schema: salvage.layout.schema,
                    schemaVersion: salvage.schemaVersion, encryptionKey: encryptionKey))
            let report = try salvage.copy(into: copy)
            try copy.shared.file.truncate(to: copy.snapshot.bytes.size)
            try copy.shared.file.sync()
            return report
        }
    }
}

/// One damaged file being read for `Realm.recover`: its newest readable version, and the
/// objects of each class that can still be read.
private struct Salvage {
    let path: String
    let version: UInt64
    let bytes: FileBytes
    let layout: SchemaLayout
    let schemaVersion: UInt64
    let top: TopNode
    let skipped: [RecoveryReport.UnreadableVersion]

    /// Finds the newest version whose top node and schema can be read.
    init(_ file: DatabaseFile) throws {
        path = file.path
        let size = try file.physicalSize()
        // The magic and the header size (foreign or empty files are refused as usual).
        if size < UInt64(FileHeader.size) { _ = try FileHeader.read(base: file.base, fileSize: size, path: path) }
        guard
            (0..<FileHeader.magic.count).allSatisfy({
                file.base.load(fromByteOffset: $0, as: UInt8.self) == FileHeader.magic[$0]
            }),
            let header = FileHeader.Layout.of(base: file.base)
        else {
            _ = try FileHeader.read(base: file.base, fileSize: size, path: path)
            throw RealmError.notARealmFile(path: path, reason: "unknown header")
        }
        var slots: [FileHeader.Slot] = []
        for offset in header.slotOffsets where UInt64(offset + FileHeader.slotSize) <= size {
            if let slot = FileHeader.Slot.decode(
                UnsafeRawBufferPointer(start: file.base + offset, count: FileHeader.slotSize)),
                slot.readFormat <= FileHeader.readFormat
            {
                slots.append(slot)
            }
        }
        var failure = "neither commit slot of the header is valid"
        var skipped: [RecoveryReport.UnreadableVersion] = []
        for slot in slots.sorted(by: { $0.version > $1.version }) {
            // A file cut short: read what is left, every ref past the cut is a lost part.
            let end = min(slot.logicalSize, size)
            let bytes = FileBytes(
                base: file.base, size: end, path: path, placeBound: slot.bindsNodesToPlace,
                verified: VerifiedNodes(size: end))
            do {
                let probe = try TopNode.decode(
                    try bytes.node(slot.topRef, kind: .top), path: path, ref: slot.topRef, layout: nil)
                let stored = try SchemaNode.decode(
                    try bytes.node(probe.schemaRef, kind: .schema), path: path, ref: probe.schemaRef)
                let layout = SchemaLayout(stored.schema)
                guard probe.tables.count == layout.tables.count else {
                    throw RealmError.corruptFile(
                        path: path, offset: slot.topRef,
                        reason: "\(probe.tables.count) tables stored for \(layout.tables.count) classes")
                }
                (version, self.bytes, self.layout, schemaVersion, top) = (
                    slot.version, bytes, layout, stored.schemaVersion, probe
                )
                self.skipped = skipped
                return
            } catch {
                failure = "version \(slot.version): \(error)"
                skipped.append(.init(version: slot.version, reason: "\(error)"))
            }
        }
        throw RealmError.corruptFile(
            path: path, offset: 0, reason: "no version whose schema can be read (\(failure)); nothing to recover")
    }

    /// The readable leaves of one class, in key order, and the parts that could not be read.
    func leaves(of classIndex: Int) -> (leaves: [ClusterView], lost: [RecoveryReport.Loss]) {
        var leaves: [ClusterView] = []
        var lost: [RecoveryReport.Loss] = []
        let name = layout.schema.objectSchemas[classIndex].name
        let columns = layout.tables[classIndex].columns
        func visit(_ ref: UInt64, count: Int?, first: Int64, end: Int64?, depth: Int) {
            func lose(_ error: Error) {
                let reason = (error as? RealmError).map { "\($0)" } ?? "\(error)"
                lost.append(.init(className: name, objects: count, firstKey: first, endKey: end, reason: reason))
            }
            do {
                if depth > 64 {
                    throw RealmError.corruptFile(path: path, offset: ref, reason: "tree too deep (a cycle?)")
                }
                let (kind, payload) = try bytes.anyNode(ref)
                switch kind {
                case NodeKind.inner.rawValue:
                    let view = try InnerNodeCodec.View(payload, path: path, ref: ref)
                    for i in 0..<view.count {
                        let next = i + 1 < view.count ? view.key(i + 1).lo : end
                        visit(
                            view.ref(i), count: view.subtreeCount(i), first: view.key(i).lo, end: next, depth: depth + 1
                        )
                    }
                case NodeKind.clusterLeaf.rawValue:
                    guard case .view(let v) = try ClusterAccess(.file(payload, ref: ref), columns: columns, path: path)
                    else { return }
                    leaves.append(v)
                default:
                    throw RealmError.corruptFile(
                        path: path, offset: ref, reason: "a node of kind \(kind) in a class's tree")
                }
            } catch {
                lose(error)
            }
        }
        if let root = top.tables[classIndex].root {
            visit(root.ref, count: root.count, first: root.firstKey.lo, end: nil, depth: 0)
        }
        return (leaves, lost)
    }

    /// Copies every readable object into `copy` (a new, empty file of the same schema), dropping
    /// links to objects that were lost.
    func copy(into copy: Realm) throws -> RecoveryReport {
        let classes = layout.schema.objectSchemas
        let walked = classes.indices.map { leaves(of: $0) }
        let alive: [Set<Int64>] = walked.map { w in
            var keys = Set<Int64>()
            for leaf in w.leaves { for r in 0..<leaf.count { keys.insert(leaf.key(at: r)) } }
            return keys
        }
        // The class each link column points into (persisted links, lists of links, and the
        // hidden backlink columns, whose links point at the origin objects).
        let targets: [[Int?]] = layout.tables.map { table in
            table.columns.map { p in
                p.type == .object ? p.objectClassName.flatMap { n in classes.firstIndex { $0.name == n } } : nil
            }
        }
        var dropped = 0
        func keep(_ v: Value, in target: Int) -> Value? {
            guard case .link(let k) = v else { return v }
            if alive[target].contains(k.rawValue) { return v }
            dropped += 1
            return nil
        }
        try copy.beginWrite()
        guard let t = copy.transaction else { throw RealmError.notInWriteTransaction }
        var recovered: [String: Int] = [:]
        for ci in classes.indices {
            var n = 0
            for leaf in walked[ci].leaves {
                for r in 0..<leaf.count {
                    var row = (0..<targets[ci].count).map { leaf.value(row: r, column: $0) }
                    for (column, target) in targets[ci].enumerated() {
                        guard let target else { continue }
                        switch row[column] {
                        case .list(let items): row[column] = .list(items.compactMap { keep($0, in: target) })
                        case .map(let entries): row[column] = .map(entries.mapValues { keep($0, in: target) ?? .null })
                        case let v: row[column] = keep(v, in: target) ?? .null
                        }
                    }
                    try t.copyRow(ci, key: ObjectKey(leaf.key(at: r)), row: row)
                    n += 1
                }
            }
            t.state.tables[ci].nextKey = max(t.state.tables[ci].nextKey, top.tables[ci].nextKey)
            recovered[classes[ci].name] = n
        }
        try copy.commitWrite()
        return RecoveryReport(
            version: version, recovered: recovered, lost: walked.flatMap(\.lost), droppedLinks: dropped,
            unreadableVersions: skipped)
    }
}
