/// The commit protocol.
///
/// Invariants:
/// 1. A commit never overwrites a byte that the last committed version, or any version a reader
///    has pinned, can reach: every changed node goes to space the free list says is reusable
///    (`FreeSpace`, invariant 2), or past the old end of the file.
/// 2. The header slot naming the new version is written only after every node it reaches is
///    durable, and into the slot that does *not* hold the newest committed version.
/// 3. A version is published in the lock file only after its slot is durable; readers pin only
///    published versions (or newer slots found in the file).
///
/// Steps, and what the file looks like if the process (or the machine) dies right there:
///
/// | step | action                                              | after a crash here                                  |
/// |------|-----------------------------------------------------|-----------------------------------------------------|
/// | 1    | take the write lock, open the newest version        | nothing written; the kernel drops the OFD lock      |
/// | 2    | write changed nodes, top node, free list (pwrite)   | old slot still newest; new nodes lie in free space  |
/// | 3    | fdatasync                                           | same: the new nodes are unreachable                 |
/// | 4    | write the inactive slot (64 bytes)                  | torn slot fails its checksum → old version opens;   |
/// |      |                                                     | whole slot on disk → new version opens (complete)   |
/// | 5    | fdatasync                                           | the new version is durable                          |
/// | 6    | publish the version in the lock file, wake waiters  | readers find the newer slot in the file anyway      |
/// | 7    | release the write lock                              | —                                                   |
///
/// Two barriers per commit (steps 3 and 5). A single-barrier scheme would need the slot to carry
/// a checksum over every node it reaches; we keep two and measure (see the benchmark).
extension WriteTransaction {
    /// Makes the transaction durable and returns the new slot. The caller publishes and unlocks.
    func commit() throws -> FileHeader.Slot {
        precondition(!ended, "commit on an ended transaction")
        defer { ended = true }
        let layout = self.layout
        // Step 2: write every changed node, children first.
        for ci in state.tables.indices {
            if var root = state.tables[ci].root {
                try writer.seal(&root, columns: layout.tables[ci].columns)
                state.tables[ci].root = root
            }
            for (column, tree) in state.tables[ci].indexes {
                if var t = tree {
                    try writer.seal(&t, columns: nil)
                    state.tables[ci].indexes[column] = .some(t)
                }
            }
        }
        var schemaRef = base.schemaRef
        if let newSchema {
            try writer.release(base.schemaRef)
            schemaRef = try writer.write(kind: .schema, payload: SchemaNode.payload(newSchema.schema, schemaVersion: newSchema.schemaVersion))
        }
        let changeLogRef = try ChangeLog.append(changes, to: base.changeLogRef, version: writer.newVersion, writer: writer,
                                                layout: layout)
        try writer.release(base.topRef)
        let top = TopNode(schemaRef: schemaRef, changeLogRef: changeLogRef, tables: state.tables)
        let topRef = try writer.write(kind: .top, payload: top.payload())
        let freeRef = try writeFreeList()
        // Step 3.
        try shared.file.sync()
        // Step 4: the inactive slot.
        let slot = FileHeader.Slot(version: writer.newVersion, topRef: topRef, freeRef: freeRef, logicalSize: writer.free.logicalSize)
        let slots = try shared.slots()
        let active = slots.first?.index ?? 0
        let offset = FileHeader.slotOffsets[1 - active]
        try slot.encoded().withUnsafeBytes { try shared.file.write($0, at: UInt64(offset)) }
        // Step 5.
        try shared.file.sync()
        return slot
    }

    /// Writes the free list copy-on-write: frees the old list's node, reserves room for the new one
    /// (allocation never adds an entry), then writes the list — which counts its own node as used.
    private func writeFreeList() throws -> UInt64 {
        try writer.release(baseFreeRef)
        let estimate = writer.free.payload(reserveEntries: 2).count + 2 * 24
        let total = Node.aligned(Node.headerSize + estimate)
        let ref = writer.free.allocate(total)
        if writer.free.logicalSize > (try shared.file.physicalSize()) {
            try shared.file.grow(to: writer.free.logicalSize)
        }
        var payload = writer.free.payload()
        // Pad so the node fills exactly the reserved extent.
        payload += [UInt8](repeating: 0, count: max(0, total - Node.headerSize - payload.count))
        let node = Node.build(kind: .freeList, payload: payload)
        try node.withUnsafeBytes { try shared.file.write($0, at: ref) }
        return ref
    }
}
