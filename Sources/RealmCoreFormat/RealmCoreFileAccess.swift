import Foundation
import RealmEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A Realm Core file opened for reading without changing anything: no byte of the file is
/// written, and nothing is created beside it (neither a file of ours nor Realm's own
/// `x.realm.lock`, whose layout belongs to the app that owns the file).
///
/// A file no Realm app has open is mapped read-only in place. A file a Realm app has open (its
/// `x.realm.lock` exists and an exclusive non-blocking `flock` on it fails) is copied into memory
/// instead: such an app may overwrite the space of a version two commits after it was current,
/// because we are not registered among its readers, so the copy is checked against the header
/// read again after it (no commit happened while copying) and retried a few times.
public struct RealmCoreFileAccess: Sendable {
    /// The plaintext bytes the reader consumes.
    public let image: RealmCoreImage
    /// The header facts of `image`.
    public let facts: RealmCoreHeaderFacts
    /// When the file was in use by a Realm app: the time the consistent copy was taken.
    public let inUseCopyTakenAt: Date?

    /// How many times a copy of a file in use is retried before giving up.
    public static let copyAttempts = 5

    /// Opens `path` read-only: a mapping in place, or a consistent copy when a Realm app has the
    /// file open. Throws for a missing file, a file that is not a regular file (a FIFO or a
    /// device would block or stream), an encrypted file (use the `key:` form) and anything that
    /// is not a Realm Core file. `lockHeld`: this process holds the exclusive lock of an edit
    /// session (`RealmCoreEditLock`), so no Realm app has the file open and the file is mapped
    /// (the in-use check would see our own lock and take a copy).
    public static func open(path: String, lockHeld: Bool = false) throws -> RealmCoreFileAccess {
        let file = try ReadOnlyFile(path: path)
        defer { file.close() }
        let inUse = try !lockHeld && isInUseByRealmApp(path: path)
        if inUse {
            let (data, takenAt) = try consistentCopy(of: file, path: path)
            let image = RealmCoreImage(copying: data)
            return try RealmCoreFileAccess(image: image, path: path, inUseCopyTakenAt: takenAt)
        }
        let image = try file.map()
        return try RealmCoreFileAccess(image: image, path: path, inUseCopyTakenAt: nil)
    }

    /// What a commit to the file at `path` changes, to poll for commits without reading the
    /// file: its inode, size and modification time, its 24-byte header and (streaming form) its
    /// footer. Realm Core rewrites the header (plain) or page 0 and its IV entry (encrypted) on
    /// every commit, so two equal markers mean no commit in between — or a file replaced by one
    /// equal in all of these, which a watcher then misses until the next commit.
    public static func commitMarker(path: String) throws -> [UInt8] {
        let file = try ReadOnlyFile(path: path)
        defer { file.close() }
        var info = stat()
        guard fstat(file.fd, &info) == 0 else {
            let code = errno
            throw RealmError.io(path: path, operation: "fstat", errno: code, message: String(cString: strerror(code)))
        }
        var marker: [UInt8] = []
        for word in [UInt64(info.st_ino), UInt64(bitPattern: Int64(info.st_mtim.tv_sec)), UInt64(info.st_mtim.tv_nsec)]
        {
            withUnsafeBytes(of: word) { marker += $0 }
        }
        return marker + (try file.commitMarker())
    }

    /// Opens an encrypted Realm file with its 64-byte key: read as `open(path:)` reads (a copy
    /// while a Realm app has it open), then decrypted whole into memory
    /// (`RealmCoreDecryption`). Throws `RealmError.encryption` for a wrong key or a file that
    /// is not encrypted, and `notARealmFile` for a file that decrypts into something else.
    /// `lockHeld` as for `open(path:lockHeld:)`.
    public static func open(path: String, key: [UInt8], lockHeld: Bool = false) throws -> RealmCoreFileAccess {
        let file = try ReadOnlyFile(path: path)
        defer { file.close() }
        let stored: RealmCoreImage
        var takenAt: Date?
        if try !lockHeld && isInUseByRealmApp(path: path) {
            let (data, at) = try consistentCopy(of: file, path: path)
            stored = RealmCoreImage(copying: data)
            takenAt = at
        } else {
            stored = try file.map()
        }
        if RealmCoreHeaderFacts.hasMnemonic(stored.bytes) {
            throw RealmError.encryption(path: path, reason: "the Realm file is not encrypted: open it without a key")
        }
        let plain = try RealmCoreDecryption.decrypt(stored.bytes, key: key, path: path)
        guard case .realmCore(let facts) = RealmCoreHeaderFacts.classify(file: plain.bytes, path: path) else {
            // Realm's HMAC is keyed with the key's second half only: a wrong first half passes it
            // and decrypts into noise.
            throw RealmError.encryption(
                path: path,
                reason:
                    "a wrong key: its pages verify but do not decrypt into a Realm file (the key's first 32 bytes differ)"
            )
        }
        return RealmCoreFileAccess(image: plain, facts: facts, inUseCopyTakenAt: takenAt)
    }

