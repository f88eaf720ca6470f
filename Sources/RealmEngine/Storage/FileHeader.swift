/// The header of every file: a magic string and two commit slots (LMDB's two meta pages).
///
/// ```
/// 0    "RLMTUI\0\u{1}"          magic (8 bytes)
/// 8    header size (UInt32)     4096 (single layout) or 65536 (paired layout)
/// slot: version u64 | topRef u64 | freeRef u64 | logicalSize u64 |
///       readFormat u16 | writeFormat u16 | flags u32 | commitRef u64 | commitHash u64 | checksum u64
/// ```
/// A commit writes the *inactive* slot (the one with the lower version, or an invalid one) and
/// never touches the active one, so a torn header write can only damage a slot that open ignores.
/// Open takes the valid slot (checksum and format right) with the highest version.
///
/// Two layouts (`Layout`), told apart by the header size:
/// - *single* (files made before read format 2): both slots on page 0, at 64 and 128.
/// - *paired* (new files): each slot on its own page, followed by a *commit area* —
///   `[0, 4K)` slot 0, `[4K, 32K)` area 0, `[32K, 36K)` slot 1, `[36K, 64K)` area 1. A small
///   commit puts its nodes into the area right after the slot it will write
///   (`FreeSpace.area`), so the commit reaches the disk as one contiguous write; two regions
///   (nodes far away, slot on page 0) cost the one fdatasync about a fifth more on this
///   machine's disk (`Benchmarks/Scripts/fsync_regions.py`). Areas are ordinary space in the
///   free list: their nodes are live, reachable and freed like any other.
///
/// Each slot identifies the file by itself (paired layout): the 512-byte sector that holds a slot
/// starts with the magic and the header size, and every write of the slot rewrites them with it
/// (`slotSector`), so a sector lost or zeroed costs at most that slot, never the file — page 0's
/// sector is not a single point of failure. Open reads the identity from sector 0, or, when that
/// one is not a realmtui header, from slot 1's sector (`identify`). Files of an older program
/// carry the identity in sector 0 only, until their slot 1 is next written. The single layout
/// keeps both slots in sector 0 and cannot do this; compaction converts it.
///
/// `readFormat` is the oldest program format that can read the file; `writeFormat` the oldest
/// that may write it (SQLite's split): a newer read format is refused, a newer write format
/// opens read-only.
struct FileHeader {
    /// The size of page 0 (and of the second slot's page in the paired layout).
    static let size = 4096
    static let magic: [UInt8] = Array("RLMTUI".utf8) + [0, 1]
    static let slotSize = 64
    /// The newest read format this program reads, and the one it gives new files. Read format 2:
    /// the paired layout — a program of read format 1 would find only slot 0 and miss every
    /// other commit. Read format 3: node checksums bind each node to its ref (`Node.placeTag`) —
    /// a program of read format 2 would find every node's checksum wrong. Single-layout files
    /// keep read format 1 (`Layout.readFormat`), files of read format 2 keep it (their nodes
    /// are checked by the old rule) until `compact` or `writeCopy` writes them anew.
    static let readFormat: UInt16 = 3
    /// The first read format whose node checksums bind nodes to their place.
    static let placeBoundFormat: UInt16 = 3
    /// The format this program writes. Write format 2: the free list is chunked
    /// (`FreeSpace+Chunks.swift`); a program of write format 1 would misread it, so it opens such
    /// files read-only. Write format 3: the change log keeps sealed chunks behind its root
    /// (`ChangeLog`); a program of write format 2 reads the root's newest records, but writing
    /// it would drop the chunks without freeing them, so it opens such files read-only.
    static let writeFormat: UInt16 = 3

