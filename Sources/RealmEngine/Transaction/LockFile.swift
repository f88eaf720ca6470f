#if canImport(Glibc)
    import Glibc
#endif
import CShims

// MARK: - The lock file
//
// Every process that opens a Realm at `<path>` also opens `<path>.lock` and maps it MAP_SHARED.
// The database file says what was committed; the lock file says who is using it right now: the
// newest published version, which versions readers still look at, who may write, and a word to
// sleep on until something changes. Nothing in it must survive a reboot or the last close, so it
// is never synced, and it is rebuilt from nothing by the first opener.
//
// Layout (host byte order: the file is only ever shared between processes of one machine).
//
//     offset size  field
//          0    8  magic "RTUILOCK"
//          8    4  format version (2)
//         12    4  header size (64)
//         16    4  slot size (64)
//         20    4  slot count (Limits.readerSlots when created; read back from the header)
//         24    8  latestVersion: the newest durable version, written only by the writer; the
//                  next first opener reads it back (`PreviousSession`): a file holding only
//                  older versions went back, and says so (`RejectedCause.rolledBack`)
//         32    4  change counter: a futex word, bumped by every publish and wakeAll
//         36    4  rejectedCause: why rejectedVersion was fallen back from (`RejectedCause`)
//         40    8  file size = header size + slot count × slot size
//         48    8  durableSlot: the checksum of the newest header slot known durable (its
//                  barrier returned, or a writer synced it), 0 = unknown; see `Commit.swift`
//         56    8  rejectedVersion: a newest commit the first opener (or a writer) could not
//                  verify and fell back from, 0 = none; every opener reports it
//         64    …  reader slots, one per 64-byte cache line so that readers pinning on
//                  different cores do not bounce one line between them (LMDB pads the same way):
//                      +0  owner   u64  the pid of the process using the slot; 0 = free
//                      +8  version u64  the pinned version; UInt64.max = none (claimed, not yet pinned)
//                      +16 ahead   u64  the version the reader is moving to, pinned while it
//                                       opens it (`pinAhead`); UInt64.max = none
//
// The file's bytes are not its only state: the kernel's OFD byte-range locks on it carry the
// rest. They belong to the open file description, not to the process or the thread, so two
// `LockFile`s on one path in one process conflict like two processes do, and the kernel drops
// them when the last descriptor closes, including when the process is killed. Locked bytes need
// not exist in the file:
//
//     byte 0            init lock, exclusive, held only while an opener creates or checks the header
//     byte 1            open lock, shared by every opener for as long as it is open; exclusive
//                       means "I am alone" (first opener, or compaction via tryExclusiveOpen)
//     byte 2            writer lock, exclusive, held from lockWriter to unlockWriter
//     2^32 + pid        liveness lock, shared, held by every opener for its own pid
//
// Opening. Under the init lock, the opener asks for the open lock exclusively without waiting.
// If it gets it, no one else has the file open, so every byte is stale: it truncates the file,
// writes a fresh header with every slot free (with pwrite, before mapping: a store into a hole
// of the mapping on a full disk is a SIGBUS, see `writeFreshFile`), sets latestVersion to the database file's newest
// version (the `initialVersion` callback, still under the init lock, so no reader can pin a
// version that does not exist), and downgrades to a shared lock. Otherwise the header must be
// valid: a bad magic, size or version while others have it open is an error, never a rewrite
// under their mappings. Because every opener takes its shared lock before it releases the init lock, two racing processes
// cannot both believe they are first. After locking, the opener checks that the path still names
// the inode it locked, so a lock file deleted and recreated in between is not used.
//
// Readers. A reader pins a version so the writer does not reuse the pages that version reaches.
// It claims a free slot by compare-and-swap of its owner word from 0 to its pid, then runs
// LMDB's loop:
//
//     repeat { v = latestVersion; slot.version = v } while latestVersion != v
//
// Why this is enough. Pages that version v reaches but v+1 does not are freed by commit v+1 and
// may be reused by a later commit only if no slot holds v (nor any other version that reaches
// them: the writer reads every pinned version, `pinnedVersions`, and reuses an extent only when
// none of them lies between the commit that wrote it and the one that freed it — `FreeSpace`,
// invariant 2). All these operations are sequentially consistent. If the reader's second load
// of latestVersion returned v, then its store of slot.version = v came before the writer's
// publish of v+1 in the single total order. The only writers that may reuse those pages commit
// v+2 or later; each starts after it holds the writer lock, which the writer of v+1 released
// after publishing, so their scan of the slots comes after the store and sees v. If the second
// load returned anything else, the reader retries; the stale value it left in the slot for a
// moment is a pin nobody reads through, which only makes a writer more careful. A writer treats
// latestVersion (its base) as pinned too.
//
// Moving a pin forward. A reader whose slot holds v and that refreshes pins the newest version
// w in the slot's ahead word by the same loop (`pinAhead`), opens it (decodes and verifies its
// top node), and only then stores w in its version word and clears the ahead word (`advance`,
// `SharedFile.pinNewest`); a w that fails to open (a damaged top node, a page failing its HMAC)
// only clears the ahead word and leaves the reader on v, still pinned. The pin of v alone would
// not keep w's pages: the writer reuses space between pinned versions, and v does not reach the
// nodes written after it. The writer reads the ahead word before the version word, so between
// the two stores of `advance` it sees w in one of them. The reverse — store w, put v back
// after a failure — is not safe: a writer scanning the slots between the two stores sees only
// w and may reuse pages that v reaches. (Lock file format 1 had no ahead word and moved the
// slot with v's pin alone, safe only under "reuse after the oldest pin"; format 2 refuses to
// share a lock file with it.) A slot claimed for a version that then fails to open is
// released before the error is thrown, or each retry would keep one (its owner is alive).
//
// Death at any point.
//  - A writer that dies holding the writer lock: the kernel drops the OFD lock; the next writer
//    proceeds. What the database file looks like is the commit protocol's business; the lock
//    file may still show the previous latestVersion, which is what the file's header says too
//    unless the writer died between its durable slot write and its publish, in which case the
//    next writer advances to the file's newest version (step 1 of the commit protocol).
//  - A writer that dies after writing its header slot but before its fdatasync returned leaves
//    durableSlot naming an older slot: the next writer syncs (and first verifies) the newest
//    slot before it builds on it, so it never reuses space the last durable version needs
//    (`SharedFile.settleNewest`, the crash table in Commit.swift).
//  - A reader that dies with a pinned slot: the slot's owner is a pid with no liveness lock.
//    pinnedVersions (every commit) and pinLatest (when the table is full) reclaim such
//    slots: compare-and-swap the owner from the dead pid to their own (so only one reclaimer
//    wins), set both versions to none, free the owner. A reader dying between claiming and
//    pinning leaves version none, which no writer counts.
//  - An opener dying during initialization: its init lock is dropped, the next opener is alone
//    again and initializes from scratch.
//  - Liveness is the liveness lock, not kill(pid, 0) alone: kill would call a live process in
//    another pid namespace dead, and a recycled pid alive. With the lock, a slot looks alive
//    longer only if its dead owner's pid was reused by another process that has this same lock
//    file open (or by a fork child that inherited the descriptor). The cost is bounded: the slot
//    keeps its old version pinned, so the writer cannot reuse the pages that version reached and
//    the database file grows until that process closes, and the slot is one fewer for readers.
//    No data is ever lost or misread by it. kill(pid, 0) remains as the fallback if the lock
//    query itself fails.
//
// Change signal. The change counter is a futex word in the shared mapping (not
// FUTEX_PRIVATE_FLAG: the kernel keys it by inode and offset, so every process waits on the same
// word). Waiters sleep in FUTEX_WAIT while the counter equals the value they last saw; publish
// and wakeAll bump it and FUTEX_WAKE everyone. A bump that lands between a waiter's read and its
// FUTEX_WAIT makes the wait return at once (EAGAIN), so no wake-up is lost. Idle waiters use no
// CPU.
//
// Deleting the lock file while no process has the Realm open is harmless: it holds nothing that
// must outlive the last close, and the next opener creates it afresh. Deleting it while the
// Realm is open splits the users into two groups that no longer see each other's writer lock or
// pins; do not do that (the open-time inode check only protects openers racing a deletion).
//
// Threads. One open file description is shared by all threads of this process, and OFD locks
// do not exclude threads of one description from each other, so the writer lock first passes an
// in-process gate (a pthread mutex and condition) and only then takes the OFD lock.

