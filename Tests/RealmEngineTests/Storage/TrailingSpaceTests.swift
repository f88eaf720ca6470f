import Foundation
import Testing
@testable import RealmEngine

/// Trailing free space is given back (issue 30): once the end of the file is free space that no
/// durable header slot and no pinned reader reaches, a commit cuts the file there — after that
/// commit is durable, never below what the other slot or a reader needs.
@Suite struct TrailingSpaceTests {
    static let kept = 100
    static let bulk = 6000

    static func person(_ id: Int, _ name: String) -> [String: Value] { ["id": .int(Int64(id)), "name": .string(name)] }

    static func open(_ path: String, key: Data?) throws -> Realm {
        try Realm(
            configuration: .init(fileURL: URL(fileURLWithPath: path), schema: Fixtures.people, encryptionKey: key))
    }

    static func physicalSize(_ path: String) throws -> UInt64 {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require((attributes[.size] as? NSNumber)?.uint64Value)
    }

    /// A few small objects, then a bulk of large ones written after them (so they fill the end
    /// of the file).
    static func fill(_ realm: Realm) throws {
        try realm.write { for i in 0..<kept { try realm.create("Person", person(i, "kept \(i)")) } }
        try realm.write {
            for i in kept..<(kept + bulk) {
                try realm.create("Person", person(i, String(repeating: "b", count: 300) + "\(i)"))
            }
        }
    }

    static func deleteBulk(_ realm: Realm) throws {
        try realm.write { try realm.delete(try realm.objects("Person").filter("id >= \(kept)")) }
    }

    /// `n` one-object commits (what gives the space back: the commit after the delete can reuse
    /// what it freed, and the one after that has both header slots below the cut).
    static func smallCommits(_ realm: Realm, _ n: Int, from start: Int = 0) throws {
        for i in start..<(start + n) {
            try realm.write {
                try realm.object(ofType: "Person", forPrimaryKey: .int(Int64(i % kept)))?.setValue(
                    Value.string("renamed \(i)"), forKey: "name")
            }
        }
    }

    static func checkContents(_ realm: Realm) throws {
        #expect(try realm.objects("Person").checkedCount() == kept)
        let report = try realm.checkIntegrity()
        #expect(report.objects["Person"] == kept)
    }

    @Test(arguments: [false, true]) func theFileShrinksAfterMostObjectsAreDeleted(encrypted: Bool) throws {
        let key = encrypted ? EncryptionTests.key : nil
        let dir = TempDir()
        let path = dir.path("shrink.realm")
        let realm = try Self.open(path, key: key)
        try Self.fill(realm)
        let full = try Self.physicalSize(path)
        try Self.deleteBulk(realm)
        try Self.smallCommits(realm, 3)
        let after = try Self.physicalSize(path)
        #expect(after * 3 < full, "the file stayed at \(after) bytes after deleting most of its \(full)")
        try Self.checkContents(realm)
        // The cut file opens afresh (every slot within it) with everything committed.
        let newest = try realm.shared.slots()
        #expect(newest.allSatisfy { $0.slot.logicalSize <= (encrypted ? UInt64.max : after) })
        try realm.write { try realm.create("Person", Self.person(9999, "after the cut")) }
        #expect(try realm.object(ofType: "Person", forPrimaryKey: .int(9999)) != nil)
    }

    @Test func aReaderInAnotherInstanceHoldsTheSpaceUntilItMovesOn() throws {
        let dir = TempDir()
        let path = dir.path("pinned.realm")
        let realm = try Self.open(path, key: nil)
        try Self.fill(realm)
        let full = try Self.physicalSize(path)
        // Another instance reads the filled version and stays on it.
        let reader = try Self.open(path, key: nil)
        #expect(try reader.objects("Person").checkedCount() == Self.kept + Self.bulk)
        try Self.deleteBulk(realm)
        try Self.smallCommits(realm, 4)
        let held = try Self.physicalSize(path)
        #expect(held >= full, "the file was cut to \(held) bytes under a reader of \(full)")
        // The reader's version is whole.
        #expect(try reader.objects("Person").checkedCount() == Self.kept + Self.bulk)
        #expect(try reader.object(ofType: "Person", forPrimaryKey: .int(Int64(Self.kept + Self.bulk - 1))) != nil)
        // It moves on: the next commits give the space back.
        #expect(reader.refresh())
        try Self.smallCommits(realm, 3, from: 10)
        let after = try Self.physicalSize(path)
        #expect(after * 3 < full, "the file stayed at \(after) bytes after the reader moved on from \(full)")
        try Self.checkContents(realm)
        #expect(reader.refresh())
        try Self.checkContents(reader)
    }

