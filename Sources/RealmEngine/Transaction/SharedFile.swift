import Foundation

/// What all `Realm` instances of one file share inside a process: the open file and its mapping,
/// the lock file, and decoded schemas. Instances of one path (or one in-memory identifier) in a
/// process find the same `SharedFile` through a registry of weak references.
final class SharedFile: @unchecked Sendable {
    let path: String
    let file: DatabaseFile
    let lock: LockFile
    let isReadOnly: Bool
    private let cacheLock = NSLock()
    /// The free list of the last commit made in this process, by version and ref: the next write
    /// transaction starts from it instead of decoding the node again. With it, the versions the
    /// live nodes of that commit's chain were written in (`FreeSpace.births`): they hold only
    /// while every commit since was this process's, which the matching version and ref show.
    private var lastFreeList: (version: UInt64, ref: UInt64, extents: [FreeSpace.Chunk])?
    private var lastBirths: [UInt64: UInt64] = [:]

    func rememberFreeList(version: UInt64, ref: UInt64, extents: [FreeSpace.Chunk], births: [UInt64: UInt64]) {
        cacheLock.lock()
        lastFreeList = (version, ref, extents)
        lastBirths = births
        cacheLock.unlock()
    }

    /// The remembered free list of `version` if its root is at `ref`, with the births, which the
    /// transaction takes (a transaction that rolls back loses them: only less space is reused).
    func freeList(version: UInt64, ref: UInt64) -> (chunks: [FreeSpace.Chunk], births: [UInt64: UInt64])? {
        cacheLock.lock()
        defer { cacheLock.unlock() }
        guard let last = lastFreeList, last.version == version, last.ref == ref else { return nil }
        let births = lastBirths
        lastBirths = [:]
        return (last.extents, births)
    }
    private var layouts: [UInt64: (StoredSchema, SchemaLayout)] = [:]
    /// Set by `enterErrorState`: the error of a commit that could not be undone.
    private var _writeFailure: Error?
    var writeFailure: Error? {
        cacheLock.lock()
        defer { cacheLock.unlock() }
        return _writeFailure
    }
    func setWriteFailure(_ error: Error) {
        cacheLock.lock()
        _writeFailure = error
        cacheLock.unlock()
    }

    private init(path: String, file: DatabaseFile, lock: LockFile, isReadOnly: Bool) {
        self.path = path
        self.file = file
        self.lock = lock
        self.isReadOnly = isReadOnly
    }

    /// Tests only: called with the canonical path once the data file is open and before its lock
    /// file is, the window in which a compaction elsewhere can replace the file.
    nonisolated(unsafe) static var afterOpeningDataFileForTests: (@Sendable (String) -> Void)?

    private final class Weak {
        weak var value: SharedFile?
        init(_ v: SharedFile) { value = v }
    }
    nonisolated(unsafe) private static var registry: [String: Weak] = [:]
    private static let registryLock = NSLock()

    /// The shared state for a file path, opening it if no instance in the process has; an
    /// encrypted file needs its `encryptionKey` (64 bytes), also when it is open already.
    static func open(path: String, readOnly: Bool, create: Bool, encryptionKey: [UInt8]? = nil) throws -> SharedFile {
        let canonical = URL(fileURLWithPath: path).standardizedFileURL.path
        registryLock.lock()
        defer { registryLock.unlock() }
        let key = "file:" + canonical + (readOnly ? ":ro" : "")
        if let existing = registry[key]?.value {
            try existing.file.checkSameKey(encryptionKey)
            return existing
        }
        // A compaction elsewhere may replace the file between our open of it and of its lock file
        // (`Realm.compact` renames its copy over the path while it holds the open lock alone):
        // committing into, or watching, the replaced file would lose every write. Open again then.
        for _ in 0..<64 {
            do {
                let shared = try openOnce(
                    canonical: canonical, readOnly: readOnly, create: create, encryptionKey: encryptionKey)
                register(shared, as: key)
                return shared
            } catch is Replaced {
                continue
            }
        }
        throw RealmError.busy(
            "\(canonical): the file kept being replaced while opening (a compaction in a loop?); try again")
    }

    /// Thrown by `openOnce` when the file it opened is no longer at its path.
    private struct Replaced: Error {}

