import Foundation
import Testing
@testable import RealmEngine

#if canImport(Glibc)
    import Glibc
#endif

/// Another instance commits a version whose top node then fails its checksum (a damaged sector,
/// an HMAC failure on an encrypted page). An instance that tries to move to it must neither leak
/// the reader slot it claimed for it nor go on reading a version that nothing pins any more.
///
/// The reader opens the file read-only: a `SharedFile` of its own (mapping, verified nodes),
/// as another process has, so the writer's cache of the nodes it just wrote does not hide the
/// damage from it.
@Suite(.tags(.integrity)) struct DamagedNewestVersionTests {
    /// Flips a byte in the payload of the newest version's top node; returns that version.
    static func damageNewestTop(_ path: String) throws -> UInt64 {
        let newest = try FileDamage.newestSlot(path).slot
        try FileDamage.flipPayloadByte(path, nodeAt: newest.topRef)
        return newest.version
    }

    /// Flips a byte in the newest version's top node of an encrypted file: in both copies of
    /// the page that holds it, so the page fails its HMAC whichever copy is current.
    static func damageNewestTopPage(_ path: String, newest: FileHeader.Slot) throws -> UInt64 {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        let byte = Int(newest.topRef) + Node.headerSize + 1
        for copy in 0..<2 {
            let offset =
                EncryptedFile.dataOffset(byte / EncryptedFile.pageSize, copy: copy)
                + UInt64(byte % EncryptedFile.pageSize)
            try handle.seek(toOffset: offset)
            let old = try #require(try handle.read(upToCount: 1)).first ?? 0
            try handle.seek(toOffset: offset)
            handle.write(Data([old ^ 0x5A]))
        }
        return newest.version
    }

    /// A writer with 200 people, a read-only reader on that version, then a commit through the
    /// writer that renames everyone (so the reader's leaves are freed by it), whose top node is
    /// then damaged — in an encrypted file, the page holding it fails its HMAC.
    static func readerBehindADamagedVersion(_ dir: TempDir, encrypted: Bool = false) throws -> (
        reader: Realm, writer: Realm, old: UInt64
    ) {
        let url = URL(fileURLWithPath: dir.path("damaged-newest.realm"))
        let key = encrypted ? EncryptionTests.key : nil
        let writer = try Realm(configuration: .init(fileURL: url, schema: Fixtures.people, encryptionKey: key))
        try writer.write {
            for i in 0..<200 { try writer.create("Person", ["id": .int(Int64(i)), "name": .string("p\(i)")]) }
        }
        let reader = try Realm(configuration: .init(fileURL: url, readOnly: true, encryptionKey: key))
        let old = reader.version
        try Self.renameEveryone(writer, "q")
        let damaged =
            if encrypted {
                try Self.damageNewestTopPage(url.path, newest: try #require(try writer.shared.slots().first?.slot))
            } else {
                try Self.damageNewestTop(url.path)
            }
        #expect(damaged == old + 1)
        return (reader, writer, old)
    }

    static func renameEveryone(_ realm: Realm, _ prefix: String) throws {
        try realm.write {
            for person in try realm.objects("Person") {
                try person.setValue(Value.string(prefix + "\(person.key.rawValue)"), forKey: "name")
            }
        }
    }

    /// Whether a reader slot of this process pins `version`.
    static func pinned(_ version: UInt64, in realm: Realm) -> Bool {
        realm.shared.lock.occupiedReaderSlots().contains { $0.pid == getpid() && $0.version == version }
    }

    @Test(arguments: [false, true]) func readsAfterInvalidateLeakNoSlotAndNeverAnswerFromAnUnpinnedVersion(
        encrypted: Bool
    ) throws {
        let dir = TempDir()
        let (reader, writer, _) = try Self.readerBehindADamagedVersion(dir, encrypted: encrypted)
        defer { withExtendedLifetime(writer) {} }
        reader.invalidate()
        let occupied = reader.shared.lock.occupiedReaderSlots().count
        for _ in 0..<10 {
            do {
                let count = try reader.objects("Person").checkedCount()
                #expect(
                    Self.pinned(reader.version, in: reader),
                    "\(count) objects read from version \(reader.version), which nothing pins")
            } catch RealmError.corruptFile {
                // The newest version cannot be read: said, not answered from an older one.
            }
        }
        #expect(reader.shared.lock.occupiedReaderSlots().count == occupied)
    }

    @Test func openingOverADamagedNewestVersionThrowsAndLeaksNoSlot() throws {
        let dir = TempDir()
        let (reader, writer, _) = try Self.readerBehindADamagedVersion(dir)
        let occupied = reader.shared.lock.occupiedReaderSlots().count
        for _ in 0..<10 {
            #expect {
                _ = try Realm(path: writer.path, readOnly: true)
            } throws: { error in
                guard case RealmError.corruptFile = error else { return false }
                return true
            }
        }
        #expect(reader.shared.lock.occupiedReaderSlots().count == occupied)
    }

    @Test(arguments: [false, true]) func aFailedRefreshKeepsTheOldVersionPinned(encrypted: Bool) throws {
        let dir = TempDir()
        let (reader, writer, old) = try Self.readerBehindADamagedVersion(dir, encrypted: encrypted)
        let before = try Dump(reader)
        #expect(!reader.refresh())
        #expect {
            try reader.checkedRefresh()
        } throws: { error in
            guard case RealmError.corruptFile = error else { return false }
            return true
        }
        #expect(reader.version == old)
        #expect(Self.pinned(old, in: reader))
        #expect(reader.shared.lock.oldestPinnedVersion() == old)
        // Commits that could reuse the pages the rename freed, were the old version not pinned.
        try Self.renameEveryone(writer, "r")
        try Self.renameEveryone(writer, "s")
        #expect(try Dump(reader).objects == before.objects)
    }

    /// The notifier cannot pin the newest version to compute at: the observer hears why, rather
    /// than waiting for notifications that never come, and no slot is left claimed.
    @Test func anObserverOfADamagedNewestVersionGetsItsError() throws {
        let dir = TempDir()
        let (reader, writer, _) = try Self.readerBehindADamagedVersion(dir)
        defer { withExtendedLifetime(writer) {} }
        let occupied = reader.shared.lock.occupiedReaderSlots().count
        var failure: Error?
        var delivered = 0
        let token = try reader.objects("Person").observe { change in
            delivered += 1
            if case .error(let error) = change { failure = error }
        }
        defer { token.invalidate() }
        pumpRunLoop { failure != nil }
        #expect(
            failure.map { if case RealmError.corruptFile = $0 { true } else { false } } == true,
            "\(String(describing: failure))")
        #expect(delivered == 1)
        #expect(reader.shared.lock.occupiedReaderSlots().count == occupied)
    }

    /// On a queue, the observer's instance of the file cannot be opened either (its newest
    /// version is damaged): the results, object and Realm observers each hear why. Before, the
    /// queue's instance was opened with `try?` at the first delivery, and every delivery was
    /// dropped in silence.
    @Test func queueObserversOfADamagedNewestVersionGetTheirError() throws {
        let dir = TempDir()
        let (reader, writer, _) = try Self.readerBehindADamagedVersion(dir)
        defer { withExtendedLifetime(writer) {} }
        let queue = DispatchQueue(label: "damaged-observer")
        let seen = NotificationDeliveryTests.Counter()
        func report(_ kind: String, _ error: Error?) {
            let corrupt = error.map { if case RealmError.corruptFile = $0 { true } else { false } } ?? false
            seen.add(corrupt ? "\(kind): corrupt" : "\(kind): \(String(describing: error))")
        }
        let results = try reader.objects("Person").observe(on: queue) { change in
            if case .error(let error) = change { report("results", error) } else { report("results", nil) }
        }
        let person = try #require(try reader.objects("Person").first)
        let object = person.observe(on: queue) { change in
            if case .error(let error) = change { report("object", error) } else { report("object", nil) }
        }
        let realm = reader.observe(on: queue, failure: { report("realm", $0) }) { _, _ in report("realm", nil) }
        defer { [results, object, realm].forEach { $0.invalidate() } }
        // No deadline: a loaded machine delivers late; the expectation below checks what came.
        while seen.count < 3 { Thread.sleep(forTimeInterval: 0.01) }
        Thread.sleep(forTimeInterval: 0.1)  // a window for a fourth delivery that must not come
        queue.sync {}
        #expect(seen.all.sorted() == ["object: corrupt", "realm: corrupt", "results: corrupt"])
    }

    /// `watchLines`, the core of `realmtui watch`, moves by refreshing: a newest version it
    /// cannot read ends it with that error, rather than with silence until it is stopped.
    @Test func watchLinesEndsWithTheErrorOfANewestVersionItCannotRead() throws {
        let dir = TempDir()
        let path = dir.path("watched.realm")
        let writer = try Realm(path: path, schema: Fixtures.people)
        try writer.write { try writer.create("Person", ["id": .int(1), "name": .string("one")]) }
        // Nothing stops the watch but the error: a stop after 5 s ended a slow, correct watch
        // before its refresh on a loaded machine (a watch that went on would hang where CI's
        // job limit reports it).
        let control = WatchControl()
        var lines: [String] = []
        #expect {
            try watchLines(path: path, className: "Person", predicate: "", sort: [], maxEvents: nil, control: control) {
                line in
                lines.append(line)
                guard lines.count == 1 else { return }
                // Between the initial line and the watch's next refresh: a commit, then damage.
                do {
                    try writer.write { try writer.create("Person", ["id": .int(2), "name": .string("two")]) }
                    _ = try Self.damageNewestTop(path)
                } catch {
                    Issue.record(error)
                    control.stop()  // no damage to end the watch: end it here
                }
            }
        } throws: { error in
            guard case RealmError.corruptFile = error else { return false }
            return true
        }
        #expect(lines.count == 1, "\(lines)")
    }
}
