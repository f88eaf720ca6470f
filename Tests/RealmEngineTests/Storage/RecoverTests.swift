import Foundation
import Testing
@testable import RealmEngine

/// `Realm.recover`: every object that can still be read is copied into a new file that passes
/// the integrity check; the report names what was lost; the damaged file is never changed.
@Suite(.tags(.integrity)) struct RecoverTests {
    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func aDamagedLeafLosesOnlyItsObjects() throws {
        let dir = TempDir()
        let broken = dir.path("bad.realm")
        try NodeVerificationTests.makeFile(broken)
        try NodeVerificationTests.damage(broken)
        try? FileManager.default.removeItem(atPath: broken + ".lock")
        let before = try Self.bytes(broken)
        let report = try Realm.recover(from: broken, to: dir.path("out.realm"))
        #expect(try Self.bytes(broken) == before, "the damaged file was changed")
        #expect(!FileManager.default.fileExists(atPath: broken + ".lock"))
        let loss = try #require(report.lost.first)
        #expect(report.lost.count == 1)
        #expect(loss.className == "Person")
        #expect(loss.reason.contains("checksum"))
        let lost = try #require(loss.objects)
        #expect(lost > 0 && lost < 1001)
        #expect(loss.firstKey <= 500 && 500 < (loss.endKey ?? .max))
        #expect(report.recovered["Person"] == 1001 - lost)
        let out = try Realm(path: dir.path("out.realm"))
        _ = try out.checkIntegrity()
        #expect(try out.objects("Person").checkedCount() == 1001 - lost)
        // Keys kept: the objects outside the lost range are there, with their values.
        #expect(try out.object(ofType: "Person", forPrimaryKey: .int(5000))?.value(forKey: "name") == .string("late"))
        #expect(try out.object(ofType: "Person", forPrimaryKey: .int(500)) == nil)
        let firstKept = try #require(try out.objects("Person").checkedFirst())
        #expect(try firstKept.value(forKey: "name") == .string("person 0"))
    }

    /// The newest commit is small (its top node lies in the commit area at the start of the
    /// file), so a cut through the data loses leaves, not the version.
    @Test func aTruncatedFileKeepsWhatLiesBeforeTheCut() throws {
        let dir = TempDir()
        let broken = dir.path("cut.realm")
        try NodeVerificationTests.makeFile(broken)
        let logical = Int(try Realm(path: broken).snapshot.bytes.size)
        try TruncatedFileTests.truncate(broken, to: 65536 + (logical - 65536) / 2)
        let report = try Realm.recover(from: broken, to: dir.path("out.realm"))
        #expect(!report.isComplete)
        #expect(report.unreadableVersions.isEmpty, "\(report.unreadableVersions)")
        let lost = report.lost.reduce(0) { $0 + ($1.objects ?? 0) }
        #expect(lost > 0)
        #expect(report.recovered["Person", default: 0] + lost == 1001, "\(report)")
        #expect(
            report.lost.allSatisfy { $0.reason.contains("outside the file") || $0.reason.contains("past the end") },
            "\(report.lost)")
        let out = try Realm(path: dir.path("out.realm"))
        _ = try out.checkIntegrity()
        #expect(try out.objects("Person").checkedCount() == report.recovered["Person"])
    }

    /// A bulk commit writes its top node last, at the end: cut off, that version is lost as a
    /// whole, and the report says so instead of passing the older version off as complete.
    @Test func aLostNewestVersionIsReported() throws {
        let dir = TempDir()
        let broken = dir.path("cut.realm")
        try TruncatedFileTests.makeFile(broken)
        // Version 1 (the empty file) lies just past the header; version 2's top node at the end.
        try TruncatedFileTests.truncate(broken, to: 70_000)
        let report = try Realm.recover(from: broken, to: dir.path("out.realm"))
        #expect(!report.isComplete)
        #expect(report.version == 1)
        #expect(report.unreadableVersions.map(\.version) == [2])
        _ = try Realm(path: dir.path("out.realm")).checkIntegrity()
        // Cut inside version 1 too: nothing to recover, and no output file.
        try TruncatedFileTests.truncate(broken, to: 65536 + 64)
        #expect(throws: RealmError.self) { try Realm.recover(from: broken, to: dir.path("none.realm")) }
        #expect(!FileManager.default.fileExists(atPath: dir.path("none.realm")))
    }

    @Test func linksToLostObjectsAreDropped() throws {
        let dir = TempDir()
        let broken = dir.path("links.realm")
        do {
            let realm = try Realm(path: broken, schema: Fixtures.people)
            try realm.write {
                for i in 0..<400 {
                    let p = try realm.create(
                        "Person", ["id": .int(Int64(i)), "name": .string("p\(i)"), "age": .int(1)])
                    try p.list(forKey: "dogs").append(
                        .dictionary([
                            "name": .value(.string(i == 7 ? "DAMAGE-HERE-dog-padding-padding-pad" : "dog \(i)"))
                        ]))
                }
            }
            try realm.write {
                _ = try realm.create("Person", ["id": .int(9999), "name": .string("late"), "age": .int(1)])
            }
        }
        try NodeVerificationTests.damage(broken)
        let report = try Realm.recover(from: broken, to: dir.path("out.realm"))
        #expect(report.lost.map(\.className) == ["Dog"], "\(report.lost)")
        #expect(report.droppedLinks > 0)
        let out = try Realm(path: dir.path("out.realm"))
        _ = try out.checkIntegrity()
        #expect(try out.objects("Person").checkedCount() == 401)
    }

    @Test func refusesAnExistingDestinationAndAFileWithNoReadableVersion() throws {
        let dir = TempDir()
        let good = dir.path("good.realm")
        try NodeVerificationTests.makeFile(good)
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir.path("taken.realm")))
        #expect(throws: RealmError.self) { try Realm.recover(from: good, to: dir.path("taken.realm")) }
        var bytes = [UInt8](try Self.bytes(good))
        for i in 64..<(64 + 64) { bytes[i] = 0 }
        for i in (32 << 10) + 64..<(32 << 10) + 128 { bytes[i] = 0 }
        try Data(bytes).write(to: URL(fileURLWithPath: dir.path("noslot.realm")))
        #expect(throws: RealmError.self) {
            try Realm.recover(from: dir.path("noslot.realm"), to: dir.path("out.realm"))
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("out.realm")))
    }
}
