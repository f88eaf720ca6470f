import Foundation
import Testing
@testable import RealmEngine

@Suite struct CopyAndCompactTests {
    private func size(_ path: String) -> UInt64 {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.uint64Value ?? 0
    }

    private func fill(_ realm: Realm, _ n: Int) throws {
        try realm.write {
            for i in 0..<n {
                let p = try realm.create(
                    "Person", ["id": .int(Int64(i)), "name": .string("名字\(i)"), "age": .int(Int64(i % 50))])
                if i % 3 == 0 {
                    try p.list(forKey: "dogs").append(
                        .dictionary(["name": .value(.string("d\(i)")), "tags": .array([.value(.string("x"))])]))
                }
            }
        }
    }

    @Test func writeCopyKeepsObjectsLinksAndIndexes() throws {
        let dir = TempDir()
        let realm = try Realm(path: dir.path("src.realm"), schema: Fixtures.people)
        try fill(realm, 2000)
        try realm.write { try realm.delete(try realm.objects("Person").filter("age < 25")) }
        let dst = dir.path("dst.realm")
        try realm.writeCopy(toFile: dst)
        let copy = try Realm(path: dst)
        #expect(try copy.objects("Person").count == 1000)
        let dogs = try realm.objects("Dog").count
        #expect(try copy.objects("Dog").count == dogs)
        let p = try #require(try copy.object(ofType: "Person", forPrimaryKey: .int(1998)))
        #expect(p["name"] == .string("名字1998"))
        #expect(try copy.objects("Person").filter("name == '名字1998'").count == 1)
        let dog = try p.list(forKey: "dogs").object(at: 0)
        #expect(try dog.linkingObjects(forKey: "owners").first?["id"] == .int(1998))
        let report = try copy.checkIntegrity()
        #expect(report.objects["Person"] == 1000)
        #expect(size(dst) < size(dir.path("src.realm")))
        // New objects in the copy get fresh keys.
        try copy.write { try copy.create("Person", ["id": .int(5000), "name": .string("new")]) }
        _ = try copy.checkIntegrity()
    }

    @Test func compactShrinksAFileThatIsMostlyFreeAndRefusesWhileOpen() throws {
        let dir = TempDir()
        let path = dir.path("c.realm")
        do {
            let realm = try Realm(path: path, schema: Fixtures.people)
            try fill(realm, 3000)
            #expect(throws: RealmError.self) { try Realm.compact(path: path) }
            try realm.write { try realm.delete(try realm.objects("Person").filter("id >= 100")) }
        }
        let (before, after) = try Realm.compact(path: path)
        #expect(after < before / 2, "compaction went from \(before) to \(after)")
        let realm = try Realm(path: path)
        #expect(try realm.objects("Person").count == 100)
        _ = try realm.checkIntegrity()
        try realm.write { try realm.create("Person", ["id": .int(9999), "name": .string("after compact")]) }
        #expect(try realm.objects("Person").count == 101)
    }
}
