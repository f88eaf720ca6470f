import CShims
import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One open database file: a descriptor for writes (`pwrite`) and a read-only shared mapping for
/// reads.
///
/// The mapping reserves a large range of address space once (`reservedBytes`), so the file can
/// grow without remapping: every process maps the whole reservation, and pages past the end of
/// the file are never touched because every read is bounds-checked against the logical size of
/// the snapshot being read (which is never larger than the physical file). Writes go through
/// `pwrite`, which on Linux lands in the same page cache the mapping shows.
final class DatabaseFile: @unchecked Sendable {
    let path: String
    let fd: Int32
    let isReadOnly: Bool
    /// True for `inMemoryIdentifier` Realms: an anonymous memfd, never synced.
    let isInMemory: Bool
    /// Start of the mapping; valid for `reservedBytes`. For an encrypted file, the private
    /// mapping of decrypted pages that `crypt` keeps.
    let base: UnsafeRawPointer
    let reservedBytes: Int
    /// The encryption layer of an encrypted file (nil for a plain one): `write`, `grow`,
    /// `truncate` and `physicalSize` speak of logical (decrypted) bytes and go through it; it
    /// reaches the disk through `writeFile` and `truncateFile`.
    let crypt: EncryptedFile?
    /// Set by tests: fail the Nth grow/write/sync call from now (counting from 1) with ENOSPC,
    /// to check that a failed commit loses nothing (SQLite's test VFS idea).
    var failAfter: Int? {
        get {
            failureLock.lock()
            defer { failureLock.unlock() }
            return _failAfter
        }
        set {
            failureLock.lock()
            _failAfter = newValue
            failureLock.unlock()
        }
    }
    private var _failAfter: Int?
    private let failureLock = NSLock()
    /// Set by tests with `failAfter`: once the Nth call failed, every later grow/write/sync fails
    /// too (a device that went away), instead of only that one.
    var failsFromThenOn: Bool {
        get {
            failureLock.lock()
            defer { failureLock.unlock() }
            return _failsFromThenOn
        }
        set {
            failureLock.lock()
            _failsFromThenOn = newValue
            failureLock.unlock()
        }
    }
    private var _failsFromThenOn = false

    /// Set by tests (the power-loss harness, `WriteRecorder`): told of every write, size change
    /// and barrier, in order, so that it can build the images a power loss could leave.
    var recorder: WriteRecorder?

    /// The physical size this process last saw (`physicalSize`, `grow`, `truncate`), for readers
    /// of the header that must not call `fstat` on every transaction: on Linux a `stat` marks the
    /// file's ctime as queried, so the next write stamps a fine-grained mtime and dirties the
    /// inode, and every `fdatasync` then writes the inode block too — one more device write per
    /// commit. See `SharedFile.slots()` for why a size seen earlier is safe to use there.
    var lastKnownSize: UInt64? {
        sizeLock.lock()
        defer { sizeLock.unlock() }
        return _lastKnownSize
    }
    private var _lastKnownSize: UInt64?
    private let sizeLock = NSLock()

    private func noteSize(_ size: UInt64) {
        sizeLock.lock()
        _lastKnownSize = size
        sizeLock.unlock()
    }

    /// The physical size when this process's last writer saw it (its own `grow`/`truncate`, or
    /// an `fstat` it made under the write lock): a lower bound of the size for as long as no
    /// other process commits (`writerKnownSize(startingAt:)`). A transaction leaves the file at
    /// least as large as it found it (a cancelled one truncates back to its starting size, never
    /// below) unless it cuts trailing free space after its commit (`TrailingSpace`), which it
    /// notes here; compaction replaces the file rather than shrinking it in place. A reader's
    /// `fstat` is not a lower bound — a writer elsewhere may still cancel and truncate — so only
    /// writers set this.
    var writerKnownSize: UInt64? {
        sizeLock.lock()
        defer { sizeLock.unlock() }
        return _writerKnownSize
    }
    private var _writerKnownSize: UInt64?

    /// Records the size seen by a writer holding the write lock.
    func noteWriterSize(_ size: UInt64) {
        sizeLock.lock()
        _writerKnownSize = size
        _lastKnownSize = size
        sizeLock.unlock()
    }

