import Foundation
import Testing
import RealmSwift

/// A programmer error in a non-throwing typed call stops with its message; it never comes back
/// as an answer that looks like data (nil, 0, an empty collection).
@Suite struct MisuseIsNotAnAnswerTests {
    final class MDog: Object {
        @Persisted var name = ""
        @Persisted var age = 0
    }

    @Test func indexMatchingFindsTheFirstMatchInCollectionOrder() throws {
        let realm = try Realm(configuration: memoryConfig([MDog.self]))
        try realm.write {
            for (name, age) in [("Rex", 3), ("Ace", 5), ("Fido", 5)] {
                realm.add(MDog(value: ["name": name, "age": age]))
            }
        }
        let byName = realm.objects(MDog.self).sorted(byKeyPath: "name")
        #expect(byName.index(matching: "age == %d", 5) == 0)  // Ace
        #expect(byName.index(matching: "name == %@", "Rex") == 2)
        #expect(byName.index(matching: "age > 9") == nil)  // no match: nil
    }

    /// Before, a predicate that did not parse or named no property answered nil, as if no
    /// object matched.
    @Test func indexMatchingABadPredicateStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class MCat: Object { @Persisted var name = "" }
            let realm = try Realm(
                configuration: Realm.Configuration(inMemoryIdentifier: "index-matching", objectTypes: [MCat.self]))
            try realm.write { realm.add(MCat(value: ["name": "Tom"])) }
            let index = realm.objects(MCat.self).index(matching: "weight > 3")
            print("not stopped: \(String(describing: index))")
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("index(matching: \"weight > 3\")") && message.contains("weight"), "\(message)")
    }
}

/// `min`/`max` asked for a type the property's values are not: nil would read as "no objects".
@Suite struct AggregateTypeMismatchTests {
    @Test func minAskedForTheWrongTypeStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class MBook: Object { @Persisted var price = 0.0 }
            let realm = try Realm(
                configuration: Realm.Configuration(inMemoryIdentifier: "min-type", objectTypes: [MBook.self]))
            try realm.write { realm.add(MBook(value: ["price": 12.5])) }
            let lowest: Int? = realm.objects(MBook.self).min(ofProperty: "price")
            print("not stopped: \(String(describing: lowest))")
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(
            message.contains("min(ofProperty: price)") && message.contains("MBook.price expects Int, got double"),
            "\(message)")
    }

    @Test func sumAskedForAnIntegerOfADoublePropertyStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class MPen: Object { @Persisted var price = 0.0 }
            let realm = try Realm(
                configuration: Realm.Configuration(inMemoryIdentifier: "sum-type", objectTypes: [MPen.self]))
            try realm.write { realm.add(MPen(value: ["price": 2.5])) }
            let total: Int = realm.objects(MPen.self).sum(ofProperty: "price")
            print("not stopped: \(total)")
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(
            message.contains("sum(ofProperty: price)") && message.contains("MPen.price expects Int, got double"),
            "\(message)")
    }

    @Test func theRightTypeAndAnEmptyCollectionStillAnswer() throws {
        final class NBook: Object { @Persisted var price = 0.0 }
        let realm = try Realm(
            configuration: Realm.Configuration(inMemoryIdentifier: "min-type-ok", objectTypes: [NBook.self]))
        #expect(realm.objects(NBook.self).min(ofProperty: "price") == nil as Double?)
        try realm.write { realm.add(NBook(value: ["price": 12.5])) }
        #expect(realm.objects(NBook.self).max(ofProperty: "price") == 12.5 as Double?)
    }
}

/// Resolving a `ThreadSafeReference` whose object cannot be read (a damaged file) is not "the
/// object was deleted": `checkedResolve` throws, `resolve` stops with the reason.
@Suite struct ResolveReadErrorTests {
    typealias RPerson = ReadErrorTests.RPerson

    /// A damaged file and a reference to person 500, whose leaf is the damaged one.
    static func damaged() throws -> (Realm.Configuration, ThreadSafeReference<RPerson>) {
        var reference: ThreadSafeReference<RPerson>?
        let config = try ReadErrorTests.damagedConfig { realm in
            reference = realm.object(ofType: RPerson.self, forPrimaryKey: 500).map { ThreadSafeReference(to: $0) }
        }
        return (config, try #require(reference))
    }

    @Test func checkedResolveThrowsTheReadError() throws {
        let (config, reference) = try Self.damaged()
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        #expect(throws: RealmError.self) { _ = try realm.checkedResolve(reference) }
    }

    @Test func resolveStopsWithTheReadError() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (config, reference) = try ResolveReadErrorTests.damaged()
            defer { removeFolder(of: config) }
            let realm = try Realm(configuration: config)
            print("not stopped: \(String(describing: realm.resolve(reference)))")
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("resolve") && message.contains("corrupt"), "\(message)")
    }

    @Test func aDeletedObjectStillResolvesToNil() throws {
        let config = try fileConfig([RPerson.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let person = try realm.write { realm.create(RPerson.self, value: ["id": 1, "name": "a"]) }
        let reference = ThreadSafeReference(to: person)
        try realm.write { realm.delete(person) }
        #expect(realm.resolve(reference) == nil)
        #expect(try realm.checkedResolve(reference) == nil)
    }
}
