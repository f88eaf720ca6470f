import Foundation
import Testing
@testable import RealmEngine

/// Space under random small updates (issue 30): one-object commits spread over the whole file
/// free nodes all over it, and the holes they leave are mostly smaller than the run a small
/// commit prefers (`FreeSpace.runLength`). The file must still settle near its live data —
/// at most 1.5× what a compacted copy takes (Realm Core settles at 1.5×) — rather than grow
/// until holes join into runs by chance (3.3× before).
@Suite struct SettledSpaceTests {
    @Test func randomOneObjectUpdatesSettleWithinOneAndAHalfTimesTheLiveData() throws {
        let folder = TempDir("settled-space")
        let path = folder.path("settle.realm")
        let objects = 20_000
        let commits = 3_000
        let schema = Schema([
            ObjectSchema(
                name: "Person",
                properties: [
                    Property(name: "id", type: .int, isPrimaryKey: true),
                    Property(name: "name", type: .string),
                    Property(name: "age", type: .int),
                ])
        ])
        let realm = try Realm(path: path, schema: schema)
        try realm.write {
            for id in 0..<objects {
                try realm.create(
                    "Person", ["id": .int(Int64(id)), "name": .string("Anna Rossi \(id)"), "age": .int(0)])
            }
        }
        var generator = SeededGenerator(seed: 30)
        for round in 1...commits {
            let id = Int64.random(in: 0..<Int64(objects), using: &generator)
            try realm.write {
                try realm.object(ofType: "Person", forPrimaryKey: .int(id))?.setValue(.int(Int64(round)), forKey: "age")
            }
        }
        let settled = try realm.shared.slots()[0].slot.logicalSize
        let copy = folder.path("compacted.realm")
        try realm.writeCopy(toFile: copy)
        let live = try #require(try FileManager.default.attributesOfItem(atPath: copy)[.size] as? UInt64)
        #expect(
            Double(settled) <= 1.5 * Double(live),
            "settled at \(settled) bytes, \(Double(settled) / Double(live))× the \(live) of a compacted copy")
        #expect(try realm.checkIntegrity().objects["Person"] == objects)
    }
}
