import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A Realm: one database file (or in-memory database) as seen from one thread.
///
/// An instance is confined to the thread that opened it (or a serial queue, or an actor:
/// Realm+Notifications.swift, Realm+Actor.swift) and reads one snapshot of the file until
/// `refresh()` (or a write transaction, which starts from the newest version). A frozen
/// instance (`freeze()`, Realm+Freeze.swift) reads one version forever, from any thread. Open one instance
/// per thread; instances of the same file in a process share the mapping and the lock file.
///
/// ```
/// thread A (reader)     ── pin v5 ───────── reads v5 ─────── refresh → pin v7 ──
/// thread B (writer)     ── beginWrite (v5) ── commit v6 ── beginWrite (v6) ── commit v7
/// process C (reader)    ──────── pin v6 ──── reads v6 (never sees half of v7) ──────
/// ```
public final class Realm {
    /// The configuration this Realm was opened with.
    public let configuration: Configuration
    let shared: SharedFile
    private var readerSlot: Int?
    private var pinnedSnapshot: Snapshot
    /// The pinned snapshot; after `invalidate()` the next read pins the newest version, and
    /// throws if that version cannot be opened (a damaged top node): the snapshot held before
    /// `invalidate()` is pinned by nothing, so a writer may have reused its pages.
    var snapshot: Snapshot {
        get throws {
            if readerSlot == nil {
                if let foreign { throw foreign.nativeOnly() }
                let (s, snap) = try shared.pinNewest(slot: nil)
                readerSlot = s
                pinnedSnapshot = snap
            }
            return pinnedSnapshot
        }
    }
    /// What the instance can say without reading the file — its schema, its version — for the
    /// members that cannot throw: the snapshot, or when `invalidate()` was followed by a failed
    /// pin, the last one (its schema and version were decoded into memory when it was opened;
    /// none of its pages is read). Reads of objects go through `readView`, which throws then.
    var described: Snapshot { transaction?.state ?? (try? snapshot) ?? pinnedSnapshot }
    var transaction: WriteTransaction?
    /// Whether commits queue their changes in the sync outbox (when the file has one): the sync
    /// agent clears it while it applies downloaded changes, which must not travel back.
    package var queuesToOutbox = true
    private let thread: pthread_t
    /// Bumped by every write, so results know to re-run inside a write transaction.
    private(set) var mutationCount = 0
    private var closed = false
    /// Set for an instance reading a version of another storage (`init(reading:path:)`): every
    /// read goes to it. Such an instance is frozen; `shared` is then an empty in-memory file
    /// that nothing reads (`snapshot` throws), kept so the native members have a file to name.
    let foreign: ForeignVersion?
    /// Called after each refresh that moved to a new version (the notifier uses this).
    var didAdvance: [(UInt64, UInt64) -> Void] = []
    /// Change notifications registered through this instance (Notifications/NotificationHub).
    var notificationHub: NotificationHub?
    /// Set by `init(configuration:queue:)`: the instance is confined to a serial queue, not a thread.
    var confinementKey: DispatchSpecificKey<UInt8>?
    /// The queue of an instance confined to one (`init(configuration:queue:)`): its own
    /// observers are delivered there.
    var confinementQueue: DispatchQueue?
    /// Set by `init(configuration:confinedTo:)`: the instance is confined to an actor (Realm+Actor.swift).
    var confinementActor: (any Actor)?
    /// Set for a frozen instance (`freeze()`, Realm+Freeze.swift): it reads one version forever,
    /// from any thread, and this lock serializes the reads that fill caches.
    let frozenLock: NSRecursiveLock?
    /// The registration that keeps the instance refreshing on its RunLoop (Realm+Autorefresh.swift).
    var autorefreshToken: NotificationToken?

