import Foundation
import Testing
@testable import RealmEngine

/// Bad bytes never trap: every byte flip of a valid file either opens and reads (possibly with a
/// corruption error along the way) or fails to open with a clear error.
@Suite(.tags(.integrity)) struct CorruptFileTests {
    static func makeFile(_ path: String) throws {
        let realm = try Realm(path: path, schema: Fixtures.people)
        try realm.write {
            for i in 0..<600 {
                let p = try realm.create(
                    "Person",
                    ["id": .int(Int64(i)), "name": .string("名\(i)"), "age": i % 5 == 0 ? .null : .int(Int64(i % 80))])
                if i % 4 == 0 {
                    try p.list(forKey: "dogs").append(
                        .dictionary(["name": .value(.string("d\(i)")), "tags": .array([.value(.string("t"))])]))
                }
            }
        }
    }

    /// Reads everything a user could: counts, every value, queries, the integrity check.
    static func readEverything(_ path: String) -> String {
        do {
            let realm = try Realm(
                configuration: .init(fileURL: URL(fileURLWithPath: path), readOnly: true, createIfMissing: false))
            for c in realm.schema.objectSchemas {
                let all = try realm.objects(c.name)
                for o in all { _ = try? o.values() }
                _ = try? all.filter("TRUEPREDICATE").count
            }
            _ = try? realm.objects("Person").filter("age > 10 AND name BEGINSWITH '名'").keys()
            _ = try? realm.objects("Person").filter("name == '名7'").keys()
            _ = try? realm.objects("Person").sorted(byKeyPath: "name").keys()
            _ = try? realm.objects("Dog").filter("ANY owners.age > 3").count
            _ = try realm.checkIntegrity()
            return "ok"
        } catch let e as RealmError {
            return e.code
        } catch {
            return "other"
        }
    }

    @Test func randomByteFlipsNeverTrap() throws {
        let dir = TempDir()
        let good = dir.path("good.realm")
        try Self.makeFile(good)
        let original = try Data(contentsOf: URL(fileURLWithPath: good))
        let size = Int(((try? Realm(path: good)).flatMap { try? $0.snapshot.bytes.size }) ?? UInt64(original.count))
        var rng = SeededGenerator(seed: 7)
        var outcomes: [String: Int] = [:]
        for round in 0..<150 {
            var bytes = [UInt8](original)
            let flips = 1 + Int(rng.next() % 8)
            for _ in 0..<flips {
                let at = Int(rng.next() % UInt64(size))
                bytes[at] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
            }
            let path = dir.path("bad\(round).realm")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            outcomes[Self.readEverything(path), default: 0] += 1
            try? Realm.deleteFiles(for: path)
        }
        #expect(outcomes.values.reduce(0, +) == 150)
        print("byte-flip outcomes: \(outcomes)")
    }

    @Test func truncatedFilesAreClearErrors() throws {
        let dir = TempDir()
        let good = dir.path("good.realm")
        try Self.makeFile(good)
        let original = try Data(contentsOf: URL(fileURLWithPath: good))
        for cut in [0, 10, 100, 4095, 4096, 5000, 20000, 60000] where cut < original.count {
            let path = dir.path("cut\(cut).realm")
            try original.prefix(cut).write(to: URL(fileURLWithPath: path))
            let outcome = Self.readEverything(path)
            #expect(outcome != "other", "cut at \(cut)")
        }
    }
}