    /// One attempt of `open`: the data file, its lock file, the first opener's checks. Throws
    /// `Replaced` if the data file was replaced at its path in between.
    private static func openOnce(canonical: String, readOnly: Bool, create: Bool, encryptionKey: [UInt8]?) throws
        -> SharedFile
    {
        let file = try DatabaseFile(path: canonical, readOnly: readOnly, create: create, encryptionKey: encryptionKey)
        afterOpeningDataFileForTests?(canonical)
        var rejected: FileHeader.Slot?
        // Refuse a foreign, empty or newer file before anything is written beside it — except a
        // header another process may be writing right now: a file created at the same moment
        // by another opener shows part of its first header (part of its signature, no valid
        // slot, an encrypted header page mid-write) until that opener's write lock is free; such
        // a header is judged again then (below). Only where that opener's lock file is there:
        // a foreign file without one is refused before a lock file is written beside it.
        var unsettledHeader = false
        do {
            try checkHeader(file, path: canonical, create: create)
        } catch let error as RealmError
            where create && FileManager.default.fileExists(atPath: LockFile.path(forRealmAt: canonical))
        {
            switch error {
            case .corruptFile, .notARealmFile: unsettledHeader = true
            default: throw error
            }
        }
        let lock: LockFile
        do {
            // Runs under the lock file's init lock, only for the first opener: no one else has the
            // file open, so this is the moment to check the newest commit (see `Commit.swift`).
            lock = try LockFile(path: LockFile.path(forRealmAt: canonical)) { previousDurable in
                // Alone with the file: make sure it is the file at the path before trusting it.
                guard try file.isStillAtPath() else { throw Replaced() }
                let recovery = try SharedFile.recoverNewest(file, path: canonical, readOnly: readOnly)
                rejected = recovery.rejectedSlot
                return recovery.lockFileState(previousDurable: previousDurable)
            }
        } catch {
            // A read-only file in a read-only folder: no lock file is written beside it; this
            // process coordinates its own instances only.
            guard readOnly else { throw error }
            lock = LockFile(inMemory: ())
            let recovery = try SharedFile.recoverNewest(file, path: canonical, readOnly: true)
            rejected = recovery.rejectedSlot
            if let lost = recovery.lostVersion { lock.noteRejected(version: lost, cause: recovery.lostCause) }
            lock.publish(version: recovery.latestVersion)
        }
        try lock.holdSharedOpenLock()
        // Holding the shared open lock, no compaction can replace the file from now on; it may
        // have done so between the data file's open and the lock's, so check it is still there.
        guard try file.isStillAtPath() else { throw Replaced() }
        if unsettledHeader {
            try lock.lockWriter()
            defer { lock.unlockWriter() }
            _ = try file.physicalSize()
            try file.refresh()
            try checkHeader(file, path: canonical, create: create)
        }
        let shared = SharedFile(path: canonical, file: file, lock: lock, isReadOnly: readOnly)
        shared.rejected = rejected
        return shared
    }

    /// Refuses a foreign, truncated or newer file; a blank one (none written yet) passes when
    /// the opener may create it.
    private static func checkHeader(_ file: DatabaseFile, path: String, create: Bool) throws {
        try file.checkReadable(below: UInt64(FileHeader.Layout.paired.size))
        let size = try file.physicalSize()
        guard size > 0 || !create else { return }
        if create, try Realm.headerIsBlank(file) { return }
        do {
            try FileHeader.checkNotTruncated(base: file.base, fileSize: size, path: path)
        } catch {
            // A writer elsewhere may have grown the file and committed since `size`
            // was read: only a size read after the slots counts.
            try FileHeader.checkNotTruncated(base: file.base, fileSize: try file.physicalSize(), path: path)
        }
        _ = try FileHeader.read(base: file.base, fileSize: size, path: path)
    }

    /// The shared state of an in-memory Realm (kept alive only while an instance uses it).
    static func openInMemory(identifier: String) throws -> SharedFile {
        registryLock.lock()
        defer { registryLock.unlock() }
        let key = "memory:" + identifier
        if let existing = registry[key]?.value { return existing }
        let shared = SharedFile(
            path: "memory:" + identifier, file: try DatabaseFile(inMemory: identifier),
            lock: LockFile(inMemory: ()), isReadOnly: false)
        register(shared, as: key)
        return shared
    }

    /// Records `shared` under `key` (the registry's lock held), first dropping the entries of files
    /// no instance has open any more: the registry kept one for every path and in-memory
    /// identifier the process ever opened.
    private static func register(_ shared: SharedFile, as key: String) {
        registry = registry.filter { $0.value.value != nil }
        registry[key] = Weak(shared)
    }

