import Foundation
import Testing
import RealmSwift

/// The file's `LPerson` stores its properties as (lastName, firstName).
enum StoredLayout {
    final class LPerson: Object {
        @Persisted var lastName = ""
        @Persisted var firstName = ""
    }
    final class LDog: Object {
        @Persisted var name = ""
        @Persisted var owner: LPerson?
    }
}

/// This program's `LPerson` declares them the other way round (and the same `LDog`).
enum ProgramLayout {
    final class LPerson: Object {
        @Persisted var firstName = ""
        @Persisted var lastName = ""
    }
    final class LDog: Object {
        @Persisted var name = ""
        @Persisted var owner: LPerson?
    }
}

/// Opened without `objectTypes`, a file is checked class by class as the program uses them. A
/// class reached only through a link is checked too: before, `dog.owner!.firstName` read the
/// file's first column by the program's order and answered the last name.
@Suite struct LinkedClassCheckTests {
    @Test func aClassReachedThroughALinkIsCheckedAgainstTheFile() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let config = try fileConfig([StoredLayout.LPerson.self, StoredLayout.LDog.self])
            let stored = try Realm(configuration: config)
            try stored.write {
                stored.add(StoredLayout.LDog(value: ["name": "Rex", "owner": ["lastName": "Li", "firstName": "Lei"]]))
            }
            var untyped = config
            untyped.objectTypes = nil
            let realm = try Realm(configuration: untyped)
            let dog = try #require(realm.objects(ProgramLayout.LDog.self).first)
            print("not stopped: firstName \(dog.owner?.firstName ?? "nil")")
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("LPerson differs from the class stored"), "\(message)")
    }
}
