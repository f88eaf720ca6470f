import Foundation
import RealmEngine
import RealmTUI
import Testing

/// Issue 23's editors of sets and dictionaries of values in their values screen: `x` removes a
/// set's element (and `u` puts it back); in a dictionary `a` puts a key then its value, `r`
/// renames a key, `x` removes one, each undone by `u`.
@Suite("Explorer sets and dictionaries, edited in their values screen")
struct ExplorerSetMapEditTests {
    func driver() throws -> (driver: ExplorerDriver, path: String, folder: URL) {
        let folder = try EditFixture.folder()
        let path = folder.appendingPathComponent("items.realm").path
        let realm = try Realm(
            configuration: .init(fileURL: URL(fileURLWithPath: path), schema: ExplorerSetMapTests.schema))
        try realm.write {
            try realm.create(
                "Item",
                [
                    "id": .int(1), "tags": .list([.string("red"), .string("big")]),
                    "attrs": .map(["color": .string("red"), "size": .string("L")]),
                ])
        }
        var driver = try EditFixture.driver(path: path, width: 100)
        driver.press(.enter, .enter)  // the Item table, the object
        return (driver, path, folder)
    }

    @Test func aSetsElementIsRemovedAndUndone() throws {
        var (driver, path, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        func tags() throws -> Value? { try EditFixture.reread(path, "Item", key: 0, "tags") }
        driver.press(.character("j"), .enter)  // Item › tags: big, red
        driver.press(.character("x"))
        #expect(try tags() == .list([.string("red")]), "\(driver.screen.lines.joined(separator: "\n"))")
        driver.press(.character("u"))
        #expect(try tags() == .list([.string("big"), .string("red")]), "\(driver.statusText)")
    }

    @Test func aDictionaryOfValuesPutsRenamesAndRemovesKeys() throws {
        var (driver, path, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        func attrs() throws -> Value? { try EditFixture.reread(path, "Item", key: 0, "attrs") }
        driver.press(.character("j"), .character("j"), .enter)  // Item › attrs: color, size
        driver.press(.character("a"))
        driver.type("weight")
        driver.press(.enter, .control("u"))  // the key, then its value
        driver.type("9kg")
        driver.press(.enter)
        #expect(
            try attrs() == .map(["color": .string("red"), "size": .string("L"), "weight": .string("9kg")]),
            "\(driver.screen.lines.joined(separator: "\n"))")
        driver.press(.character("g"), .character("r"), .control("u"))  // color → colour
        driver.type("colour")
        driver.press(.enter)
        #expect(
            try attrs() == .map(["colour": .string("red"), "size": .string("L"), "weight": .string("9kg")]),
            "\(driver.screen.lines.joined(separator: "\n"))")
        driver.press(.character("G"), .character("x"))  // weight removed
        #expect(
            try attrs() == .map(["colour": .string("red"), "size": .string("L")]),
            "\(driver.screen.lines.joined(separator: "\n"))")
        driver.press(.character("u"))
        #expect(
            try attrs() == .map(["colour": .string("red"), "size": .string("L"), "weight": .string("9kg")]),
            "\(driver.statusText)")
        driver.press(.character("u"))
        #expect(
            try attrs() == .map(["color": .string("red"), "size": .string("L"), "weight": .string("9kg")]),
            "\(driver.statusText)")
    }
}
