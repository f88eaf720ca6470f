import Foundation
import Testing
import RealmSwift

/// `Projection<Root>` and `@Projected` (realm-swift's `ProjectionTests`: manual init, from
/// results, filtered, sorted, enumeration, equality, description, observing a key path; rewritten).
@Suite struct ProjectionTests {
    final class ProjectedAddress: EmbeddedObject {
        @Persisted var city = ""
    }
    final class ProjectedPerson: Object {
        @Persisted var firstName = ""
        @Persisted var lastName = ""
        @Persisted var birthday = Date(timeIntervalSince1970: 0)
        @Persisted var address: ProjectedAddress?
        @Persisted var friends: List<ProjectedPerson>
        var fullName: String { "\(firstName) \(lastName)" }
    }
    final class PersonView: Projection<ProjectedPerson> {
        @Projected(\ProjectedPerson.firstName) var name
        @Projected(\ProjectedPerson.lastName) var lastName
        @Projected(\ProjectedPerson.address?.city) var homeCity
        @Projected(\ProjectedPerson.fullName) var fullName
    }

    private func populated() throws -> Realm {
        let realm = try Realm(configuration: memoryConfig([ProjectedPerson.self]))
        try realm.write {
            realm.create(
                ProjectedPerson.self,
                value: [
                    "firstName": "John", "lastName": "Snow", "birthday": Date(timeIntervalSince1970: 10),
                    "address": ["city": "Winterfell"],
                ])
            realm.create(
                ProjectedPerson.self,
                value: [
                    "firstName": "Daenerys", "lastName": "Targaryen",
                    "address": ["city": "King's Landing"],
                ])
        }
        return realm
    }

    @Test func aProjectionReadsItsRoot() throws {
        let realm = try populated()
        let john = try #require(realm.objects(ProjectedPerson.self).filter("lastName == 'Snow'").first)
        let view = PersonView(projecting: john)
        #expect(view.name == "John")
        #expect(view.homeCity == "Winterfell")
        #expect(view.fullName == "John Snow")
        #expect(view.rootObject == john)
        #expect(view.realm != nil)
        // Live: a change of the root shows through.
        try realm.write { john.address?.city = "The Wall" }
        #expect(view.homeCity == "The Wall")
    }

    @Test func projectionsOfResultsAreFilteredAndSortedByTheRoot() throws {
        let realm = try populated()
        let views = realm.objects(PersonView.self)
        #expect(views.count == 2)
        #expect(views.map(\.name) == ["John", "Daenerys"])
        #expect(views.filter("lastName == 'Snow'").first?.homeCity == "Winterfell")
        #expect(views.sorted(byKeyPath: "firstName").first?.homeCity == "King's Landing")
        #expect(views.sorted(byKeyPath: "birthday").first?.name == "Daenerys")
        #expect(views.where { $0.address.city == "Winterfell" }.map(\.lastName) == ["Snow"])
    }

    @Test func equalityIsTheRootsAndDescriptionShowsTheProjection() throws {
        let realm = try populated()
        let johnObject = try #require(realm.objects(ProjectedPerson.self).filter("lastName == 'Snow'").first)
        let johnMapped = try #require(realm.objects(PersonView.self).filter("lastName == 'Snow'").first)
        let notJohn = try #require(realm.objects(PersonView.self).filter("lastName != 'Snow'").first)
        #expect(johnMapped == PersonView(projecting: johnObject))
        #expect(johnMapped != notJohn)
        #expect(Set([johnMapped, PersonView(projecting: johnObject), notJohn]).count == 2)
        #expect(johnMapped.description.contains("name = John"))
        #expect(johnMapped.description.contains("homeCity = Winterfell"))
    }

    @Test func writingAProjectedPropertyWritesTheRoot() throws {
        let realm = try populated()
        let view = try #require(realm.objects(PersonView.self).first)
        try realm.write { view.name = "Jon" }
        #expect(realm.objects(ProjectedPerson.self).filter("firstName == 'Jon'").count == 1)
        // An unmanaged root is a plain object.
        let unmanaged = PersonView(projecting: ProjectedPerson())
        unmanaged.lastName = "Stark"
        #expect(unmanaged.rootObject.lastName == "Stark")
    }

    @Test func observingAKeyPathReportsTheProjectionsName() throws {
        let realm = try populated()
        let john = try #require(realm.objects(PersonView.self).filter("lastName == 'Snow'").first)
        var changes: [[String]] = []
        var deleted = false
        let token = john.observe(keyPaths: ["lastName"]) { change in
            switch change {
            case .change(let view, let properties):
                changes.append(properties.map(\.name) + [(view as? PersonView)?.lastName ?? "?"])
            case .deleted: deleted = true
            case .error(let error): Issue.record("\(error)")
            }
        }
        defer { token.invalidate() }
        // Not watched: the first name.
        try realm.write { john.rootObject.firstName = "Jon" }
        try realm.write { john.rootObject.lastName = "Targaryen" }
        pumpRunLoop { !changes.isEmpty }
        #expect(changes == [["lastName", "Targaryen"]])
        try realm.write { realm.delete(john.rootObject) }
        pumpRunLoop { deleted }
    }

    @Test func projectionResultsAreObserved() throws {
        let realm = try populated()
        let views = realm.objects(PersonView.self)
        var events: [String] = []
        let token = views.observe { change in
            switch change {
            case .initial(let v): events.append("initial \(v.count)")
            case .update(let v, let d, let i, let m): events.append("update \(v.count) -\(d) +\(i) ~\(m)")
            case .error(let error): events.append("error \(error)")
            }
        }
        defer { token.invalidate() }
        pumpRunLoop { events.count >= 1 }
        try realm.write { realm.create(ProjectedPerson.self, value: ["firstName": "Arya", "lastName": "Stark"]) }
        pumpRunLoop { events.count >= 2 }
        #expect(events == ["initial 2", "update 3 -[] +[2] ~[]"])
    }
}