    /// Where a file keeps its slots and commit areas.
    struct Layout: Equatable {
        /// The bytes from 0 the header spans (the value at offset 8).
        let size: Int
        /// The byte offset of each slot.
        let slotOffsets: [Int]
        /// The commit area beside each slot (none in the single layout).
        let areas: [Range<UInt64>]
        /// Pages that are header, not nodes or free space: `[0, 4K)` and the second slot's page.
        let headerPages: [Range<UInt64>]
        /// The read format its slots carry.
        let readFormat: UInt16

        /// Both slots on page 0 (read format 1).
        static let single = Layout(
            size: FileHeader.size, slotOffsets: [64, 128], areas: [],
            headerPages: [0..<UInt64(FileHeader.size)], readFormat: 1)

        /// A slot page and a commit area per slot (read format 2).
        static let paired: Layout = {
            let half: UInt64 = 32 << 10
            let page = UInt64(FileHeader.size)
            return Layout(
                size: Int(2 * half), slotOffsets: [64, Int(half) + 64], areas: [page..<half, half + page..<2 * half],
                headerPages: [0..<page, half..<half + page], readFormat: 2)
        }()

        /// The layout this program gives new files.
        static let newFiles = paired

        /// The read format of a new file of this layout: the newest for the paired layout (the
        /// single layout is kept for files of older programs, and for tests that make them).
        var newFileReadFormat: UInt16 { self == .single ? readFormat : FileHeader.readFormat }

        /// The commit area a commit writes into when the newest version is in slot `active`: the
        /// one beside the other slot, which that commit will write (nil without areas).
        func commitArea(afterSlot active: Int) -> Range<UInt64>? {
            areas.isEmpty ? nil : areas[1 - active]
        }

        /// The end of the areas: space below it is header or commit area (0 without areas).
        var areasEnd: UInt64 { areas.last?.upperBound ?? 0 }

        /// The layout named by the header size at offset 8 of page 0, or nil for a value this
        /// program does not know (a newer or damaged file).
        static func of(headerSize: UInt32) -> Layout? {
            switch Int(headerSize) {
            case single.size: single
            case paired.size: paired
            default: nil
            }
        }