    private init(image: RealmCoreImage, path: String, inUseCopyTakenAt: Date?) throws {
        switch RealmCoreHeaderFacts.classify(file: image.bytes, path: path) {
        case .realmCore(let facts):
            self.init(image: image, facts: facts, inUseCopyTakenAt: inUseCopyTakenAt)
        case .possiblyEncryptedRealm:
            throw RealmError.encryption(
                path: path,
                reason:
                    "it has no readable Realm header: it is an encrypted Realm file (give its 64-byte key) or not a Realm file"
            )
        case .other(let reason):
            // A Realm header that is damaged is a corrupt file; no header at all is another kind of file.
            if RealmCoreHeaderFacts.hasMnemonic(image.bytes) {
                throw RealmError.corruptFile(path: path, offset: 0, reason: reason)
            }
            throw RealmError.notARealmFile(path: path, reason: reason)
        }
    }

    /// Wraps an image already read (a decrypted file) with its facts.
    public init(image: RealmCoreImage, facts: RealmCoreHeaderFacts, inUseCopyTakenAt: Date?) {
        self.image = image
        self.facts = facts
        self.inUseCopyTakenAt = inUseCopyTakenAt
    }

    /// True when `path + ".lock"` exists and another open file description holds a `flock` on it
    /// (every Realm process holds a shared one while it has the file open). The lock file is
    /// opened read-only and never created: `flock` needs no write access.
    public static func isInUseByRealmApp(path: String) throws -> Bool {
        let lockPath = path + ".lock"
        let fd = posixOpen(lockPath, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 {
            let code = errno
            if code == ENOENT { return false }
            throw RealmError.io(
                path: lockPath, operation: "open Realm's lock file", errno: code,
                message: String(cString: strerror(code)))
        }
        defer { _ = posixClose(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            // Nobody holds it: let go at once, so that a Realm app starting now is not refused.
            _ = flock(fd, LOCK_UN)
            return false
        }
        let code = errno
        if code == EWOULDBLOCK || code == EAGAIN { return true }
        throw RealmError.io(
            path: lockPath, operation: "flock Realm's lock file", errno: code, message: String(cString: strerror(code)))
    }

    /// A copy of the whole file between two identical readings of its header, size and footer.
    private static func consistentCopy(of file: ReadOnlyFile, path: String) throws -> ([UInt8], Date) {
        for _ in 0..<copyAttempts {
            let before = try file.commitMarker()
            let size = try file.size()
            let data = try file.read(offset: 0, count: size)
            let after = try file.commitMarker()
            if before == after && data.count == size {
                return (data, Date())
            }
        }
        throw RealmError.busy(
            "\(path) is in use by a Realm app that committed during each of \(copyAttempts) attempts to copy it; try again"
        )
    }
}

/// A file descriptor opened with O_RDONLY | O_NONBLOCK | O_CLOEXEC on a regular file.
struct ReadOnlyFile {
    let fd: Int32
    let path: String

    init(path: String) throws {
        // O_NONBLOCK so that a FIFO named by mistake does not block the open itself.
        let fd = posixOpen(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { throw RealmError.fileNotFound(path: path) }
            throw RealmError.io(path: path, operation: "open", errno: code, message: String(cString: strerror(code)))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            _ = posixClose(fd)
            throw RealmError.io(path: path, operation: "fstat", errno: code, message: String(cString: strerror(code)))
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            _ = posixClose(fd)
            let what: String
            switch kind {
            case S_IFIFO: what = "a FIFO (named pipe)"
            case S_IFCHR: what = "a character device"
            case S_IFBLK: what = "a block device"
            case S_IFDIR: what = "a folder"
            case S_IFSOCK: what = "a socket"
            default: what = "not a regular file"
            }
            throw RealmError.notARealmFile(path: path, reason: "it is \(what), not a regular file")
        }
        self.fd = fd
        self.path = path
    }

    func close() { _ = posixClose(fd) }

    func size() throws -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ioError("fstat") }
        return Int(info.st_size)
    }

    /// Up to `count` bytes from `offset` (fewer at the end of the file).
    func read(offset: Int, count: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        try buffer.withUnsafeMutableBytes { raw in
            while done < count {
                let n = pread(fd, raw.baseAddress! + done, count - done, off_t(offset + done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw ioError("read")
                }
                if n == 0 { break }
                done += n
            }
        }
        return Array(buffer.prefix(done))
    }

    /// The header and, when the file is in the streaming form, its footer, with the file size:
    /// what a commit changes.
    func commitMarker() throws -> [UInt8] {
        let size = try size()
        var marker = try read(offset: 0, count: RealmCoreHeaderFacts.headerSize)
        marker += withUnsafeBytes(of: UInt64(size)) { Array($0) }
        if size >= RealmCoreHeaderFacts.headerSize + RealmCoreHeaderFacts.footerSize {
            marker += try read(offset: size - RealmCoreHeaderFacts.footerSize, count: RealmCoreHeaderFacts.footerSize)
        }
        return marker
    }

    /// The whole file mapped read-only and private (so no write of ours could ever reach it).
    func map() throws -> RealmCoreImage {
        let size = try size()
        guard size > 0 else { throw RealmError.notARealmFile(path: path, reason: "it is empty") }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw ioError("mmap")
        }
        return RealmCoreImage(
            bytes: UnsafeRawBufferPointer(start: base, count: size), release: { _ = munmap(base, size) })
    }

    private func ioError(_ operation: String) -> RealmError {
        let code = errno
        return RealmError.io(path: path, operation: operation, errno: code, message: String(cString: strerror(code)))
    }
}

// File-scope wrappers: inside the types above `open`/`close` name their own members.
private func posixOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
private func posixClose(_ fd: Int32) -> Int32 { close(fd) }
