/// The first 4 KiB of every file: a magic string and two commit slots (LMDB's two meta pages).
///
/// ```
/// 0    "RLMTUI\0\u{1}"          magic (8 bytes)
/// 8    header size (UInt32)     4096
/// 64   slot 0 (64 bytes)
/// 128  slot 1 (64 bytes)
/// slot: version u64 | topRef u64 | freeRef u64 | logicalSize u64 |
///       readFormat u16 | writeFormat u16 | flags u32 | commitRef u64 | commitHash u64 | checksum u64
/// ```
/// A commit writes the *inactive* slot (the one with the lower version, or an invalid one) and
/// never touches the active one, so a torn header write can only damage a slot that open ignores.
/// Open takes the valid slot (checksum and format right) with the highest version.
///
/// `readFormat` is the oldest program format that can read the file; `writeFormat` the oldest
/// that may write it (SQLite's split): a newer read format is refused, a newer write format
/// opens read-only.
struct FileHeader {
    static let size = 4096
    static let magic: [UInt8] = Array("RLMTUI".utf8) + [0, 1]
    static let slotOffsets = [64, 128]
    static let slotSize = 64
    /// The format this program writes and the newest it reads. Write format 2: the free list is
    /// chunked (`FreeSpace+Chunks.swift`); a program of write format 1 would misread it, so it
    /// opens such files read-only. Reading the data did not change, so the read format stays 1.
    static let readFormat: UInt16 = 1
    static let writeFormat: UInt16 = 2

    struct Slot: Equatable {
        var version: UInt64
        var topRef: UInt64
        var freeRef: UInt64
        var logicalSize: UInt64
        var readFormat: UInt16 = FileHeader.readFormat
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

        /// Decodes a slot, or nil when its checksum does not match (never written, or torn).
        static func decode(_ raw: UnsafeRawBufferPointer) -> Slot? {
            guard raw.count >= FileHeader.slotSize else { return nil }
            let sum = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 56, as: UInt64.self))
            guard sum == Checksum.hash(UnsafeRawBufferPointer(rebasing: raw[0..<56]), seed: 0x5107) else { return nil }
            func u64(_ o: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: UInt64.self)) }
            func u16(_ o: Int) -> UInt16 { UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: UInt16.self)) }
            return Slot(version: u64(0), topRef: u64(8), freeRef: u64(16), logicalSize: u64(24),
                        readFormat: u16(32), writeFormat: u16(34), commitRef: u64(40), commitHash: u64(48))
        }
    }

    /// The bytes of a new header whose slot 0 holds `slot`.
    static func initial(_ slot: Slot) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: size)
        out.replaceSubrange(0..<8, with: magic)
        out.withUnsafeMutableBytes { $0.storeBytes(of: UInt32(size).littleEndian, toByteOffset: 8, as: UInt32.self) }
        out.replaceSubrange(slotOffsets[0]..<slotOffsets[0] + slotSize, with: slot.encoded())
        return out
    }

    /// Reads both slots of the file mapped at `base` with physical size `fileSize`.
    /// Throws `notARealmFile` for foreign files and `newerFormat` for files this program cannot read.
    static func read(base: UnsafeRawPointer, fileSize: UInt64, path: String) throws -> [(index: Int, slot: Slot)] {
        if fileSize == 0 { throw RealmError.notARealmFile(path: path, reason: "the file is empty") }
        if fileSize < UInt64(size) { throw RealmError.notARealmFile(path: path, reason: "the file is too short (\(fileSize) bytes)") }
        let head = UnsafeRawBufferPointer(start: base, count: size)
        if !head.prefix(6).elementsEqual(magic.prefix(6)) {
            let sqlite = Array("SQLite format 3".utf8)
            let reason = head.prefix(sqlite.count).elementsEqual(sqlite) ? "it is an SQLite database" : "unknown file signature"
            throw RealmError.notARealmFile(path: path, reason: reason)
        }
        var slots: [(Int, Slot)] = []
        var newest: UInt16 = 0
        for (i, offset) in slotOffsets.enumerated() {
            guard let slot = Slot.decode(UnsafeRawBufferPointer(rebasing: head[offset..<offset + slotSize])) else { continue }
            if slot.readFormat > readFormat { newest = max(newest, slot.readFormat); continue }
            guard slot.logicalSize >= UInt64(size), slot.logicalSize <= fileSize,
                  slot.topRef < slot.logicalSize, slot.freeRef < slot.logicalSize else { continue }
            slots.append((i, slot))
        }
        if slots.isEmpty {
            if newest > 0 { throw RealmError.newerFormat(path: path, found: newest, supported: readFormat) }
            throw RealmError.corruptFile(path: path, offset: 64, reason: "neither commit slot of the header is valid")
        }
        return slots.sorted { $0.1.version > $1.1.version }
    }
}