/// `<realm path>.lock`: a small shared-memory file that all processes opening the Realm map. See
/// the essay above for its layout and protocol.
final class LockFile: @unchecked Sendable {
    enum Layout {
        static let magic: UInt64 = 0x4B43_4F4C_4955_5452  // "RTUILOCK" in little-endian bytes
        /// 2: a slot's third word pins the version its reader is moving to (`pinAhead`); a
        /// writer reuses space between pinned versions, which readers of format 1 (moving
        /// forward with only the older pin) would not be safe with.
        static let formatVersion: UInt32 = 2
        static let headerSize = 64
        static let slotSize = 64
        static let maxSlots = 1 << 16

        static let magicOffset = 0
        static let formatVersionOffset = 8
        static let headerSizeOffset = 12
        static let slotSizeOffset = 16
        static let slotCountOffset = 20
        static let latestVersionOffset = 24
        static let changeCounterOffset = 32
        static let fileSizeOffset = 40
        static let durableSlotOffset = 48
        static let rejectedVersionOffset = 56
        static let rejectedCauseOffset = 36

        static let initLockByte = 0
        static let openLockByte = 1
        static let writerLockByte = 2
        static let livenessLockBase = 1 << 32

        static func fileSize(slots: Int) -> Int { headerSize + slots * slotSize }
    }