    /// Opens the Realm described by `configuration`.
    public init(configuration: Configuration = .defaultConfiguration) throws {
        if let key = configuration.encryptionKey, key.count != PageCipher.keySize {
            throw RealmError.encryption(
                path: configuration.inMemoryIdentifier.map { "memory:" + $0 } ?? configuration.path,
                reason: "an encryption key must be \(PageCipher.keySize) bytes, got \(key.count)")
        }
        var configuration = configuration
        if var schema = configuration.schema {
            if let types = configuration.objectTypes {
                schema = Schema(schema.objectSchemas.filter { types.contains($0.name) })
                configuration.schema = schema
            }
            try schema.validate()
        }
        if configuration.inMemoryIdentifier == nil && !configuration.readOnly {
            try Realm.prepareFile(configuration)
        }
        self.configuration = configuration
        let shared: SharedFile
        if let id = configuration.inMemoryIdentifier {
            shared = try SharedFile.openInMemory(identifier: id)
        } else {
            let path = configuration.path
            if configuration.createIfMissing && !configuration.readOnly {
                try? FileManager.default.createDirectory(
                    at: URL(fileURLWithPath: path).deletingLastPathComponent(),
                    withIntermediateDirectories: true)
            }
            shared = try SharedFile.open(
                path: path, readOnly: configuration.readOnly,
                create: configuration.createIfMissing && !configuration.readOnly,
                encryptionKey: configuration.encryptionKey.map { [UInt8]($0) })
        }
        self.shared = shared
        thread = pthread_self()
        frozenLock = nil
        foreign = nil
        if try Realm.needsInitialization(shared) {
            guard configuration.createIfMissing, !shared.isReadOnly else {
                throw RealmError.notARealmFile(path: shared.path, reason: "the file is empty")
            }
            guard let schema = configuration.schema else {
                throw RealmError.invalidSchema("\(shared.path) is empty and no schema was given to create it")
            }
            try Realm.initialize(shared, schema: schema, schemaVersion: configuration.schemaVersion)
        }
        let (slot, snap) = try shared.pinNewest(slot: nil)
        readerSlot = slot
        pinnedSnapshot = snap
        if let wanted = configuration.schema {
            try checkSchema(wanted)
        }
    }

    /// What happens to a file before it is opened: deleting it when its schema differs and
    /// `deleteRealmIfMigrationNeeded` is set, compacting it when `shouldCompactOnLaunch` says so.
    /// Both only while no other instance in this process has it open.
    private static func prepareFile(_ configuration: Configuration) throws {
        let path = configuration.path
        guard FileManager.default.fileExists(atPath: path), !SharedFile.isOpenInProcess(path: path) else { return }
        if configuration.deleteRealmIfMigrationNeeded, let wanted = configuration.schema {
            let stored = try? Realm(
                configuration: .init(
                    fileURL: URL(fileURLWithPath: path), readOnly: true,
                    encryptionKey: configuration.encryptionKey, createIfMissing: false))
            // A migration would be needed: another version (either way), or changes beyond
            // those Realm applies without one (added classes, indexes).
            if let stored,
                stored.schemaVersion != configuration.schemaVersion
                    || !onlyNonMigrationChanges(stored: stored.schema, wanted: wanted)
            {
                _ = consume stored
                try deleteFiles(for: path)
                return
            }
        }
        if let shouldCompact = configuration.shouldCompactOnLaunch {
            let report = try? Realm.check(path: path, encryptionKey: configuration.encryptionKey)
            if let report, shouldCompact(report.fileBytes, report.liveBytes) {
                // Refuses (and the open goes on uncompacted) while another process has the file.
                _ = try? compact(path: path, encryptionKey: configuration.encryptionKey)
            }
        }
    }

    /// A frozen instance reading `source`'s version (pinned by a reader slot of its own, so it
    /// stays readable after `source` moves on or closes). See `freeze()`.
    init(freezing source: Realm) throws {
        configuration = source.configuration
        shared = source.shared
        let snapshot = try source.snapshot
        readerSlot = try source.shared.lock.pinHeld(version: snapshot.version)
        pinnedSnapshot = snapshot
        thread = pthread_self()
        frozenLock = NSRecursiveLock()
        foreign = source.foreign
    }

