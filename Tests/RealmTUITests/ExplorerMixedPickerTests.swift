import Foundation
import RealmEngine
import RealmTUI
import Testing

/// Issue 23: a Mixed value is edited through a type picker, then that type's own editor (the
/// one a property of the type has, so a value reads and is refused exactly as there); `null`
/// writes at once, `link` picks a class then an object, `json…` is the one-line JSON editor.
/// Each write goes through the ordinary write path, so `u` takes it back.
@Suite("Explorer Mixed type picker")
struct ExplorerMixedPickerTests {
    /// Boxes 1–6 hold "5", 5, 2.5 (float), → Dog#0, [1, "two", null] and 5.0 (ExplorerMixedTests).
    func driver(height: Int = 24) throws -> (driver: ExplorerDriver, path: String, folder: URL) {
        let folder = try EditFixture.folder()
        let path = folder.appendingPathComponent("boxes.realm").path
        let realm = try Realm(
            configuration: .init(fileURL: URL(fileURLWithPath: path), schema: ExplorerMixedTests.schema))
        try realm.write {
            let dog = try realm.create("Dog", ["name": .string("Rex")])
            let values: [Value] = [
                .string("5"), .int(5), .float(2.5), .typedLink(TypedLink(className: "Dog", key: dog.key)),
                .list([.int(1), .string("two"), .null]), .double(5),
            ]
            for (i, v) in values.enumerated() { try realm.create("Box", ["id": .int(Int64(i + 1)), "value": v]) }
        }
        var driver = try EditFixture.driver(path: path, width: 80, height: height)
        driver.press(.enter, .character("l"))  // the Box table, on the value column
        return (driver, path, folder)
    }

    func value(_ path: String, box: Int64) throws -> Value? {
        try EditFixture.reread(path, "Box", key: box - 1, "value")
    }

    @Test func thePickerShowsWithTheCurrentTypeSelected() throws {
        var (driver, _, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.down, .character("e"))  // box 2: int 5
        try expectGolden("mixed-type-picker", driver.screen)
    }

    @Test func pickingIntAndTyping42StoresAnInt() throws {
        var (driver, path, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("e"), .character("i"), .enter)  // box 1 holds the string "5"
        let lines = driver.screen.lines
        #expect(lines.contains { $0.hasPrefix("Box.value mixed as int:") }, "\(lines.joined(separator: "\n"))")
        #expect(
            lines.contains("=5"),
            "a string that reads as an int starts the int editor: \(lines.joined(separator: "\n"))")
        driver.press(.control("u"))
        driver.type("42")
        driver.press(.enter)
        #expect(try value(path, box: 1) == .int(42))
    }

    @Test func pickingStringStoresAStringEvenWhenItReadsAsANumber() throws {
        var (driver, path, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.down, .character("e"), .character("s"), .enter)  // box 2: int 5, as a string
        #expect(driver.screen.lines.contains("=5"), "\(driver.screen.lines.joined(separator: "\n"))")
        driver.press(.enter)
        #expect(try value(path, box: 2) == .string("5"))
        driver.press(.character("e"))
        driver.press(.enter)  // string is preselected now
        driver.press(.control("u"))
        driver.type("42")
        driver.press(.enter)
        #expect(try value(path, box: 2) == .string("42"))
    }

    @Test func escapeAfterPickingATypeLeavesTheValueAsItWas() throws {
        var (driver, path, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.down, .character("e"), .character("d"), .enter)  // box 2 as a double: 5.0
        #expect(driver.screen.lines.contains("=5.0"), "\(driver.screen.lines.joined(separator: "\n"))")
        driver.press(.escape)
        #expect(driver.statusText.contains("nothing written"), "\(driver.statusText)")
        #expect(try value(path, box: 2) == .int(5))
        driver.press(.character("e"), .down, .escape)  // Esc in the picker itself
        #expect(driver.statusText.contains("nothing written"), "\(driver.statusText)")
        #expect(try value(path, box: 2) == .int(5))
    }

    @Test func aBadIntShowsTheIntEditorsRefusalAndStoresNothing() throws {
        var (driver, path, folder) = try driver(height: 12)
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.down, .character("e"), .enter, .control("u"))  // int preselected
        driver.type("4x2")
        driver.press(.enter)
        try expectGolden("mixed-int-refused", driver.screen)
        #expect(try value(path, box: 2) == .int(5))
    }

    @Test func undoRestoresThePreviousMixedValue() throws {
        var (driver, path, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("e"), .character("i"), .enter, .control("u"))
        driver.type("42")
        driver.press(.enter)
        #expect(try value(path, box: 1) == .int(42))
        driver.press(.character("u"))
        #expect(try value(path, box: 1) == .string("5"))
        driver.press(.control("r"))
        #expect(try value(path, box: 1) == .int(42))
    }

    @Test func nullWritesAtOnceAndBoolToggles() throws {
        var (driver, path, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.down, .character("e"), .character("n"), .enter)
        #expect(try value(path, box: 2) == .null)
        driver.press(.character("e"), .character("b"), .enter)
        #expect(driver.screen.lines.contains("=false"), "\(driver.screen.lines.joined(separator: "\n"))")
        driver.press(.character(" "), .enter)
        #expect(try value(path, box: 2) == .bool(true))
    }

    @Test func linkPicksAClassThenAnObject() throws {
        var (driver, path, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.down, .character("e"), .character("l"), .enter)  // link: the classes
        #expect(
            driver.screen.lines.contains { $0.contains("pick the class it links to") },
            "\(driver.screen.lines.joined(separator: "\n"))")
        driver.press(.character("d"), .enter)  // Dog: its table to pick from
        #expect(driver.screen.lines.contains { $0.contains("Rex") }, "\(driver.screen.lines.joined(separator: "\n"))")
        driver.press(.enter)
        #expect(try value(path, box: 2) == .typedLink(TypedLink(className: "Dog", key: ObjectKey(0))))
    }

    @Test func listAndDictionaryAreTypedWholeAndMustBeOfThatKind() throws {
        var (driver, path, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.down, .character("e"), .end, .up, .up, .enter)  // list
        #expect(driver.screen.lines.contains("=[]"), "\(driver.screen.lines.joined(separator: "\n"))")
        driver.press(.control("u"))
        driver.type("7")
        driver.press(.enter)
        #expect(
            driver.screen.lines.contains { $0.contains("a list is written") },
            "\(driver.screen.lines.joined(separator: "\n"))")
        #expect(try value(path, box: 2) == .int(5))
        driver.press(.control("u"))
        driver.type("[1, \"a\"]")
        driver.press(.enter)
        #expect(try value(path, box: 2) == .list([.int(1), .string("a")]))
        driver.press(.character("e"), .end, .enter)  // json…: the current value's text
        #expect(
            driver.screen.lines.contains("=[1,\"a\"]") || driver.screen.lines.contains("=[1, \"a\"]"),
            "\(driver.screen.lines.joined(separator: "\n"))")
    }
}
