import Foundation
import RealmEngine
@testable import RealmTUI
import Testing

/// Issue 23: a Mixed held by a collection is edited as a Mixed property is — the type picker,
/// then that type's editor (`json…` still there): an element of a List<Mixed>, a new one
/// appended, a value of a dictionary of Mixed, a new key's value, a value inside a collection
/// nested in a Mixed. Esc writes nothing; `u` takes a write back.
@Suite("Explorer Mixed type picker for elements and entries")
struct ExplorerMixedElementPickerTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Box",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "values", type: .mixed, isList: true),
                Property(name: "attrs", type: .mixed, isMap: true),
                Property(name: "value", type: .mixed),
            ]),
        ObjectSchema(name: "Dog", properties: [Property(name: "name", type: .string)]),
    ])

    /// Box 1: values ["5", 7], attrs {"a": "5", "b": 7}, value {"m": [1, "x"]}; the driver is
    /// on Box 1's detail view, on `id`.
    func driver() throws -> (driver: ExplorerDriver, path: String, folder: URL) {
        let folder = try EditFixture.folder()
        let path = folder.appendingPathComponent("boxes.realm").path
        let realm = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), schema: Self.schema))
        try realm.write {
            try realm.create("Dog", ["name": .string("Rex")])
            try realm.create(
                "Box",
                [
                    "id": .int(1), "values": .list([.string("5"), .int(7)]),
                    "attrs": .map(["a": .string("5"), "b": .int(7)]),
                    "value": .map(["m": .list([.int(1), .string("x")])]),
                ])
        }
        var driver = try EditFixture.driver(path: path, width: 80)
        driver.press(.enter, .enter)
        return (driver, path, folder)
    }

    func box(_ path: String, _ property: String) throws -> Value? {
        try EditFixture.reread(path, "Box", key: 0, property)
    }

    func text(_ driver: ExplorerDriver) -> String { driver.screen.lines.joined(separator: "\n") }

    func isPicking(_ driver: ExplorerDriver) -> Bool {
        if case .edit(.choosingType) = driver.state.mode { return true }
        return false
    }

    @Test func aListElementIsEditedThroughThePicker() throws {
        var (driver, path, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("j"), .enter)  // values
        driver.press(.character("e"))  // [0]: the string "5"
        #expect(isPicking(driver) == true, "\(text(driver))")
        driver.press(.character("i"), .enter)
        #expect(driver.screen.lines.contains { $0.contains("mixed as int") }, "\(text(driver))")
        #expect(driver.screen.lines.contains("=5"), "\(text(driver))")
        driver.press(.control("u"))
        driver.type("42")
        driver.press(.enter)
        #expect(try box(path, "values") == .list([.int(42), .int(7)]), "\(text(driver))")
        driver.press(.character("u"))
        #expect(try box(path, "values") == .list([.string("5"), .int(7)]), "\(driver.statusText)")
        driver.press(.character("j"), .character("e"), .character("s"), .enter)  // [1]: 7 as a string
        #expect(driver.screen.lines.contains("=7"), "\(text(driver))")
        driver.press(.enter)
        #expect(try box(path, "values") == .list([.string("5"), .string("7")]), "\(text(driver))")
    }

    @Test func aListElementKeepsJSONAndPicksALink() throws {
        var (driver, path, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("j"), .enter, .character("e"), .end, .enter)  // json…
        #expect(driver.screen.lines.contains("=\"5\""), "\(text(driver))")
        driver.press(.control("u"))
        driver.type("true")
        driver.press(.enter)
        #expect(try box(path, "values") == .list([.bool(true), .int(7)]), "\(text(driver))")
        driver.press(.character("j"), .character("e"), .character("l"), .enter)  // link: the classes
        driver.press(.character("d"), .enter, .enter)  // Dog, Rex
        #expect(
            try box(path, "values")
                == .list([.bool(true), .typedLink(TypedLink(className: "Dog", key: ObjectKey(0)))]),
            "\(text(driver))")
    }

    @Test func anAppendedElementIsTypedThroughThePicker() throws {
        var (driver, path, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("j"), .enter, .character("a"))
        #expect(isPicking(driver) == true, "\(text(driver))")
        driver.press(.character("d"), .enter, .control("u"))
        driver.type("2.5")
        driver.press(.enter)
        #expect(try box(path, "values") == .list([.string("5"), .int(7), .double(2.5)]), "\(text(driver))")
    }

    @Test func escapeLeavesTheElementUnchanged() throws {
        var (driver, path, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("j"), .enter, .character("e"), .escape)  // Esc in the picker
        #expect(driver.statusText.contains("nothing written"), "\(driver.statusText)")
        driver.press(.character("e"), .character("i"), .enter, .escape)  // Esc in the int editor
        #expect(driver.statusText.contains("nothing written"), "\(driver.statusText)")
        #expect(try box(path, "values") == .list([.string("5"), .int(7)]))
    }

    @Test func aDictionaryValueIsEditedThroughThePicker() throws {
        var (driver, path, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("j"), .character("j"), .enter)  // attrs
        driver.press(.character("e"))  // a: the string "5"
        #expect(isPicking(driver) == true, "\(text(driver))")
        driver.press(.character("i"), .enter)
        #expect(driver.screen.lines.contains { $0.contains("mixed as int") }, "\(text(driver))")
        driver.press(.control("u"))
        driver.type("42")
        driver.press(.enter)
        #expect(try box(path, "attrs") == .map(["a": .int(42), "b": .int(7)]), "\(text(driver))")
        driver.press(.character("u"))
        #expect(try box(path, "attrs") == .map(["a": .string("5"), "b": .int(7)]), "\(driver.statusText)")
        driver.press(.character("e"), .character("d"), .enter, .escape)  // Esc: nothing written
        #expect(try box(path, "attrs") == .map(["a": .string("5"), "b": .int(7)]))
        driver.press(.character("e"), .character("n"), .enter)  // null writes at once
        #expect(try box(path, "attrs") == .map(["a": .null, "b": .int(7)]), "\(text(driver))")
    }

    @Test func aNewKeysValueIsTypedThroughThePicker() throws {
        var (driver, path, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("j"), .character("j"), .enter, .character("a"))
        driver.type("c")
        driver.press(.enter)
        #expect(isPicking(driver) == true, "\(text(driver))")
        driver.press(.character("s"), .enter, .control("u"))
        driver.type("5")
        driver.press(.enter)
        #expect(
            try box(path, "attrs") == .map(["a": .string("5"), "b": .int(7), "c": .string("5")]), "\(text(driver))")
    }

    @Test func aValueNestedInAMixedIsEditedThroughThePicker() throws {
        var (driver, path, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("G"), .enter, .enter)  // value › m
        driver.press(.character("j"), .character("e"))  // [1]: "x"
        #expect(isPicking(driver) == true, "\(text(driver))")
        driver.press(.character("i"), .enter, .control("u"))
        driver.type("9")
        driver.press(.enter)
        #expect(try box(path, "value") == .map(["m": .list([.int(1), .int(9)])]), "\(text(driver))")
        driver.press(.character("u"))
        #expect(try box(path, "value") == .map(["m": .list([.int(1), .string("x")])]), "\(driver.statusText)")
    }
}