    /// A read-only instance over `version`, a version of any storage that implements
    /// `ReadableVersion` (another file format, or a test's in-memory version): results, objects,
    /// queries, sorts, aggregates and export read it through the protocol. It is frozen (it
    /// reads that one version forever, from any thread); writing, observing and the members
    /// that concern the native file (`writeCopy`, commit summaries) throw. `path` names it.
    package init(reading version: any ReadableVersion, path: String) throws {
        let identifier = "readable-\(UUID().uuidString)"
        let shared = try SharedFile.openInMemory(identifier: identifier)
        try Realm.initialize(shared, schema: Schema([]), schemaVersion: 0)
        let (slot, placeholder) = try shared.pinNewest(slot: nil)
        // Nothing reads the placeholder: no reader slot is kept, so `snapshot` stays unpinned.
        shared.lock.unpin(slot: slot)
        configuration = .init(inMemoryIdentifier: identifier, readOnly: true)
        self.shared = shared
        readerSlot = nil
        pinnedSnapshot = placeholder
        thread = pthread_self()
        frozenLock = NSRecursiveLock()
        foreign = ForeignVersion(version: version, path: path)
    }

    /// Opens (creating if needed) the file at `path`.
    public convenience init(path: String, schema: Schema? = nil, readOnly: Bool = false) throws {
        try self.init(configuration: .file(path, schema: schema, readOnly: readOnly))
    }

    deinit {
        if let t = transaction, !t.ended {
            t.abandon()
            shared.lock.unlockWriter()
        }
        if let slot = readerSlot { shared.lock.unpin(slot: slot) }
    }

    // MARK: State

    /// The schema of the version this instance reads.
    public var schema: Schema {
        let all = foreign?.version.schema ?? described.schema
        // The engine's internal classes (the sync outbox and state) are nobody's data.
        guard all.objectSchemas.contains(where: { SyncClasses.isInternal($0.name) }) else { return all }
        return Schema(all.objectSchemas.filter { !SyncClasses.isInternal($0.name) })
    }
    /// The version this instance reads (inside a write transaction: the one being written).
    /// After `invalidate()`, when the newest version cannot be pinned, the version it read last
    /// (every read of objects throws then).
    public var version: UInt64 { foreign?.version.version ?? described.version }
    /// The schema version stored in the file.
    public var schemaVersion: UInt64 { foreign?.version.schemaVersion ?? described.schemaVersion }
    /// Whether a write transaction is open on this instance.
    public var isInWriteTransaction: Bool { transaction != nil }
    /// The file path ("memory:ID" for in-memory Realms).
    public var path: String { foreign?.path ?? shared.path }

    /// What reads see: the open write transaction's state, or the pinned snapshot.
    var readView: Snapshot {
        get throws {
            if let state = transaction?.state { return state }
            return try snapshot
        }
    }

    /// What the readers above the engine (results, objects, iteration, export) read: `readView`
    /// through the readable-version protocol, so they read any storage that implements it.
    var readable: any ReadableVersion {
        get throws {
            if let foreign { return foreign.version }
            return try readView
        }
    }

    /// `described` through the readable-version protocol: the schema and version to describe
    /// without reading the file.
    var describedVersion: any ReadableVersion { foreign?.version ?? described }

    func checkThread() throws {
        if closed { throw RealmError.closed }
        if frozenLock != nil { return }
        if let confinementActor {
            confinementActor.preconditionIsolated(
                "Realm accessed from outside its actor: an instance opened with an actor is confined to code isolated to it"
            )
            return
        }
        if let confinementKey {
            if DispatchQueue.getSpecific(key: confinementKey) == nil { throw RealmError.wrongThread }
            return
        }
        if pthread_equal(thread, pthread_self()) == 0 { throw RealmError.wrongThread }
    }

    func noteMutation() { mutationCount &+= 1 }

    /// Whether reads go to `state` right now: the open write transaction's state, or the pinned
    /// snapshot (false after `invalidate()` until the next read pins one). Compares the stored
    /// references, so the per-object check of a read costs no reference counting.
    @inline(__always)
    func reads(_ state: ObjectIdentifier) -> Bool {
        if let transaction { return ObjectIdentifier(transaction.state) == state }
        return readerSlot != nil && ObjectIdentifier(pinnedSnapshot) == state
    }

