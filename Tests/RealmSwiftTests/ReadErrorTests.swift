import Foundation
import Testing
import RealmSwift

/// Typed getters on a damaged file: the non-throwing ones answer an empty value only together
/// with a recorded error; the throwing variants throw.
@Suite struct ReadErrorTests {
    final class RPerson: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var name = ""
        @Persisted var age = 0
        @Persisted var tags: List<String>
        @Persisted var friend: RPerson?
    }

    static let marker = "DAMAGE-HERE-"

    /// 1,000 people in one commit, one more in a second (so the first opener does not check
    /// the damaged leaf against the newest commit record), then 64 bytes of the leaf holding
    /// the marker overwritten.
    /// `prepare` runs with the Realm before it is closed and the file damaged.
    static func damagedConfig(types: [Object.Type] = [RPerson.self], prepare: (Realm) throws -> Void = { _ in }) throws
        -> Realm.Configuration
    {
        let config = try fileConfig(types)
        do {
            let realm = try Realm(configuration: config)
            try realm.write {
                for i in 0..<1000 {
                    let name = i == 500 ? marker + "\(i)-padding-padding-padding" : "person \(i)"
                    realm.create(RPerson.self, value: ["id": i, "name": name, "age": i % 90, "tags": ["t"]])
                }
                // Person 0 (an undamaged leaf) links to person 500 (the damaged one).
                realm.object(ofType: RPerson.self, forPrimaryKey: 0)?.friend = realm.object(
                    ofType: RPerson.self, forPrimaryKey: 500)
            }
            try realm.write { realm.create(RPerson.self, value: ["id": 5000, "name": "late", "age": 1]) }
            try prepare(realm)
        }
        let url = try #require(config.fileURL)
        var bytes = [UInt8](try Data(contentsOf: url))
        let needle = Array(marker.utf8)
        var hits = 0
        for i in 0..<(bytes.count - needle.count)
        where bytes[i] == needle[0] && Array(bytes[i..<i + needle.count]) == needle {
            for j in i..<min(i + 64, bytes.count) { bytes[j] = 0x23 }
            hits += 1
        }
        try #require(hits > 0)
        try Data(bytes).write(to: url)
        return config
    }

    static func isCorrupt(_ error: Error?) -> Bool {
        if case .corruptFile? = error as? RealmError { return true }
        return false
    }

    @Test func resultsRecordTheErrorNextToTheEmptyAnswer() throws {
        let config = try Self.damagedConfig()
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let people = realm.objects(RPerson.self).filter("age >= 0")
        #expect(people.error == nil)
        #expect(people.count == 0)
        #expect(Self.isCorrupt(people.error))
        let again = realm.objects(RPerson.self).filter("age >= 0")
        let first = again[0]
        #expect(!first.isManaged && first.name == "")  // the empty value …
        #expect(Self.isCorrupt(again.error))  // … only with the error
        #expect(throws: RealmError.self) { _ = try again.element(at: 0) }
        #expect(throws: RealmError.self) { _ = try again.checkedCount() }
        let walked = realm.objects(RPerson.self)
        var seen = 0
        for _ in walked { seen += 1 }
        #expect(seen < 1001 && Self.isCorrupt(walked.error))  // iteration stops, and says why
    }

    @Test func propertyReadsRecordTheErrorOnTheObject() throws {
        let config = try Self.damagedConfig()
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let person = try #require(realm.object(ofType: RPerson.self, forPrimaryKey: 500))
        #expect(person.readError == nil)
        #expect(person.age == 0)
        #expect(Self.isCorrupt(person.readError))
        #expect(throws: RealmError.self) { _ = try person.checkedValue(forKey: "name") }
        let tags = person.tags
        #expect(tags.count == 0 && Self.isCorrupt(tags.error))
        let other = try #require(realm.object(ofType: RPerson.self, forPrimaryKey: 500)).tags
        #expect(other[0] == "" && Self.isCorrupt(other.error))
        #expect(throws: RealmError.self) { _ = try other.element(at: 0) }
        #expect(throws: RealmError.self) { _ = try other.checkedCount() }
        // An undamaged object reads normally, with no error.
        let late = try #require(realm.object(ofType: RPerson.self, forPrimaryKey: 5000))
        #expect(late.name == "late" && late.readError == nil)
        #expect(try late.checkedValue(forKey: "age") as? Int == 1)
        // A link into the damaged leaf: nil only with the reason recorded.
        let zero = try #require(realm.object(ofType: RPerson.self, forPrimaryKey: 0))
        let friend = zero.friend
        #expect(friend == nil && Self.isCorrupt(zero.readError))
    }

    @Test func observersGetTheErrorAsAChange() throws {
        let config = try Self.damagedConfig()
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        var errors: [Error] = []
        let token = realm.objects(RPerson.self).filter("age >= 0").observe(keyPaths: ["name"]) { change in
            if case .error(let error) = change { errors.append(error) }
        }
        pumpRunLoop { !errors.isEmpty }
        #expect(errors.count == 1 && Self.isCorrupt(errors.first))
        token.invalidate()
    }
}
