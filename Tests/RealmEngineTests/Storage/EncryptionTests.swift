import Foundation
import Testing
@testable import RealmEngine

/// Encrypted files (`EncryptedFile`, `PageCipher`): confidentiality, the key checks, tampering,
/// copies, and commits seen across files and processes.
@Suite(.tags(.multiProcess)) struct EncryptionTests {
    static let key = Data((0..<64).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) })
    static let otherKey = Data((0..<64).map { UInt8(truncatingIfNeeded: $0 * 5 + 1) })

    static func open(_ path: String, key: Data? = Self.key, readOnly: Bool = false) throws -> Realm {
        try Realm(
            configuration: .init(
                fileURL: URL(fileURLWithPath: path), readOnly: readOnly, schema: readOnly ? nil : Fixtures.people,
                encryptionKey: key))
    }

    static func makeFido(_ path: String, key: Data? = Self.key) throws {
        let realm = try open(path, key: key)
        try realm.write {
            try realm.create("Dog", ["name": .string("Fido"), "age": .int(3)])
            for i in 0..<200 {
                try realm.create("Person", ["id": .int(Int64(i)), "name": .string("person number \(i)")])
            }
        }
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    static func encryptionReason(_ body: () throws -> Void) -> String? {
        do { try body() } catch RealmError.encryption(_, let reason) { return reason } catch {
            return "other error: \(error)"
        }
        return nil
    }

    @Test func dataRoundTripsAndNeverAppearsInClearText() throws {
        let dir = TempDir()
        let path = dir.path("e.realm")
        try Self.makeFido(path)
        let raw = try Self.bytes(path)
        #expect(raw.range(of: Data("Fido".utf8)) == nil)
        #expect(raw.range(of: Data("person number".utf8)) == nil)
        #expect(raw.range(of: Data("Person".utf8)) == nil, "the schema is encrypted too")
        let realm = try Self.open(path)
        #expect(try realm.objects("Dog").count == 1)
        #expect(try realm.objects("Dog").object(at: 0)["name"] == .string("Fido"))
        #expect(try realm.objects("Person").filter("name == 'person number 150'").count == 1)
        _ = try realm.checkIntegrity()
    }

    @Test func wrongMissingAndMisplacedKeysAreClearErrors() throws {
        let dir = TempDir()
        let path = dir.path("e.realm")
        try Self.makeFido(path)
        #expect(Self.encryptionReason { _ = try Self.open(path, key: Self.otherKey) } == "wrong encryption key")
        #expect(
            Self.encryptionReason { _ = try Self.open(path, key: nil, readOnly: true) }
                == "the file is encrypted: give its key")
        #expect(Self.encryptionReason { _ = try Realm.check(path: path) } == "the file is encrypted: give its key")
        #expect(
            Self.encryptionReason { _ = try Self.open(path, key: Data(count: 32)) }
                == "an encryption key must be 64 bytes, got 32")
        let plain = dir.path("plain.realm")
        try Self.makeFido(plain, key: nil)
        #expect(
            Self.encryptionReason { _ = try Self.open(plain) }
                == "the file is not encrypted: open it without an encryption key")
        // While the file is open in this process, a second opener's key is still checked.
        let open = try Self.open(path)
        #expect(Self.encryptionReason { _ = try Self.open(path, key: Self.otherKey) } == "wrong encryption key")
        #expect(Self.encryptionReason { _ = try Self.open(path, key: nil) } == "the file is encrypted: give its key")
        _ = open
        // Nothing was written by the failed opens.
        #expect(try Self.open(path).objects("Dog").count == 1)
    }

    @Test func aTamperedPageIsCorruptFileNamingThePage() throws {
        let dir = TempDir()
        let path = dir.path("e.realm")
        try Self.makeFido(path)
        var raw = [UInt8](try Self.bytes(path))
        // One bit in each copy of logical page 0 (the first slot's page).
        for copy in 0..<2 { raw[Int(EncryptedFile.dataOffset(0, copy: copy)) + 100] ^= 0x10 }
        try Data(raw).write(to: URL(fileURLWithPath: path))
        do {
            _ = try Self.open(path)
            Issue.record("a tampered page opened")
        } catch RealmError.corruptFile(_, let offset, let reason) {
            #expect(offset == 0)
            #expect(reason.contains("page 0 failed its integrity check"))
        }
    }

    @Test func aTamperedNodePageIsFoundByCheck() throws {
        let dir = TempDir()
        let path = dir.path("e.realm")
        try Self.makeFido(path)
        var raw = [UInt8](try Self.bytes(path))
        // Every copy of every page past the header area: the data is in some of them.
        let pages = EncryptedFile.logicalPages(physical: UInt64(raw.count))
        for page in 16..<pages { for copy in 0..<2 { raw[Int(EncryptedFile.dataOffset(page, copy: copy)) + 9] ^= 1 } }
        try Data(raw).write(to: URL(fileURLWithPath: path))
        #expect(throws: RealmError.self) { _ = try Realm.check(path: path, encryptionKey: Self.key) }
        do {
            _ = try Realm.check(path: path, encryptionKey: Self.key)
        } catch RealmError.corruptFile(_, _, let reason) {
            #expect(reason.contains("failed its integrity check"))
        }
    }

    @Test func writeCopyEncryptsDecryptsAndRekeys() throws {
        let dir = TempDir()
        let plainPath = dir.path("plain.realm")
        try Self.makeFido(plainPath, key: nil)
        let plain = try Self.open(plainPath, key: nil)
        let encrypted = dir.path("encrypted.realm")
        try plain.writeCopy(toFile: encrypted, encryptionKey: Self.key)
        #expect(try Self.bytes(encrypted).range(of: Data("Fido".utf8)) == nil)
        let e = try Self.open(encrypted)
        #expect(try e.objects("Person").count == 200)
        let rekeyed = dir.path("rekeyed.realm")
        try e.writeCopy(toFile: rekeyed, encryptionKey: Self.otherKey)
        #expect(try Self.open(rekeyed, key: Self.otherKey).objects("Dog").object(at: 0)["name"] == .string("Fido"))
        #expect(Self.encryptionReason { _ = try Self.open(rekeyed) } == "wrong encryption key")
        let decrypted = dir.path("decrypted.realm")
        try e.writeCopy(toFile: decrypted)
        #expect(try Self.bytes(decrypted).range(of: Data("Fido".utf8)) != nil)
        #expect(try Self.open(decrypted, key: nil).objects("Person").count == 200)
        #expect(
            Self.encryptionReason { try e.writeCopy(toFile: dir.path("short.realm"), encryptionKey: Data(count: 3)) }
                == "an encryption key must be 64 bytes, got 3")
    }

    @Test func compactCheckAndRecoverTakeTheKey() throws {
        let dir = TempDir()
        let path = dir.path("e.realm")
        try Self.makeFido(path)
        do {
            let realm = try Self.open(path)
            try realm.write { try realm.delete(try realm.objects("Person").filter("id >= 20")) }
        }
        let report = try Realm.check(path: path, encryptionKey: Self.key)
        #expect(report.fileBytes > 0)
        let (before, after) = try Realm.compact(path: path, encryptionKey: Self.key)
        #expect(after <= before)
        #expect(try Self.bytes(path).range(of: Data("Fido".utf8)) == nil)
        #expect(try Self.open(path).objects("Person").count == 20)
        let recovered = dir.path("recovered.realm")
        let rec = try Realm.recover(from: path, to: recovered, encryptionKey: Self.key)
        #expect(rec.lost.isEmpty)
        #expect(try Self.open(recovered).objects("Person").count == 20)
    }

    @Test func manyCommitsGrowthAndCancelStayReadable() throws {
        let dir = TempDir()
        let path = dir.path("e.realm")
        let realm = try Self.open(path)
        for round in 0..<30 {
            try realm.write {
                for i in 0..<100 {
                    let id = Int64(round * 100 + i)
                    try realm.create(
                        "Person", ["id": .int(id), "name": .string(String(repeating: "n", count: 10 + i))])
                }
            }
            if round % 5 == 4 {
                try realm.beginWrite()
                try realm.create("Person", ["id": .int(-1), "name": .string(String(repeating: "x", count: 5000))])
                realm.cancelWrite()
                try realm.write { try realm.delete(try realm.objects("Person").filter("id < \(round * 50)")) }
            }
        }
        let count = try realm.objects("Person").count
        _ = try realm.checkIntegrity()
        // A fresh process's view: a second DatabaseFile decrypting everything from the disk.
        let file = try DatabaseFile(path: path, readOnly: true, create: false, encryptionKey: [UInt8](Self.key))
        let size = try file.physicalSize()
        #expect(memcmp(file.base, realm.shared.file.base, Int(size)) == 0)
        #expect(count > 0)
    }

    /// Encryption adds no durability barrier: a small commit still takes one fdatasync.
    @Test func aSmallEncryptedCommitTakesOneBarrier() throws {
        let dir = TempDir()
        var barriers: [Int] = []
        for key in [nil, Self.key] {
            let realm = try Self.open(dir.path(key == nil ? "plain.realm" : "e.realm"), key: key)
            try realm.write { try realm.create("Person", ["id": .int(0), "name": .string("first")]) }
            let before = realm.shared.file.syncCalls
            for i in 1...10 {
                try realm.write { try realm.create("Person", ["id": .int(Int64(i)), "name": .string("p \(i)")]) }
            }
            barriers.append(realm.shared.file.syncCalls - before)
        }
        #expect(barriers == [10, 10])
    }

    /// A page cut off by a truncation (a cancelled transaction that grew the file) and grown
    /// again must not come back with the counters another process remembers from before, or that
    /// process would keep the page's old content.
    @Test func aPageGrownAgainAfterATruncationIsSeenAsChanged() throws {
        let dir = TempDir()
        let path = dir.path("raw.realm")
        let key = [UInt8](Self.key)
        let page = 4096
        let writer = try DatabaseFile(path: path, readOnly: false, create: true, encryptionKey: key)
        try writer.grow(from: 0, to: UInt64(20 * page))
        func put(_ byte: UInt8, page p: Int) throws {
            try [UInt8](repeating: byte, count: 16).withUnsafeBytes { try writer.write($0, at: UInt64(p * page + 100)) }
        }
        try put(1, page: 17)
        try put(1, page: 0)  // a "slot" write: what makes readers look
        try writer.sync()
        let reader = try DatabaseFile(path: path, readOnly: true, create: false, encryptionKey: key)
        #expect(reader.base.load(fromByteOffset: 17 * page + 100, as: UInt8.self) == 1)
        try writer.truncate(to: UInt64(16 * page))
        try writer.grow(from: UInt64(16 * page), to: UInt64(20 * page))
        try put(2, page: 17)
        try put(2, page: 0)
        try writer.sync()
        try reader.refresh()
        #expect(reader.base.load(fromByteOffset: 100, as: UInt8.self) == 2)
        #expect(reader.base.load(fromByteOffset: 17 * page + 100, as: UInt8.self) == 2)
    }

    /// A commit whose Nth write, growth or barrier fails (n = 1, 2, …): the decrypted view never
    /// holds what did not reach the file, and the Realm goes on with exactly the commits made.
    @Test func failedWritesLeaveTheViewAsTheFileIs() throws {
        let dir = TempDir()
        let path = dir.path("e.realm")
        let realm = try Self.open(path)
        try realm.write { try realm.create("Person", ["id": .int(0), "name": .string("first")]) }
        var committed = 1
        for n in 1...24 {
            try realm.beginWrite()
            for i in 0..<(n % 3 == 0 ? 300 : 1) {
                try realm.create(
                    "Person", ["id": .int(Int64(n * 1000 + i)), "name": .string(String(repeating: "z", count: 40))])
            }
            let added = n % 3 == 0 ? 300 : 1
            realm.shared.file.failAfter = n
            do {
                try realm.commitWrite()
                committed += added
            } catch {
                if realm.isInWriteTransaction { realm.cancelWrite() }
            }
            realm.shared.file.failAfter = nil
            let fresh = try DatabaseFile(path: path, readOnly: true, create: false, encryptionKey: [UInt8](Self.key))
            let size = try fresh.physicalSize()
            #expect(size == (try realm.shared.file.physicalSize()), "n = \(n)")
            #expect(
                memcmp(fresh.base, realm.shared.file.base, Int(size)) == 0, "n = \(n): the view differs from the file")
            realm.refresh()
            #expect(try realm.objects("Person").count == committed, "n = \(n)")
        }
        try realm.write { try realm.create("Person", ["id": .int(-1), "name": .string("last")]) }
        _ = try realm.checkIntegrity()
        #expect(try Self.open(path).objects("Person").count == committed + 1)
    }

    @Test func aSecondFileSeesPagesAnotherWriterRewrote() throws {
        let dir = TempDir()
        let path = dir.path("e.realm")
        try Self.makeFido(path)
        let realm = try Self.open(path)
        // Another "process": its own DatabaseFile, decrypting from the disk.
        let other = try DatabaseFile(path: path, readOnly: true, create: false, encryptionKey: [UInt8](Self.key))
        for round in 0..<5 {
            try realm.write {
                try realm.create("Person", ["id": .int(Int64(1000 + round)), "name": .string("late \(round)")])
                try realm.object(ofType: "Person", forPrimaryKey: .int(Int64(round)))?.setValue(
                    Value.string("renamed"), forKey: "name")
            }
            try other.refresh()
            let size = try other.physicalSize()
            #expect(size == (try realm.shared.file.physicalSize()))
            #expect(memcmp(other.base, realm.shared.file.base, Int(size)) == 0, "round \(round)")
        }
    }

    @Test func commitsOfAnotherProcessAreSeen() throws {
        let probe = BuiltExecutable.url("realm-notify-probe") ?? URL(fileURLWithPath: "/nonexistent")
        try #require(FileManager.default.isExecutableFile(atPath: probe.path), "build realm-notify-probe")
        let dir = TempDir()
        let path = dir.path("x.realm")
        let realm = try Realm(
            configuration: .init(
                fileURL: URL(fileURLWithPath: path), schema: CrossProcessTests.tickSchema,
                encryptionKey: Self.key))
        var count = 0
        let token = try realm.objects("Tick").filter("n >= 0").observe { change in
            if case .update(let r, _, _, _) = change { count = r.count }
        }
        pumpRunLoop { realm.notificationHub != nil }
        let writer = Process()
        writer.executableURL = probe
        writer.arguments = ["write", path, "30", "2"]
        writer.environment = ["REALM_NOTIFY_PROBE_KEY": Self.key.map { String(format: "%02x", $0) }.joined()]
        writer.standardOutput = FileHandle.nullDevice
        try writer.run()
        // Until the last commit is delivered, or the writer ends without making it.
        pumpRunLoop { count == 30 || !writer.isRunning }
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        if writer.terminationStatus == 0 { pumpRunLoop { count == 30 } }
        #expect(count == 30)
        realm.refresh()
        #expect(try realm.objects("Tick").count == 30)
        _ = try realm.checkIntegrity()
        token.invalidate()
        // And a writer killed mid-transaction leaves the file whole.
        let crasher = Process()
        crasher.executableURL = probe
        crasher.arguments = ["crash", path]
        crasher.environment = writer.environment
        try crasher.run()
        crasher.waitUntilExit()
        try realm.write { try realm.create("Tick", ["n": .int(99), "t": .int(0)]) }
        #expect(try realm.objects("Tick").count == 31)
        _ = try realm.checkIntegrity()
    }
}
