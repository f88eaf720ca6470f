import Foundation
import Testing
@testable import RealmEngine

/// An attacker with write access to an encrypted file (issue 29, item 3): flipping bits in the
/// newer copy of the page holding the newest header slot, or putting back an older ciphertext of
/// a page together with its older metadata entry (or a whole older metadata page), must never
/// open an older version silently. Each outcome is the newest version read normally, an error,
/// or a loud fallback (`recoveredFromDamagedCommit`, and `check` failing or warning).
@Suite(.tags(.integrity)) struct EncryptedReplayTests {
    static let commits = 8

    /// A file with `commits` commits (one person each), the whole file and its lock file after
    /// each commit. Every instance is closed on return.
    static func build(_ configuration: Realm.Configuration, path: String) throws -> (snapshots: [Data], lock: Data) {
        var snapshots: [Data] = []
        do {
            let realm = try Realm(configuration: configuration)
            for i in 0..<commits {
                try realm.write { try realm.create("Person", ["id": .int(Int64(i)), "name": .string("p\(i)")]) }
                snapshots.append(try Data(contentsOf: URL(fileURLWithPath: path)))
            }
        }
        return (snapshots, try Data(contentsOf: URL(fileURLWithPath: LockFile.path(forRealmAt: path))))
    }

    enum Outcome: Equatable {
        case newest, failed, loud
        case silent(String)
    }

    /// Opens the file as a new session would and classifies what it reads.
    static func outcome(_ configuration: Realm.Configuration, path: String, newestVersion: UInt64) -> Outcome {
        let key = configuration.encryptionKey
        do {
            let realm = try Realm(configuration: configuration)
            let count = try realm.objects("Person").count
            let names = try realm.objects("Person").value(forKey: "name")
            // `check` fails, or passes naming what was set aside (item 2's behaviour).
            let report = try? Realm.check(path: path, encryptionKey: key)
            let checkSaysSo = report.map { !$0.warnings.isEmpty } ?? true
            if realm.version == newestVersion && count == commits
                && Set(names) == Set((0..<commits).map { Value.string("p\($0)") })
            {
                return .newest
            }
            // Anything older must be said by the open (every session) and by `check`.
            if realm.recoveredFromDamagedCommit != nil && checkSaysSo { return .loud }
            return .silent(
                "version \(realm.version) of \(newestVersion), \(count) objects, warning: \(realm.recoveryWarning ?? "none")"
            )
        } catch {
            return .failed
        }
    }

    /// Puts the file and its lock file back as they were after the last commit (`lock` nil: the
    /// lock file removed, so that nothing remembers the last version).
    static func restore(_ newest: Data, lock: Data?, path: String) throws {
        try newest.write(to: URL(fileURLWithPath: path))
        let lockPath = LockFile.path(forRealmAt: path)
        if let lock {
            try lock.write(to: URL(fileURLWithPath: lockPath))
        } else {
            try? FileManager.default.removeItem(atPath: lockPath)
        }
    }

    static func counters(_ file: Data, page: Int) -> (UInt64, UInt64) {
        let at = Int(EncryptedFile.metaOffset(page))
        return file.withUnsafeBytes { raw in
            (
                raw.loadUnaligned(fromByteOffset: at, as: UInt64.self),
                raw.loadUnaligned(fromByteOffset: at + PageEntry.size, as: UInt64.self)
            )
        }
    }

    static func configuration(_ path: String) -> Realm.Configuration {
        Realm.Configuration(
            fileURL: URL(fileURLWithPath: path), schema: Fixtures.people, encryptionKey: EncryptionTests.key)
    }

    /// With the lock file and without it: the fallback to the older copy is found in the file.
    @Test(arguments: [true, false])
    func flippedBitsInTheNewerCopyOfTheNewestSlotPageAreNeverSilent(keepLockFile: Bool) throws {
        let dir = TempDir()
        let path = dir.path("db.realm")
        let configuration = Self.configuration(path)
        let (snapshots, lock) = try Self.build(configuration, path: path)
        let newest = try #require(snapshots.last)
        let (newestVersion, slotPage) = try {
            let realm = try Realm(configuration: configuration)
            let first = try #require(try realm.shared.slots().first)
            return (realm.version, EncryptedFile.slotPages[first.index])
        }()
        let (a, b) = Self.counters(newest, page: slotPage)
        let newer = a > b ? 0 : 1
        let base = Int(EncryptedFile.dataOffset(slotPage, copy: newer))
        let entry = Int(EncryptedFile.metaOffset(slotPage)) + newer * PageEntry.size
        // Bits of the ciphertext (a spread sample) and every bit of the entry's counter, IV and MAC.
        let bits =
            Array(stride(from: 3, to: EncryptedFile.pageSize * 8, by: 331)).map { (base, $0) }
            + (0..<56 * 8).filter { $0 % 3 == 0 }.map { (entry, $0) }
        var silent: [String] = []
        for (start, bit) in bits {
            var bytes = newest
            bytes[start + bit / 8] ^= UInt8(1 << (bit % 8))
            try Self.restore(bytes, lock: keepLockFile ? lock : nil, path: path)
            if case .silent(let what) = Self.outcome(configuration, path: path, newestVersion: newestVersion) {
                silent.append("bit \(bit) at \(start): \(what)")
            }
        }
        #expect(
            silent.isEmpty,
            "\(silent.count) of \(bits.count) flips opened an older version silently: \(silent.prefix(5))")
    }

    @Test func replayedOlderPagesAreNeverSilent() throws {
        let dir = TempDir()
        let path = dir.path("db.realm")
        let configuration = Self.configuration(path)
        let (snapshots, lock) = try Self.build(configuration, path: path)
        let newest = try #require(snapshots.last)
        let newestVersion = try Realm(configuration: configuration).version
        let pages = EncryptedFile.logicalPages(physical: UInt64(newest.count))
        // The slot pages, and a sample of the others.
        let sample =
            EncryptedFile.slotPages
            + Array(stride(from: 1, to: pages, by: 2)).filter { !EncryptedFile.slotPages.contains($0) }
        var trials = 0
        var silent: [String] = []
        func trial(_ bytes: Data, _ what: String) throws {
            trials += 1
            try Self.restore(bytes, lock: lock, path: path)
            if case .silent(let found) = Self.outcome(configuration, path: path, newestVersion: newestVersion) {
                silent.append("\(what): \(found)")
            }
        }
        for (n, old) in snapshots.dropLast().enumerated() {
            // The whole metadata page of the first group, as it was after commit n.
            let meta = Int(EncryptedFile.metaOffset(0))
            var bytes = newest
            bytes.replaceSubrange(meta..<meta + EncryptedFile.pageSize, with: old[meta..<meta + EncryptedFile.pageSize])
            if bytes != newest { try trial(bytes, "metadata page after commit \(n)") }
            // One copy of a page with its entry, as they were after commit n.
            for page in sample where EncryptedFile.physicalSize(pages: page + 1) <= UInt64(old.count) {
                for copy in 0..<2 {
                    let data = Int(EncryptedFile.dataOffset(page, copy: copy))
                    let entry = Int(EncryptedFile.metaOffset(page)) + copy * PageEntry.size
                    var bytes = newest
                    bytes.replaceSubrange(
                        data..<data + EncryptedFile.pageSize, with: old[data..<data + EncryptedFile.pageSize])
                    bytes.replaceSubrange(entry..<entry + PageEntry.size, with: old[entry..<entry + PageEntry.size])
                    if bytes != newest { try trial(bytes, "page \(page) copy \(copy) after commit \(n)") }
                }
                // Both copies and both entries.
                let pair = Int(EncryptedFile.dataOffset(page, copy: 0))
                let entries = Int(EncryptedFile.metaOffset(page))
                var both = newest
                both.replaceSubrange(
                    pair..<pair + 2 * EncryptedFile.pageSize, with: old[pair..<pair + 2 * EncryptedFile.pageSize])
                both.replaceSubrange(
                    entries..<entries + 2 * PageEntry.size, with: old[entries..<entries + 2 * PageEntry.size])
                if both != newest { try trial(both, "page \(page) both copies after commit \(n)") }
            }
        }
        #expect(trials > 60)
        #expect(
            silent.isEmpty, "\(silent.count) of \(trials) replays opened an older version silently: \(silent.prefix(5))"
        )
    }
}

