import Foundation
import RealmSwift

/// The typed model of the benchmark's person.
final class BenchPerson: Object {
    override class func _realmObjectName() -> String? { "Person" }
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var score = 0.0
    @Persisted var createdAt = Date(timeIntervalSince1970: 0)
}

/// realmtui through the typed API (`RealmSwift`): the same tasks as `RealmSide`, written as a
/// RealmSwift application writes them, to measure what the typed layer costs.
final class TypedSide: BenchEngine {
    static let name = "typed"
    let fileURL: URL
    private var realm: RealmSwift.Realm?

    init(directory: URL) throws {
        fileURL = directory.appendingPathComponent("bench.realm")
    }

    private var configuration: RealmSwift.Realm.Configuration { .init(fileURL: fileURL, objectTypes: [BenchPerson.self]) }

    private func opened() throws -> RealmSwift.Realm {
        if let realm { return realm }
        let r = try RealmSwift.Realm(configuration: configuration)
        realm = r
        return r
    }

    private static func person(_ d: Dataset, _ i: Int, id: Int64) -> BenchPerson {
        let p = BenchPerson()
        p.id = Int(id)
        p.name = d.names[i]
        p.age = Int(d.ages[i])
        p.score = d.scores[i]
        p.createdAt = Date(timeIntervalSince1970: TimeInterval(d.createdAt[i]))
        return p
    }

    func insertBulk(_ data: Dataset) throws {
        let realm = try opened()
        try realm.write {
            for i in 0..<data.count { realm.add(TypedSide.person(data, i, id: data.ids[i])) }
        }
    }

    func compactAndMeasure() throws -> UInt64 {
        try close()
        _ = try RealmEngine.Realm.compact(path: fileURL.path)
        return fileBytes(fileURL)
    }

    func countFilter(times: Int) throws -> Int {
        let realm = try opened()
        var n = 0
        for _ in 0..<times { n = realm.objects(BenchPerson.self).where { $0.age >= 20 && $0.age < 30 }.count }
        return n
    }

    func queryString() throws -> [Int] {
        let realm = try opened()
        return [
            realm.objects(BenchPerson.self).filter("name BEGINSWITH 'A'").count,
            realm.objects(BenchPerson.self).filter("name CONTAINS '李'").count,
        ]
    }

    func enumerateAges() throws -> Int64 {
        let realm = try opened()
        var sum: Int64 = 0
        for person in realm.objects(BenchPerson.self) { sum &+= Int64(person.age) }
        return sum
    }

    func lookup(_ ids: [Int64]) throws -> Int64 {
        let realm = try opened()
        var sum: Int64 = 0
        for id in ids {
            if let person = realm.object(ofType: BenchPerson.self, forPrimaryKey: Int(id)) { sum &+= Int64(person.age) }
        }
        return sum
    }

    func sortFirstPage() throws -> [String] {
        let realm = try opened()
        return realm.objects(BenchPerson.self).sorted(byKeyPath: "name").prefix(100).map(\.name)
    }

    func close() throws { realm = nil }

    func open() throws {
        realm = nil
        realm = try RealmSwift.Realm(configuration: configuration)
    }

    func count() throws -> Int { try opened().objects(BenchPerson.self).count }

    func countScore(_ score: Double) throws -> Int {
        try opened().objects(BenchPerson.self).where { $0.score == score }.count
    }

    func updateBulk(score: Double) throws {
        let realm = try opened()
        try realm.write { realm.objects(BenchPerson.self).setValue(score, forKey: "score") }
    }

    func insertSingles(_ data: Dataset, firstID: Int64, count: Int) throws {
        let realm = try opened()
        for j in 0..<count {
            try realm.write { realm.add(TypedSide.person(data, j % data.count, id: firstID + Int64(j))) }
        }
    }

    func deleteHalf() throws {
        let realm = try opened()
        try realm.write { realm.delete(realm.objects(BenchPerson.self).filter("age < 50")) }
    }
}
