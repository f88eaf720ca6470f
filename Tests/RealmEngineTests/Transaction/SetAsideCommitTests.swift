import Foundation
@testable import RealmEngine
import Testing

/// A newest commit that did not verify (torn by a crash before it was acknowledged, or damaged
/// after: the file cannot tell which) is set aside, never destroyed by the next write: its bytes
/// are kept in `PATH.set-aside-vN` until the user discards them (issue 29, item 2).
@Suite(.tags(.integrity)) struct SetAsideCommitTests {
    /// 300 people, then 10 more in the newest commit, one of whose nodes is damaged.
    private func damagedFile(_ dir: TempDir) throws -> (path: String, lost: UInt64) {
        let path = dir.path("rot.realm")
        do {
            let realm = try Realm(path: path, schema: Fixtures.people)
            try realm.write {
                for i in 0..<300 { try realm.create("Person", ["id": .int(Int64(i)), "name": .string("p\(i)")]) }
            }
            try realm.write {
                for i in 300..<310 { try realm.create("Person", ["id": .int(Int64(i)), "name": .string("late\(i)")]) }
            }
        }
        return (path, try TornCommitTests.loseAWrite(path))
    }

    @Test func aWriteOnTopOfASetAsideCommitKeepsItsBytesForRecover() throws {
        let dir = TempDir()
        let (path, lost) = try damagedFile(dir)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            let realm = try Realm(path: path)
            #expect(realm.recoveredFromDamagedCommit == lost)
            try realm.write {
                for i in 1000..<1200 {
                    try realm.create(
                        "Person", ["id": .int(Int64(i)), "name": .string(String(repeating: "w", count: 300))])
                }
            }
            let kept = realm.setAsideCopies
            #expect(kept.map(\.version) == [lost])
            #expect(realm.recoveryWarning?.contains(SetAside.copyPath(for: realm.path, version: lost)) == true)
        }
        let copy = SetAside.copyPath(for: URL(fileURLWithPath: path).standardizedFileURL.path, version: lost)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: copy)) == original,
            "the copy holds the file as it was before anything was erased")
        let report = try Realm.recover(from: copy, to: dir.path("salvaged.realm"))
        #expect(report.version == lost)
        #expect(report.recovered["Person"].map { $0 > 0 } == true)
    }

    @Test func checkWarnsAboutASetAsideCommitAndDiscardForgetsIt() throws {
        let dir = TempDir()
        let (path, lost) = try damagedFile(dir)
        // Read-only: nothing erased yet; the data is still in the file.
        let before = try Realm.check(path: path)
        #expect(before.version == lost - 1)
        #expect(before.warnings.contains { $0.contains("version \(lost)") }, "\(before.warnings)")
        do { _ = try Realm(path: path) }  // a writable open sets it aside
        let after = try Realm.check(path: path)
        #expect(after.warnings.contains { $0.contains("set-aside-v\(lost)") }, "\(after.warnings)")
        let discarded = try Realm.discardSetAside(path: path)
        #expect(discarded.map(\.version) == [lost])
        #expect(try Realm.check(path: path).warnings.isEmpty)
    }

    /// A writer that finds the unverified commit itself (`settleNewest`: a read-only first
    /// opener left it in place) keeps it too.
    @Test func aWriterAfterAReadOnlyFirstOpenerKeepsTheCommit() throws {
        let dir = TempDir()
        let (path, lost) = try damagedFile(dir)
        let watcher = try Realm(path: path, readOnly: true)
        #expect(watcher.version == lost - 1)
        do {
            let writer = try Realm(path: path)
            try writer.write { try writer.create("Person", ["id": .int(999), "name": .string("after")]) }
            #expect(writer.setAsideCopies.map(\.version) == [lost])
        }
        #expect(
            try Realm.recover(
                from: SetAside.copyPath(for: URL(fileURLWithPath: path).standardizedFileURL.path, version: lost),
                to: dir.path("salvaged.realm")
            ).version == lost)
    }
}