    /// A power loss at every barrier of the commits after the delete, and right after the cut (before anything
    /// made it durable): every image opens, passes the integrity check and holds an acknowledged
    /// state — the newest durable commit or a later one.
    @Test(arguments: [false, true]) func aCrashAroundTheCutKeepsEveryAcknowledgedCommit(encrypted: Bool) throws {
        let key = encrypted ? EncryptionTests.key : nil
        let dir = TempDir()
        let path = dir.path("crash.realm")
        let imagePath = dir.path("image.realm")
        let realm = try Self.open(path, key: key)
        try Self.fill(realm)
        let full = try Self.physicalSize(path)
        let simulator = PowerLossSimulator(file: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), seed: 5)
        var states = [try PowerLossTests.people(realm)]
        var floor = 0
        var checked = 0
        let images = encrypted ? 2 : 8
        func checkImages(_ sim: PowerLossSimulator) throws {
            let possible = states[floor...]
            try sim.forEachImage(random: images) { image in
                try? FileManager.default.removeItem(atPath: imagePath)
                try? FileManager.default.removeItem(atPath: LockFile.path(forRealmAt: imagePath))
                try Data(image).write(to: URL(fileURLWithPath: imagePath))
                let opened = try Realm(
                    configuration: .init(fileURL: URL(fileURLWithPath: imagePath), encryptionKey: key))
                _ = try opened.checkIntegrity()
                let found = try PowerLossTests.people(opened)
                if !possible.contains(found) && found != sim.expectedInFlight {
                    throw RealmError.invalidInput(
                        "image \(checked) at barrier \(sim.barriers) holds \(found.count) people, neither an acknowledged state (\(possible.map(\.count))) nor the commit in flight"
                    )
                }
                checked += 1
            }
        }
        realm.shared.file.recorder = simulator
        defer { realm.shared.file.recorder = nil }
        func commit(_ body: () throws -> Void) throws {
            try realm.beginWrite()
            try body()
            simulator.expectedInFlight = try PowerLossTests.people(realm)
            try realm.commitWrite()
            states.append(try PowerLossTests.people(realm))
            floor = states.count - 1
        }
        try commit { try realm.delete(try realm.objects("Person").filter("id >= \(Self.kept)")) }
        // From the commit that trims the logical end on (the delete's barriers are the power-loss
        // harness's business).
        simulator.atBarrier = { try checkImages($0) }
        var cut = false
        for i in 0..<4 where !cut {
            try commit {
                try realm.object(ofType: "Person", forPrimaryKey: .int(Int64(i)))?.setValue(
                    Value.string("crash \(i)"), forKey: "name")
            }
            cut = try Self.physicalSize(path) * 3 < full
        }
        #expect(cut, "the file was not cut")
        // The cut is the last thing done; nothing after it is durable yet.
        simulator.expectedInFlight = nil
        try checkImages(simulator)
        // The next commit writes past the cut (growing the file again) with the cut not yet durable.
        try commit { try realm.create("Person", Self.person(5000, "after the cut")) }
        #expect(simulator.failures.isEmpty, "\(simulator.failures.prefix(3))")
        #expect(checked > 0)
    }

    /// A cut that fails (the device refuses the ftruncate) does not fail the commit, which was
    /// durable before the cut was tried; the file keeps its size and everything opens.
    @Test func aFailedCutLeavesTheCommitAndTheFileWhole() throws {
        let dir = TempDir()
        let path = dir.path("failed-cut.realm")
        let realm = try Self.open(path, key: nil)
        try Self.fill(realm)
        let full = try Self.physicalSize(path)
        try Self.deleteBulk(realm)
        let plan = FaultPlan(folder: dir.url.path, calls: [.ftruncate], failure: .error(EIO), nth: 1, sticky: true)
        FaultPlan.install(plan)
        do {
            defer { FaultPlan.remove(plan) }
            try Self.smallCommits(realm, 3)
        }
        #expect(!plan.fired.isEmpty, "no cut was tried")
        #expect(try Self.physicalSize(path) >= full)
        let reopened = try Self.open(path, key: nil)
        try Self.checkContents(reopened)
        #expect(try reopened.object(ofType: "Person", forPrimaryKey: .int(2))?["name"] == .string("renamed 2"))
    }
}
