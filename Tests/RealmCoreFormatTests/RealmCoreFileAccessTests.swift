import Foundation
import RealmCoreFormat
import RealmEngine
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct RealmCoreFileAccessTests {
    /// A fresh folder holding a copy of `fixture`; returns the copy's path.
    private func copyFixture(_ fixture: String) throws -> (folder: URL, file: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coreaccess-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(fixture)
        try FileManager.default.copyItem(at: CoreFixtures.url(fixture), to: file)
        return (folder, file.path)
    }

    private func listing(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func fileNotInUseIsMappedInPlaceAndNothingIsCreatedBesideIt() throws {
        let (folder, path) = try copyFixture("generated-dogs.realm")
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let listed = try listing(folder)
        do {
            let access = try RealmCoreFileAccess.open(path: path)
            #expect(access.inUseCopyTakenAt == nil)
            #expect(access.facts.format == 24 && access.facts.topRef == 42952)
            #expect(access.image.bytes.count == before.count)
            #expect(Data(access.image.bytes) == before)
        }
        #expect(try listing(folder) == listed, "no lock file or other file appears beside the Realm file")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func unlockedRealmLockFileIsNotInUseAndIsLeftAlone() throws {
        let (folder, path) = try copyFixture("generated-dogs.realm")
        defer { try? FileManager.default.removeItem(at: folder) }
        let lock = Data([1, 2, 3, 4])
        try lock.write(to: URL(fileURLWithPath: path + ".lock"))
        let access = try RealmCoreFileAccess.open(path: path)
        #expect(access.inUseCopyTakenAt == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".lock")) == lock)
    }

    @Test func fileWhoseLockIsHeldIsCopied() throws {
        let (folder, path) = try copyFixture("realm-studio_asset_file.realm")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(FileManager.default.createFile(atPath: path + ".lock", contents: Data(count: 64)))
        // flock locks belong to an open file description: this shared lock, held on the test's
        // own descriptor, is what a Realm app holds while it has the file open.
        let holder = open(path + ".lock", O_RDONLY | O_CLOEXEC)
        #expect(holder >= 0)
        defer { close(holder) }
        #expect(flock(holder, LOCK_SH) == 0)
        let listed = try listing(folder)
        let started = Date()
        let access = try RealmCoreFileAccess.open(path: path)
        let taken = try #require(access.inUseCopyTakenAt)
        #expect(taken >= started.addingTimeInterval(-1))
        #expect(access.facts.format == 24)
        #expect(Data(access.image.bytes) == (try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(try listing(folder) == listed)
        #expect(try RealmCoreFileAccess.isInUseByRealmApp(path: path))
        #expect(flock(holder, LOCK_UN) == 0)
        #expect(try !RealmCoreFileAccess.isInUseByRealmApp(path: path))
    }

    @Test func fifoIsRefusedWithoutBlocking() throws {
        let scratch = TempDir("coreaccess")
        defer { withExtendedLifetime(scratch) {} }
        let folder = scratch.url
        let fifo = folder.appendingPathComponent("pipe.realm").path
        #expect(mkfifo(fifo, 0o600) == 0)
        do {
            _ = try RealmCoreFileAccess.open(path: fifo)
            Issue.record("a FIFO was opened")
        } catch let error as RealmError {
            #expect("\(error)".contains("FIFO"), "\(error)")
        }
    }

    @Test func missingTruncatedEncryptedAndForeignFilesAreClearErrors() throws {
        let (folder, path) = try copyFixture("generated-dogs.realm")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: RealmError.self) { try RealmCoreFileAccess.open(path: path + ".missing") }
        let short = folder.appendingPathComponent("short.realm")
        try Data(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(12)).write(to: short)
        #expect(throws: RealmError.self) { try RealmCoreFileAccess.open(path: short.path) }
        let empty = folder.appendingPathComponent("empty.realm")
        try Data().write(to: empty)
        #expect(throws: RealmError.self) { try RealmCoreFileAccess.open(path: empty.path) }
        do {
            _ = try RealmCoreFileAccess.open(path: CoreFixtures.url("generated-encrypted.realm").path)
            Issue.record("an encrypted file was opened without a key")
        } catch let error as RealmError {
            #expect("\(error)".contains("encrypted"), "\(error)")
        }
    }
}