    func classIndex(_ name: String) throws -> Int {
        if let foreign {
            guard let i = foreign.version.layout.classIndex(name) else { throw RealmError.noSuchClass(name) }
            return i
        }
        guard let i = try snapshot.layout.classIndex(name) else { throw RealmError.noSuchClass(name) }
        return i
    }

    // MARK: Transactions

    /// Starts a write transaction: waits for the write lock (held by at most one thread in one
    /// process at a time), then moves this instance to the newest version.
    public func beginWrite() throws {
        try checkThread()
        if transaction != nil { throw RealmError.alreadyInWriteTransaction }
        if let foreign { throw RealmError.readOnly(path: foreign.path) }
        if frozenLock != nil {
            throw RealmError.invalidState(
                "\(shared.path): a frozen Realm cannot be written; write through a live instance (thaw())")
        }
        if shared.isReadOnly { throw RealmError.readOnly(path: shared.path) }
        try shared.refuseWritesInErrorState()
        try shared.lock.lockWriter()
        try startTransactionHoldingLock()
    }

    /// The rest of `beginWrite` once the write lock is held (also `tryBeginWrite`'s): moves to
    /// the newest version and opens the transaction; releases the lock if that fails.
    func startTransactionHoldingLock() throws {
        do {
            try shared.settleNewest()
            guard let (newestIndex, newest) = try shared.slots().first else {
                throw RealmError.corruptFile(path: shared.path, offset: 64, reason: "no valid header slot")
            }
            // Checked on the version this transaction would build on (one header read a write).
            if newest.writeFormat > FileHeader.writeFormat {
                throw RealmError.unsupportedFormat(
                    "\(shared.path) was written by a newer format (write version \(newest.writeFormat)); this program opens it read-only"
                )
            }
            if try newest.version != snapshot.version { try advance() }
            let current = try snapshot
            let base = current.version == newest.version ? current : try shared.snapshot(newest)
            transaction = try WriteTransaction(shared: shared, base: base, baseSlot: newest, slotIndex: newestIndex)
            noteMutation()
        } catch {
            shared.lock.unlockWriter()
            throw error
        }
    }

    /// Commits the open write transaction durably and publishes it to every reader.
    public func commitWrite() throws {
        try checkThread()
        guard let t = transaction else { throw RealmError.notInWriteTransaction }
        defer {
            transaction = nil
            shared.lock.unlockWriter()
            noteMutation()
        }
        let slot: FileHeader.Slot
        do {
            try queueToOutbox(t)
            slot = try t.commit()
        } catch {
            t.abandon()
            throw error
        }
        shared.rememberFreeList(
            version: slot.version, ref: slot.freeRef, extents: t.writer.free.extents, births: t.writer.free.births)
        shared.lock.publish(version: slot.version)
        let old = pinnedSnapshot.version
        if let readerSlot {
            _ = shared.lock.repin(slot: readerSlot)
        } else {
            readerSlot = try? shared.lock.pinLatest().slot
        }
        pinnedSnapshot = try shared.snapshot(slot)
        for f in didAdvance { f(old, slot.version) }
    }

    /// Discards the open write transaction.
    public func cancelWrite() {
        guard let t = transaction else { return }
        t.abandon()
        transaction = nil
        shared.lock.unlockWriter()
        noteMutation()
        // A delivery that came during the transaction waited for it (`NotificationHub.deliver`):
        // ask for it again, as `commitWrite` does by advancing.
        notificationHub?.schedule()
    }

    /// Runs `block` in a write transaction and commits it; cancels if `block` throws.
    @discardableResult
    public func write<Result>(_ block: () throws -> Result) throws -> Result {
        try write(block, commit: { try $0.commitWrite() })
    }

    /// The one body of the `write` variants: begin, run `block` (cancel if it throws), `commit`.
    func write<Result>(_ block: () throws -> Result, commit: (Realm) throws -> Void) throws -> Result {
        try beginWrite()
        let result: Result
        do {
            result = try block()
        } catch {
            cancelWrite()
            throw error
        }
        try commit(self)
        return result
    }

