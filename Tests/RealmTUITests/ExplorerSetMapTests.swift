import Foundation
import RealmEngine
import RealmTUI
import Testing

/// Sets and dictionaries in the explorer: a set's cell is `{n} a, b`, a dictionary's
/// `{n} key: value, …`; the detail view shows a dictionary as `key → value` rows; a set is
/// edited like a list (a adds where the set's order puts it, e replaces an element, a repeat
/// changes nothing) and a dictionary of values as a JSON object, refused when a key is one
/// Realm refuses.
@Suite("Explorer sets and dictionaries")
struct ExplorerSetMapTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "tags", type: .string, isSet: true),
                Property(name: "attrs", type: .string, isMap: true),
            ])
    ])

    func driver() throws -> (driver: ExplorerDriver, path: String, folder: URL) {
        let folder = try EditFixture.folder()
        let path = folder.appendingPathComponent("items.realm").path
        let realm = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), schema: Self.schema))
        try realm.write {
            try realm.create(
                "Item",
                [
                    "id": .int(1), "tags": .list([.string("red"), .string("big")]),
                    "attrs": .map(["color": .string("red"), "size": .string("L")]),
                ])
        }
        var driver = try EditFixture.driver(path: path, width: 100)
        driver.press(.enter)
        return (driver, path, folder)
    }

    @Test func cellsAndDetailRows() throws {
        var (driver, _, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(
            driver.screen.lines.contains { $0.contains("{2} big, red") && $0.contains("{2} color: red, size: L") },
            "\(driver.screen.lines.joined(separator: "\n"))")
        driver.press(.enter)  // the object
        let lines = driver.screen.lines
        #expect(lines.contains { $0.contains("color → red") }, "\(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.contains("size → L") })
    }

    @Test func setsAreEditedLikeListsInTheirOwnOrder() throws {
        var (driver, path, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        func tags() throws -> Value? { try EditFixture.reread(path, "Item", key: 0, "tags") }
        driver.press(.enter, .character("j"), .enter)  // Item › tags
        driver.press(.character("a"), .control("u"))
        driver.type("apple")
        driver.press(.enter)
        #expect(
            try tags() == .list([.string("apple"), .string("big"), .string("red")]),
            "\(driver.screen.lines.joined(separator: "\n"))")
        driver.press(.character("a"), .control("u"))
        driver.type("red")
        driver.press(.enter)
        #expect(try tags() == .list([.string("apple"), .string("big"), .string("red")]))
        driver.press(.character("g"), .character("e"), .control("u"))  // first element: apple → zebra
        driver.type("zebra")
        driver.press(.enter)
        #expect(
            try tags() == .list([.string("big"), .string("red"), .string("zebra")]),
            "\(driver.screen.lines.joined(separator: "\n"))")
        driver.press(.character("u"))
        #expect(try tags() == .list([.string("apple"), .string("big"), .string("red")]))
    }

    @Test func dictionariesAreEditedAsJSON() throws {
        var (driver, path, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("l"), .character("l"), .character("e"))
        #expect(
            driver.screen.lines.contains { $0.contains(#"={"color":"red","size":"L"}"#) },
            "\(driver.screen.lines.joined(separator: "\n"))")
        driver.press(.control("u"))
        driver.type(#"{"color": "blue", "": "empty"}"#)
        driver.press(.enter)
        #expect(
            try EditFixture.reread(path, "Item", key: 0, "attrs")
                == .map(["color": .string("blue"), "": .string("empty")]))
        driver.press(.character("e"), .control("u"))
        driver.type(#"{"a.b": "x"}"#)
        driver.press(.enter)
        #expect(
            driver.screen.lines.contains { $0.hasPrefix("refused, nothing written") && $0.contains("'.'") },
            "\(driver.screen.lines.joined(separator: "\n"))")
        #expect(
            try EditFixture.reread(path, "Item", key: 0, "attrs")
                == .map(["color": .string("blue"), "": .string("empty")]))
    }
}