    /// The version the file was at when this process's writer last knew its size: a commit may
    /// cut trailing free space off the file (`TrailingSpace`), so a size this process saw is a
    /// lower bound only for as long as no other process committed.
    private var _writerSizeVersion: UInt64?

    /// A writer starts a transaction on version `base`: returns `writerKnownSize` when this
    /// process's writer saw it at `base` (no other process has committed since, so none has cut
    /// the file), else forgets it and returns nil.
    func writerKnownSize(startingAt base: UInt64) -> UInt64? {
        sizeLock.lock()
        defer { sizeLock.unlock() }
        if _writerSizeVersion != base { _writerKnownSize = nil }
        _writerSizeVersion = base
        return _writerKnownSize
    }

    /// The transaction on `base` committed `version`: the size its writer saw is still the size.
    func writerCommitted(_ version: UInt64, base: UInt64) {
        sizeLock.lock()
        if _writerSizeVersion == base { _writerSizeVersion = version }
        sizeLock.unlock()
    }

    /// Address space reserved for the mapping, largest first: some environments (valgrind)
    /// refuse a terabyte, so smaller reservations are tried in turn. A file larger than its
    /// reservation is refused with a clear error rather than remapped.
    private static let reservations = [1 << 40, 1 << 36, 1 << 33, 1 << 30]

    /// The reservations to try for a file of `fileSize` bytes. Without a limit on the address
    /// space they cost nothing (a read-only shared mapping commits no memory), so the largest
    /// that works is taken. Under `ulimit -v` (RLIMIT_AS) the largest that fit took nearly all of
    /// it — 1 GiB for a 4 MB file — and the heap's next allocation failed, which Swift cannot
    /// survive; below 1 GiB no file opened at all. There the reservation is what the file needs
    /// with room to grow: four times its size, at least 64 MiB, at most a quarter of the limit
    /// (never less than the file itself, which is tried last).
    static func reservations(forFileOf fileSize: UInt64) -> [Int] {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else {
            return reservations
        }
        let granule = 1 << 16
        let needed = max(granule, (Int(clamping: fileSize) + granule - 1) / granule * granule)
        let wanted = max(needed.multipliedReportingOverflow(by: 4).overflow ? Int.max : needed * 4, 64 << 20)
        let cap = Int(clamping: limit.rlim_cur / 4) / granule * granule
        let scaled = max(needed, min(wanted, cap))
        return scaled == needed ? [needed] : [scaled, needed]  // no room to grow beats no file
    }

    private static func map(_ fd: Int32, path: String, fileSize: UInt64) throws -> (UnsafeRawPointer, Int) {
        for size in reservations(forFileOf: fileSize) {
            if let mapped = SystemCalls.mmap(size, protection: PROT_READ, fd, path: path) {
                return (UnsafeRawPointer(mapped), size)
            }
        }
        throw DatabaseFile.mappingError(path, fileSize: fileSize)
    }

    /// The error for a mapping that could not be made, naming the address space limit if any.
    static func mappingError(_ path: String, fileSize: UInt64) -> RealmError {
        let code = errno
        var limit = rlimit()
        guard code == ENOMEM, getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0,
            limit.rlim_cur != rlim_t.max
        else {
            return RealmError.posix(path: path, operation: "mmap", errno: code)
        }
        return RealmError.io(
            path: path, operation: "mmap", errno: code,
            message:
                "\(String(cString: strerror(code))): the file (\(FileHeader.groupedDigits(fileSize)) bytes) does not fit in the address space "
                + "this process may use (ulimit -v is \(limit.rlim_cur >> 10) KiB)")
    }

    /// Throws unless `size` bytes of the file lie within this process's mapping: another process
    /// may have grown the file past a reservation scaled to its size when it was opened.
    func checkMapped(size: UInt64) throws {
        guard size > UInt64(reservedBytes) else { return }
        throw RealmError.resourceLimit(
            "\(path) has grown to \(size >> 20) MiB, past the \(reservedBytes >> 20) MiB of address space "
                + "this process reserved for it when it opened the file (ulimit -v?); open it again")
    }

