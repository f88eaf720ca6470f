import Foundation
import RealmEngine
import RealmTUI
import Testing

/// Mixed in the explorer: a cell shows the value with its type where the text would not tell
/// (`"5"` a string, `5` an int, `2.5 (float)`, `→ Dog#0` a link, `[3] …` a nested list); the
/// editor starts from text that reads back as the same value and takes JSON, a tag or
/// `Class#key`, refusing a link to no object with nothing written.
@Suite("Explorer Mixed")
struct ExplorerMixedTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Box",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "value", type: .mixed),
            ]),
        ObjectSchema(name: "Dog", properties: [Property(name: "name", type: .string)]),
    ])

    func driver() throws -> (driver: ExplorerDriver, path: String, folder: URL) {
        let folder = try EditFixture.folder()
        let path = folder.appendingPathComponent("boxes.realm").path
        let realm = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), schema: Self.schema))
        try realm.write {
            let dog = try realm.create("Dog", ["name": .string("Rex")])
            let values: [Value] = [
                .string("5"), .int(5), .float(2.5), .typedLink(TypedLink(className: "Dog", key: dog.key)),
                .list([.int(1), .string("two"), .null]), .double(5),
            ]
            for (i, v) in values.enumerated() { try realm.create("Box", ["id": .int(Int64(i + 1)), "value": v]) }
        }
        var driver = try EditFixture.driver(path: path, width: 100)
        driver.press(.enter)
        return (driver, path, folder)
    }

    @Test func cellsShowTheTypeWhereTheTextWouldNot() throws {
        let (driver, _, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lines = driver.screen.lines
        func row(_ id: Int, _ shown: String) -> Bool {
            lines.contains {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: " ›")).hasPrefix("\(id) ") && $0.contains(shown)
            }
        }
        #expect(row(1, "\"5\""), "\(lines.joined(separator: "\n"))")
        #expect(row(2, "5") && !row(2, "\"5\""))
        #expect(row(3, "2.5 (float)"))
        #expect(row(4, "→ Dog#0"))
        #expect(row(5, "[3] 1, \"two\", null"))
        #expect(row(6, "5.0"))
    }

    @Test func theEditorTakesJSONTagsAndLinks() throws {
        var (driver, path, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        func value(_ key: Int64) throws -> Value? { try EditFixture.reread(path, "Box", key: key, "value") }
        // `json…`, the picker's last choice, is the one-line editor taking any Mixed value.
        driver.press(.character("l"), .character("e"), .end, .enter)
        // starts from text reading back as the string
        #expect(driver.screen.lines.contains("=\"5\""), "\(driver.screen.lines.joined(separator: "\n"))")
        driver.press(.enter)
        #expect(try value(0) == .string("5"))
        driver.press(.character("e"), .end, .enter, .control("u"))
        driver.type("[1, {\"$date\": \"2020-01-02\"}]")
        driver.press(.enter)
        #expect(try value(0) == .list([.int(1), .date(Timestamp(seconds: 1_577_923_200))]))
        driver.press(.character("e"), .end, .enter, .control("u"))
        driver.type("Dog#0")
        driver.press(.enter)
        #expect(try value(0) == .typedLink(TypedLink(className: "Dog", key: ObjectKey(0))))
        driver.press(.character("e"), .end, .enter, .control("u"))
        driver.type("Dog#7")
        driver.press(.enter)
        #expect(
            driver.screen.lines.contains { $0.hasPrefix("refused, nothing written") },
            "\(driver.screen.lines.joined(separator: "\n"))")
        #expect(try value(0) == .typedLink(TypedLink(className: "Dog", key: ObjectKey(0))))
        driver.press(.character("e"), .control("u"))  // the refused editor is still open
        driver.type("hello")
        driver.press(.enter)
        #expect(try value(0) == .string("hello"))
    }
}