/// A power loss while the page of a header slot is written leaves its newer copy failing its
/// HMAC. That commit was never acknowledged (the slot is written before the commit returns), so
/// this is normal operation (issue 29, item 2): `check` passes with a warning naming the version
/// that could not be read. Once that version was acknowledged — the lock file remembers it — the
/// same bytes are a rollback, and `check` fails.
@Suite(.tags(.integrity)) struct TornSlotPageTests {
    /// The file after its last commit with one byte of the newer copy of its newest slot page
    /// changed, as a write cut short leaves it; and the version it had.
    static func tornFile(_ dir: TempDir) throws -> (path: String, lock: Data, newestVersion: UInt64) {
        let path = dir.path("db.realm")
        let configuration = EncryptedReplayTests.configuration(path)
        let (snapshots, lock) = try EncryptedReplayTests.build(configuration, path: path)
        let newest = try #require(snapshots.last)
        let (newestVersion, slotPage) = try {
            let realm = try Realm(configuration: configuration)
            let first = try #require(try realm.shared.slots().first)
            return (realm.version, EncryptedFile.slotPages[first.index])
        }()
        let (a, b) = EncryptedReplayTests.counters(newest, page: slotPage)
        var bytes = newest
        bytes[Int(EncryptedFile.dataOffset(slotPage, copy: a > b ? 0 : 1)) + 2000] ^= 0x5A
        try bytes.write(to: URL(fileURLWithPath: path))
        return (path, lock, newestVersion)
    }

    @Test func aTornSlotPageOfAnUnacknowledgedCommitIsAWarningNotDamage() throws {
        let dir = TempDir()
        let (path, _, newestVersion) = try Self.tornFile(dir)
        try? FileManager.default.removeItem(atPath: LockFile.path(forRealmAt: path))
        let report = try Realm.check(path: path, encryptionKey: EncryptionTests.key)
        #expect(report.version == newestVersion - 1)
        #expect(
            report.warnings.contains { $0.contains("version \(newestVersion)") && $0.contains("cut short") },
            "\(report.warnings)")
        let realm = try Realm(configuration: EncryptedReplayTests.configuration(path))
        #expect(realm.recoveredFromDamagedCommit == newestVersion)
        #expect(realm.recoveryWarning?.contains("version \(newestVersion)") == true)
    }

    @Test func theSameBytesAfterTheCommitWasAcknowledgedFailTheCheck() throws {
        let dir = TempDir()
        let (path, lock, newestVersion) = try Self.tornFile(dir)
        try lock.write(to: URL(fileURLWithPath: LockFile.path(forRealmAt: path)))
        #expect { try Realm.check(path: path, encryptionKey: EncryptionTests.key) } throws: { error in
            guard case RealmError.corruptFile(_, _, let reason) = error else { return false }
            return reason.contains("version \(newestVersion)")
        }
    }
}