    /// The registry's keys (`file:PATH`, `memory:IDENTIFIER`), for tests.
    static var registeredKeys: [String] {
        registryLock.lock()
        defer { registryLock.unlock() }
        return Array(registry.keys)
    }

    /// Whether another instance in this process has the path open.
    static func isOpenInProcess(path: String) -> Bool {
        let canonical = URL(fileURLWithPath: path).standardizedFileURL.path
        registryLock.lock()
        defer { registryLock.unlock() }
        return registry["file:" + canonical]?.value != nil || registry["file:" + canonical + ":ro"]?.value != nil
    }

    // MARK: Reading versions

    /// The layout of the file's header, as the last reading of the slots found it (page 0 never
    /// changes once written; compaction replaces the file only while no one else has it open).
    /// Throws before any slot was read, which no caller does: a writer reads the slots first.
    func layout() throws -> FileHeader.Layout {
        cacheLock.lock()
        defer { cacheLock.unlock() }
        guard let knownLayout else {
            throw RealmError.internalError("internal error: the header layout was used before it was read")
        }
        return knownLayout
    }
    private var knownLayout: FileHeader.Layout?

    /// The valid header slots, newest first.
    ///
    /// Uses the size this process last saw instead of an `fstat` (which would make every commit
    /// write the inode too; see `DatabaseFile.lastKnownSize`). That is safe because a committed
    /// slot never names more than the physical file: a commit grows the file before it writes its
    /// slot, and the file only shrinks back to a size it had when a transaction began (a
    /// cancelled one), to what both slots name (`TrailingSpace`: a size seen earlier may then be
    /// larger than the file, but the slots lie below the cut), or under compaction, which runs
    /// alone. A valid slot past the size seen
    /// means another process grew the file since: then the size is read again.
    func slots() throws -> [(index: Int, slot: FileHeader.Slot)] {
        try file.refresh()
        guard let seen = file.lastKnownSize, seen >= UInt64(FileHeader.size) else {
            return try slots(fileSize: try file.physicalSize())
        }
        let offsets = FileHeader.Layout.identify(base: file.base, fileSize: seen)?.slotOffsets ?? []
        let grown = offsets.contains { offset in
            guard UInt64(offset + FileHeader.slotSize) <= seen else { return true }
            let raw = UnsafeRawBufferPointer(start: file.base + offset, count: FileHeader.slotSize)
            return FileHeader.Slot.decode(raw).map { $0.logicalSize > seen } ?? false
        }
        return try slots(fileSize: grown ? try file.physicalSize() : seen)
    }

    /// The valid header slots, newest first, in a file of physical size `fileSize`.
    private func slots(fileSize: UInt64) throws -> [(index: Int, slot: FileHeader.Slot)] {
        let (layout, all): (FileHeader.Layout, [(index: Int, slot: FileHeader.Slot)])
        do {
            (layout, all) = try FileHeader.readHeader(base: file.base, fileSize: fileSize, path: path)
        } catch {
            // A header page that failed its integrity check explains the failure better.
            try file.checkReadable(below: UInt64(FileHeader.Layout.paired.size))
            throw error
        }
        try file.checkReadable(below: all.map(\.slot.logicalSize).max() ?? 0)
        cacheLock.lock()
        knownLayout = layout
        let rejected = self.rejected
        cacheLock.unlock()
        guard let rejected else { return all }
        let kept = all.filter { $0.slot != rejected }
        if kept.isEmpty {
            throw RealmError.corruptFile(path: path, offset: 64, reason: "no complete commit in the file")
        }
        return kept
    }

    /// A slot whose commit did not reach the disk whole (kept only where the file is read-only;
    /// a writable file has the slot erased).
    private var rejected: FileHeader.Slot?

    /// What the first opener found: the version to publish, and the newest commit it could not
    /// verify, if any.
    struct Recovery {
        /// The newest good version (0 for an empty file).
        var latestVersion: UInt64
        /// The slot of that version.
        var latestSlot: FileHeader.Slot?
        /// The version of a newest commit that did not verify and was fallen back from.
        var lostVersion: UInt64?
        /// Why: a commit that did not verify, or a damaged header slot.
        var lostCause: RejectedCause = .unverifiedCommit
        /// That commit's slot, kept to be ignored where the file is read-only (erased otherwise).
        var rejectedSlot: FileHeader.Slot?
        /// Whether the file was synced after erasing the lost commit (the latest is durable).
        var synced = false