        /// The layout of the file mapped at `base` (which holds at least page 0).
        static func of(base: UnsafeRawPointer) -> Layout? {
            of(headerSize: UInt32(littleEndian: base.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
        }

        /// The layout of a file of `fileSize` bytes mapped at `base`, read from sector 0 or, when
        /// sector 0 is not a realmtui header (zeroed, overwritten), from slot 1's sector. Nil when
        /// neither sector names a layout this program knows.
        static func identify(base: UnsafeRawPointer, fileSize: UInt64) -> Layout? {
            if hasMagic(base), let layout = of(base: base) { return layout }
            let second = Int(paired.headerPages[1].lowerBound)
            guard fileSize >= UInt64(second + paired.slotOffsets[0] + slotSize), hasMagic(base + second),
                of(base: base + second) == paired
            else { return nil }
            return paired
        }

        /// Whether the sector at `sector` starts with the magic.
        static func hasMagic(_ sector: UnsafeRawPointer) -> Bool {
            (0..<magic.count).allSatisfy { sector.load(fromByteOffset: $0, as: UInt8.self) == magic[$0] }
        }

        /// Where a write of slot `index` goes and its bytes: in the paired layout the slot's
        /// sector from its start — magic, header size, then the slot — so the sector identifies
        /// the file alone; in the single layout the slot only.
        func slotSector(_ index: Int, bytes slot: [UInt8]) -> (offset: UInt64, bytes: [UInt8]) {
            guard self == .paired else { return (UInt64(slotOffsets[index]), slot) }
            let start = slotOffsets[index] - slotOffsets[0]
            var out = FileHeader.identity(self)
            out += [UInt8](repeating: 0, count: slotOffsets[0] - out.count)
            return (UInt64(start), out + slot)
        }
    }

    struct Slot: Equatable {
        var version: UInt64
        var topRef: UInt64
        var freeRef: UInt64
        var logicalSize: UInt64
        var readFormat: UInt16 = Layout.newFiles.newFileReadFormat
        var writeFormat: UInt16 = FileHeader.writeFormat
        /// The commit record: a node listing every node this commit wrote with its checksum
        /// (0 for none), and the hash of that node's payload. Open verifies it to tell a commit
        /// that reached the disk whole from one cut short by a crash (see `Commit.swift`).
        var commitRef: UInt64 = 0
        var commitHash: UInt64 = 0

        func encoded() -> [UInt8] {
            var out = [UInt8](repeating: 0, count: FileHeader.slotSize)
            out.withUnsafeMutableBytes { raw in
                raw.storeBytes(of: version.littleEndian, toByteOffset: 0, as: UInt64.self)
                raw.storeBytes(of: topRef.littleEndian, toByteOffset: 8, as: UInt64.self)
                raw.storeBytes(of: freeRef.littleEndian, toByteOffset: 16, as: UInt64.self)
                raw.storeBytes(of: logicalSize.littleEndian, toByteOffset: 24, as: UInt64.self)
                raw.storeBytes(of: readFormat.littleEndian, toByteOffset: 32, as: UInt16.self)
                raw.storeBytes(of: writeFormat.littleEndian, toByteOffset: 34, as: UInt16.self)
                raw.storeBytes(of: commitRef.littleEndian, toByteOffset: 40, as: UInt64.self)
                raw.storeBytes(of: commitHash.littleEndian, toByteOffset: 48, as: UInt64.self)
                let sum = Checksum.hash(UnsafeRawBufferPointer(rebasing: raw[0..<56]), seed: 0x5107)
                raw.storeBytes(of: sum.littleEndian, toByteOffset: 56, as: UInt64.self)
            }
            return out
        }

        /// Whether the nodes of this slot's version carry checksums bound to their place
        /// (read format 3 and later; `Node.placeTag`).
        var bindsNodesToPlace: Bool { readFormat >= FileHeader.placeBoundFormat }

        /// The slot's checksum as stored (its identity in the lock file's durable-slot word).
        var checksum: UInt64 {
            encoded().withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 56, as: UInt64.self)) }
        }

