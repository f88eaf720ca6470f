// The getting-started example of Realm's documentation, in modern RealmSwift: models, a
// write, a live query, a relationship, a notification and a migration-ready configuration.
import Foundation
import RealmSwift

final class Dog: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
}

final class Person: Object {
    @Persisted(primaryKey: true) var id = UUID()
    @Persisted var name = ""
    @Persisted var dogs: List<Dog>
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dogs-example-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

let config = Realm.Configuration(fileURL: directory.appendingPathComponent("dogs.realm"), schemaVersion: 1,
                                 objectTypes: [Dog.self, Person.self])
let realm = try Realm(configuration: config)

let puppies = realm.objects(Dog.self).filter("age < 2")
print("puppies before: \(puppies.count)")

var changes: [String] = []
let token = puppies.observe { change in
    switch change {
    case .initial(let results): changes.append("initial: \(results.count)")
    case .update(_, let deletions, let insertions, let modifications):
        changes.append("update: deleted \(deletions), inserted \(insertions), modified \(modifications)")
    case .error(let error): changes.append("error: \(error)")
    }
}
realm.refresh()

let owner = Person(value: ["name": "张三"])
try realm.write {
    realm.add(owner)
    owner.dogs.append(Dog(value: ["name": "大黄", "age": 1]))
    owner.dogs.append(Dog(value: ["name": "小白", "age": 5]))
}
realm.refresh()
print("puppies after: \(puppies.map(\.name))")
print("大黄's owner: \(puppies.first?.owners.first?.name ?? "-")")
print("older dogs: \(realm.objects(Dog.self).where { $0.age >= 2 }.map(\.name))")
print("notifications: \(changes)")
token.invalidate()