    /// The path of the lock file of the Realm at `realmPath`.
    static func path(forRealmAt realmPath: String) -> String { realmPath + ".lock" }

    /// The lock file's path ("(in memory)" for an anonymous one).
    let path: String
    /// The number of reader slots (from the header).
    let slotCount: Int
    /// True if no other open file description had the file open when this one opened, so this
    /// open wrote a fresh header (with latestVersion from `initialVersion`). Always true for
    /// `init(inMemory:)`.
    let initializedByThisOpen: Bool

    /// The descriptor, or -1 for an anonymous lock file (which needs no OFD locks: one process).
    let fd: Int32
    let base: UnsafeMutableRawPointer
    let mappedSize: Int
    let readers: ReaderTable

    /// In-process half of the writer lock. `writerHeld` is guarded by `writerGate`.
    let writerGate = PosixCondition()
    var writerHeld = false
    /// The thread holding the writer lock in this process (guarded by `writerGate`).
    var writerThread: pthread_t?
    /// Slots pinned through this instance (released on deinit). Guarded by `slotGuard`.
    let slotGuard = PosixCondition()
    var ownedSlots: [Bool]

    var latestPointer: UnsafeMutablePointer<UInt64> {
        (base + Layout.latestVersionOffset).assumingMemoryBound(to: UInt64.self)
    }
    var counterPointer: UnsafeMutablePointer<UInt32> {
        (base + Layout.changeCounterOffset).assumingMemoryBound(to: UInt32.self)
    }

