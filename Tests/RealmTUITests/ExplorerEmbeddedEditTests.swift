import Foundation
import RealmEngine
@testable import RealmTUI
import Testing

/// Editing embedded objects in the explorer: `e` on a nested field writes it through its
/// embedded object (undo takes it back); `e` on a null embedded to-one opens the form for a new
/// one; `a` on a list of them (in the detail view or its table) appends one through the form;
/// `d` on an element removes it (the object is deleted with it).
@Suite("Explorer embedded objects, edited")
struct ExplorerEmbeddedEditTests {
    /// The persons of the file at `path`, read through a fresh instance (what another reader sees).
    static func person(_ path: String, _ name: String) throws -> DynamicObject {
        let realm = try Realm(path: path, readOnly: true)
        return try #require(try realm.object(ofType: "Person", forPrimaryKey: .string(name)))
    }

    static func cities(_ path: String, _ name: String) throws -> [Value] {
        let list = try person(path, name).list(forKey: "previous")
        return try (0..<list.count).map { try list.object(at: $0).value(forKey: "city") }
    }

    static func text(_ driver: ExplorerDriver) -> String { driver.screen.lines.joined(separator: "\n") }

    @Test func aNestedFieldIsEditedAndUndone() throws {
        var (driver, path, folder) = try ExplorerEmbeddedTests.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.enter, .enter, .character("j"), .character(" "), .character("j"))  // Ada › address › city
        driver.press(.character("e"), .control("u"))
        driver.type("Bergen")
        driver.press(.control("s"))
        #expect(
            try Self.person(path, "Ada").linkedObject(forKey: "address")?.value(forKey: "city") == .string("Bergen"),
            "\(Self.text(driver))")
        #expect(
            driver.screen.lines.contains { $0.dropFirst(2).hasPrefix("  city") && $0.contains("Bergen") },
            "\(Self.text(driver))")
        driver.press(.character("u"))
        #expect(
            try Self.person(path, "Ada").linkedObject(forKey: "address")?.value(forKey: "city") == .string("Oslo"),
            "\(Self.text(driver))")
    }

    @Test func aNullEmbeddedToOneGetsAFormForANewOne() throws {
        var (driver, path, folder) = try ExplorerEmbeddedTests.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.enter, .character("j"), .enter, .character("j"), .character("e"))  // Bob › address (null)
        #expect(Self.text(driver).contains("Enter creates"), "\(Self.text(driver))")
        driver.type("Paris")
        driver.press(.enter)
        #expect(
            try Self.person(path, "Bob").linkedObject(forKey: "address")?.value(forKey: "city") == .string("Paris"),
            "\(Self.text(driver))")
        #expect(driver.screen.lines.contains { $0.contains("⟨Address⟩ Paris") }, "\(Self.text(driver))")
        driver.press(.character("u"))
        #expect(try Self.person(path, "Bob").value(forKey: "address") == .null, "\(Self.text(driver))")
        // One that is there is edited field by field, not replaced.
        driver.press(.character("g"), .character("k"))
        driver.press(.escape, .character("k"), .enter, .character("j"), .character("e"))  // Ada › address
        #expect(driver.statusText.contains("space expands"), "\(driver.statusText)")
    }

    @Test func aAppendsToAListOfEmbeddedObjectsAndDRemovesOne() throws {
        var (driver, path, folder) = try ExplorerEmbeddedTests.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Ada › previous, in the detail view
        driver.press(.enter, .enter, .character("j"), .character("j"), .character("a"))
        #expect(Self.text(driver).contains("Enter creates"), "\(Self.text(driver))")
        driver.type("Narvik")
        driver.press(.enter)
        #expect(
            try Self.cities(path, "Ada") == [.string("Bergen"), .string("Tromsø"), .string("Narvik")],
            "\(Self.text(driver))")
        driver.press(.enter, .character("a"))  // previous opened as a table: a appends there too
        driver.type("Bodø")
        driver.press(.enter)
        #expect(
            try Self.cities(path, "Ada") == [.string("Bergen"), .string("Tromsø"), .string("Narvik"), .string("Bodø")],
            "\(Self.text(driver))")
        driver.press(.escape, .character(" "), .character("j"), .character("d"))  // back, expanded, [0] Bergen
        #expect(Self.text(driver).contains("y/n"), "\(Self.text(driver))")
        driver.press(.character("y"))
        #expect(
            try Self.cities(path, "Ada") == [.string("Tromsø"), .string("Narvik"), .string("Bodø")],
            "\(Self.text(driver))")
        // The removed object is deleted (an embedded object never outlives its place).
        let realm = try Realm(path: path, readOnly: true)
        _ = try realm.checkIntegrity()
    }

    /// An object that an embedded object links to is deleted like any other (the explorer counted
    /// the links to it with a query on every class linking there, which Realm refuses for an
    /// embedded class); the link inside the embedded object becomes null.
    @Test func anObjectLinkedFromAnEmbeddedObjectIsDeleted() throws {
        let schema = Schema([
            ObjectSchema(name: "Dog", properties: [Property(name: "name", type: .string)]),
            ObjectSchema(
                name: "Person",
                properties: [
                    Property(name: "name", type: .string, isPrimaryKey: true),
                    Property(name: "address", type: .object, isOptional: true, objectClassName: "Address"),
                ]),
            ObjectSchema(
                name: "Address",
                properties: [
                    Property(name: "city", type: .string),
                    Property(name: "pet", type: .object, isOptional: true, objectClassName: "Dog"),
                ], isEmbedded: true),
        ])
        let folder = try EditFixture.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("pets.realm").path
        do {
            let realm = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), schema: schema))
            try realm.write {
                let rex = try realm.create("Dog", ["name": .string("Rex")])
                try realm.create(
                    "Person",
                    value: .dictionary([
                        "name": .value(.string("Ada")),
                        "address": .dictionary(["city": .value(.string("Oslo")), "pet": .value(.link(rex.key))]),
                    ]))
            }
        }
        var driver = try EditFixture.driver(path: path, width: 100)
        driver.press(.enter, .character("d"))  // Dog › Rex
        #expect(Self.text(driver).contains("y/n") && Self.text(driver).contains("embedded"), "\(Self.text(driver))")
        driver.press(.character("y"))
        let realm = try Realm(path: path, readOnly: true)
        #expect(try realm.objects("Dog").count == 0, "\(Self.text(driver))")
        #expect(try Self.person(path, "Ada").linkedObject(forKey: "address")?.value(forKey: "pet") == .null)
        _ = try realm.checkIntegrity()
    }

    /// Removing an element from a list of embedded objects deletes it; u makes it again at its
    /// position with its values (it used to say u could not take it back).
    @Test func removingAnEmbeddedListElementIsUndone() throws {
        var (driver, path, folder) = try ExplorerEmbeddedTests.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Ada › previous: Bergen removed
        driver.press(.enter, .enter, .character("j"), .character("j"), .enter, .character("x"))
        #expect(try Self.cities(path, "Ada") == [.string("Tromsø")], "\(Self.text(driver))")
        #expect(driver.statusText.contains("u undoes"), "\(driver.statusText)")
        driver.press(.character("u"))
        #expect(try Self.cities(path, "Ada") == [.string("Bergen"), .string("Tromsø")], "\(driver.statusText)")
        _ = try Realm(path: path, readOnly: true).checkIntegrity()
    }

    /// An object holding embedded objects is deleted with them; u cannot restore them (they
    /// would have to be made again inside it), so the delete says so instead of offering an
    /// undo that fails.
    @Test func deletingAParentOfEmbeddedObjectsSaysUCannotRestoreIt() throws {
        var (driver, path, folder) = try ExplorerEmbeddedTests.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.enter, .character("d"), .character("y"))  // Person › Ada deleted
        #expect(
            try Realm(path: path, readOnly: true).object(ofType: "Person", forPrimaryKey: .string("Ada")) == nil,
            "\(Self.text(driver))")
        #expect(driver.statusText.contains("u cannot restore it"), "\(driver.statusText)")
        driver.press(.character("u"))
        #expect(driver.statusText.contains("nothing to undo"), "\(driver.statusText)")
        _ = try Realm(path: path, readOnly: true).checkIntegrity()
    }
}
