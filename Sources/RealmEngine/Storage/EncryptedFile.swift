import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The encrypted form of a database file, below `DatabaseFile`: the engine sees plain *logical*
/// pages at `DatabaseFile.base`, this class keeps them in a private anonymous mapping (the
/// *view*) and stores each page encrypted (`PageCipher`) in the physical file.
///
/// Physical layout (4 KiB pages): page 0 is the plain encryption header (`EncryptionHeader`);
/// then groups of 65 pages, one per 32 logical pages — a metadata page, then two *copies* of
/// each logical page side by side:
///
/// ```
/// [enc header] [meta 0][p0 A][p0 B][p1 A][p1 B]…[p31 B] [meta 1][p32 A][p32 B]…
/// meta page: per logical page 128 bytes = entry of copy A (64) + entry of copy B (64)
/// ```
///
/// **Why two copies (crash safety).** The commit protocol (`Commit.swift`) assumes a torn write
/// damages only the bytes written: a commit puts nodes into free space beside live nodes of the
/// versions it must not touch. Encrypted, rewriting any byte of a page rewrites the whole page,
/// so a torn page write would take the live neighbours with it. So a page is never rewritten
/// over its only durable copy:
/// - A page's *newest valid copy* is the copy with the higher write counter whose entry
///   verifies (HMAC over IV, page number, counter and ciphertext). Open and refresh use it.
/// - The first write of a page after a durability barrier goes to the *other* copy, with the
///   counter one higher; later writes before the next barrier rewrite that same copy in place
///   (counter +1 each time). The copy that was newest at the last barrier is not touched until
///   the next barrier returned (`syncStarts`/`syncReturned`), so after a power loss at any moment
///   the page holds either its new content or exactly its content at the last barrier — what
///   the commit protocol assumes of the bytes it did not write. Data is written before its
///   entry; a copy whose data or entry did not land fails its HMAC and the other copy is used.
/// - Entries are 64-byte, sector-aligned records; a write of a copy's entry rewrites the other
///   copy's entry only with its own unchanged bytes (one write per run of pages), so a torn
///   sector leaves it as it was.
/// - A page another process wrote (its counters differ from what this process knows) may not
///   be durable yet — its writer may have died before its barrier — so before overwriting such a
///   page's other copy, the writer takes a barrier first (`write`).
///
/// **How other processes' writes reach the view.** Each page's pair of counters is the change
/// signal; it never repeats for a page (each write adds one, and a page grown — again, after a
/// cancelled transaction's truncation — starts at a random 62-bit value). `refresh` (called before the header slots are read, `SharedFile.slots`) first reads
/// the counters of the two slot pages (logical pages 0 and 8): every commit writes one of them,
/// so when they are unchanged no version was committed and nothing needs reading. Otherwise it
/// reads every metadata page and decrypts the pages whose counters changed, slot pages first: a
/// writer writes its nodes before its slot, so once the new slot is seen its nodes are on the
/// file for the scan that follows. The view changes only where a commit wrote, that is in space
/// no pinned version reaches — the same guarantee the shared mapping of a plain file gives.
/// A copy being rewritten while it is read fails its HMAC and the other copy (the content at the
/// last barrier, which holds everything committed) is used; it is read again when its counters
/// next change. Growth by another process reaches the view through `logicalSize(physical:)`.
///
/// A page that has no valid copy (tampered, damaged) stays zero in the view and is listed in
/// `unreadable`; `checkReadable` turns it into `RealmError.corruptFile` naming the page when a
/// version needs it, so reading never returns garbage.
final class EncryptedFile: @unchecked Sendable {
    static let pageSize = PageCipher.pageSize
    /// Logical pages per group (one metadata page of 128-byte pairs).
    static let groupPages = pageSize / (2 * PageEntry.size)
    /// Physical pages per group: the metadata page and two copies of each logical page.
    static let groupSpan = 1 + 2 * groupPages
    /// The slot pages of the paired header layout (`FileHeader.Layout.paired`), checked first.
    static let slotPages = [0, Int(FileHeader.Layout.paired.headerPages[1].lowerBound) / pageSize]