    /// Creates or opens the lock file at `path` (the lock file's own path; see
    /// `path(forRealmAt:)`), keeps a shared open lock and a liveness lock on it, and maps it.
    ///
    /// - Parameter initialVersion: called only if this open initializes the file (no other
    ///   process has it open), with the init lock held, so that no other opener can see the
    ///   fresh header before latestVersion is right: return the newest committed version of the
    ///   database file. Open the lock file before the database file, so that "no one has the
    ///   lock file open" implies "no one is writing the database". An error it throws is
    ///   rethrown and the open fails.
    /// - Throws: `.io` if a system call fails, `.notARealmFile` if the file is not a valid lock
    ///   file and other processes have it open, `.newerFormat` if it was made by a newer
    ///   realmtui, `.busy` if another process holds it exclusively (compaction).
    convenience init(path: String, initialVersion: () throws -> UInt64 = { 0 }) throws {
        try self.init(path: path, initialize: { _ in Initial(latestVersion: try initialVersion()) })
    }

    /// What the opener that initializes the lock file writes into it.
    struct Initial {
        /// The newest committed (and verified) version of the database file.
        var latestVersion: UInt64
        /// The checksum of the header slot known durable (0: unknown).
        var durableSlot: UInt64 = 0
        /// A newest commit that could not be verified and was fallen back from (0: none).
        var rejectedVersion: UInt64 = 0
        /// Why it was fallen back from.
        var rejectedCause: RejectedCause = .unverifiedCommit
    }

    /// Creates or opens the lock file like `init(path:initialVersion:)`; `initialize` is given
    /// the durable-slot word the previous lock file held (0 if none): a slot that was durable
    /// then is durable now, whatever happened to the processes since.
    init(path: String, initialize: (_ previousDurableSlot: UInt64) throws -> Initial) throws {
        self.path = path
        let fd = try Self.openAndLockInit(path: path)
        let mapping: (base: UnsafeMutableRawPointer, size: Int, slots: Int, fresh: Bool)
        do {
            mapping = try Self.prepare(fd: fd, path: path, initialize: initialize)
        } catch {
            close(fd)  // drops every OFD lock this description holds
            throw error
        }
        // Kept, the init byte would make every other opener, in any process, wait for this
        // instance to close: a release that fails (twice) fails the open instead.
        if SystemCalls.unlock(fd, byte: Layout.initLockByte, path: path) != 0 {
            let code = SystemCalls.unlock(fd, byte: Layout.initLockByte, path: path)
            if code != 0 {
                Self.unmapAndClose(fd, mapping: mapping.base, size: mapping.size, path: path)
                throw RealmError.posix(path: path, operation: "unlock the init byte (fcntl F_OFD_SETLK)", errno: code)
            }
        }
        self.fd = fd
        self.base = mapping.base
        self.mappedSize = mapping.size
        self.slotCount = mapping.slots
        self.initializedByThisOpen = mapping.fresh
        self.ownedSlots = Array(repeating: false, count: mapping.slots)
        self.readers = ReaderTable(
            slots: mapping.base + Layout.headerSize, count: mapping.slots,
            latest: (mapping.base + Layout.latestVersionOffset).assumingMemoryBound(to: UInt64.self),
            pid: getpid(), fd: fd, path: path)
        OpenFiles.opened()
    }

    /// An anonymous lock file for an in-memory Realm: the same semantics for every user of this
    /// instance within this process, and no file at all.
    init(inMemory: Void) {
        let slots = Limits.readerSlots
        let size = Layout.fileSize(slots: slots)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        Self.writeFreshHeader(memory, size: size, slots: slots)
        self.path = "(in memory)"
        self.fd = -1
        self.base = memory
        self.mappedSize = size
        self.slotCount = slots
        self.initializedByThisOpen = true
        self.ownedSlots = Array(repeating: false, count: slots)
        self.readers = ReaderTable(
            slots: memory + Layout.headerSize, count: slots,
            latest: (memory + Layout.latestVersionOffset).assumingMemoryBound(to: UInt64.self),
            pid: getpid(), fd: -1)
    }

    deinit {
        for slot in 0..<slotCount where ownedSlots[slot] { readers.release(slot) }
        if fd >= 0 {
            Self.unmapAndClose(fd, mapping: base, size: mappedSize, path: path)
            OpenFiles.closed()
        } else {
            base.deallocate()
        }
    }