        /// The lock file's first words: the durable slot is the previous session's word only while
        /// it still names the newest slot (or the newest slot, when this open synced it).
        func lockFileState(previousDurable: UInt64) -> LockFile.Initial {
            let checksum = latestSlot?.checksum ?? 0
            return LockFile.Initial(
                latestVersion: latestVersion,
                durableSlot: synced || (checksum != 0 && checksum == previousDurable) ? checksum : 0,
                rejectedVersion: lostVersion ?? 0, rejectedCause: lostCause)
        }
    }

    /// The first opener after everyone closed the file checks that the newest commit reached the
    /// disk whole (a machine crash may have cut it short; see `Commit.swift`) and, if it did not,
    /// falls back to the previous version: it erases that slot, or — read-only — returns it to be
    /// ignored (a writer erases it before building, `settleNewest`). Either way the lost version
    /// goes into the lock file, so that every opener of this session reports it.
    ///
    /// A damaged header slot (`FileHeader.damagedSlots`) is reported the same way, naming the
    /// version it would hold had it been the newest: the kept version + 1. Nothing is erased for
    /// it; the next commit writes that slot again, whole.
    static func recoverNewest(_ file: DatabaseFile, path: String, readOnly: Bool) throws -> Recovery {
        let size = try file.physicalSize()
        guard size >= UInt64(FileHeader.size),
            let (layout, slots) = try? FileHeader.readHeader(base: file.base, fileSize: size, path: path),
            let newest = slots.first
        else { return Recovery(latestVersion: 0) }
        if CommitRecord.verify(newest.slot, base: file.base, path: path) {
            var recovery = Recovery(latestVersion: newest.slot.version, latestSlot: newest.slot)
            if !FileHeader.damagedSlots(base: file.base, fileSize: size, layout: layout, valid: slots).isEmpty {
                recovery.lostVersion = newest.slot.version + 1
                recovery.lostCause = .damagedHeaderSlot
            } else if file.crypt?.slotPageFellBack == true {
                // An encrypted file's slot page read from its older copy: the newer copy may have
                // held the newest commit's slot — torn by a power loss, or damaged. Said, never
                // silent; a rollback if the lock file knew that version (`PreviousSession`).
                recovery.lostVersion = newest.slot.version + 1
                recovery.lostCause = .unreadableSlotPage
            }
            return recovery
        }
        let previous = slots.dropFirst().first?.slot
        var recovery = Recovery(
            latestVersion: previous?.version ?? 0, latestSlot: previous, lostVersion: newest.slot.version)
        if readOnly {
            recovery.rejectedSlot = newest.slot
            return recovery
        }
        try SetAside.keep(file, path: path, version: newest.slot.version)
        let zeros = [UInt8](repeating: 0, count: FileHeader.slotSize)
        try zeros.withUnsafeBytes { try file.write($0, at: UInt64(layout.slotOffsets[newest.index])) }
        try file.sync()
        recovery.synced = true
        return recovery
    }

    /// The schema stored at `ref`, decoded once per process.
    func layout(schemaRef: UInt64, bytes: FileBytes) throws -> (StoredSchema, SchemaLayout) {
        cacheLock.lock()
        if let cached = layouts[schemaRef] {
            cacheLock.unlock()
            return cached
        }
        cacheLock.unlock()
        let stored = try SchemaNode.decode(try bytes.node(schemaRef, kind: .schema), path: path, ref: schemaRef)
        let entry = (stored, SchemaLayout(stored.schema))
        cacheLock.lock()
        layouts[schemaRef] = entry
        cacheLock.unlock()
        return entry
    }

