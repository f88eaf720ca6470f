import Foundation
import Testing
@testable import RealmEngine

/// `Realm.delete(results)` of a filtered class: the path that tests each leaf while editing it
/// (a committed tree, a filter on non-indexed scalar columns) and the key-list path it falls
/// back to, checked against a model of the objects after every transaction.
@Suite struct FilteredDeleteTests {
    static let schema = Schema([
        ObjectSchema(
            name: "P",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "name", type: .string, isIndexed: true),
                Property(name: "age", type: .int),
                Property(name: "score", type: .double),
                Property(name: "opt", type: .int, isOptional: true),
            ])
    ])

    struct Row {
        var key: ObjectKey
        var name: String
        var age: Int64
        var score: Double
        var opt: Int64?
    }

    /// Random filtered deletes, each checked against the model: values, the primary-key and name
    /// indexes, the change record and the file's integrity.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomFilteredDeletesMatchAModel(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let dir = TempDir()
        let realm = try Realm(path: dir.path("del.realm"), schema: Self.schema)
        var model: [Int64: Row] = [:]
        try realm.write {
            for i in 0..<6000 {
                let age = Int64.random(in: 0..<100, using: &rng)
                let opt: Int64? = Bool.random(using: &rng) ? nil : Int64.random(in: 0..<10, using: &rng)
                let name = "n\(Int.random(in: 0..<20, using: &rng))"
                let score = Double(Int.random(in: 0..<1000, using: &rng)) / 1000
                let o = try realm.create(
                    "P",
                    [
                        "id": .int(Int64(i)), "name": .string(name), "age": .int(age),
                        "score": .double(score), "opt": opt.map { .int($0) } ?? .null,
                    ])
                model[Int64(i)] = Row(key: o.key, name: name, age: age, score: score, opt: opt)
            }
        }
        // Each filter with the model's test; "name" is indexed, so its delete lists keys first.
        let filters: [(String, (Row) -> Bool)] = [
            ("age < 20", { $0.age < 20 }),
            ("age >= 40 AND age < 45", { $0.age >= 40 && $0.age < 45 }),
            ("score > 0.9", { $0.score > 0.9 }),
            ("opt < 3", { ($0.opt ?? 99) < 3 }),
            ("opt == nil AND age > 90", { $0.opt == nil && $0.age > 90 }),
            ("name == 'n3'", { $0.name == "n3" }),
            ("age == 55 OR score < 0.05", { $0.age == 55 || $0.score < 0.05 }),
            ("age < 0", { _ in false }),
        ]
        for (filter, test) in filters {
            let doomed = model.filter { test($0.value) }
            try realm.write {
                try realm.delete(try realm.objects("P").filter(filter))
                let record = realm.transaction.flatMap { ChangeLog.record($0.changes, version: 0).classes[0] }
                #expect((record?.deleted ?? []) == doomed.values.map(\.key.rawValue).sorted(), "\(filter)")
            }
            for id in doomed.keys { model[id] = nil }
            try check(realm, model, filter)
        }
        // One insert (appended to the last leaf in encoded form, its path rewritten) and then a
        // delete that reaches the nodes the insert wrote.
        try realm.write {
            let o = try realm.create(
                "P", ["id": .int(7000), "name": .string("late"), "age": .int(85), "score": .double(0.5), "opt": .null])
            model[7000] = Row(key: o.key, name: "late", age: 85, score: 0.5, opt: nil)
            try realm.delete(try realm.objects("P").filter("age >= 84 AND age < 88"))
        }
        for (id, row) in model where row.age >= 84 && row.age < 88 { model[id] = nil }
        try check(realm, model, "insert then delete")
        // Two deletes in one transaction: the second edits leaves (and index leaves) the first wrote.
        try realm.write {
            try realm.delete(try realm.objects("P").filter("age >= 60 AND age < 70"))
            try realm.delete(try realm.objects("P").filter("age >= 65 AND age < 80"))
        }
        for (id, row) in model where row.age >= 60 && row.age < 80 { model[id] = nil }
        try check(realm, model, "two deletes")
        // After inserts in the same transaction the tree is loaded: the key-list path.
        try realm.write {
            for i in 6000..<6100 {
                let o = try realm.create(
                    "P",
                    [
                        "id": .int(Int64(i)), "name": .string("new"), "age": .int(Int64(i % 100)),
                        "score": .double(0.5), "opt": .null,
                    ])
                model[Int64(i)] = Row(key: o.key, name: "new", age: Int64(i % 100), score: 0.5, opt: nil)
            }
            try realm.delete(try realm.objects("P").filter("age < 30"))
        }
        for (id, row) in model where row.age < 30 { model[id] = nil }
        try check(realm, model, "after inserts")
        // Everything left matches: the tree and its index become empty, and take new objects.
        try realm.write { try realm.delete(try realm.objects("P").filter("age >= 0")) }
        model = [:]
        try check(realm, model, "all")
        try realm.write {
            try realm.create(
                "P", ["id": .int(7), "name": .string("back"), "age": .int(1), "score": .double(0), "opt": .null])
        }
        #expect(try realm.object(ofType: "P", forPrimaryKey: .int(7))?["name"] == .string("back"))
        _ = try realm.checkIntegrity()
    }

    /// Observers of the class and of a filter see exactly the deleted positions, on a tree three
    /// levels deep (more leaves than one inner node holds).
    @Test func observersSeeTheDeletedPositions() throws {
        let dir = TempDir()
        let path = dir.path("notify.realm")
        let writer = try Realm(path: path, schema: Self.schema)
        let count = Limits.clusterRows * Limits.innerFanout + 3000
        try writer.write {
            for i in 0..<count {
                try writer.create(
                    "P",
                    [
                        "id": .int(Int64(i)), "name": .string("n"), "age": .int(Int64(i % 100)),
                        "score": .double(0), "opt": .null,
                    ])
            }
        }
        let observed = try Realm(path: path, schema: Self.schema)
        var all: [String] = []
        var old: [String] = []
        let deleted = (0..<count).filter { $0 % 100 < 30 }
        let t1 = try observed.objects("P").observe { change in
            if case .update(let r, let d, let i, let m) = change { all.append("\(r.count) \(d == deleted) \(i) \(m)") }
        }
        let t2 = try observed.objects("P").filter("age >= 20").observe { change in
            if case .update(let r, let d, let i, let m) = change { old.append("\(r.count) \(d) \(i) \(m)") }
        }
        observed.refresh()
        try writer.write { try writer.delete(try writer.objects("P").filter("age < 30")) }
        observed.refresh()
        let left = (0..<count).filter { $0 % 100 >= 30 }.count
        #expect(all == ["\(left) true [] []"])
        // Among the objects with age >= 20, those with age 20..<30 went: ten of every eighty.
        let before = (0..<count).filter { $0 % 100 >= 20 }
        let gone = before.indices.filter { before[$0] % 100 < 30 }
        #expect(old == ["\(left) \(gone) [] []"])
        #expect(try observed.objects("P").count == left)
        _ = try observed.checkIntegrity()
        t1.invalidate()
        t2.invalidate()
    }

    private func check(_ realm: Realm, _ model: [Int64: Row], _ context: String) throws {
        _ = try realm.checkIntegrity()
        #expect(try realm.objects("P").count == model.count, "\(context)")
        let keys = try realm.objects("P").keys()
        #expect(keys == model.values.map(\.key).sorted(), "\(context)")
        for id in Int64(0)..<6100 where id % 13 == 0 {
            let object = try realm.object(ofType: "P", forPrimaryKey: .int(id))
            #expect(object?.key == model[id]?.key, "\(context): id \(id)")
            if let object, let row = model[id] {
                #expect(object["age"] == .int(row.age) && object["score"] == .double(row.score), "\(context): id \(id)")
                #expect(object["opt"] == (row.opt.map { .int($0) } ?? .null), "\(context): id \(id)")
            }
        }
        for n in 0..<20 {
            let found = try realm.objects("P").filter("name == $0", .string("n\(n)")).keys()
            #expect(found == model.values.filter { $0.name == "n\(n)" }.map(\.key).sorted(), "\(context): name n\(n)")
        }
    }
}