    /// Unmaps and closes a lock file, releasing its locks explicitly first: closing drops them
    /// only when nothing else holds the open file description, and a mapping that a failed
    /// `munmap` left in place does.
    private static func unmapAndClose(_ fd: Int32, mapping: UnsafeMutableRawPointer, size: Int, path: String) {
        SystemCalls.unlockAll(fd, path: path)
        SystemCalls.munmap(mapping, size, path: path)
        Glibc.close(fd)
    }

    // MARK: Opening

    /// Opens (creating if needed) and takes the init lock, retrying if the path was replaced by
    /// another inode between open and lock.
    static func openAndLockInit(path: String) throws -> Int32 {
        for _ in 0..<16 {
            // O_NONBLOCK: a FIFO in the lock file's place must not hang the open (it is refused
            // below); for a regular file the flag changes nothing.
            let fd = SystemCalls.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0o644)
            guard fd >= 0 else { throw RealmError.posix(path: path, operation: "open lock file", errno: errno) }
            let locked = SystemCalls.lock(fd, byte: Layout.initLockByte, wait: true, path: path)
            guard locked == 0 else {
                close(fd)
                throw RealmError.posix(path: path, operation: "lock the init byte (fcntl F_OFD_SETLKW)", errno: locked)
            }
            var opened = stat()
            var named = stat()
            guard SystemCalls.fstat(fd, &opened, path: path) == 0 else {
                let code = errno
                close(fd)
                throw RealmError.posix(path: path, operation: "fstat lock file", errno: code)
            }
            if let kind = SpecialFile.kind(ofMode: opened.st_mode) {
                close(fd)
                throw RealmError.notARealmFile(path: path, reason: "the lock file is \(kind), not a regular file")
            }
            if SystemCalls.stat(path, &named) == 0, named.st_dev == opened.st_dev, named.st_ino == opened.st_ino {
                return fd
            }
            close(fd)  // deleted or replaced while we waited: open the new one
        }
        throw RealmError.busy(
            "\(path): the lock file keeps being replaced while opening; is another program deleting it?")
    }

    /// With the init lock held: initializes the file if no one else has it open, validates it
    /// otherwise, takes the shared open lock and the liveness lock, and maps it.
    private static func prepare(fd: Int32, path: String, initialize: (UInt64) throws -> Initial) throws -> (
        base: UnsafeMutableRawPointer, size: Int, slots: Int, fresh: Bool
    ) {
        let alone: Bool
        switch SystemCalls.lock(fd, byte: Layout.openLockByte, wait: false, path: path) {
        case 0: alone = true
        case EAGAIN, EACCES: alone = false
        case let code:
            throw RealmError.posix(path: path, operation: "test the open byte (fcntl F_OFD_SETLK)", errno: code)
        }

        let slots: Int
        let size: Int
        var previous = PreviousSession()
        if alone {
            slots = Limits.readerSlots
            size = Layout.fileSize(slots: slots)
            previous = previousSession(fd: fd, path: path)
            // Truncating to 0 first drops whatever garbage (or wrong size) was there.
            guard SystemCalls.ftruncate(fd, 0, path: path) == 0 else {
                throw RealmError.posix(path: path, operation: "ftruncate lock file", errno: errno)
            }
            try writeFreshFile(fd: fd, path: path, size: size, slots: slots)
        } else {
            (slots, size) = try validate(fd: fd, path: path)
        }

        // Downgrade (or take) the open lock to shared. Fails only if someone holds it exclusively.
        switch SystemCalls.lock(fd, byte: Layout.openLockByte, shared: true, wait: false, path: path) {
        case 0: break
        case EAGAIN, EACCES:
            throw RealmError.busy(
                "\(path): the Realm is open exclusively by another process (compaction?); try again when it finishes")
        case let code:
            throw RealmError.posix(path: path, operation: "lock the open byte (fcntl F_OFD_SETLK)", errno: code)
        }
        let liveness = SystemCalls.lock(
            fd, byte: Layout.livenessLockBase + Int(getpid()), shared: true, wait: false, path: path)
        guard liveness == 0 else {
            throw RealmError.posix(path: path, operation: "lock the liveness byte (fcntl F_OFD_SETLK)", errno: liveness)
        }

        guard let mapped = SystemCalls.mmap(size, protection: PROT_READ | PROT_WRITE, fd, path: path) else {
            throw RealmError.posix(path: path, operation: "mmap lock file", errno: errno)
        }
        if alone {
            do {
                let initial = previous.notingRollback(of: try initialize(previous.durableSlot))
                mapped.storeBytes(of: initial.durableSlot, toByteOffset: Layout.durableSlotOffset, as: UInt64.self)
                mapped.storeBytes(
                    of: initial.rejectedVersion, toByteOffset: Layout.rejectedVersionOffset, as: UInt64.self)
                mapped.storeBytes(
                    of: initial.rejectedCause.rawValue, toByteOffset: Layout.rejectedCauseOffset, as: UInt32.self)
                mapped.storeBytes(of: initial.latestVersion, toByteOffset: Layout.latestVersionOffset, as: UInt64.self)
            } catch {
                SystemCalls.unlockAll(fd, path: path)
                SystemCalls.munmap(mapped, size, path: path)
                throw error
            }
        }
        return (mapped, size, slots, alone)
    }

    /// The words of the lock file left by the last session (all 0 when it has no valid header;
    /// an older program's reserved words are 0 too).
    private static func previousSession(fd: Int32, path: String) -> PreviousSession {
        var header = [UInt8](repeating: 0, count: Layout.headerSize)
        let read = header.withUnsafeMutableBytes {
            SystemCalls.preadFully(fd, $0.baseAddress!, Layout.headerSize, 0, path: path)
        }
        guard read == Layout.headerSize else { return PreviousSession() }
        return header.withUnsafeBytes { raw in
            guard raw.loadUnaligned(fromByteOffset: Layout.magicOffset, as: UInt64.self) == Layout.magic,
                raw.loadUnaligned(fromByteOffset: Layout.formatVersionOffset, as: UInt32.self) == Layout.formatVersion
            else { return PreviousSession() }
            return PreviousSession(
                durableSlot: raw.loadUnaligned(fromByteOffset: Layout.durableSlotOffset, as: UInt64.self),
                latestVersion: raw.loadUnaligned(fromByteOffset: Layout.latestVersionOffset, as: UInt64.self),
                rejectedVersion: raw.loadUnaligned(fromByteOffset: Layout.rejectedVersionOffset, as: UInt64.self),
                rejectedCause: RejectedCause(
                    rawValue: raw.loadUnaligned(fromByteOffset: Layout.rejectedCauseOffset, as: UInt32.self)))
        }
    }

    /// Checks the header of a lock file that others have open. Returns its slot count and size.
    private static func validate(fd: Int32, path: String) throws -> (slots: Int, size: Int) {
        var info = stat()
        guard SystemCalls.fstat(fd, &info, path: path) == 0 else {
            throw RealmError.posix(path: path, operation: "fstat lock file", errno: errno)
        }
        let actualSize = Int(info.st_size)
        guard actualSize >= Layout.headerSize else {
            throw RealmError.notARealmFile(
                path: path,
                reason: "lock file is \(actualSize) bytes, shorter than its header, while other processes have it open")
        }
        var header = [UInt8](repeating: 0, count: Layout.headerSize)
        let read = header.withUnsafeMutableBytes {
            SystemCalls.preadFully(fd, $0.baseAddress!, Layout.headerSize, 0, path: path)
        }
        guard read == Layout.headerSize else {
            throw RealmError.posix(path: path, operation: "read lock file header", errno: read < 0 ? errno : EIO)
        }
        func field<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        }
        guard field(Layout.magicOffset, UInt64.self) == Layout.magic else {
            throw RealmError.notARealmFile(
                path: path,
                reason:
                    "bad magic in the lock file while other processes have it open; is another program using \(path)?")
        }
        let version = field(Layout.formatVersionOffset, UInt32.self)
        guard version <= Layout.formatVersion else {
            throw RealmError.newerFormat(
                path: path, found: UInt16(clamping: version), supported: UInt16(Layout.formatVersion))
        }
        guard version == Layout.formatVersion else {
            throw RealmError.notARealmFile(
                path: path,
                reason:
                    "the lock file is of format \(version), written by an older program that still has the Realm open; close it first (format \(Layout.formatVersion) pins versions differently)"
            )
        }
        let slots = Int(field(Layout.slotCountOffset, UInt32.self))
        let size = Layout.fileSize(slots: min(slots, Layout.maxSlots))
        guard
            Int(field(Layout.headerSizeOffset, UInt32.self)) == Layout.headerSize,
            Int(field(Layout.slotSizeOffset, UInt32.self)) == Layout.slotSize,
            (1...Layout.maxSlots).contains(slots),
            field(Layout.fileSizeOffset, UInt64.self) == UInt64(size),
            actualSize == size
        else {
            throw RealmError.notARealmFile(
                path: path,
                reason: "inconsistent lock file header (sizes or slot count) while other processes have it open")
        }
        return (slots, size)
    }

    /// Writes the whole fresh lock file (`writeFreshHeader`'s bytes) with `pwrite`, before it is
    /// mapped, into a file just truncated to 0.
    ///
    /// Why not `ftruncate` to the size and write through the mapping: that leaves a sparse file,
    /// and a store into a hole of a shared mapping needs a block the disk may not have — on a
    /// full disk the store faults (SIGBUS) and every command dies, the read-only ones too, since
    /// they make the lock file as well. Written here, a full disk is ENOSPC from `pwrite`, an
    /// `io` error; the file it leaves (short, or of the right size with holes if an earlier
    /// program made it) is rewritten the same way by the next opener that is alone with it.
    private static func writeFreshFile(fd: Int32, path: String, size: Int, slots: Int) throws {
        let image = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        defer { image.deallocate() }
        writeFreshHeader(image, size: size, slots: slots)
        var done = 0
        while done < size {
            let n = SystemCalls.pwrite(fd, image + done, size - done, off_t(done), path: path)
            guard n > 0 else {
                let code = n < 0 ? errno : ENOSPC
                throw RealmError.posix(path: path, operation: "write the lock file", errno: code)
            }
            done += n
        }
    }

    /// Writes a header with every slot free into zeroed or garbage memory of `size` bytes.
    private static func writeFreshHeader(_ memory: UnsafeMutableRawPointer, size: Int, slots: Int) {
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        memory.storeBytes(of: Layout.formatVersion, toByteOffset: Layout.formatVersionOffset, as: UInt32.self)
        memory.storeBytes(of: UInt32(Layout.headerSize), toByteOffset: Layout.headerSizeOffset, as: UInt32.self)
        memory.storeBytes(of: UInt32(Layout.slotSize), toByteOffset: Layout.slotSizeOffset, as: UInt32.self)
        memory.storeBytes(of: UInt32(slots), toByteOffset: Layout.slotCountOffset, as: UInt32.self)
        memory.storeBytes(of: UInt64(size), toByteOffset: Layout.fileSizeOffset, as: UInt64.self)
        for slot in 0..<slots {
            memory.storeBytes(
                of: ReaderTable.noVersion, toByteOffset: Layout.headerSize + slot * Layout.slotSize + 8, as: UInt64.self
            )
            memory.storeBytes(
                of: ReaderTable.noVersion, toByteOffset: Layout.headerSize + slot * Layout.slotSize + 16,
                as: UInt64.self)
        }
        memory.storeBytes(of: Layout.magic, toByteOffset: Layout.magicOffset, as: UInt64.self)
    }
}