    /// The record of verified nodes of a version, shared by every snapshot of it in this process
    /// (each instance's and the notifier's), so a node is hashed once per version, not once per
    /// reader: a version's nodes never change while anyone reads it. The last few are kept
    /// (strongly: a weak reference would move every retain of the record, one per `FileBytes`
    /// copy, to the runtime's slow path); keyed by top ref too, since a compacted file
    /// continues the version numbers.
    ///
    /// A version whose commit carries a commit record (a small commit), made right after a
    /// version still held here, shares that version's record once it has forgotten the nodes
    /// the commit wrote (`VerifiedNodes.forget`; copied into a larger one when the file outgrew
    /// it): after a small commit, readers hash only what it changed. Any other version (a large
    /// commit, versions skipped) starts empty. Records get twice the file's size in bits, so a
    /// growing file is copied rarely.
    private func verifiedNodes(for slot: FileHeader.Slot) -> VerifiedNodes {
        cacheLock.lock()
        defer { cacheLock.unlock() }
        if let hit = recentVerified.first(where: { $0.version == slot.version && $0.topRef == slot.topRef })?.nodes {
            return hit
        }
        let nodes: VerifiedNodes
        if let previous = recentVerified.last(where: { $0.version + 1 == slot.version })?.nodes,
            let rewritten = CommitRecord.writtenRefs(of: slot, base: file.base, path: path)
        {
            previous.forget(rewritten)
            nodes =
                slot.logicalSize <= previous.capacity
                ? previous : VerifiedNodes(size: 2 * slot.logicalSize, inheriting: previous)
        } else {
            nodes = VerifiedNodes(size: 2 * slot.logicalSize)
        }
        recentVerified.append((slot.version, slot.topRef, nodes))
        if recentVerified.count > 4 { recentVerified.removeFirst() }
        return nodes
    }
    private var recentVerified: [(version: UInt64, topRef: UInt64, nodes: VerifiedNodes)] = []

    /// Opens the snapshot described by a header slot.
    func snapshot(_ slot: FileHeader.Slot) throws -> Snapshot {
        try file.checkMapped(size: slot.logicalSize)
        let bytes = FileBytes(
            base: file.base, size: slot.logicalSize, path: path, placeBound: slot.bindsNodesToPlace,
            verified: verifiedNodes(for: slot))
        let probe = try TopNode.decode(
            try bytes.node(slot.topRef, kind: .top), path: path, ref: slot.topRef, layout: nil)
        let (stored, layout) = try self.layout(schemaRef: probe.schemaRef, bytes: bytes)
        return try Snapshot(
            version: slot.version, bytes: bytes, layout: layout, top: probe, topRef: slot.topRef,
            schemaVersion: stored.schemaVersion)
    }

    /// The snapshot of `version`, or nil if its header slot has already been reused (a newer
    /// version exists; pin again).
    func snapshot(version: UInt64) throws -> Snapshot? {
        guard let slot = try slots().first(where: { $0.slot.version == version })?.slot else { return nil }
        return try snapshot(slot)
    }

    /// Pins the newest version in reader slot `slot` (or a new slot) and opens its snapshot.
    ///
    /// A newest version that cannot be opened (its top node fails its checksum: a damaged
    /// sector, a page that fails its HMAC) throws, and leaves the reader table as it was:
    ///
    /// - A new slot is released again. Otherwise every attempt would leak one, owned by a live
    ///   pid so that nothing reclaims it, until every other opener gets `busy`.
    /// - An existing slot is moved only once the newest version opened: until then it keeps the
    ///   version it pins, and pins the newest beside it in its ahead word (`LockFile.pinAhead`,
    ///   LMDB's loop), so the newest is read as safely as by a new reader. The caller keeps
    ///   reading the snapshot it had, still pinned. Moving the slot first and putting it back
    ///   after a failure would not do: a writer scanning the slots in between sees only the
    ///   newer version and may reuse the older one's pages. Nor would the older pin alone do: a
    ///   writer reuses what no pinned version reaches, and the older version does not reach the
    ///   nodes written after it (`FreeSpace`, invariant 2).
    func pinNewest(slot existing: Int?) throws -> (slot: Int, snapshot: Snapshot) {
        for _ in 0..<1000 {
            if let existing {
                let version = lock.pinAhead(slot: existing)
                let snap: Snapshot?
                do {
                    snap = try snapshot(version: version)
                } catch {
                    lock.dropAhead(slot: existing)
                    throw error
                }
                if let snap {
                    lock.advance(slot: existing, to: version)
                    return (existing, snap)
                }
                lock.dropAhead(slot: existing)
            } else {
                let (slot, version) = try lock.pinLatest()
                let snap: Snapshot?
                do {
                    snap = try snapshot(version: version)
                } catch {
                    lock.unpin(slot: slot)
                    throw error
                }
                if let snap { return (slot, snap) }
                lock.unpin(slot: slot)
            }
            // The lock file may lag the data file (deleted lock file, or a writer that died after
            // writing its slot but before publishing): publish what the file says.
            if let newest = try slots().first?.slot, newest.version > lock.latestVersion {
                lock.publish(version: newest.version)
            }
        }
        throw RealmError.busy("\(path): could not pin a consistent version (the file changes too fast)")
    }
}