    /// Moves to the newest committed version. Returns whether the version changed.
    ///
    /// Also false when the instance cannot move: frozen, inside a write transaction, used from
    /// the wrong thread, or the newest version cannot be opened (its top node is damaged). In
    /// the last case the instance goes on reading the version it read, still pinned, so reads
    /// stay consistent but do not see the newer commit: `checkedRefresh()` says why.
    @discardableResult
    public func refresh() -> Bool { (try? checkedRefresh()) ?? false }

    /// Moves to the newest committed version, as `refresh()` does, and throws what kept it from
    /// moving: a newest version that cannot be opened (`corruptFile`, naming where; the instance
    /// then stays on the version it read, still pinned), a closed instance, the wrong thread.
    /// Returns whether the version changed: false when there was nothing newer, and on a frozen
    /// instance or inside a write transaction, which never move.
    @discardableResult
    public func checkedRefresh() throws -> Bool {
        guard frozenLock == nil else { return false }
        try checkThread()
        guard transaction == nil else { return false }
        let old = try snapshot.version
        try advance()
        notificationHub?.deliverNow()
        return pinnedSnapshot.version != old
    }

    /// Moves to `target`, a version that another pin of this process holds (the notifier's), so
    /// that change sets computed for exactly that version can be delivered. No-op unless newer.
    func advance(toHeld target: Snapshot) {
        guard frozenLock == nil, transaction == nil, target.version > described.version else { return }
        let old = described.version
        if let readerSlot {
            shared.lock.repinHeld(slot: readerSlot, version: target.version)
        } else {
            guard let slot = try? shared.lock.pinHeld(version: target.version) else { return }
            readerSlot = slot
        }
        pinnedSnapshot = target
        noteMutation()
        for f in didAdvance { f(old, target.version) }
    }

    private func advance() throws {
        let old = try snapshot.version
        let (slot, snap) = try shared.pinNewest(slot: readerSlot)
        readerSlot = slot
        pinnedSnapshot = snap
        noteMutation()
        if snap.version != old { for f in didAdvance { f(old, snap.version) } }
    }

    /// Releases the pinned version (so its space can be reused); the next read pins the newest.
    public func invalidate() {
        guard frozenLock == nil, transaction == nil, let slot = readerSlot else { return }
        shared.lock.unpin(slot: slot)
        readerSlot = nil
        noteMutation()
    }

    // MARK: Files

    static func needsInitialization(_ shared: SharedFile) throws -> Bool {
        // An encrypted file's decrypted view may predate another process's initialization (its
        // header page was decrypted while still blank): bring it up to date first.
        _ = try shared.file.physicalSize()
        try shared.file.refresh()
        return try headerIsBlank(shared.file)
    }

    /// Whether the file is empty, or has a header of zeros (a creation that died before its
    /// first commit). Throws when the size cannot be read: answering "not blank" then made
    /// `initialize` skip a new file, which a later open initialized at version 1 — a compacted
    /// copy restarted its version numbers below those the lock file remembered.
    static func headerIsBlank(_ file: DatabaseFile) throws -> Bool {
        let size = try file.physicalSize()
        if size == 0 { return true }
        guard size >= UInt64(FileHeader.size) else { return false }
        // Not blank if slot 1's sector still names the file: sector 0 was lost, not never written.
        if FileHeader.Layout.identify(base: file.base, fileSize: size) != nil { return false }
        return UnsafeRawBufferPointer(start: file.base, count: 64).allSatisfy { $0 == 0 }
    }

    /// The format versions of the version this instance reads: the oldest program format that
    /// can read the file, and the oldest that may write it.
    public var fileFormat: (read: UInt16, write: UInt16) {
        let slot = try? shared.slots().first { $0.slot.version == described.version }?.slot
        return (
            slot?.readFormat ?? FileHeader.Layout.newFiles.newFileReadFormat,
            slot?.writeFormat ?? FileHeader.writeFormat
        )
    }

