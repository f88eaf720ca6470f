import Foundation
import RealmEngine
import RealmTUI
import Testing

/// `u` after a delete (`d`, `:delete`): the objects come back in a new write transaction with
/// their values (and primary key), their own links, and the links and list entries that
/// pointed at them; unless someone changed those objects since (refused, nothing written).
@Suite("Explorer edit: undo of a delete")
struct ExplorerUndoDeleteTests {
    /// A driver on the Dog table of a fixture file (大黄 #0, Rex #1 → 大黄, Ghost #2; 张三's
    /// dogs are 大黄 and Rex, Ann's is Rex).
    func dogs() throws -> (driver: ExplorerDriver, path: String, folder: URL) {
        let folder = try EditFixture.folder()
        let path = folder.appendingPathComponent("fixture.realm").path
        try EditFixture.fixtureFile(at: path)
        var driver = try EditFixture.driver(path: path, width: 120)
        driver.press(.down, .enter)
        return (driver, path, folder)
    }

    /// Every object of `className` as a fresh reader sees it: key → values.
    func objects(_ path: String, _ className: String) throws -> [Int64: [Value]] {
        let realm = try Realm(path: path, readOnly: true)
        var all: [Int64: [Value]] = [:]
        for object in try realm.objects(className) { all[object.key.rawValue] = try object.values() }
        return all
    }

    func links(_ path: String, _ className: String, _ key: Int64, _ property: String) throws -> Value? {
        try EditFixture.reread(path, className, key: key, property)
    }

    @Test func uRestoresADeletedObjectWithItsLinksBothWays() throws {
        var (driver, path, folder) = try dogs()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try objects(path, "Dog")
        driver.press(.down, .character("d"), .character("y"))  // delete Rex
        #expect(driver.statusText.contains("deleted 1 Dog object") == true)
        #expect(driver.statusText.contains("u undoes") == true)
        #expect(try links(path, "Person", 0, "dogs") == .list([.link(ObjectKey(0))]))
        #expect(try links(path, "Person", 1, "dogs") == .list([]))

        driver.press(.character("u"))
        try expectGolden("edit-undo-delete", driver.screen)
        let after = try objects(path, "Dog")
        #expect(after.count == 3)
        let restored = try #require(after.first { $0.value[0] == .string("Rex") })
        #expect(restored.value == before[1])  // its values and its own link to 大黄
        let key = Value.link(ObjectKey(restored.key))
        #expect(try links(path, "Person", 0, "dogs") == .list([.link(ObjectKey(0)), key]))  // in its old place
        #expect(try links(path, "Person", 1, "dogs") == .list([key]))
        let status = driver.statusText
        #expect(status.contains("undone: Dog#1 restored"), "\(status)")
        #expect(status.contains("with the 2 links to it"), "\(status)")
        if restored.key != 1 {
            #expect(status.contains("as Dog#\(restored.key) (Dog has no primary key: a new key) with"), "\(status)")
        }
        driver.press(.character("u"))
        #expect(driver.statusText.contains("nothing to undo") == true)
    }

    @Test func aToOneLinkToTheDeletedObjectComesBack() throws {
        var (driver, path, folder) = try dogs()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("d"), .character("y"))  // delete 大黄: Rex.friend was it
        #expect(try links(path, "Dog", 1, "friend") == .null)
        driver.press(.character("u"))
        let restored = try #require(try objects(path, "Dog").first { $0.value[0] == .string("大黄") })
        #expect(try links(path, "Dog", 1, "friend") == .link(ObjectKey(restored.key)))
        #expect(try links(path, "Person", 0, "dogs") == .list([.link(ObjectKey(restored.key)), .link(ObjectKey(1))]))
    }

    @Test func anObjectThatLinkedHereAndChangedSinceRefusesTheUndo() throws {
        var (driver, path, folder) = try dogs()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("d"), .character("y"))  // delete 大黄
        let other = try Realm(path: path)
        try other.write { try other.object(ofType: "Dog", key: ObjectKey(1))?.setValue(Value.int(5), forKey: "age") }
        let version = try Realm(path: path, readOnly: true).version
        driver.press(.character("u"))
        let status = driver.statusText
        #expect(status.contains("nothing written: Dog#1, which linked to it, changed since"), "\(status)")
        #expect(try objects(path, "Dog").count == 2)
        #expect(try Realm(path: path, readOnly: true).version == version)
    }

    @Test func aPrimaryKeyTakenSinceRefusesTheUndo() throws {
        var (driver, path, folder) = try dogs()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.escape, .up, .enter, .down, .character("d"), .character("y"))  // Person Ann (id 2)
        #expect(try objects(path, "Person").count == 2)
        let other = try Realm(path: path)
        try other.write { try other.create("Person", ["id": .int(2), "name": .string("Bob")]) }
        driver.press(.character("u"))
        let status = driver.statusText
        #expect(status.contains("a Person with id 2 exists again"), "\(status)")
        #expect(try objects(path, "Person").values.contains { $0[1] == .string("Bob") })
    }

    @Test func aDeletedObjectWithAPrimaryKeyComesBackWithItAndItsList() throws {
        var (driver, path, folder) = try dogs()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try objects(path, "Person")
        driver.press(.escape, .up, .enter, .down, .character("d"), .character("y"))  // Person Ann (id 2), dogs [Rex]
        driver.press(.character("u"))
        let restored = try #require(try objects(path, "Person").first { $0.value[0] == .int(2) })
        #expect(restored.value == before[1])
        let status = driver.statusText
        #expect(status.contains("undone: Person#1 restored"), "\(status)")
        #expect(!status.contains("no primary key"), "\(status)")
        #expect(status.contains("(same id 2) (v") || !status.contains(" as "), "\(status)")
        let cursor = try #require(driver.screen.lines.first { $0.hasPrefix("›") })
        #expect(cursor.contains("Ann"), "the cursor is on the restored object: \(cursor)")
    }

    @Test func uAfterColonDeleteRestoresTheWholeResultWithLinksAmongThem() throws {
        var (driver, path, folder) = try dogs()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try objects(path, "Dog")
        driver.press(.character(":"))
        driver.type("delete")
        driver.press(.enter, .character("y"))
        #expect(try objects(path, "Dog").isEmpty)
        #expect(try links(path, "Person", 0, "dogs") == .list([]))
        driver.press(.character("u"))
        let after = try objects(path, "Dog")
        #expect(after.count == 3)
        func key(_ name: String) throws -> Int64 { try #require(after.first { $0.value[0] == .string(name) }).key }
        let dahuang = try key("大黄")
        let rex = try key("Rex")
        #expect(try links(path, "Dog", rex, "friend") == .link(ObjectKey(dahuang)))  // remapped among the restored
        #expect(try links(path, "Person", 0, "dogs") == .list([.link(ObjectKey(dahuang)), .link(ObjectKey(rex))]))
        #expect(try links(path, "Person", 1, "dogs") == .list([.link(ObjectKey(rex))]))
        #expect(Set(after.values.map { $0[0] }) == Set(before.values.map { $0[0] }))
        let status = driver.statusText
        #expect(status.contains("undone: 3 Dog objects restored"), "\(status)")
        #expect(status.contains("with the 3 links to them; 3 have new keys (Dog has no primary key)"), "\(status)")
    }
}