    /// Opens an existing file (or creates it when `create`); encrypted with `encryptionKey`
    /// (64 bytes) when one is given.
    init(path: String, readOnly: Bool, create: Bool, encryptionKey: [UInt8]? = nil) throws {
        let cipher = try encryptionKey.map { try PageCipher(key: $0, path: path) }
        self.path = path
        isReadOnly = readOnly
        isInMemory = false
        var st = stat()
        if SystemCalls.stat(path, &st) != 0 {
            if errno == ENOENT && !create { throw RealmError.fileNotFound(path: path) }
            if errno != ENOENT { throw DatabaseFile.ioError(path, "stat") }
        } else if (st.st_mode & S_IFMT) == S_IFDIR {
            throw RealmError.notARealmFile(path: path, reason: "it is a directory")
        }
        let flags = readOnly ? O_RDONLY : (O_RDWR | (create ? O_CREAT : 0))
        // O_NONBLOCK: opening a FIFO without it waits for a writer, forever. It means nothing
        // for a regular file, and anything else is refused below.
        let fd = SystemCalls.open(path, flags | O_CLOEXEC | O_NONBLOCK, 0o644)
        if fd < 0 {
            if errno == EACCES || errno == EROFS {
                // The reason only: which way around it there is (a read-only open, a flag) is
                // the caller's to say; not every command has a --read-only.
                throw RealmError.io(
                    path: path, operation: readOnly ? "open" : "open for writing", errno: errno,
                    message: String(cString: strerror(errno)))
            }
            throw DatabaseFile.ioError(path, "open")
        }
        let openedSize = try DatabaseFile.closing(fd) { try DatabaseFile.requireRegularFile(fd, path: path) }
        self.fd = fd
        if let cipher {
            let (view, size) = try DatabaseFile.closing(fd) {
                try EncryptedFile.reserveView(
                    sizes: DatabaseFile.reservations(forFileOf: openedSize), path: path, fileSize: openedSize)
            }
            (base, reservedBytes) = (UnsafeRawPointer(view), size)
            crypt = EncryptedFile(path: path, fd: fd, cipher: cipher, view: view, viewBytes: size)
            // Header, key check and every page decrypted into the view (deinit unmaps on failure).
            try crypt?.open(file: self, create: create && !readOnly)
        } else {
            (base, reservedBytes) = try DatabaseFile.mapOrClose(fd, path: path, fileSize: openedSize)
            crypt = nil
        }
        // Every stored property is set: from here a throw runs deinit, which unmaps and closes
        // (doing it here too unmapped twice and closed a descriptor number another open may
        // already have been given).
        if try physicalSize() > UInt64(reservedBytes) {
            throw RealmError.resourceLimit(
                "\(path) is larger than the \(reservedBytes >> 20) MiB of address space this process could reserve")
        }
        counted = true
        OpenFiles.opened()
    }

    /// Whether this open is in `OpenFiles` (a file on disk that opened whole).
    private var counted = false

    /// An anonymous in-memory file for `inMemoryIdentifier`.
    init(inMemory name: String) throws {
        path = "memory:" + name
        isReadOnly = false
        isInMemory = true
        // Named for its identifier (memfd names stop at 249 bytes), so /proc/PID/fd tells the
        // in-memory Realms of a process apart.
        var label = "realmtui:"
        for character in name where label.utf8.count + character.utf8.count <= 240 { label.append(character) }
        let fd = rt_memfd_create(label)
        if fd < 0 { throw DatabaseFile.ioError(path, "memfd_create") }
        self.fd = fd
        (base, reservedBytes) = try DatabaseFile.mapOrClose(fd, path: path, fileSize: 0)
        crypt = nil
    }

    /// Throws `notARealmFile` unless `fd` (just opened) is a regular file: the path may name a
    /// FIFO, a device (a link to /dev/zero) or a socket, which cannot be mapped and would read as
    /// an empty or endless file. Checked on the descriptor, so a path swapped after the `stat`
    /// before the open is caught too.
    /// Returns the file's size.
    private static func requireRegularFile(_ fd: Int32, path: String) throws -> UInt64 {
        var info = stat()
        guard SystemCalls.fstat(fd, &info, path: path) == 0 else { throw DatabaseFile.ioError(path, "fstat") }
        if let kind = SpecialFile.kind(ofMode: info.st_mode) {
            throw RealmError.notARealmFile(path: path, reason: "it is \(kind), not a regular file")
        }
        return UInt64(max(0, info.st_size))
    }

