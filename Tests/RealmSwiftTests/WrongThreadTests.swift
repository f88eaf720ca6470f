import Foundation
import Testing
import RealmSwift

final class WTDog: Object { @Persisted var name = "" }
final class WTPerson: Object { @Persisted var dogs: List<WTDog> }

/// The managed list of a person with one dog, in an in-memory Realm of its own.
func managedListOfOneDog(_ identifier: String) throws -> List<WTDog> {
    let realm = try Realm(
        configuration: Realm.Configuration(inMemoryIdentifier: identifier, objectTypes: [WTDog.self, WTPerson.self]))
    let person = WTPerson()
    person.dogs.append(WTDog())
    try realm.write { realm.add(person) }
    return person.dogs
}

/// A list or a Realm used from another thread than the one that opened it stops with the same
/// message as `person.name` and `Results.count` there (a programmer error, as in RealmSwift);
/// before, `dogs.count` answered 0 and `realm.isEmpty` true.
@Suite struct WrongThreadTests {
    @Test func aListCountedOnAnotherThreadStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            nonisolated(unsafe) let dogs = try managedListOfOneDog("list-thread")
            try onOtherThread { print("not stopped: \(dogs.count)") }
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("incorrect thread"), "\(message)")
    }

    @Test func aListIteratedOnAnotherThreadStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            nonisolated(unsafe) let dogs = try managedListOfOneDog("list-thread-loop")
            try onOtherThread {
                var seen = 0
                for _ in dogs { seen += 1 }
                print("not stopped: \(seen) \(dogs.isEmpty) \(String(describing: dogs.first))")
            }
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("incorrect thread"), "\(message)")
    }

    @Test func realmIsEmptyOnAnotherThreadStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class WDog: Object { @Persisted var name = "" }
            nonisolated(unsafe) let realm = try Realm(
                configuration: Realm.Configuration(inMemoryIdentifier: "empty-thread", objectTypes: [WDog.self]))
            try realm.write { realm.add(WDog()) }
            try onOtherThread { print("not stopped: \(realm.isEmpty)") }
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("incorrect thread"), "\(message)")
    }

    @Test func onItsOwnThreadTheyStillAnswer() throws {
        final class WDog: Object { @Persisted var name = "" }
        final class WPerson: Object { @Persisted var dogs: List<WDog> }
        let realm = try Realm(configuration: memoryConfig([WDog.self, WPerson.self]))
        #expect(realm.isEmpty)
        let person = WPerson()
        person.dogs.append(WDog(value: ["name": "Rex"]))
        try realm.write { realm.add(person) }
        #expect(
            !realm.isEmpty && person.dogs.count == 1 && person.dogs.first?.name == "Rex"
                && person.dogs.map(\.name) == ["Rex"])
    }
}
