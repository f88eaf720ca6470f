import Foundation
import RealmEngine

/// realmtui through its public dynamic API, as an application would use it.
class RealmSide: BenchEngine {
    class var name: String { "realmtui" }
    /// The file's encryption key (`EncryptedSide`), nil for a plain file.
    class var encryptionKey: Data? { nil }
    static let schema = Schema([
        ObjectSchema(name: "Person", properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "name", type: .string),
            Property(name: "age", type: .int),
            Property(name: "score", type: .double),
            Property(name: "createdAt", type: .date),
        ]),
    ])

    let fileURL: URL
    private var realm: Realm?
    /// The open Realm of the items file (`RealmCollections.swift`), nil when closed.
    var itemsRealm: Realm?

    required init(directory: URL) throws {
        fileURL = directory.appendingPathComponent("bench.realm")
    }

    private var configuration: Realm.Configuration {
        .init(fileURL: fileURL, schema: RealmSide.schema, encryptionKey: Self.encryptionKey)
    }

    /// The open Realm (for the change-set tasks).
    func openedForObservation() throws -> Realm { try opened() }

    private func opened() throws -> Realm {
        if let realm { return realm }
        let r = try Realm(configuration: configuration)
        realm = r
        return r
    }

    static func input(_ d: Dataset, _ i: Int) -> ObjectInput {
        .array([
            .value(.int(d.ids[i])),
            .value(.string(d.names[i])),
            .value(.int(d.ages[i])),
            .value(.double(d.scores[i])),
            .value(.date(Timestamp(seconds: d.createdAt[i]))),
        ])
    }

    func insertBulk(_ data: Dataset) throws {
        let realm = try opened()
        try realm.write {
            for i in 0..<data.count {
                try realm.create("Person", value: RealmSide.input(data, i))
            }
        }
    }

    func compactAndMeasure() throws -> UInt64 {
        try close()
        _ = try Realm.compact(path: fileURL.path, encryptionKey: Self.encryptionKey)
        return fileBytes(fileURL)
    }

    func countFilter(times: Int) throws -> Int {
        let realm = try opened()
        var n = 0
        for _ in 0..<times {
            n = try realm.objects("Person").filter("age >= 20 AND age < 30").count
        }
        return n
    }

    func queryString() throws -> [Int] {
        let realm = try opened()
        return [
            try realm.objects("Person").filter("name BEGINSWITH 'A'").count,
            try realm.objects("Person").filter("name CONTAINS '李'").count,
        ]
    }

    func enumerateAges() throws -> Int64 {
        let realm = try opened()
        var sum: Int64 = 0
        for person in try realm.objects("Person") {
            if case .int(let age) = try person.value(forKey: "age") { sum &+= age }
        }
        return sum
    }

    func lookup(_ ids: [Int64]) throws -> Int64 {
        let realm = try opened()
        var sum: Int64 = 0
        for id in ids {
            if let person = try realm.object(ofType: "Person", forPrimaryKey: .int(id)),
               case .int(let age) = try person.value(forKey: "age") {
                sum &+= age
            }
        }
        return sum
    }

    func sortFirstPage() throws -> [String] {
        let realm = try opened()
        var names: [String] = []
        for person in try realm.objects("Person").sorted(byKeyPath: "name").limit(100) {
            if case .string(let s) = try person.value(forKey: "name") { names.append(s) }
        }
        return names
    }

    func close() throws {
        realm = nil
        itemsRealm = nil
    }

    func open() throws {
        realm = nil
        realm = try Realm(configuration: configuration)
    }

    func count() throws -> Int { try opened().objects("Person").count }

    func countScore(_ score: Double) throws -> Int {
        try opened().objects("Person").filter("score == %@", .double(score)).count
    }

    func updateBulk(score: Double) throws {
        let realm = try opened()
        try realm.write {
            try realm.objects("Person").setValue(.value(.double(score)), forKey: "score")
        }
    }

    func insertSingles(_ data: Dataset, firstID: Int64, count: Int) throws {
        let realm = try opened()
        for j in 0..<count {
            let i = j % data.count
            try realm.write {
                try realm.create("Person", value: .array([
                    .value(.int(firstID + Int64(j))),
                    .value(.string(data.names[i])),
                    .value(.int(data.ages[i])),
                    .value(.double(data.scores[i])),
                    .value(.date(Timestamp(seconds: data.createdAt[i]))),
                ]))
            }
        }
    }

    func deleteHalf() throws {
        let realm = try opened()
        try realm.write {
            try realm.delete(realm.objects("Person").filter("age < 50"))
        }
    }
}

/// The same as `RealmSide` on an encrypted file (AES-256 + HMAC-SHA-256 per page): the
/// `encrypted/rt` column is the overhead of encryption.
final class EncryptedSide: RealmSide {
    override class var name: String { "encrypted" }
    override class var encryptionKey: Data? { Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }) }
}
