import Foundation
import Testing
@testable import RealmEngine

@Suite struct MVCCTests {
    private func fileSize(_ path: String) throws -> UInt64 {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.uint64Value ?? 0
    }

    @Test func pinnedReaderKeepsItsSnapshotAndSpaceIsReusedAfterRelease() throws {
        let dir = TempDir()
        let path = dir.path("mvcc.realm")
        let writer = try Realm(path: path, schema: Fixtures.people)
        try writer.write {
            for i in 0..<100 {
                try writer.create("Person", ["id": .int(Int64(i)), "name": .string("p\(i)"), "age": .int(0)])
            }
        }
        let reader = try Realm(path: path)
        let pinned = try #require(try reader.object(ofType: "Person", forPrimaryKey: .int(7)))
        #expect(pinned["age"] == .int(0))
        for round in 1...1000 {
            try writer.write {
                let p = try #require(try writer.object(ofType: "Person", forPrimaryKey: .int(7)))
                try p.setValue(.int(Int64(round)), forKey: "age")
            }
        }
        // The reader still sees version it pinned.
        #expect(pinned["age"] == .int(0))
        #expect(try writer.object(ofType: "Person", forPrimaryKey: .int(7))?["age"] == .int(1000))
        _ = try writer.checkIntegrity()
        // Let go; after that, commits reuse space instead of growing the file.
        reader.refresh()
        #expect(pinned["age"] == .int(1000))
        reader.invalidate()
        try writer.write {
            try writer.object(ofType: "Person", forPrimaryKey: .int(7))?.setValue(.int(0), forKey: "age")
        }
        let before = try fileSize(path)
        for round in 1...1000 {
            try writer.write {
                try writer.object(ofType: "Person", forPrimaryKey: .int(7))?.setValue(.int(Int64(round)), forKey: "age")
            }
        }
        let after = try fileSize(path)
        #expect(after <= before + 64 * 1024, "file grew from \(before) to \(after) with no reader pinned")
        let report = try writer.checkIntegrity()
        #expect(report.objects["Person"] == 100)
    }

    @Test func cancelledTransactionLeavesNothing() throws {
        let dir = TempDir()
        let realm = try Realm(path: dir.path("c.realm"), schema: Fixtures.people)
        try realm.write {
            for i in 100..<900 { try realm.create("Person", ["id": .int(Int64(i)), "name": .string("n\(i)")]) }
        }
        let original = try Data(contentsOf: URL(fileURLWithPath: dir.path("c.realm")))
        try realm.beginWrite()
        for i in 900..<3000 { try realm.create("Person", ["id": .int(Int64(i)), "name": .string("n\(i)")]) }
        try realm.objects("Person").filter("id < 500").setValue(.value(.int(3)), forKey: "age")
        try realm.delete(try realm.objects("Person").filter("id >= 600 AND id < 700"))
        realm.cancelWrite()
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("c.realm"))) == original)
        try realm.write { try realm.delete(try realm.objects("Person")) }
        try realm.beginWrite()
        try realm.create("Person", ["id": .int(1), "name": .string("x")])
        #expect(try realm.objects("Person").count == 1)
        realm.cancelWrite()
        #expect(try realm.objects("Person").count == 0)
        try realm.write { try realm.create("Person", ["id": .int(1), "name": .string("x")]) }
        _ = try realm.checkIntegrity()
    }

    @Test func failedCommitLosesNothing() throws {
        let dir = TempDir()
        let path = dir.path("enospc.realm")
        let realm = try Realm(path: path, schema: Fixtures.people)
        try realm.write { try realm.create("Person", ["id": .int(1), "name": .string("kept")]) }
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        // How many grow/write/sync calls the commit makes before its slot: counted on a twin file
        // taking the same transaction (the slot write and the barrier are the last two calls).
        let twin = try Realm(path: dir.path("twin.realm"), schema: Fixtures.people)
        try twin.write { try twin.create("Person", ["id": .int(1), "name": .string("kept")]) }
        try twin.beginWrite()
        for i in 2..<400 {
            try twin.create("Person", ["id": .int(Int64(i)), "name": .string(String(repeating: "x", count: 100))])
        }
        twin.shared.file.failAfter = 1000
        try twin.commitWrite()
        let calls = 1000 - (twin.shared.file.failAfter ?? 0) - 2
        twin.shared.file.failAfter = nil
        #expect(calls >= 1)
        for n in 1...max(1, calls) {
            try realm.beginWrite()
            for i in 2..<400 {
                try realm.create("Person", ["id": .int(Int64(i)), "name": .string(String(repeating: "x", count: 100))])
            }
            realm.shared.file.failAfter = n
            #expect(throws: RealmError.self) { try realm.commitWrite() }
            realm.shared.file.failAfter = nil
            #expect(!realm.isInWriteTransaction)
        }
        // Byte for byte: what the failed commits wrote into free space was put back.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
        let reopened = try Realm(path: path)
        #expect(try reopened.objects("Person").count == 1)
        _ = try reopened.checkIntegrity()
        // And the file still takes writes.
        try realm.write { try realm.create("Person", ["id": .int(2), "name": .string("after")]) }
        #expect(try realm.objects("Person").count == 2)
        _ = try realm.checkIntegrity()
    }

    @Test func wrongThreadIsAnError() throws {
        let dir = TempDir()
        let realm = try Realm(path: dir.path("t.realm"), schema: Fixtures.people)
        let box = UncheckedBox(realm)
        #expect(outcomeOnAnotherThread { _ = try box.value.objects("Person") } == "wrongThread")
    }
}

/// Runs `body` on a new thread and waits for it: "no error", "wrongThread", or the error.
func outcomeOnAnotherThread(_ body: @escaping @Sendable () throws -> Void) -> String {
    let result = UncheckedBox(NSMutableArray())
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        do {
            try body()
            result.value.add("no error")
        } catch RealmError.wrongThread {
            result.value.add("wrongThread")
        } catch { result.value.add("\(error)") }
        done.signal()
    }
    thread.start()
    done.wait()
    return result.value.firstObject as? String ?? "nothing"
}

final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