    let path: String
    let fd: Int32
    let cipher: PageCipher
    /// The decrypted pages, at `DatabaseFile.base`.
    let view: UnsafeMutableRawPointer
    private let viewBytes: Int
    /// Recursive: a write that must take a barrier first calls `DatabaseFile.sync`, which comes
    /// back through `syncStarts`/`syncReturned`.
    private let lock = NSRecursiveLock()
    /// Logical pages in the view.
    private var pages = 0
    /// Per page: the counters of copy A and B as last read or written (the change signal).
    private var counters: [(UInt64, UInt64)] = []
    /// Per page: the copy the view holds (0 or 1).
    private var current: [UInt8] = []
    /// Pages written since the barrier in progress or the last one: page → epoch of the write.
    private var dirty: [Int: UInt64] = [:]
    private var epoch: UInt64 = 0
    /// Pages with no valid copy.
    private var unreadable = Set<Int>()
    /// Slot pages whose other written copy failed its check when the page was last read (torn by
    /// a crash while it was written, or damaged — perhaps the newer copy): `slotPageFellBack`.
    private var fellBack = Set<Int>()

    init(path: String, fd: Int32, cipher: PageCipher, view: UnsafeMutableRawPointer, viewBytes: Int) {
        self.path = path
        self.fd = fd
        self.cipher = cipher
        self.view = view
        self.viewBytes = viewBytes
    }

    // MARK: Physical layout

    static func metaOffset(_ page: Int) -> UInt64 {
        UInt64(1 + page / groupPages * groupSpan) * UInt64(pageSize) + UInt64(page % groupPages * 2 * PageEntry.size)
    }

    static func dataOffset(_ page: Int, copy: Int) -> UInt64 {
        UInt64(1 + page / groupPages * groupSpan + 1 + 2 * (page % groupPages) + copy) * UInt64(pageSize)
    }

    /// The physical size holding `pages` logical pages.
    static func physicalSize(pages: Int) -> UInt64 {
        let rest = pages % groupPages
        return UInt64(1 + pages / groupPages * groupSpan + (rest > 0 ? 1 + 2 * rest : 0)) * UInt64(pageSize)
    }

    /// The logical pages a physical size holds whole (a torn growth leaves a partial tail).
    static func logicalPages(physical: UInt64) -> Int {
        let all = Int(physical / UInt64(pageSize))
        guard all > 1 else { return 0 }
        let rest = (all - 1) % groupSpan
        return (all - 1) / groupSpan * groupPages + (rest > 1 ? (rest - 1) / 2 : 0)
    }

    /// Reserves the view: a private anonymous mapping, zero until pages are decrypted into it.
    /// `fileSize` is the physical size, for the error when none fits.
    static func reserveView(sizes: [Int], path: String, fileSize: UInt64) throws -> (UnsafeMutableRawPointer, Int) {
        for size in sizes {
            if let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
                mapped != UnsafeMutableRawPointer(bitPattern: -1)
            {
                return (mapped, size)
            }
        }
        throw DatabaseFile.mappingError(path, fileSize: fileSize)
    }

    // MARK: Opening

