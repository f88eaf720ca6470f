import Foundation

/// Copies, compaction and deleting a Realm's files.
extension Realm {
    /// Writes a compacted copy of the version this instance reads to a new file: every object
    /// keeps its key, so links and backlinks carry over unchanged; nodes are written densely and
    /// no free space is carried along. Fails if `path` exists.
    ///
    /// The copy is encrypted with `encryptionKey` (64 bytes) when one is given and plain
    /// otherwise, whatever this Realm's own key: a copy encrypts, decrypts or re-keys.
    ///
    /// The copy is written under a temporary name in the same folder and takes the name `path`
    /// only once it is complete and durable (`StagedFile`): a process killed meanwhile leaves no
    /// file at `path`.
    public func writeCopy(toFile path: String, encryptionKey: Data? = nil) throws {
        if let key = encryptionKey, key.count != PageCipher.keySize {
            throw RealmError.encryption(
                path: path, reason: "an encryption key must be \(PageCipher.keySize) bytes, got \(key.count)")
        }
        try checkThread()
        try StagedFile.create(path, what: "writeCopy") { temporary in
            try writeUnstagedCopy(toFile: temporary, encryptionKey: encryptionKey)
        }
    }

    /// `writeCopy` straight into `path` (a name no one else uses), deleting it if it fails.
    func writeUnstagedCopy(toFile path: String, encryptionKey: Data?) throws {
        if FileManager.default.fileExists(atPath: path) {
            throw RealmError.invalidInput("\(path) already exists; writeCopy does not overwrite files")
        }
        let source = try readView
        do {
            // The copy continues the source's version numbers, so a lock file that outlives a
            // compaction never names a version newer than the file's.
            let shared = try SharedFile.open(
                path: path, readOnly: false, create: true, encryptionKey: encryptionKey.map { [UInt8]($0) })
            try Realm.initialize(
                shared, schema: source.schema, schemaVersion: source.schemaVersion, version: source.version)
            let copy = try Realm(
                configuration: .init(
                    fileURL: URL(fileURLWithPath: path), schema: source.schema,
                    schemaVersion: source.schemaVersion, encryptionKey: encryptionKey))
            try copy.beginWrite()
            guard let t = copy.transaction else { throw RealmError.notInWriteTransaction }
            for ci in source.schema.objectSchemas.indices {
                let columns = source.layout.tables[ci].columns
                // Every node read here is verified (`FileBytes.anyNode`): damage stops the copy
                // instead of being written out with fresh checksums.
                if let root = source.tables[ci].root {
                    try source.naming(ci) {
                        try source.reader.forEachLeaf(root) { leaf in
                            let c = try ClusterAccess(leaf, columns: columns, path: source.bytes.path)
                            for r in 0..<c.count {
                                try t.copyRow(
                                    ci, key: ObjectKey(c.key(at: r)),
                                    row: (0..<columns.count).map { c.value(row: r, column: $0) })
                            }
                            return true
                        }
                    }
                }
                t.state.tables[ci].nextKey = max(t.state.tables[ci].nextKey, source.tables[ci].nextKey)
            }
            try copy.commitWrite()
            // A second, empty commit puts the data in the other slot too: otherwise that slot
            // still names the empty version the copy started from, and losing the newest slot's
            // sector would open an empty database that `check` accepts.
            try copy.beginWrite()
            try copy.commitWrite()
            // Drop the growth reserve: a copy is as small as its data.
            try copy.shared.file.truncate(to: copy.snapshot.bytes.size)
            try copy.shared.file.sync()
            try PosixSync.syncDirectory(of: path)
        } catch {
            try? Realm.deleteFiles(for: path)
            throw error
        }
    }

    /// Whether `condition` holds now or within half a second. An instance closed just before
    /// may still be letting go of the file: its last reference can drop on the notifier thread,
    /// which closes the file a moment later, so "open" is only believed after a short wait.
    private static func settles(_ condition: () throws -> Bool) rethrows -> Bool {
        for _ in 0..<20 {
            if try condition() { return true }
            usleep(25_000)
        }
        return try condition()
    }

    /// Compacts the file at `path` in place: writes a compacted copy beside it and renames it
    /// over the original. Refuses (`RealmError.busy`) while any other instance or process has
    /// the file open. Returns the file size before and after. An encrypted file needs its
    /// `encryptionKey` and stays encrypted with it.
    @discardableResult
    public static func compact(path: String, encryptionKey: Data? = nil) throws -> (before: UInt64, after: UInt64) {
        let canonical = URL(fileURLWithPath: path).standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: canonical) else { throw RealmError.fileNotFound(path: canonical) }
        if !settles({ !SharedFile.isOpenInProcess(path: canonical) }) {
            throw RealmError.busy("\(canonical) is open in this process; close it before compacting")
        }
        let before = (try FileManager.default.attributesOfItem(atPath: canonical)[.size] as? NSNumber)?.uint64Value ?? 0
        // A name of its own (and the stale ones of killed compactions gone): a fixed name was
        // deleted by a second compaction starting while the first still wrote it.
        let temp = StagedFile.temporaryPath(for: canonical)
        StagedFile.removeStale(for: canonical)
        do {
            let realm = try Realm(
                configuration: .init(
                    fileURL: URL(fileURLWithPath: canonical), encryptionKey: encryptionKey,
                    createIfMissing: false))
            guard try settles({ try realm.shared.lock.tryExclusiveOpen() }) else {
                throw RealmError.busy("\(canonical) is open in another process; compact refuses to run while it is")
            }
            // Holding the open lock exclusively: no other process can open the file until we finish.
            try realm.shared.lock.lockWriter()
            defer {
                realm.shared.lock.unlockWriter()
                try? realm.shared.lock.holdSharedOpenLock()
            }
            // Copies the newest version or fails: a copy of an older one would drop commits.
            try realm.checkedRefresh()
            try realm.writeUnstagedCopy(toFile: temp, encryptionKey: encryptionKey)
            if SystemCalls.rename(temp, canonical) != 0 {
                throw DatabaseFile.ioError(canonical, "rename")
            }
            // Without this a crash could bring the old file back (or lose both names).
            try PosixSync.syncDirectory(of: canonical)
            try? FileManager.default.removeItem(atPath: temp + ".lock")
        } catch {
            try? deleteFiles(for: temp)
            throw error
        }
        let after = (try FileManager.default.attributesOfItem(atPath: canonical)[.size] as? NSNumber)?.uint64Value ?? 0
        return (before, after)
    }

    /// Deletes a Realm file and its auxiliary files (`.lock`, `.management`). Harmless when the
    /// files do not exist; do not call it while an instance has the file open.
    public static func deleteFiles(for path: String) throws {
        let fm = FileManager.default
        for p in [path, path + ".lock", path + ".management", path + ".note"] where fm.fileExists(atPath: p) {
            try fm.removeItem(atPath: p)
        }
    }
}

extension Realm {
    /// Blocks until every Realm file this process opened is closed — its descriptors and
    /// mappings, and its lock file's, released with its last instance, notifier thread and
    /// frozen snapshots — or `timeout` passed; returns whether they were. The last reference to
    /// a file may drop on a notifier thread or a delivery queue a moment after the caller let
    /// go of its instances: tools and tests that count the process's descriptors wait for this
    /// event instead of guessing a delay.
    public static func waitUntilFilesAreClosed(timeout: Duration) -> Bool {
        OpenFiles.waitUntilNone(timeout: timeout)
    }
}
