import Foundation
import Testing
import RealmSwift

// Seed 001's value types, mapped to objects.
struct Publisher: Equatable { let identifier: Int; let name: String }
struct Character: Equatable { let identifier: Int; let name: String; let realName: String; let publisher: Publisher? }
final class PublisherObject: Object { @Persisted(primaryKey: true) var identifier = 0; @Persisted var name = "" }
final class CharacterObject: Object {
    @Persisted(primaryKey: true) var identifier = 0; @Persisted var name = ""; @Persisted var realName = ""
    @Persisted var publisher: PublisherObject?
}

extension Publisher: Persistable {
    init(managedObject: PublisherObject) { self.init(identifier: managedObject.identifier, name: managedObject.name) }
    func managedObject() -> PublisherObject {
        let o = PublisherObject(); o.identifier = identifier; o.name = name; return o
    }
    enum PropertyValue: PropertyValueType {
        case identifier(Int), name(String)
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
        self.init(identifier: managedObject.identifier, name: managedObject.name, realName: managedObject.realName,
                  publisher: managedObject.publisher.map(Publisher.init(managedObject:)))
    }
    func managedObject() -> CharacterObject {
        let o = CharacterObject()
        o.identifier = identifier; o.name = name; o.realName = realName; o.publisher = publisher?.managedObject()
        return o
    }
    enum PropertyValue: PropertyValueType {
        case identifier(Int), name(String), realName(String)
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
        var predicate: QueryPredicate? {
            switch self {
            case .publisherName(let name): QueryPredicate("publisher.name == %@", name)
            }
        }
        var sortDescriptors: [RealmSwift.SortDescriptor] { [SortDescriptor(keyPath: "name")] }
    }
}

@Suite struct ContainerTests {
    @Test func valueTypeLayer() throws {
        let realm = try Realm(configuration: memoryConfig([CharacterObject.self, PublisherObject.self]))
        let container = Container(realm: realm)
        let ironMan = Character(identifier: 1455, name: "Iron Man", realName: "Tony Stark",
                                publisher: Publisher(identifier: 1, name: "Marvel"))
        try container.write { transaction in transaction.add(ironMan, update: true) }
        try container.write { transaction in
            transaction.update(Character.self, values: [.identifier(1455), .realName("Anthony Edward Stark")])
        }
        let results = container.values(Character.self, matching: .publisherName("Marvel"))
        #expect(results.count == 1)
        #expect(results.value(at: 0) == Character(identifier: 1455, name: "Iron Man", realName: "Anthony Edward Stark",
                                                  publisher: Publisher(identifier: 1, name: "Marvel")))
        try container.write { transaction in transaction.add(ironMan, update: true) }
        #expect(realm.objects(CharacterObject.self).count == 1 && realm.objects(PublisherObject.self).count == 1)
        #expect(results.value(at: 0).realName == "Tony Stark")
        let thor = Character(identifier: 2, name: "Thor", realName: "Thor Odinson", publisher: Publisher(identifier: 1, name: "Marvel"))
        try container.write { transaction in transaction.add(thor, update: true) }
        #expect(results.count == 2 && results.value(at: 1).name == "Thor")       // live, sorted by name
        #expect(container.values(Publisher.self, matching: .all).count == 1)
        try container.write { transaction in transaction.delete(thor) }
        #expect(results.count == 1)
        #expect(throws: (any Error).self) {
            try container.write { transaction in transaction.add(ironMan, update: false) }   // duplicate key
        }
    }
}
