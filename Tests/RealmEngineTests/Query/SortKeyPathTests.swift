import Foundation
import Testing
@testable import RealmEngine

/// Sorting or finding distinct values by a link, a list or a missing property is refused when
/// the results are built, whatever the number of objects: before, a sort key was only checked
/// when there were two objects or more to compare, so a bad key path on a small result passed
/// unnoticed (and the typed API's `count` read the later failure as 0 objects).
@Suite struct SortKeyPathTests {
    static func realm(_ dir: TempDir, people: Int) throws -> Realm {
        let realm = try Realm(path: dir.path("s.realm"), schema: Fixtures.people)
        try realm.write {
            for i in 0..<people { try realm.create("Person", ["id": .int(Int64(i)), "name": .string("p\(i)")]) }
        }
        return realm
    }

    static func message(_ body: () throws -> Void) -> String? {
        do { try body() } catch let error as RealmError { return "\(error)" } catch {
            return "not a RealmError: \(error)"
        }
        return nil
    }

    @Test(arguments: [0, 1, 3]) func sortingByALinkThrows(people: Int) throws {
        let dir = TempDir()
        let realm = try Self.realm(dir, people: people)
        let link = Self.message { _ = try realm.objects("Person").sorted(byKeyPath: "best") }
        #expect(link?.contains("cannot sort by 'best': it is a link") == true, "\(link ?? "no error")")
        let list = Self.message { _ = try realm.objects("Person").sorted(by: [SortDescriptor(keyPath: "dogs")]) }
        #expect(list?.contains("cannot sort by 'dogs'") == true, "\(list ?? "no error")")
        let missing = Self.message { _ = try realm.objects("Person").sorted(byKeyPath: "weight") }
        #expect(missing?.contains("no property 'weight'") == true, "\(missing ?? "no error")")
        let distinct = Self.message { _ = try realm.objects("Person").distinct(by: ["best"]) }
        #expect(
            distinct?.contains("cannot find distinct values by 'best': it is a link") == true,
            "\(distinct ?? "no error")")
        // A good key path through a to-one link still sorts.
        #expect(try realm.objects("Person").sorted(byKeyPath: "best.name").count == people)
    }

    @Test func aListsResultsCheckTheirSortToo() throws {
        let dir = TempDir()
        let realm = try Self.realm(dir, people: 1)
        let person = try #require(try realm.object(ofType: "Person", forPrimaryKey: .int(0)))
        let dogs = try person.list(forKey: "dogs").objects()
        let error = Self.message { _ = try dogs.sorted(byKeyPath: "owners") }
        #expect(error?.contains("cannot sort by 'owners'") == true, "\(error ?? "no error")")
    }
}