        /// Decodes a slot, or nil when its checksum does not match (never written, or torn).
        static func decode(_ raw: UnsafeRawBufferPointer) -> Slot? {
            guard raw.count >= FileHeader.slotSize else { return nil }
            let sum = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 56, as: UInt64.self))
            guard sum == Checksum.hash(UnsafeRawBufferPointer(rebasing: raw[0..<56]), seed: 0x5107) else { return nil }
            func u64(_ o: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: UInt64.self)) }
            func u16(_ o: Int) -> UInt16 { UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: UInt16.self)) }
            return Slot(
                version: u64(0), topRef: u64(8), freeRef: u64(16), logicalSize: u64(24),
                readFormat: u16(32), writeFormat: u16(34), commitRef: u64(40), commitHash: u64(48))
        }
    }

    /// The first 12 bytes of a header sector: magic and header size.
    static func identity(_ layout: Layout) -> [UInt8] {
        var out = magic
        withUnsafeBytes(of: UInt32(layout.size).littleEndian) { out += $0 }
        return out
    }

    /// The bytes of page 0 of a new file of `layout` whose slot 0 holds `slot`.
    static func initial(_ slot: Slot, layout: Layout = .newFiles) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: size)
        out.replaceSubrange(0..<8, with: magic)
        out.withUnsafeMutableBytes {
            $0.storeBytes(of: UInt32(layout.size).littleEndian, toByteOffset: 8, as: UInt32.self)
        }
        out.replaceSubrange(layout.slotOffsets[0]..<layout.slotOffsets[0] + slotSize, with: slot.encoded())
        return out
    }

    /// Reads both slots of the file mapped at `base` with physical size `fileSize`.
    /// Throws `notARealmFile` for foreign files and `newerFormat` for files this program cannot read.
    static func read(base: UnsafeRawPointer, fileSize: UInt64, path: String) throws -> [(index: Int, slot: Slot)] {
        try readHeader(base: base, fileSize: fileSize, path: path).slots
    }

    /// Reads the layout and both slots of the file mapped at `base` with physical size `fileSize`.
    static func readHeader(base: UnsafeRawPointer, fileSize: UInt64, path: String) throws -> (
        layout: Layout, slots: [(index: Int, slot: Slot)]
    ) {
        if fileSize == 0 { throw RealmError.notARealmFile(path: path, reason: "the file is empty") }
        if fileSize < UInt64(size) {
            throw RealmError.notARealmFile(path: path, reason: "the file is too short (\(fileSize) bytes)")
        }
        let head = UnsafeRawBufferPointer(start: base, count: size)
        if !Layout.hasMagic(base), let layout = Layout.identify(base: base, fileSize: fileSize) {
            // Sector 0 is lost; slot 1's sector names the file.
            return (layout, try readSlots(base: base, fileSize: fileSize, layout: layout, path: path))
        }
        if !(0..<6).allSatisfy({ head[$0] == magic[$0] }) {
            if EncryptionHeader.isEncrypted(head) {
                throw RealmError.encryption(path: path, reason: RealmError.missingKeyReason)
            }
            let sqlite = Array("SQLite format 3".utf8)
            let reason: String
            if head.prefix(sqlite.count).elementsEqual(sqlite) {
                reason = "it is an SQLite database"
            } else if head.count >= 24, head[16..<20].elementsEqual("T-DB".utf8) {
                // Realm Core's header: flags bit 0 picks which of the two format bytes is current.
                let format = head[20 + Int(head[23] & 1)]
                reason =
                    "it is a Realm Core file (file format \(format)), which realmtui cannot read yet; "
                    + "export it to JSON with a Realm SDK and 'realmtui import' it"
            } else {
                reason = "unknown file signature"
            }
            throw RealmError.notARealmFile(path: path, reason: reason)
        }
        guard let layout = Layout.of(base: base) else {
            // An unknown header size: a layout of a newer program (its slot 0 says which format).
            let found =
                Slot.decode(UnsafeRawBufferPointer(rebasing: head[64..<64 + slotSize]))?.readFormat ?? readFormat + 1
            throw RealmError.newerFormat(path: path, found: max(found, readFormat + 1), supported: readFormat)
        }
        return (layout, try readSlots(base: base, fileSize: fileSize, layout: layout, path: path))
    }

    /// The valid slots of a file of `layout`, newest first.
    private static func readSlots(base: UnsafeRawPointer, fileSize: UInt64, layout: Layout, path: String) throws -> [(
        index: Int, slot: Slot
    )] {
        // Labelled like the result, so returning it is not an element-wise array cast.
        var slots: [(index: Int, slot: Slot)] = []
        slots.reserveCapacity(2)
        var newest: UInt16 = 0
        for (i, offset) in layout.slotOffsets.enumerated() where UInt64(offset + slotSize) <= fileSize {
            let raw = UnsafeRawBufferPointer(start: base + offset, count: slotSize)
            guard let slot = Slot.decode(raw) else { continue }
            if slot.readFormat > readFormat {
                newest = max(newest, slot.readFormat)
                continue
            }
            guard slot.logicalSize >= UInt64(layout.size), slot.logicalSize <= fileSize,
                slot.topRef < slot.logicalSize, slot.freeRef < slot.logicalSize
            else { continue }
            slots.append((i, slot))
        }
        if slots.isEmpty {
            if newest > 0 { throw RealmError.newerFormat(path: path, found: newest, supported: readFormat) }
            throw RealmError.corruptFile(path: path, offset: 64, reason: "neither commit slot of the header is valid")
        }
        if slots.count == 2 && slots[0].slot.version < slots[1].slot.version { slots.swapAt(0, 1) }
        return slots
    }
}