    /// `map`, closing `fd` when it fails (the initializers own the descriptor until then).
    private static func mapOrClose(_ fd: Int32, path: String, fileSize: UInt64) throws -> (UnsafeRawPointer, Int) {
        try closing(fd) { try map(fd, path: path, fileSize: fileSize) }
    }

    /// `body`, closing `fd` when it throws.
    private static func closing<T>(_ fd: Int32, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            close(fd)
            throw error
        }
    }

    deinit {
        SystemCalls.munmap(UnsafeMutableRawPointer(mutating: base), reservedBytes, path: path)
        close(fd)
        if counted { OpenFiles.closed() }
    }

    /// The physical size of the file.
    func physicalSize() throws -> UInt64 {
        var st = stat()
        if SystemCalls.fstat(fd, &st, path: path) != 0 { throw DatabaseFile.ioError(path, "fstat") }
        var size = UInt64(st.st_size)
        if let crypt { size = try crypt.logicalSize(physical: size) }
        noteSize(size)
        return size
    }

    /// Brings an encrypted file's decrypted pages up to date with other processes' commits (a
    /// no-op for a plain file, whose shared mapping shows them). Called before the header slots
    /// are read.
    func refresh() throws {
        try crypt?.refresh()
    }

    /// Throws unless `key` opens this file as it is open already: the same key, or none for a
    /// plain file (a second instance in the process shares the first one's file).
    func checkSameKey(_ key: [UInt8]?) throws {
        switch (crypt, key) {
        case (nil, nil): return
        case (nil, .some):
            throw RealmError.encryption(
                path: path, reason: "the file is not encrypted: open it without an encryption key")
        case (.some, nil): throw RealmError.encryption(path: path, reason: RealmError.missingKeyReason)
        case (.some(let c), .some(let k)):
            guard k.count == PageCipher.keySize else {
                throw RealmError.encryption(
                    path: path, reason: "an encryption key must be \(PageCipher.keySize) bytes, got \(k.count)")
            }
            guard PageCipher.equal(c.cipher.key, k) else {
                throw RealmError.encryption(path: path, reason: "wrong encryption key")
            }
        }
    }

    /// Throws `corruptFile` for a page below `size` that failed its integrity check (encrypted
    /// files only).
    func checkReadable(below size: UInt64) throws {
        try crypt?.checkReadable(below: size)
    }

    /// Grows the file to at least `size` bytes; `grow(from:to:)` with the size read now.
    func grow(to size: UInt64) throws {
        try grow(from: try physicalSize(), to: size)
    }

    /// Grows the file from `current` — its physical size, which the caller knows because it holds
    /// the write lock (only the writer grows the file) — to `size`, by writing zeros.
    ///
    /// Zeros, not `posix_fallocate`: on ext4 fallocate leaves *unwritten* extents, and the first
    /// write into one converts it — a metadata change, so the `fdatasync` of every commit that
    /// writes there also commits the journal. Blocks written once here make later commits pure
    /// data overwrites. A full disk is still an error here (ENOSPC from the write) rather than
    /// later, and a failed growth truncates the file back to `current`.
    func grow(from current: UInt64, to size: UInt64) throws {
        guard current < size else { return }
        if size > UInt64(reservedBytes) {
            throw RealmError.resourceLimit(
                "\(path) cannot grow past the \(reservedBytes >> 20) MiB of address space reserved for it")
        }
        try injectedFailure("grow")
        if let crypt {
            noteWriterSize(try crypt.grow(from: current, to: size, file: self))
            return
        }
        if isInMemory {
            if SystemCalls.ftruncate(fd, off_t(size), path: path) != 0 { throw DatabaseFile.ioError(path, "ftruncate") }
            noteWriterSize(size)
            return
        }
        let zeros = [UInt8](repeating: 0, count: Int(min(size - current, DatabaseFile.zeroChunk)))
        var at = current
        while at < size {
            let n = Int(min(size - at, UInt64(zeros.count)))
            let written = zeros.withUnsafeBytes { SystemCalls.pwrite(fd, $0.baseAddress!, n, off_t(at), path: path) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 {
                let e = written < 0 ? errno : ENOSPC
                // Give back what was written so a failed growth leaves the file as it was.
                _ = SystemCalls.ftruncate(fd, off_t(current), path: path)
                noteWriterSize(current)
                throw RealmError.io(
                    path: path, operation: "grow the file", errno: e, message: String(cString: strerror(e)))
            }
            at += UInt64(written)
        }
        noteWriterSize(size)
        recorder?.resized(from: current, to: size)
    }

    /// The largest zero buffer `grow` writes at once.
    private static let zeroChunk: UInt64 = 1 << 20

    /// Writes `bytes` at `offset` (of an encrypted file: logical bytes, encrypted by `crypt`).
    func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws {
        if let crypt { return try crypt.write(bytes, at: offset, file: self) }
        try writeFile(bytes, at: offset)
    }

    /// Writes `bytes` at the file offset `offset` (for an encrypted file: physical bytes).
    func writeFile(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws {
        try injectedFailure("write")
        var done = 0
        while done < bytes.count {
            let n = SystemCalls.pwrite(
                fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done), path: path)
            if n < 0 {
                if errno == EINTR { continue }
                throw DatabaseFile.ioError(path, "write")
            }
            done += n
        }
        recorder?.wrote(bytes, at: offset)
    }

    /// How many times `sync` reached `fdatasync` (tests count barriers with it).
    var syncCalls: Int {
        failureLock.lock()
        defer { failureLock.unlock() }
        return _syncCalls
    }
    private var _syncCalls = 0

    /// Makes every write so far durable (a no-op for in-memory files).
    func sync() throws {
        if isInMemory { return }
        try injectedFailure("sync")
        failureLock.lock()
        _syncCalls += 1
        failureLock.unlock()
        let syncing = crypt?.syncStarts()
        recorder?.barrierStarts()
        if SystemCalls.fdatasync(fd, path: path) != 0 { throw DatabaseFile.ioError(path, "fdatasync") }
        recorder?.barrierReturned()
        if let syncing { crypt?.syncReturned(syncing) }
    }

    /// Truncates the file (used by compaction and by a cancelled transaction).
    func truncate(to size: UInt64) throws {
        if let crypt {
            noteWriterSize(try crypt.truncate(to: size, file: self))
            return
        }
        try truncateFile(to: size)
    }

    /// Truncates the file to `size` bytes (for an encrypted file: physical bytes).
    func truncateFile(to size: UInt64) throws {
        let before = recorder == nil ? 0 : (lastKnownSize ?? 0)
        if SystemCalls.ftruncate(fd, off_t(size), path: path) != 0 { throw DatabaseFile.ioError(path, "ftruncate") }
        noteWriterSize(size)
        recorder?.resized(from: before, to: size)
    }

    private func injectedFailure(_ operation: String) throws {
        failureLock.lock()
        defer { failureLock.unlock() }
        guard var n = _failAfter else { return }
        n -= 1
        _failAfter = n
        if n <= 0 {
            _failAfter = _failsFromThenOn ? 0 : nil
            throw RealmError.io(
                path: path, operation: operation, errno: ENOSPC, message: "No space left on device (injected)")
        }
    }

    static func ioError(_ path: String, _ operation: String) -> RealmError {
        let e = errno
        return RealmError.io(path: path, operation: operation, errno: e, message: String(cString: strerror(e)))
    }
}

/// What a test's power-loss simulator is told by `DatabaseFile` (`recorder`): every write and
/// size change since the last barrier may or may not be on the disk after a power loss; a
/// barrier that returned makes them all durable.
protocol WriteRecorder: AnyObject {
    /// `bytes` were written at `offset` (in the page cache; not yet durable).
    func wrote(_ bytes: UnsafeRawBufferPointer, at offset: UInt64)
    /// The file's size changed from `old` to `new` (growth writes zeros).
    func resized(from old: UInt64, to new: UInt64)
    /// An fdatasync starts: a power loss before it returns keeps any subset of what was written.
    func barrierStarts()
    /// The fdatasync returned: everything written so far is durable.
    func barrierReturned()
}
