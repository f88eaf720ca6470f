import Foundation
import Testing
@testable import RealmEngine

/// Damaged bytes in a node are a `corruptFile` error naming the class and the node's offset —
/// never a value a reader is served, and never rewritten with a fresh checksum by a writer or
/// a copy.
@Suite(.tags(.integrity)) struct NodeVerificationTests {
    static let marker = "DAMAGE-HERE-"

    /// A file with 1,000 people, then one more small commit (so the damaged leaf is not in the
    /// newest commit, which the first opener checks against its commit record instead).
    static func makeFile(_ path: String) throws {
        let realm = try Realm(path: path, schema: Fixtures.people)
        try realm.write {
            for i in 0..<1000 {
                let name = i == 500 ? marker + "\(i)-padding-padding-padding" : "person \(i)"
                try realm.create("Person", ["id": .int(Int64(i)), "name": .string(name), "age": .int(Int64(i % 90))])
            }
        }
        try realm.write { _ = try realm.create("Person", ["id": .int(5000), "name": .string("late"), "age": .int(1)]) }
    }

    /// Overwrites 64 bytes where `marker` is, in every copy of it the file holds.
    static func damage(_ path: String) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let needle = Array(marker.utf8)
        var hits = 0
        for i in 0..<(bytes.count - needle.count)
        where bytes[i] == needle[0] && Array(bytes[i..<i + needle.count]) == needle {
            for j in i..<min(i + 64, bytes.count) { bytes[j] = 0x23 }
            hits += 1
        }
        try #require(hits > 0)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    static func expectCorrupt(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try body()
            Issue.record("no error", sourceLocation: sourceLocation)
        } catch let RealmError.corruptFile(_, offset, reason) {
            #expect(reason.contains("class Person"), "\(reason)", sourceLocation: sourceLocation)
            #expect(reason.contains("checksum"), "\(reason)", sourceLocation: sourceLocation)
            #expect(offset > 0, sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func readsRefuseADamagedLeaf() throws {
        let dir = TempDir()
        let path = dir.path("bad.realm")
        try Self.makeFile(path)
        try Self.damage(path)
        let realm = try Realm(path: path)
        Self.expectCorrupt { _ = try realm.objects("Person").keys() }
        Self.expectCorrupt { _ = try realm.objects("Person").filter("age > 3").keys() }
        Self.expectCorrupt { _ = try realm.object(ofType: "Person", forPrimaryKey: .int(500))?.values() }
    }

    @Test func aWriterNeverRewritesADamagedLeaf() throws {
        let dir = TempDir()
        let path = dir.path("bad.realm")
        try Self.makeFile(path)
        try Self.damage(path)
        do {
            let realm = try Realm(path: path)
            Self.expectCorrupt {
                try realm.write {
                    try realm.object(ofType: "Person", forPrimaryKey: .int(501))?.setValue(.int(7), forKey: "age")
                }
            }
        }
        // The damage is still there for `check` to find.
        let realm = try Realm(path: path)
        #expect(throws: RealmError.self) { _ = try realm.checkIntegrity() }
    }

    @Test func writeCopyRefusesAndLeavesNoFile() throws {
        let dir = TempDir()
        let path = dir.path("bad.realm")
        try Self.makeFile(path)
        try Self.damage(path)
        let realm = try Realm(path: path)
        Self.expectCorrupt { try realm.writeCopy(toFile: dir.path("copy.realm")) }
        #expect(!FileManager.default.fileExists(atPath: dir.path("copy.realm")))
    }

    @Test func aGoodFileVerifiesEachNodeOncePerSnapshot() throws {
        let dir = TempDir()
        let path = dir.path("good.realm")
        try Self.makeFile(path)
        let realm = try Realm(path: path)
        let bytes = try realm.snapshot.bytes
        let verified = try #require(bytes.verified)
        let root = try #require(realm.snapshot.tables[0].root)
        #expect(!verified.contains(root.ref))
        #expect(try realm.objects("Person").keys().count == 1001)
        #expect(verified.contains(root.ref))
    }

    @Test func snapshotsOfOneVersionShareTheirRecord() throws {
        let dir = TempDir()
        let path = dir.path("good.realm")
        try Self.makeFile(path)
        let a = try Realm(path: path)
        let b = try Realm(path: path)
        #expect(try a.snapshot.version == b.snapshot.version)
        #expect(try a.snapshot.bytes.verified === b.snapshot.bytes.verified)
        try a.write { _ = try a.create("Person", ["id": .int(7000), "name": .string("new"), "age": .int(2)]) }
        b.refresh()
        #expect(try a.snapshot.version == b.snapshot.version)
        #expect(try a.snapshot.bytes.verified != nil)
        #expect(try a.snapshot.bytes.verified === b.snapshot.bytes.verified)
    }

    /// Deleting an object fixes the links to it; when a linking object cannot be read, the
    /// delete fails instead of leaving its link dangling.
    @Test func aDeleteNeverSkipsADamagedLinkingObject() throws {
        let dir = TempDir()
        let path = dir.path("links.realm")
        do {
            let realm = try Realm(path: path, schema: Fixtures.people)
            try Self.addPeopleWithADogEach(realm, count: 300)
            try realm.write {
                _ = try realm.create("Person", ["id": .int(9999), "name": .string("late"), "age": .int(1)])
            }
        }
        try Self.damage(path)
        let realm = try Realm(path: path)
        let dog = try #require(try realm.objects("Dog").filter("name == 'dog 7'").checkedFirst())
        Self.expectCorrupt { try realm.write { try realm.delete(dog) } }
    }

    /// Adds `count` people (ids from 0), each owning one dog (`dog <id>`); person 7's name holds
    /// `marker`, so `damage` hits that person's leaf.
    static func addPeopleWithADogEach(_ realm: Realm, count: Int) throws {
        try realm.write {
            for i in 0..<count {
                let name = i == 7 ? marker + "owner-padding-padding-padding" : "p\(i)"
                let person = try realm.create("Person", ["id": .int(Int64(i)), "name": .string(name), "age": .int(1)])
                try person.list(forKey: "dogs").append(.dictionary(["name": .value(.string("dog \(i)"))]))
            }
        }
    }

    /// The ref of the leaf holding `id` in the version `realm` reads.
    static func leafRef(_ realm: Realm, id: Int64) throws -> UInt64 {
        let snapshot = try realm.snapshot
        let root = try #require(snapshot.tables[0].root)
        // Read without the snapshot's record, so finding the leaf does not verify it.
        let reader = TreeReader(
            bytes: FileBytes(
                base: snapshot.bytes.base, size: snapshot.bytes.size, path: snapshot.bytes.path,
                placeBound: snapshot.bytes.placeBound))
        guard case .file(_, let ref) = try reader.leaf(root, key: TreeKey(hi: 0, lo: id)) else {
            Issue.record("not a file leaf")
            return 0
        }
        return ref
    }

    /// After a small commit, the next version keeps what the previous one verified, except the
    /// nodes the commit wrote; after a large commit it starts afresh.
    @Test func aSmallCommitKeepsTheVerifiedNodesItDidNotRewrite() throws {
        let dir = TempDir()
        let path = dir.path("good.realm")
        try Self.makeFile(path)
        let realm = try Realm(path: path)
        #expect(try realm.objects("Person").keys().count == 1001)
        let untouched = try Self.leafRef(realm, id: 0)
        let before = try #require(realm.snapshot.bytes.verified)
        #expect(before.contains(untouched))
        try realm.write {
            try realm.object(ofType: "Person", forPrimaryKey: .int(5000))?.setValue(.int(9), forKey: "age")
        }
        let after = try #require(realm.snapshot.bytes.verified)
        #expect(after.contains(untouched), "an unchanged leaf is verified again")
        let changed = try Self.leafRef(realm, id: 1000)  // object key 1000: the person with id 5000
        #expect(!after.contains(changed), "a leaf the commit wrote counts as verified")
        #expect(try realm.objects("Person").keys().count == 1001)
        #expect(after.contains(changed))
        // A large commit (no commit record): everything is verified afresh.
        try realm.write {
            for i in 0..<20_000 {
                try realm.create("Person", ["id": .int(Int64(20_000 + i)), "name": .string("bulk"), "age": .int(1)])
            }
        }
        try #require(try realm.shared.slots().first?.slot.commitRef == 0, "the bulk commit has no record")
        let fresh = try #require(realm.snapshot.bytes.verified)
        #expect(try Self.leafRef(realm, id: 0) != untouched || !fresh.contains(untouched))
    }
}