    /// Reads (or, for an empty file opened to create, writes) the encryption header, checks the
    /// key, and decrypts every page into the view.
    func open(file: DatabaseFile, create: Bool) throws {
        lock.lock()
        defer { lock.unlock() }
        // Two processes creating the file at once each found it empty and wrote a header of its
        // own (two salts, or halves of both), or read the other's half-written one: the header
        // is read, and written when missing, under a lock of the data file (exclusive for an
        // opener that may write it).
        let held = SystemCalls.flock(fd, create ? LOCK_EX : LOCK_SH, path: path)
        if held != 0 {
            throw RealmError.io(
                path: path, operation: "lock the encryption header", errno: held,
                message: String(cString: strerror(held)))
        }
        defer { SystemCalls.flock(fd, LOCK_UN, path: path) }
        let size = try physicalSizeNow()
        var head = [UInt8](repeating: 0, count: min(Int(size), EncryptedFile.pageSize))
        try readFully(&head, at: 0)
        if size == 0 || (create && head.allSatisfy { $0 == 0 }) {
            guard create else { throw RealmError.notARealmFile(path: path, reason: "the file is empty") }
            guard let header = EncryptionHeader.new(key: cipher.key) else {
                throw RealmError.encryption(path: path, reason: "OpenSSL could not make the key check value")
            }
            try header.bytes().withUnsafeBytes { try file.writeFile($0, at: 0) }
            return
        }
        let header = try EncryptionHeader.read(head, path: path)
        guard let check = PageCipher.keyCheck(key: cipher.key, salt: header.salt),
            PageCipher.equal(check, header.keyCheck)
        else {
            throw RealmError.encryption(path: path, reason: "wrong encryption key")
        }
        let pages = EncryptedFile.logicalPages(physical: size)
        if pages == 0 && !create {
            // Its logical size is 0, which the header check would call "the file is empty".
            throw RealmError.notARealmFile(
                path: path,
                reason: "the encrypted file is too short (\(size) bytes) to hold a page: "
                    + "it was cut, or its creation did not finish")
        }
        try load(upTo: pages)
    }

    private func physicalSizeNow() throws -> UInt64 {
        var st = stat()
        if SystemCalls.fstat(fd, &st, path: path) != 0 { throw DatabaseFile.ioError(path, "fstat") }
        return UInt64(st.st_size)
    }

    /// `pread` until `buffer` is full or the file ends (the rest stays zero); returns bytes read.
    @discardableResult
    private func readFully(_ buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws -> Int {
        guard let start = buffer.baseAddress else { return 0 }
        let done = SystemCalls.preadFully(fd, start, buffer.count, off_t(offset), path: path)
        if done < 0 { throw DatabaseFile.ioError(path, "read") }
        return done
    }

    @discardableResult
    private func readFully(_ buffer: inout [UInt8], at offset: UInt64) throws -> Int {
        try buffer.withUnsafeMutableBytes { try readFully($0, at: offset) }
    }

    /// The entries of pages `range` (all in one group), as stored.
    private func readEntries(_ range: Range<Int>) throws -> [(PageEntry, PageEntry)] {
        var raw = [UInt8](repeating: 0, count: range.count * 2 * PageEntry.size)
        try readFully(&raw, at: EncryptedFile.metaOffset(range.lowerBound))
        return raw.withUnsafeBytes { r in
            range.indices.map { i in
                let at = (i - range.lowerBound) * 2 * PageEntry.size
                return (
                    PageEntry(UnsafeRawBufferPointer(rebasing: r[at..<at + PageEntry.size])),
                    PageEntry(UnsafeRawBufferPointer(rebasing: r[at + PageEntry.size..<at + 2 * PageEntry.size]))
                )
            }
        }
    }

    /// Ranges of pages in `range`, one per group.
    private static func groups(_ range: Range<Int>) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var at = range.lowerBound
        while at < range.upperBound {
            let end = min(range.upperBound, (at / groupPages + 1) * groupPages)
            out.append(at..<end)
            at = end
        }
        return out
    }

    /// Grows the view's bookkeeping to `count` pages and decrypts the new ones.
    private func load(upTo count: Int) throws {
        guard count > pages else { return }
        let added = pages..<count
        counters += Array(repeating: (0, 0), count: added.count)
        current += Array(repeating: 0, count: added.count)
        pages = count
        for group in EncryptedFile.groups(added) {
            for (i, pair) in try readEntries(group).enumerated() { try reload(group.lowerBound + i, entries: pair) }
        }
    }