    /// Writes version 1 of a new file: the schema, empty tables and the header (of `header`'s
    /// layout and of `readFormat`, by default the newest for that layout; tests make files of
    /// the older layout and formats).
    static func initialize(
        _ shared: SharedFile, schema: Schema, schemaVersion: UInt64, version: UInt64 = 1,
        header: FileHeader.Layout = .newFiles, readFormat: UInt16? = nil
    ) throws {
        let readFormat = readFormat ?? header.newFileReadFormat
        try shared.lock.lockWriter()
        defer { shared.lock.unlockWriter() }
        guard try needsInitialization(shared) else { return }
        var free = FreeSpace(logicalSize: UInt64(header.size), reusableUpTo: .max)
        free.areas = header.areas
        for area in header.areas { free.free(offset: area.lowerBound, length: UInt64(area.count), freedIn: 0) }
        let writer = try TreeWriter(
            file: shared.file, free: free, newVersion: version,
            placeBound: readFormat >= FileHeader.placeBoundFormat)
        let schemaRef = try writer.write(
            kind: .schema, payload: SchemaNode.payload(schema, schemaVersion: schemaVersion))
        let layout = SchemaLayout(schema)
        let tables = layout.tables.map { t -> TableState in
            var s = TableState()
            for c in t.indexedColumns { s.indexes[c] = TreeChild?.none }
            return s
        }
        let topRef = try writer.write(
            kind: .top, payload: TopNode(schemaRef: schemaRef, changeLogRef: 0, tables: tables).payload())
        // The free list: the commit areas, empty.
        let list = try writer.free.persist { _ in nil }
        try writer.ensureSize(writer.free.logicalSize)
        for (ref, node) in list.nodes { try writer.writeNode(node, at: ref) }
        let slot = FileHeader.Slot(
            version: version, topRef: topRef, freeRef: list.rootRef, logicalSize: writer.free.logicalSize,
            readFormat: readFormat)
        try shared.file.sync()
        try FileHeader.initial(slot, layout: header).withUnsafeBytes { try shared.file.write($0, at: 0) }
        // Slot 1's sector names the file too, from the first version on (`FileHeader`). Synced
        // after page 0, never before: a power loss in between leaves a file whose slot 1 sector
        // is blank, which opens with a warning (`FileHeader.damagedSlots`) — not the reverse, an
        // identified file without a valid slot, which would not open at all.
        if header == .paired {
            try shared.file.sync()
            let second = header.slotSector(1, bytes: [UInt8](repeating: 0, count: FileHeader.slotSize))
            try second.bytes.withUnsafeBytes { try shared.file.write($0, at: second.offset) }
        }
        try shared.file.sync()
        shared.lock.noteDurable(slot)
        // The new file's name, durable too.
        if !shared.file.isInMemory { try PosixSync.syncDirectory(of: shared.path) }
        shared.lock.publish(version: version)
    }

    /// Accepts a requested schema whose classes all match the stored ones (in any order, or a
    /// subset); migrates to it when the configuration's schema version is higher or it only adds
    /// classes (Realm+Migration.swift); anything else is a `schemaMismatch` naming the first
    /// difference.
    private func checkSchema(_ wanted: Schema) throws {
        if try needsMigration(from: try snapshot, to: wanted) { try migrate(to: wanted) }
    }

    static func describeDifference(stored: Schema, wanted: Schema) -> String {
        for w in wanted.objectSchemas {
            guard let s = stored[w.name] else { return "class '\(w.name)' is not in the file" }
            if s != w {
                for p in w.properties where s[p.name] == nil {
                    return "property '\(w.name).\(p.name)' is not in the file"
                }
                for p in s.properties where w[p.name] == nil { return "property '\(w.name).\(p.name)' was removed" }
                for p in w.properties where s[p.name] != p {
                    return
                        "property '\(w.name).\(p.name)' changed from \(s[p.name]?.typeDescription ?? "?") to \(p.typeDescription)"
                }
                return "class '\(w.name)' changed its property order"
            }
        }
        for s in stored.objectSchemas where wanted[s.name] == nil { return "class '\(s.name)' was removed" }
        return "the class order differs"
    }
}

/// The version a Realm opened with `init(reading:path:)` reads, and the name it goes by.
struct ForeignVersion {
    let version: any ReadableVersion
    let path: String

    /// The error of a member that needs the native file (writing, pinning, the change log).
    func nativeOnly() -> RealmError {
        .invalidOperation("\(path) is read through another storage's reader: only reads are available")
    }
}
