import Foundation
import Testing
import RealmSwift

@Suite(.serialized) struct RealmTests {
    final class Dog: Object {
        @Persisted var name = ""
        @Persisted var age = 0
    }
    final class Person: Object {
        @Persisted var name = ""
        @Persisted var birthdate = Date(timeIntervalSince1970: 1)
        @Persisted var dogs: List<Dog>
    }
    final class Book: Object {
        @Persisted var title = ""
        @Persisted var pages = 0
    }
    final class MyClass: Object { @Persisted var a = 0 }
    final class MyOtherClass: Object { @Persisted var b = "" }

    // 2.9 Realms and configuration
    @Test func defaultConfiguration() throws {
        #expect(Realm.Configuration().fileURL?.lastPathComponent == "default.realm")
        let saved = Realm.Configuration.defaultConfiguration
        defer { Realm.Configuration.defaultConfiguration = saved }
        let base = try fileConfig([Dog.self])
        defer { removeFolder(of: base) }
        func setDefaultRealmForUser(username: String) {
            var config = base
            config.fileURL = config.fileURL!.deletingLastPathComponent().appendingPathComponent("\(username).realm")
            Realm.Configuration.defaultConfiguration = config
        }
        setDefaultRealmForUser(username: "alice")
        #expect(try Realm().configuration.fileURL!.lastPathComponent == "alice.realm")
        #expect(
            FileManager.default.fileExists(
                atPath: base.fileURL!.deletingLastPathComponent().appendingPathComponent("alice.realm").path))
    }

    @Test func readOnlyInMemoryErrorsAndSubsets() throws {
        let config = try fileConfig([Book.self])
        defer { removeFolder(of: config) }
        do {
            let realm = try Realm(configuration: config)
            try realm.write { realm.create(Book.self, value: ["title": "t", "pages": 10]) }
        }
        var roConfig = config
        roConfig.readOnly = true
        let ro = try Realm(configuration: roConfig)
        #expect(ro.objects(Book.self).filter("pages > 5").count > 0)
        #expect(throws: (any Error).self) { try ro.write {} }

        var mem: Realm? = try Realm(
            configuration: Realm.Configuration(inMemoryIdentifier: "MyInMemoryRealm", objectTypes: [Dog.self]))
        try mem!.write { mem!.add(Dog()) }
        #expect(
            try Realm(configuration: .init(inMemoryIdentifier: "MyInMemoryRealm", objectTypes: [Dog.self])).objects(
                Dog.self
            ).count == 1)
        mem = nil
        #expect(
            try Realm(configuration: .init(inMemoryIdentifier: "MyInMemoryRealm", objectTypes: [Dog.self])).objects(
                Dog.self
            ).isEmpty)

        do {
            _ = try Realm(
                configuration: .init(fileURL: URL(fileURLWithPath: "/proc/nope/x.realm"), objectTypes: [Dog.self]))
            Issue.record("no error")
        } catch {}

        let sub = try Realm(
            configuration: Realm.Configuration(
                inMemoryIdentifier: UUID().uuidString, objectTypes: [MyClass.self, MyOtherClass.self]))
        #expect(Set(sub.schema.objectSchema.map(\.className)) == ["MyClass", "MyOtherClass"])
    }

    @Test func copyBetweenRealms() throws {
        let a = try Realm(configuration: memoryConfig([Person.self]))
        let b = try Realm(configuration: memoryConfig([Person.self]))
        let original = try a.write { a.create(Person.self, value: ["name": "张三", "dogs": [["name": "大黄"]]]) }
        try b.write { b.create(Person.self, value: original) }
        #expect(b.objects(Person.self).first!.dogs.first!.name == "大黄" && b.objects(Dog.self).count == 1)
        #expect(a.objects(Dog.self).count == 1)
    }

    @Test func compactionCopiesAndDeletingFiles() throws {
        let config = try fileConfig([Dog.self])
        defer { removeFolder(of: config) }
        let size = { (try FileManager.default.attributesOfItem(atPath: config.fileURL!.path)[.size] as? Int) ?? -1 }
        do {
            let realm = try Realm(configuration: config)
            let name = String(repeating: "x", count: 1000)
            try realm.write { for i in 0..<2000 { realm.create(Dog.self, value: ["name": name, "age": i]) } }
            try realm.write { realm.deleteAll() }
        }
        let before = try size()
        #expect(before > 1024 * 1024)
        var compacting = config
        compacting.shouldCompactOnLaunch = { totalBytes, usedBytes in
            let oneMB = 1024 * 1024
            return (totalBytes > oneMB) && (Double(usedBytes) / Double(totalBytes)) < 0.5
        }
        do {
            let realm = try Realm(configuration: compacting)
            #expect(realm.isEmpty)
            try realm.write { realm.create(Dog.self, value: ["name": "小白", "age": 1]) }
            let copyURL = config.fileURL!.deletingLastPathComponent().appendingPathComponent("copy.realm")
            try realm.writeCopy(toFile: copyURL)
            var copyConfig = config
            copyConfig.fileURL = copyURL
            #expect(try Realm(configuration: copyConfig).objects(Dog.self).first?.name == "小白")
        }
        #expect(try size() < before)

        #expect(try Realm.deleteFiles(for: config))
        #expect(!FileManager.default.fileExists(atPath: config.fileURL!.path))
        #expect(try Realm(configuration: config).isEmpty)
    }

    // 2.10 Threads
    @Test func threadsAndThreadSafeReference() throws {
        let config = try fileConfig([Dog.self, Person.self])
        defer { removeFolder(of: config) }
        try onOtherThread {
            let realm = try Realm(configuration: config)
            for idx1 in 0..<10 {
                realm.beginWrite()
                for idx2 in 0..<100 {
                    realm.create(
                        Person.self,
                        value: ["name": "\(idx1)", "birthdate": Date(timeIntervalSince1970: TimeInterval(idx2))])
                }
                try realm.commitWrite()
            }
        }
        let realm = try Realm(configuration: config)
        #expect(realm.objects(Person.self).count == 1000)
        let person = realm.objects(Person.self).filter("name == '3'").sorted(byKeyPath: "birthdate").first!
        #expect(person.birthdate == Date(timeIntervalSince1970: 0))
        let ref = ThreadSafeReference(to: person)
        let name = person.name
        try onOtherThread {
            let r = try Realm(configuration: config)
            #expect(r.resolve(ref)?.name == name)
        }
        // An unmanaged object is a plain Swift object and may cross threads.
        nonisolated(unsafe) let unmanaged = Dog(value: ["name": "u"])
        try onOtherThread { #expect(unmanaged.name == "u") }
    }

    // 2.11 JSON
    @Test func json() throws {
        final class City: Object {
            @Persisted var name = ""
            @Persisted(primaryKey: true) var cityId = 0
        }
        let realm = try Realm(configuration: memoryConfig([City.self]))
        let data = #"{"name": "San Francisco", "cityId": 123, "unknown": true}"#.data(using: .utf8)!
        try realm.write {
            let json = try JSONSerialization.jsonObject(with: data)
            realm.create(City.self, value: json, update: .modified)
        }
        try realm.write {
            realm.create(City.self, value: try JSONSerialization.jsonObject(with: data), update: .modified)
        }
        #expect(realm.objects(City.self).count == 1)
        #expect(realm.object(ofType: City.self, forPrimaryKey: 123)?.name == "San Francisco")
        #expect(throws: (any Error).self) {
            try realm.write { realm.create(City.self, value: ["name": NSNull(), "cityId": 124], update: .modified) }
        }
        // A missing key takes the property's default (RealmSwift's modern choice).
        try realm.write {
            realm.create(City.self, value: try JSONSerialization.jsonObject(with: Data(#"{"cityId": 7}"#.utf8)))
        }
        #expect(realm.object(ofType: City.self, forPrimaryKey: 7)?.name == "")
    }

    // 2.14 Encryption
    @Test func encryption() throws {
        let config0 = try fileConfig([Dog.self])
        defer { removeFolder(of: config0) }
        let url = try #require(config0.fileURL)
        let url2 = url.deletingLastPathComponent().appendingPathComponent("other.realm")
        let plainURL = url.deletingLastPathComponent().appendingPathComponent("plain.realm")
        var generator = SystemRandomNumberGenerator()
        let key = Data((0..<64).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        // The seed's `Realm.Configuration(fileURL: url, encryptionKey: key)`, with the classes
        // named: other suites register other classes called Dog.
        var config = config0
        config.encryptionKey = key
        do {
            let realm = try Realm(configuration: config)
            try realm.write { realm.add(Dog(value: ["name": "Fido", "age": 1])) }
            #expect(realm.objects(Dog.self).filter("name contains 'Fido'").count == 1)
        }
        #expect(try Data(contentsOf: url).range(of: Data("Fido".utf8)) == nil)  // nothing in clear text
        let dogs: [Object.Type] = [Dog.self]
        // no key
        #expect(throws: (any Error).self) { _ = try Realm(configuration: .init(fileURL: url, objectTypes: dogs)) }
        #expect(throws: (any Error).self) {  // wrong key
            _ = try Realm(configuration: .init(fileURL: url, encryptionKey: Data(count: 64), objectTypes: dogs))
        }
        #expect(throws: (any Error).self) {  // not 64 bytes
            _ = try Realm(configuration: .init(fileURL: url2, encryptionKey: Data(count: 32), objectTypes: dogs))
        }
        let realm = try Realm(configuration: config)
        try realm.writeCopy(toFile: plainURL, encryptionKey: nil)  // decrypts
        #expect(try Data(contentsOf: plainURL).range(of: Data("Fido".utf8)) != nil)
        #expect(
            try Realm(configuration: .init(fileURL: plainURL, objectTypes: dogs)).objects(Dog.self).first?.name
                == "Fido")
        // The thread's cached instance is not handed out for another key while it is open.
        #expect(throws: (any Error).self) {
            _ = try Realm(configuration: .init(fileURL: url, encryptionKey: Data(count: 64), objectTypes: dogs))
        }
        #expect(throws: (any Error).self) { _ = try Realm(configuration: .init(fileURL: url, objectTypes: dogs)) }
    }

    // 2.15 Testing and limits
    final class User: Object { @Persisted(primaryKey: true) var email = "" }
    func createOrUpdateUserInRealm(_ realm: Realm, withData data: Data) throws {
        let object = try JSONSerialization.jsonObject(with: data) as! [String: String]
        try realm.write { realm.create(User.self, value: object, update: .modified) }
    }

    @Test func userIsUpdatedFromServer() throws {
        let testRealm = try Realm(configuration: .init(inMemoryIdentifier: UUID().uuidString, objectTypes: [User.self]))
        try createOrUpdateUserInRealm(testRealm, withData: #"{"email": "help@realm.io"}"#.data(using: .utf8)!)
        #expect(testRealm.objects(User.self).first!.email == "help@realm.io")
    }

    @Test func limits() throws {
        final class Named: Object {
            override class func _realmObjectName() -> String? { String(repeating: "n", count: 64) }
            override class func _realmIgnoreClass() -> Bool { true }  // invalid: kept out of discovered schemas
            @Persisted var a = 0
        }
        final class Named63: Object {
            override class func _realmObjectName() -> String? { String(repeating: "n", count: 63) }
            @Persisted var a = 0
        }
        #expect(throws: (any Error).self) { _ = try Realm(configuration: memoryConfig([Named.self])) }
        _ = try Realm(configuration: memoryConfig([Named63.self]))

        final class Blob: Object {
            @Persisted var s = ""
            @Persisted var d = Data()
        }
        let realm = try Realm(configuration: memoryConfig([Blob.self]))
        let max = 16 * 1024 * 1024
        try realm.write { realm.create(Blob.self, value: ["s": String(repeating: "a", count: max)]) }
        #expect(throws: (any Error).self) {
            try realm.write { realm.create(Blob.self, value: ["d": Data(count: max + 1)]) }
        }
        #expect(realm.objects(Blob.self).count == 1)
    }
}

@Suite struct RealmCacheTests {
    final class Note: Object { @Persisted var text = "" }

    @Test func oneThreadOneRealmPerConfiguration() throws {
        let config = memoryConfig([Note.self])
        let a = try Realm(configuration: config)
        let b = try Realm(configuration: config)
        let note = try a.write { a.create(Note.self, value: ["text": "x"]) }
        #expect(b.objects(Note.self).first == note)  // the same object of the same Realm
        try b.write { b.add(note) }  // already managed here: nothing to do
        #expect(b.objects(Note.self).count == 1)
        try onOtherThread {
            let c = try Realm(configuration: config)  // another thread: its own instance
            #expect(c.objects(Note.self).count == 1)
        }
    }
}
