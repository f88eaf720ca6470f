import Foundation
import Testing
import RealmSwift

/// `min`, `max`, `sum` and `average` cannot throw. When the answer cannot be had from the file
/// (a damaged file, a total its type cannot hold, a stored value the type cannot represent)
/// they answer the empty value with the reason in `error`, as `count` does; the `checked`
/// variants throw. A misspelled property is still a programmer error that stops.
@Suite struct AggregateReadErrorTests {
    typealias RPerson = ReadErrorTests.RPerson

    @Test func aDamagedFileAnswersEmptyWithTheReasonRecorded() throws {
        let config = try ReadErrorTests.damagedConfig()
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let people = realm.objects(RPerson.self)
        #expect(people.error == nil)
        let oldest: Int? = people.max(ofProperty: "age")
        #expect(oldest == nil && ReadErrorTests.isCorrupt(people.error))
        let fresh = realm.objects(RPerson.self)
        #expect(fresh.min(of: \.age) == nil && ReadErrorTests.isCorrupt(fresh.error))
        let summed = realm.objects(RPerson.self)
        #expect(summed.sum(of: \.age) == 0 && ReadErrorTests.isCorrupt(summed.error))
        let averaged = realm.objects(RPerson.self)
        #expect(averaged.average(of: \.age) == nil && ReadErrorTests.isCorrupt(averaged.error))
        #expect(throws: RealmError.self) { _ = try people.checkedMax(ofProperty: "age") as Int? }
        #expect(throws: RealmError.self) { _ = try people.checkedMin(ofProperty: "age") as Int? }
        #expect(throws: RealmError.self) { _ = try people.checkedSum(ofProperty: "age") as Int }
        #expect(throws: RealmError.self) { _ = try people.checkedAverage(ofProperty: "age") }
    }

    final class Team: Object {
        @Persisted var members: List<RPerson>
    }

    /// A list, linking objects and a type-erased collection record the reason where their
    /// caller reads it: their own `error`.
    @Test func everyCollectionRecordsTheReasonInItsOwnError() throws {
        let config = try ReadErrorTests.damagedConfig(types: [RPerson.self, Team.self]) { realm in
            try realm.write {
                let team = realm.create(Team.self)
                team.members.append(objectsIn: realm.objects(RPerson.self))
            }
            // The members' backlinks put their leaves in that commit: one more, so that the
            // opener does not check the damaged leaf against the newest commit record.
            try realm.write { realm.create(Team.self) }
        }
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let members = try #require(realm.objects(Team.self).first).members
        #expect(members.error == nil)
        #expect(members.sum(of: \.age) == 0 && ReadErrorTests.isCorrupt(members.error))
        #expect(throws: RealmError.self) { _ = try members.checkedSum(ofProperty: "age") as Int }
        // An element in the damaged leaf: the list's error says the file is damaged (not that
        // the list holds something of the wrong type).
        let lost = members[500]
        #expect(!lost.isManaged && ReadErrorTests.isCorrupt(members.error), "\(String(describing: members.error))")
        #expect(throws: RealmError.self) { _ = try members.element(at: 500) }
        do { _ = try members.element(at: 500) } catch {
            #expect(ReadErrorTests.isCorrupt(error as? RealmError), "\(error)")
        }
        let erased = AnyRealmCollection(realm.objects(RPerson.self).filter("age >= 0"))
        #expect(erased.count == 0 && ReadErrorTests.isCorrupt(erased.error))
    }

    final class Tally: Object {
        @Persisted var small: Int8 = 0
    }

    @Test func aTotalItsTypeCannotHoldIsZeroWithTheReasonRecorded() throws {
        let realm = try Realm(configuration: memoryConfig([Tally.self]))
        try realm.write { for _ in 0..<3 { realm.create(Tally.self, value: ["small": 100]) } }
        let tallies = realm.objects(Tally.self)
        #expect(tallies.sum(of: \.small) == 0)
        #expect("\(String(describing: tallies.error))".contains("300 does not fit in Int8"))
        #expect(throws: RealmError.self) { _ = try tallies.checkedSum(ofProperty: "small") as Int8 }
        // Asked for as an Int, the same total is read, and the error is cleared.
        #expect(try tallies.checkedSum(ofProperty: "small") as Int == 300)
        let total: Int = tallies.sum(ofProperty: "small")
        #expect(total == 300 && tallies.error == nil)
        #expect(try tallies.checkedMax(ofProperty: "small") as Int8? == 100)
        #expect(try tallies.checkedAverage(ofProperty: "small") == 100)
    }

    enum Level: Int, PersistableEnum {
        case low = 1
        case high = 2
    }
    final class Gauge: Object {
        @Persisted var level: Level
    }

    @Test func anExtremeTheTypeCannotRepresentIsNilWithTheReasonRecorded() throws {
        let realm = try Realm(configuration: memoryConfig([Gauge.self]))
        try realm.write { realm.create(Gauge.self, value: ["level": 2]) }
        try realm.write { try realm.dynamicRealm.create("Gauge", ["level": .int(9)]) }
        let gauges = realm.objects(Gauge.self)
        #expect(gauges.min(of: \.level) == .high && gauges.error == nil)
        #expect(gauges.max(of: \.level) == nil)
        #expect("\(String(describing: gauges.error))".contains("9"))
        #expect(throws: RealmError.self) { _ = try gauges.checkedMax(ofProperty: "level") as Level? }
    }
}
