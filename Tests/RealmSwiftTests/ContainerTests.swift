import Foundation
import Testing
import RealmSwift

// Seed 001's value types, mapped to objects.
struct Publisher: Equatable {
    let identifier: Int
    let name: String
}
struct Character: Equatable {
    let identifier: Int
    let name: String
    let realName: String
    let publisher: Publisher?
}
final class PublisherObject: Object {
    @Persisted(primaryKey: true) var identifier = 0
    @Persisted var name = ""
}
final class CharacterObject: Object {
    @Persisted(primaryKey: true) var identifier = 0
    @Persisted var name = ""
    @Persisted var realName = ""
    @Persisted var publisher: PublisherObject?
}

extension Publisher: Persistable {
    init(managedObject: PublisherObject) { self.init(identifier: managedObject.identifier, name: managedObject.name) }
    func managedObject() -> PublisherObject {
        let o = PublisherObject()
        o.identifier = identifier
        o.name = name
        return o
    }
    enum PropertyValue: PropertyValueType {
        case identifier(Int)
        case name(String)
        var propertyValuePair: PropertyValuePair {
            switch self {
            case .identifier(let id): ("identifier", id)
            case .name(let n): ("name", n)
            }
        }
    }
    enum Query: QueryType {
        case all
        var predicate: QueryPredicate? { nil }
        var sortDescriptors: [RealmSwift.SortDescriptor] { [SortDescriptor(keyPath: "name")] }
    }
}

extension Character: Persistable {
    init(managedObject: CharacterObject) {
        self.init(
            identifier: managedObject.identifier, name: managedObject.name, realName: managedObject.realName,
            publisher: managedObject.publisher.map(Publisher.init(managedObject:)))
    }
    func managedObject() -> CharacterObject {
        let o = CharacterObject()
        o.identifier = identifier
        o.name = name
        o.realName = realName
        o.publisher = publisher?.managedObject()
        return o
    }
    enum PropertyValue: PropertyValueType {
        case identifier(Int)
        case name(String)
        case realName(String)
        var propertyValuePair: PropertyValuePair {
            switch self {
            case .identifier(let id): ("identifier", id)
            case .name(let n): ("name", n)
            case .realName(let n): ("realName", n)
            }
        }
    }
    enum Query: QueryType {
        case publisherName(String)
        case publisherAndRealName(String, String)
        case nameAndIdentifierAbove(String, Int)
        var predicate: QueryPredicate? {
            switch self {
            case .publisherName(let name): QueryPredicate("publisher.name == %@", name)
            case .publisherAndRealName(let publisher, let realName):
                QueryPredicate("publisher.name == %@ AND realName != %@", publisher, realName)
            case .nameAndIdentifierAbove(let name, let identifier):
                QueryPredicate("name == %@ AND identifier > %@", name, identifier)
            }
        }
        var sortDescriptors: [RealmSwift.SortDescriptor] { [SortDescriptor(keyPath: "name")] }
    }
}

@Suite struct ContainerTests {
    @Test func valueTypeLayer() throws {
        let realm = try Realm(configuration: memoryConfig([CharacterObject.self, PublisherObject.self]))
        let container = Container(realm: realm)
        let ironMan = Character(
            identifier: 1455, name: "Iron Man", realName: "Tony Stark",
            publisher: Publisher(identifier: 1, name: "Marvel"))
        try container.write { transaction in transaction.add(ironMan, update: true) }
        try container.write { transaction in
            transaction.update(Character.self, values: [.identifier(1455), .realName("Anthony Edward Stark")])
        }
        let results = container.values(Character.self, matching: .publisherName("Marvel"))
        #expect(results.count == 1)
        #expect(
            results.value(at: 0)
                == Character(
                    identifier: 1455, name: "Iron Man", realName: "Anthony Edward Stark",
                    publisher: Publisher(identifier: 1, name: "Marvel")))
        try container.write { transaction in transaction.add(ironMan, update: true) }
        #expect(realm.objects(CharacterObject.self).count == 1 && realm.objects(PublisherObject.self).count == 1)
        #expect(results.value(at: 0).realName == "Tony Stark")
        let thor = Character(
            identifier: 2, name: "Thor", realName: "Thor Odinson", publisher: Publisher(identifier: 1, name: "Marvel"))
        try container.write { transaction in transaction.add(thor, update: true) }
        #expect(results.count == 2 && results.value(at: 1).name == "Thor")  // live, sorted by name
        // Each argument of the predicate fills its own placeholder.
        let notTony = container.values(Character.self, matching: .publisherAndRealName("Marvel", "Tony Stark"))
        #expect(notTony.count == 1 && notTony.value(at: 0).name == "Thor")
        #expect(container.values(Publisher.self, matching: .all).count == 1)
        #expect(container.values(Character.self, matching: .nameAndIdentifierAbove("Iron Man", 1)).count == 1)
        #expect(container.values(Character.self, matching: .nameAndIdentifierAbove("Iron Man", 1455)).count == 0)
        try container.write { transaction in transaction.delete(thor) }
        #expect(results.count == 1)
        #expect(throws: (any Error).self) {
            try container.write { transaction in transaction.add(ironMan, update: false) }  // duplicate key
        }
    }
}

struct Note: CodableRecord, Equatable {
    var id: Int
    var text: String
    var due: Date?
    var tags: [String]
    var attachment: Data?
    var owner: UUID
}

struct Unstorable: CodableRecord {
    struct Inner: Codable { var x: Int }
    var id: String
    var inner: Inner
}

@Suite struct CodableRecordTests {
    @Test func codableStructsPersistWithNoMapping() throws {
        var config = Realm.Configuration(inMemoryIdentifier: UUID().uuidString, objectTypes: [])
        config.codableTypes = [Note.self]
        let realm = try Realm(configuration: config)
        let schema = try #require(realm.schema["Note"])
        #expect(schema.properties.map(\.name) == ["id", "text", "due", "tags", "attachment", "owner"])
        #expect(
            schema.primaryKeyProperty?.name == "id" && schema["due"]?.isOptional == true
                && schema["tags"]?.isList == true)
        let container = Container(realm: realm)
        let a = Note(
            id: 1, text: "买菜", due: Date(timeIntervalSince1970: 1.123456), tags: ["home"], attachment: Data([1, 2]),
            owner: UUID())
        let b = Note(id: 2, text: "b", due: nil, tags: [], attachment: nil, owner: UUID())
        try container.write { tx in
            tx.add(a)
            tx.add(b)
        }
        let all = try container.records(Note.self, sortedBy: [SortDescriptor(keyPath: "id")])
        #expect(all.count == 2)
        #expect(try all.value(at: 0) == a && all.value(at: 1) == b)
        var changed = a
        changed.text = "买菜和做饭"
        try container.write { tx in tx.add(changed) }  // upsert by id
        #expect(try all.count == 2 && all.value(at: 0).text == "买菜和做饭")
        #expect(try container.records(Note.self, matching: QueryPredicate("text CONTAINS %@", "做饭")).count == 1)
        try container.write { tx in tx.delete(Note.self, id: 2) }
        #expect(all.count == 1)

        var bad = Realm.Configuration(inMemoryIdentifier: UUID().uuidString, objectTypes: [])
        bad.codableTypes = [Unstorable.self]
        #expect(throws: (any Error).self) { _ = try Realm(configuration: bad) }
    }
}
