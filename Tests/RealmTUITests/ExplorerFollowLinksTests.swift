import Foundation
import RealmEngine
@testable import RealmTUI
import Testing

/// Following links inside Mixed values and dictionaries: Enter on a Mixed holding a link opens
/// the object, on one holding a list or dictionary opens its rows (and again for one nested in
/// it); Enter on a dictionary opens its `key → value` rows, where a link opens its object and
/// an embedded object its fields; a Mixed scalar is edited, as before.
@Suite("Explorer links inside Mixed values and dictionaries")
struct ExplorerFollowLinksTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Box",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "value", type: .mixed),
                Property(name: "values", type: .mixed, isList: true),
                Property(name: "dogs", type: .object, isMap: true, objectClassName: "Dog"),
                Property(name: "places", type: .object, isMap: true, objectClassName: "Place"),
            ]),
        ObjectSchema(name: "Dog", properties: [Property(name: "name", type: .string)]),
        ObjectSchema(name: "Place", properties: [Property(name: "city", type: .string)], isEmbedded: true),
    ])

    /// Box 1 holds links in every kind of place, Box 2 a Mixed link, Box 3 a Mixed int; the
    /// driver is on the Box table.
    static func driver() throws -> (driver: ExplorerDriver, path: String, folder: URL) {
        let folder = try EditFixture.folder()
        let path = folder.appendingPathComponent("boxes.realm").path
        let realm = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), schema: schema))
        try realm.write {
            let rex = try realm.create("Dog", ["name": .string("Rex")])
            let fido = try realm.create("Dog", ["name": .string("Fido")])
            let rexLink = Value.typedLink(TypedLink(className: "Dog", key: rex.key))
            let fidoLink = Value.typedLink(TypedLink(className: "Dog", key: fido.key))
            try realm.create(
                "Box",
                value: .dictionary([
                    "id": .value(.int(1)),
                    "value": .value(.list([.int(1), rexLink, .map(["k": fidoLink])])),
                    "values": .array([.value(.string("a")), .value(fidoLink), .value(.list([.int(2)]))]),
                    "dogs": .dictionary(["rex": .value(.link(rex.key)), "none": .value(.null)]),
                    "places": .dictionary(["home": .dictionary(["city": .value(.string("Oslo"))])]),
                ]))
            try realm.create("Box", ["id": .int(2), "value": fidoLink])
            try realm.create("Box", ["id": .int(3), "value": .int(5)])
        }
        var driver = try EditFixture.driver(path: path, width: 80)
        driver.press(.enter)
        return (driver, path, folder)
    }

    static func text(_ driver: ExplorerDriver) -> String { driver.screen.lines.joined(separator: "\n") }

    /// The object of the detail view on screen, as `Class#key`; nil on another screen.
    static func opened(_ driver: ExplorerDriver) -> String? {
        guard case .detail(let detail) = driver.state.current else { return nil }
        return "\(detail.object.className)#\(detail.object.key.rawValue)"
    }

    @Test func aMixedListOpensAndItsLinksToo() throws {
        var (driver, _, folder) = try Self.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.enter, .character("j"), .enter)  // Box 1 › value: [1, Dog#0, {k: Dog#1}]
        #expect(driver.state.current.kind == .values, "\(Self.text(driver))")
        try expectGolden("values-mixed-nested", driver.screen)
        driver.press(.character("j"), .enter)
        #expect(Self.opened(driver) == "Dog#0", "\(Self.text(driver))")
        driver.press(.escape, .character("j"), .enter)  // the nested dictionary
        #expect(Self.text(driver).contains("k →"), "\(Self.text(driver))")
        driver.press(.enter)
        #expect(Self.opened(driver) == "Dog#1", "\(Self.text(driver))")
    }

    @Test func aListOfMixedOpensLinksAndNestedListsAndEditsScalars() throws {
        var (driver, _, folder) = try Self.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.enter, .character("j"), .character("j"), .enter)  // Box 1 › values
        driver.press(.enter)  // "a": a Mixed scalar is edited, its type picked first (issue 23)
        guard case .edit(.choosingType) = driver.state.mode else {
            Issue.record("Enter on a Mixed scalar did not open its type picker: \(Self.text(driver))")
            return
        }
        driver.press(.escape, .character("j"), .enter)
        #expect(Self.opened(driver) == "Dog#1", "\(Self.text(driver))")
        driver.press(.escape, .character("j"), .enter)  // [2]: a nested list
        #expect(
            driver.state.current.kind == .values && Self.text(driver).contains("values: 1 value"),
            "\(Self.text(driver))")
    }

    @Test func aMixedLinkOpensItsObjectAndAMixedScalarIsEdited() throws {
        var (driver, _, folder) = try Self.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("j"), .enter, .character("j"), .enter)  // Box 2 › value → Dog#1
        #expect(Self.opened(driver) == "Dog#1", "\(Self.text(driver))")
        driver.press(.escape, .escape, .character("j"), .enter, .character("j"), .enter)  // Box 3 › value: 5
        // Its edit starts with the type picker (issue 23), then that type's editor.
        guard case .edit(.choosingType) = driver.state.mode else {
            Issue.record("Enter on a Mixed int did not open its editor: \(Self.text(driver))")
            return
        }
    }

    @Test func aDictionaryOfLinksOpensItsEntriesAndTheirObjects() throws {
        var (driver, _, folder) = try Self.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.enter, .character("j"), .character("j"), .character("j"), .enter)  // Box 1 › dogs
        try expectGolden("values-link-map", driver.screen)
        driver.press(.enter)  // none → null
        #expect(driver.statusText.contains("null"), "\(driver.statusText)")
        #expect(driver.state.current.kind == .values)
        driver.press(.character("j"), .enter)  // rex
        #expect(Self.opened(driver) == "Dog#0", "\(Self.text(driver))")
    }

    @Test func aDictionaryOfEmbeddedObjectsOpensTheirFields() throws {
        var (driver, _, folder) = try Self.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.enter, .character("G"), .enter)  // Box 1 › places
        #expect(Self.text(driver).contains("home →") && Self.text(driver).contains("Oslo"), "\(Self.text(driver))")
        driver.press(.enter)
        #expect(
            Self.opened(driver)?.hasPrefix("Place#") == true && Self.text(driver).contains("Oslo"),
            "\(Self.text(driver))")
    }
}