    /// Decrypts the newest valid copy of `page` into the view (or marks the page unreadable and
    /// leaves the view as it was), and records its counters.
    private func reload(_ page: Int, entries: (PageEntry, PageEntry)) throws {
        var pair = entries
        var cipherText = [UInt8](repeating: 0, count: 2 * EncryptedFile.pageSize)
        var plain = [UInt8](repeating: 0, count: EncryptedFile.pageSize)
        // A retry only matters if both copies were read mid-write, which the copy discipline
        // rules out for the older one; it costs nothing when the first read verifies.
        for attempt in 0..<3 {
            if attempt > 0 {
                usleep(200)
                pair = try readEntries(page..<page + 1)[0]
            }
            try readFully(&cipherText, at: EncryptedFile.dataOffset(page, copy: 0))
            let order = pair.0.counter >= pair.1.counter ? [(0, pair.0), (1, pair.1)] : [(1, pair.1), (0, pair.0)]
            for (copy, entry) in order where entry.counter > 0 {
                let slice = copy * EncryptedFile.pageSize..<(copy + 1) * EncryptedFile.pageSize
                let opened = cipherText.withUnsafeBytes { c -> Bool in
                    let one = UnsafeRawBufferPointer(rebasing: c[slice])
                    guard cipher.verifies(one, entry: entry, page: UInt64(page)) else { return false }
                    return plain.withUnsafeMutableBytes { cipher.open(one, entry: entry, into: $0) }
                }
                // A slot page's other copy is checked too (only there: it costs a second HMAC): a
                // damaged counter may rank the newer copy last.
                let otherFails =
                    opened && EncryptedFile.slotPages.contains(page)
                    && { () -> Bool in
                        let other = 1 - copy
                        let otherEntry = other == 0 ? pair.0 : pair.1
                        guard otherEntry.counter > 0 else { return false }
                        let otherSlice = other * EncryptedFile.pageSize..<(other + 1) * EncryptedFile.pageSize
                        return !cipherText.withUnsafeBytes {
                            cipher.verifies(
                                UnsafeRawBufferPointer(rebasing: $0[otherSlice]), entry: otherEntry, page: UInt64(page))
                        }
                    }()
                if opened {
                    plain.withUnsafeBytes {
                        _ = memcpy(view + page * EncryptedFile.pageSize, $0.baseAddress!, EncryptedFile.pageSize)
                    }
                    counters[page] = (pair.0.counter, pair.1.counter)
                    current[page] = UInt8(copy)
                    unreadable.remove(page)
                    if otherFails { fellBack.insert(page) } else { fellBack.remove(page) }
                    return
                }
            }
        }
        counters[page] = (pair.0.counter, pair.1.counter)
        unreadable.insert(page)
    }

    // MARK: Refreshing

    /// Brings the view up to date with what other processes committed (see the type's comment).
    func refresh() throws {
        lock.lock()
        defer { lock.unlock() }
        let watched = EncryptedFile.slotPages.filter { $0 < pages }
        guard !watched.isEmpty else { return }
        let first = try readEntries(0..<watched.last! + 1)
        let changed = watched.contains {
            first[$0].0.counter != counters[$0].0 || first[$0].1.counter != counters[$0].1
        }
        guard changed else { return }
        for page in watched { try reload(page, entries: first[page]) }
        for group in EncryptedFile.groups(0..<pages) {
            for (i, pair) in try readEntries(group).enumerated() {
                let page = group.lowerBound + i
                if watched.contains(page) { continue }
                if pair.0.counter != counters[page].0 || pair.1.counter != counters[page].1 {
                    try reload(page, entries: pair)
                }
            }
        }
    }

