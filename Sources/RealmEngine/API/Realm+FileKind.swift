import Foundation

extension Realm {
    /// Whether the file at `path` names itself a realmtui database: the encryption header of an
    /// encrypted one, or the realmtui header in sector 0 or (sector 0 lost) in slot 1's sector —
    /// what `Realm(configuration:)` would recognise. False for a file that cannot be read. A
    /// tool that also reads other formats asks this first, so that a damaged realmtui file still
    /// reaches the engine's own recovery.
    public static func isRealmtuiFile(atPath path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let second = Int(FileHeader.Layout.paired.headerPages[1].lowerBound)
        let wanted = second + FileHeader.Layout.paired.slotOffsets[0] + FileHeader.slotSize
        guard let head = try? handle.read(upToCount: wanted), !head.isEmpty else { return false }
        let bytes = [UInt8](head)
        if bytes.withUnsafeBytes({ EncryptionHeader.isEncrypted($0) }) { return true }
        guard bytes.count >= FileHeader.magic.count else { return false }
        return bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return false }
            if FileHeader.Layout.hasMagic(base) { return true }
            // `identify` reads slot 1's sector only when the file is long enough to hold it.
            return FileHeader.Layout.identify(base: base, fileSize: UInt64(raw.count)) != nil
        }
    }
}
