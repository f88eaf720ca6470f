import Foundation
import Testing
import RealmSwift

// A URL stored as its string, as RealmSwift's documentation shows.
extension URL: FailableCustomPersistable {
    public typealias PersistedType = String
    public init?(persistedValue: String) { self.init(string: persistedValue) }
    public var persistableValue: String { absoluteString }
}

/// User types stored as a type Realm supports (`CustomPersistable`, `FailableCustomPersistable`):
/// the file holds the persisted value, the model reads the user type, everywhere a property,
/// element, key or query value goes.
@Suite struct CustomPersistableTests {
    /// A wrapper stored as its string.
    struct Tag: CustomPersistable, Hashable {
        typealias PersistedType = String
        var name: String
        init(_ name: String) { self.name = name }
        init(persistedValue: String) { name = persistedValue }
        var persistableValue: String { name }
    }

    /// A conversion that fails for odd numbers.
    struct Even: FailableCustomPersistable, Equatable {
        typealias PersistedType = Int
        var value: Int
        init?(persistedValue: Int) {
            guard persistedValue % 2 == 0 else { return nil }
            value = persistedValue
        }
        var persistableValue: Int { value }
    }

    final class Bookmark: Object {
        @Persisted(primaryKey: true) var tag: Tag
        @Persisted var url = URL(fileURLWithPath: "/")
        @Persisted var mirror: URL?
        @Persisted var even: Even
        @Persisted var maybeEven: Even?
        @Persisted var related: List<Tag>
        @Persisted var labels: MutableSet<Tag>
        @Persisted var links: Map<String, URL>
    }

    static func url(_ s: String) throws -> URL { try #require(URL(string: s)) }

    static func filled() throws -> Realm {
        let realm = try Realm(configuration: memoryConfig([Bookmark.self]))
        try realm.write {
            let a = Bookmark()
            a.tag = Tag("realm")
            a.url = try url("https://realm.io")
            a.mirror = try url("https://mirror.realm.io")
            a.even = try #require(Even(persistedValue: 4))
            a.related.append(objectsIn: [Tag("db"), Tag("swift")])
            a.labels.insert(Tag("x"))
            a.labels.insert(Tag("x"))
            a.labels.insert(Tag("y"))
            a.links["docs"] = try url("https://docs.realm.io")
            realm.add(a)
            let b = Bookmark()
            b.tag = Tag("swift")
            b.url = try url("https://swift.org")
            realm.add(b)
        }
        return realm
    }

    @Test func theFileHoldsThePersistedValueAndTheModelReadsTheUserType() throws {
        let realm = try Self.filled()
        let schema = try #require(realm.schema.objectSchema.first { $0.className == "Bookmark" })
        #expect(schema.properties.first { $0.name == "url" }?.type == .string)
        #expect(schema.properties.first { $0.name == "even" }?.type == .int)
        #expect(schema.primaryKeyProperty?.name == "tag")

        let a = try #require(realm.object(ofType: Bookmark.self, forPrimaryKey: Tag("realm")))
        #expect(a.url == (try Self.url("https://realm.io")))
        #expect(a.mirror == (try Self.url("https://mirror.realm.io")))
        #expect(a.even.value == 4)
        #expect(a.maybeEven == nil)
        #expect(Array(a.related) == [Tag("db"), Tag("swift")])
        #expect(Set(a.labels) == [Tag("x"), Tag("y")])
        #expect(a.links["docs"] == (try Self.url("https://docs.realm.io")))
        #expect(a.readError == nil)

        let stored = try #require(try realm.dynamicRealm.object(ofType: "Bookmark", forPrimaryKey: .string("realm")))
        #expect(try stored.value(forKey: "url") == .string("https://realm.io"))
        #expect(try stored.value(forKey: "even") == .int(4))
    }

    @Test func queriesCompareThePersistedValue() throws {
        let realm = try Self.filled()
        let all = realm.objects(Bookmark.self)
        #expect(
            all.where { $0.url == (try? Self.url("https://swift.org")) ?? URL(fileURLWithPath: "/") }.map(\.tag) == [
                Tag("swift")
            ])
        #expect(all.where { $0.tag == Tag("realm") }.count == 1)
        #expect(all.where { $0.url.persistableValue.starts(with: "https://realm") }.map(\.tag) == [Tag("realm")])
        #expect(all.where { $0.mirror == nil }.map(\.tag) == [Tag("swift")])
        #expect(all.where { $0.tag.in([Tag("swift"), Tag("nope")]) }.map(\.tag) == [Tag("swift")])
        #expect(all.where { $0.even.persistableValue > 2 }.count == 1)
    }

    @Test func looselyTypedInputTakesThePersistedForm() throws {
        let realm = try Realm(configuration: memoryConfig([Bookmark.self]))
        try realm.write {
            realm.create(
                Bookmark.self, value: ["tag": "from-json", "url": "https://a.b", "related": ["p", "q"], "even": 8])
        }
        let b = try #require(realm.object(ofType: Bookmark.self, forPrimaryKey: Tag("from-json")))
        #expect(b.url == (try Self.url("https://a.b")))
        #expect(Array(b.related) == [Tag("p"), Tag("q")])
        #expect(b.even.value == 8)
        // A value the conversion refuses is refused at the write, not stored as something else.
        #expect(throws: RealmError.self) {
            try realm.write { realm.create(Bookmark.self, value: ["tag": "odd", "even": 3]) }
        }
        #expect(realm.object(ofType: Bookmark.self, forPrimaryKey: Tag("odd")) == nil)
    }

    @Test func aStoredValueTheFailableConversionRefusesIsAnError() throws {
        let realm = try Self.filled()
        try realm.write {
            let stored = try #require(
                try realm.dynamicRealm.object(ofType: "Bookmark", forPrimaryKey: .string("swift")))
            try stored.setValue(.int(3), forKey: "even")
            try stored.setValue(.int(5), forKey: "maybeEven")
        }
        let b = try #require(realm.object(ofType: Bookmark.self, forPrimaryKey: Tag("swift")))
        #expect(b.readError == nil)
        #expect(b.maybeEven == nil)
        #expect("\(String(describing: b.readError))".contains("Bookmark.maybeEven"))
        // A fresh accessor, as the first recorded error is the one kept.
        let again = try #require(realm.object(ofType: Bookmark.self, forPrimaryKey: Tag("swift")))
        _ = again.even
        #expect("\(String(describing: again.readError))".contains("Bookmark.even: the file holds 3"))
        #expect(throws: RealmError.self) { _ = try again.checkedValue(forKey: "even") }
    }
}