    /// The logical size of a physical size, bringing pages another process added into the view
    /// and forgetting pages a truncation removed.
    func logicalSize(physical: UInt64) throws -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        let count = EncryptedFile.logicalPages(physical: physical)
        if count > pages { try load(upTo: count) } else if count < pages { forget(from: count) }
        return UInt64(pages * EncryptedFile.pageSize)
    }

    /// Drops pages from `count` on: zero in the view (their memory given back), no state.
    private func forget(from count: Int) {
        guard count < pages else { return }
        madvise(view + count * EncryptedFile.pageSize, (pages - count) * EncryptedFile.pageSize, MADV_DONTNEED)
        counters.removeLast(pages - count)
        current.removeLast(pages - count)
        dirty = dirty.filter { $0.key < count }
        unreadable = unreadable.filter { $0 < count }
        fellBack = fellBack.filter { $0 < count }
        pages = count
    }

    /// The written copies (counter above 0) of pages below `size` that fail their check, read
    /// from the file now: a damaged spare copy (the one not in the view), which nothing reads
    /// until a crash during the page's next rewrite needs it, or a newer copy the view fell
    /// back from. `readable` is false for a page with no valid copy (which a check that passed
    /// found in no live node: free space, say). A copy that a writer in another process is
    /// rewriting at this moment fails too, which is why this is a warning and never an error:
    /// a second check tells the two apart.
    func copiesFailingCheck(below size: UInt64) throws -> [(page: Int, copy: Int, readable: Bool)] {
        lock.lock()
        defer { lock.unlock() }
        let limit = min(pages, Int(min(size, UInt64(Int.max)) / UInt64(EncryptedFile.pageSize)))
        var failing: [(page: Int, copy: Int, readable: Bool)] = []
        var cipherText = [UInt8](repeating: 0, count: 2 * EncryptedFile.pageSize)
        for group in EncryptedFile.groups(0..<limit) {
            for (i, pair) in try readEntries(group).enumerated() {
                let page = group.lowerBound + i
                try readFully(&cipherText, at: EncryptedFile.dataOffset(page, copy: 0))
                for (copy, entry) in [(0, pair.0), (1, pair.1)] where entry.counter > 0 {
                    let slice = copy * EncryptedFile.pageSize..<(copy + 1) * EncryptedFile.pageSize
                    let verifies = cipherText.withUnsafeBytes {
                        cipher.verifies(UnsafeRawBufferPointer(rebasing: $0[slice]), entry: entry, page: UInt64(page))
                    }
                    if !verifies { failing.append((page, copy, !unreadable.contains(page))) }
                }
            }
        }
        return failing
    }

    /// The write counters of both copies of `page` as stored in the file at `path` (tests).
    static func storedCounters(of page: Int, in path: String) throws -> (UInt64, UInt64) {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let at = Int(metaOffset(page))
        guard at + 2 * PageEntry.size <= data.count else { return (0, 0) }
        return data.withUnsafeBytes { raw in
            (
                PageEntry(UnsafeRawBufferPointer(rebasing: raw[at..<at + PageEntry.size])).counter,
                PageEntry(UnsafeRawBufferPointer(rebasing: raw[at + PageEntry.size..<at + 2 * PageEntry.size])).counter
            )
        }
    }

    /// Whether a page holding a header slot has a written copy that failed its check: it may be
    /// the newer copy (a damaged counter hides which), and the copy read then holds the slot as
    /// it was a commit earlier, so the
    /// newest version read may be older than the file's last commit: the first opener reports it
    /// like a damaged header slot (`SharedFile.recoverNewest`), never silently — with or without
    /// the lock file that remembers the last version.
    var slotPageFellBack: Bool {
        lock.lock()
        defer { lock.unlock() }
        return EncryptedFile.slotPages.contains { fellBack.contains($0) }
    }

    /// Throws `corruptFile` naming the first page below `size` that has no valid copy.
    func checkReadable(below size: UInt64) throws {
        lock.lock()
        defer { lock.unlock() }
        guard let page = unreadable.filter({ UInt64($0 * EncryptedFile.pageSize) < size }).min() else { return }
        throw RealmError.corruptFile(
            path: path, offset: UInt64(page * EncryptedFile.pageSize),
            reason:
                "page \(page) failed its integrity check (HMAC-SHA-256): the file was changed outside realmtui or damaged (the key is right)"
        )
    }

    // MARK: Writing

    /// Writes `bytes` at logical `offset`: into the view, then each page touched encrypted into
    /// the copy the crash rules allow, then the pages' entries (see the type's comment).
    func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64, file: DatabaseFile) throws {
        lock.lock()
        defer { lock.unlock() }
        guard bytes.count > 0 else { return }
        let end = offset + UInt64(bytes.count)
        guard end <= UInt64(pages * EncryptedFile.pageSize) else {
            throw RealmError.io(
                path: path, operation: "write", errno: EINVAL,
                message: "internal error: a write past the end of the encrypted file")
        }
        let touched =
            Int(offset) / EncryptedFile.pageSize..<(Int(end) + EncryptedFile.pageSize - 1) / EncryptedFile.pageSize
        var sealed = [UInt8](repeating: 0, count: EncryptedFile.pageSize)
        for group in EncryptedFile.groups(touched) {
            var stored = try readEntries(group)
            // Pages another process wrote since this one last looked: read them first (the write
            // keeps their other bytes), and make them durable before touching their other copy.
            let foreign = group.filter { p in
                let pair = stored[p - group.lowerBound]
                return pair.0.counter != counters[p].0 || pair.1.counter != counters[p].1
            }
            if !foreign.isEmpty {
                try file.sync()
                for p in foreign {
                    try reload(p, entries: stored[p - group.lowerBound])
                    dirty[p] = nil
                }
            }
            // The view's bytes of this group before the write: put back if it fails, so the view
            // never shows what did not reach the file (a slot that was not written, say).
            let groupFrom = max(offset, UInt64(group.lowerBound * EncryptedFile.pageSize))
            let groupTo = min(end, UInt64(group.upperBound * EncryptedFile.pageSize))
            let before = [UInt8](UnsafeRawBufferPointer(start: view + Int(groupFrom), count: Int(groupTo - groupFrom)))
            var copies: [Int] = []
            do {
                for page in group {
                    let pageStart = UInt64(page * EncryptedFile.pageSize)
                    let from = max(offset, pageStart)
                    let to = min(end, pageStart + UInt64(EncryptedFile.pageSize))
                    if unreadable.contains(page)
                        && (from > pageStart || to < pageStart + UInt64(EncryptedFile.pageSize))
                    {
                        try checkReadable(below: pageStart + 1)
                    }
                    memmove(view + Int(from), bytes.baseAddress! + Int(from - offset), Int(to - from))
                    var pair = stored[page - group.lowerBound]
                    let copy = dirty[page] != nil ? Int(current[page]) : 1 - Int(current[page])
                    let entry = try sealed.withUnsafeMutableBytes { out in
                        try cipher.seal(
                            UnsafeRawBufferPointer(start: view + Int(pageStart), count: EncryptedFile.pageSize),
                            into: out,
                            page: UInt64(page), counter: max(pair.0.counter, pair.1.counter) + 1, path: path)
                    }
                    try sealed.withUnsafeBytes {
                        try file.writeFile($0, at: EncryptedFile.dataOffset(page, copy: copy))
                    }
                    if copy == 0 { pair.0 = entry } else { pair.1 = entry }
                    stored[page - group.lowerBound] = pair
                    copies.append(copy)
                }
                try writeEntries(stored, from: group.lowerBound, file: file)
            } catch {
                before.withUnsafeBytes { saved in
                    if let start = saved.baseAddress { memcpy(view + Int(groupFrom), start, saved.count) }
                }
                // A copy rewritten in place may now fail its check on the file: counters that
                // match nothing make the next write (or refresh) read these pages from the file.
                for page in group { counters[page] = (.max, .max) }
                throw error
            }
            // Only now that the entries are written: the pages' state is what the file says.
            for (i, page) in group.enumerated() {
                let pair = stored[i]
                counters[page] = (pair.0.counter, pair.1.counter)
                current[page] = UInt8(copies[i])
                dirty[page] = epoch
                unreadable.remove(page)
                fellBack.remove(page)
            }
        }
    }

    private func writeEntries(_ pairs: [(PageEntry, PageEntry)], from first: Int, file: DatabaseFile) throws {
        var raw = [UInt8](repeating: 0, count: pairs.count * 2 * PageEntry.size)
        raw.withUnsafeMutableBytes { r in
            for (i, pair) in pairs.enumerated() {
                let at = i * 2 * PageEntry.size
                pair.0.store(into: UnsafeMutableRawBufferPointer(rebasing: r[at..<at + PageEntry.size]))
                pair.1.store(
                    into: UnsafeMutableRawBufferPointer(rebasing: r[at + PageEntry.size..<at + 2 * PageEntry.size]))
            }
        }
        try raw.withUnsafeBytes { try file.writeFile($0, at: EncryptedFile.metaOffset(first)) }
    }

    /// Grows the file from logical size `current` to at least `size` with encrypted zero pages
    /// (copy A written, copy B zeros with an empty entry); returns the new logical size. On
    /// failure the physical file is cut back to what it was.
    func grow(from current: UInt64, to size: UInt64, file: DatabaseFile) throws -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        let first = Int((current + UInt64(EncryptedFile.pageSize) - 1) / UInt64(EncryptedFile.pageSize))
        let count = Int((size + UInt64(EncryptedFile.pageSize) - 1) / UInt64(EncryptedFile.pageSize))
        if first < pages { forget(from: first) }
        guard count > first else { return UInt64(pages * EncryptedFile.pageSize) }
        let zeros = [UInt8](repeating: 0, count: EncryptedFile.pageSize)
        var grown: [PageEntry] = []
        do {
            for group in EncryptedFile.groups(first..<count) {
                var region = [UInt8](repeating: 0, count: group.count * 2 * EncryptedFile.pageSize)
                var pairs: [(PageEntry, PageEntry)] = []
                for page in group {
                    let at = (page - group.lowerBound) * 2 * EncryptedFile.pageSize
                    // A random first counter, not 1: a page cut off by a truncation and grown
                    // again must not repeat counters another process remembers from before (it
                    // would keep the old content); 2^62 leaves room for every later +1.
                    let entry = try zeros.withUnsafeBytes { z in
                        try region.withUnsafeMutableBytes { r in
                            try cipher.seal(
                                z, into: UnsafeMutableRawBufferPointer(rebasing: r[at..<at + EncryptedFile.pageSize]),
                                page: UInt64(page), counter: UInt64.random(in: 1..<(1 << 62)), path: path)
                        }
                    }
                    pairs.append((entry, .empty))
                }
                if group.lowerBound % EncryptedFile.groupPages == 0 {
                    // A new group: its whole metadata page, so no hole is left in the file.
                    try zeros.withUnsafeBytes { try file.writeFile($0, at: EncryptedFile.metaOffset(group.lowerBound)) }
                }
                try region.withUnsafeBytes {
                    try file.writeFile($0, at: EncryptedFile.dataOffset(group.lowerBound, copy: 0))
                }
                try writeEntries(pairs, from: group.lowerBound, file: file)
                grown += pairs.map(\.0)
            }
        } catch {
            try? file.truncateFile(to: EncryptedFile.physicalSize(pages: first))
            throw error
        }
        memset(view + first * EncryptedFile.pageSize, 0, (count - first) * EncryptedFile.pageSize)
        counters += grown.map { ($0.counter, 0) }
        self.current += Array(repeating: 0, count: count - first)
        pages = count
        return UInt64(count * EncryptedFile.pageSize)
    }

    /// Truncates to logical `size` (rounded up to a page); returns the new logical size.
    func truncate(to size: UInt64, file: DatabaseFile) throws -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        let count = Int((size + UInt64(EncryptedFile.pageSize) - 1) / UInt64(EncryptedFile.pageSize))
        try file.truncateFile(to: EncryptedFile.physicalSize(pages: count))
        if count < pages { forget(from: count) }
        return UInt64(count * EncryptedFile.pageSize)
    }

    // MARK: Barriers

    /// A barrier starts: returns the epoch whose writes it makes durable.
    func syncStarts() -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        epoch += 1
        return epoch - 1
    }

    /// The barrier of `syncing` returned: pages written up to then are durable, and their next
    /// write goes to the other copy.
    func syncReturned(_ syncing: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        dirty = dirty.filter { $0.value > syncing }
    }
}
