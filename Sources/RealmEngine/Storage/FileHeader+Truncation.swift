/// A file shorter than its header says.
///
/// A commit makes the file's growth durable before it writes a slot naming the grown size: a
/// large commit by its first barrier, a small one by an extra barrier when it grew the file
/// (`Commit.swift`; growth comes in steps of an eighth of the file or more, so that is rare).
/// So no slot whose bytes are on disk names more than the file's durable length, and a valid
/// slot past the end of the file means the file was cut short after the fact — an interrupted
/// copy or download, `truncate -s` — never a torn commit. Falling back to the other slot would
/// then open an older version, often the empty one the file was created with, and the next
/// write would build on it: the data would be gone for good. Open refuses such a file instead.
extension FileHeader {
    /// Throws `corruptFile` naming both sizes when the file mapped at `base` (of physical size
    /// `fileSize`, at least one page, with a known layout) is shorter than its header or than
    /// the logical size any checksum-valid slot records.
    static func checkNotTruncated(base: UnsafeRawPointer, fileSize: UInt64, path: String) throws {
        guard fileSize >= UInt64(size),
            (0..<magic.count).allSatisfy({ base.load(fromByteOffset: $0, as: UInt8.self) == magic[$0] }),
            let layout = Layout.of(base: base)
        else { return }
        var needed: UInt64 = 0
        for offset in layout.slotOffsets where UInt64(offset + slotSize) <= fileSize {
            guard let slot = Slot.decode(UnsafeRawBufferPointer(start: base + offset, count: slotSize)),
                slot.readFormat <= readFormat
            else { continue }
            needed = max(needed, max(slot.logicalSize, UInt64(layout.size)))
        }
        guard fileSize < needed else { return }
        throw RealmError.corruptFile(
            path: path, offset: fileSize,
            reason:
                "the file is \(groupedDigits(fileSize)) bytes but its header needs \(groupedDigits(needed)): it was truncated"
        )
    }

    /// `n` in decimal with a comma every three digits ("3,848,584"), for messages.
    static func groupedDigits(_ n: UInt64) -> String {
        let digits = Array(String(n))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return out
    }
}
