import Foundation
import Testing
@testable import RealmEngine

@Suite struct ThreadTests {
    @Test func writersOnSeveralThreadsLoseNoUpdateAndReadersNeverSeeHalfACommit() throws {
        let dir = TempDir()
        let path = dir.path("threads.realm")
        let schema = Schema([
            ObjectSchema(
                name: "Counter",
                properties: [
                    Property(name: "id", type: .int, isPrimaryKey: true),
                    Property(name: "a", type: .int),
                    Property(name: "b", type: .int),
                ])
        ])
        do {
            let realm = try Realm(path: path, schema: schema)
            try realm.write { try realm.create("Counter", ["id": .int(0), "a": .int(0), "b": .int(0)]) }
        }
        let errors = UncheckedBox(NSMutableArray())
        let group = DispatchGroup()
        for _ in 0..<3 {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    let realm = try Realm(path: path)
                    for _ in 0..<60 {
                        try realm.write {
                            guard let c = try realm.object(ofType: "Counter", forPrimaryKey: .int(0)),
                                case .int(let a) = try c.value(forKey: "a")
                            else { return }
                            // Two writes per commit: a reader must always see a == b.
                            try c.setValue(.int(a + 1), forKey: "a")
                            try c.setValue(.int(a + 1), forKey: "b")
                        }
                    }
                } catch {
                    errors.value.add("\(error)")
                }
            }.start()
        }
        group.enter()
        Thread {
            defer { group.leave() }
            do {
                let realm = try Realm(path: path)
                for _ in 0..<300 {
                    realm.refresh()
                    let c = try realm.object(ofType: "Counter", forPrimaryKey: .int(0))
                    if c?["a"] != c?["b"] {
                        errors.value.add("torn read: \(String(describing: c?["a"])) vs \(String(describing: c?["b"]))")
                    }
                }
            } catch {
                errors.value.add("\(error)")
            }
        }.start()
        group.wait()
        #expect(errors.value.count == 0, "\(errors.value)")
        let realm = try Realm(path: path)
        #expect(try realm.object(ofType: "Counter", forPrimaryKey: .int(0))?["a"] == .int(180))
        _ = try realm.checkIntegrity()
    }
}
