extension CommitRecord {
    /// The refs of every node the commit of `slot` wrote, its record included, read from its
    /// commit record (checked against the hash in the slot); nil when the commit has no record
    /// (a large commit) or the record cannot be read.
    static func writtenRefs(of slot: FileHeader.Slot, base: UnsafeRawPointer, path: String) -> [UInt64]? {
        guard slot.commitRef != 0 else { return nil }
        let bytes = FileBytes(base: base, size: slot.logicalSize, path: path, placeBound: slot.bindsNodesToPlace)
        guard let payload = try? bytes.node(slot.commitRef, kind: .commitRecord),
            Checksum.hash(payload) == slot.commitHash, payload.count >= 8
        else { return nil }
        let n = Int(truncatingIfNeeded: UInt64(littleEndian: payload.loadUnaligned(as: UInt64.self)))
        guard n >= 0, n <= (payload.count - 8) / 16 else { return nil }
        var refs = [slot.commitRef]
        refs.reserveCapacity(n + 1)
        for i in 0..<n {
            refs.append(UInt64(littleEndian: payload.loadUnaligned(fromByteOffset: 8 + i * 16, as: UInt64.self)))
        }
        return refs
    }
}
