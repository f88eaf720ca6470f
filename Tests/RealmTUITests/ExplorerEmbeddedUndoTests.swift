import Foundation
import RealmEngine
@testable import RealmTUI
import Testing

/// Deleting an embedded object is undone by `u`: the object comes back with all its values, its
/// nested embedded objects and its place in its parent (a to-one, a list position, a dictionary
/// key); ctrl-r takes it out again.
@Suite("Explorer embedded objects, deletes undone")
struct ExplorerEmbeddedUndoTests {
    static func text(_ driver: ExplorerDriver) -> String { driver.screen.lines.joined(separator: "\n") }

    static func ada(_ path: String) throws -> DynamicObject { try ExplorerEmbeddedEditTests.person(path, "Ada") }

    @Test func aDeletedListElementComesBackAtItsPosition() throws {
        var (driver, path, folder) = try ExplorerEmbeddedTests.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(
            // previous › [0] Bergen
            .enter, .enter, .character("j"), .character("j"), .character(" "), .character("j"), .character("d"))
        driver.press(.character("y"))
        #expect(try ExplorerEmbeddedEditTests.cities(path, "Ada") == [.string("Tromsø")], "\(Self.text(driver))")
        #expect(!driver.statusText.contains("cannot restore"), "\(driver.statusText)")
        driver.press(.character("u"))
        #expect(
            try ExplorerEmbeddedEditTests.cities(path, "Ada") == [.string("Bergen"), .string("Tromsø")],
            "\(Self.text(driver))")
        #expect(driver.statusText.contains("undone"), "\(driver.statusText)")
        driver.press(.control("r"))
        #expect(try ExplorerEmbeddedEditTests.cities(path, "Ada") == [.string("Tromsø")], "\(driver.statusText)")
        _ = try Realm(path: path, readOnly: true).checkIntegrity()
    }

    @Test func aDeletedToOneComesBackWithItsNestedObject() throws {
        var (driver, path, folder) = try ExplorerEmbeddedTests.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.enter, .enter, .character("j"), .enter)  // Ada › address, opened on its own
        driver.press(.character("d"))
        #expect(
            !driver.statusText.contains("u cannot restore") && Self.text(driver).contains("y/n"), "\(Self.text(driver))"
        )
        driver.press(.character("y"))
        #expect(try Self.ada(path).value(forKey: "address") == .null, "\(Self.text(driver))")
        driver.press(.character("u"))
        let address = try #require(try Self.ada(path).linkedObject(forKey: "address"), "\(driver.statusText)")
        #expect(try address.value(forKey: "city") == .string("Oslo"))
        #expect(try address.value(forKey: "street") == .string("Main St"))
        #expect(try address.linkedObject(forKey: "geo")?.value(forKey: "lat") == .double(59.9))
        try expectGolden("embedded-undo-restored", driver.screen)
        _ = try Realm(path: path, readOnly: true).checkIntegrity()
    }

    @Test func aDeletedDictionaryEntryComesBackUnderItsKey() throws {
        var (driver, path, folder) = try ExplorerEmbeddedTests.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(
            // places › work
            .enter, .enter, .character("j"), .character("j"), .character("j"), .character(" "), .character("j"))
        driver.press(.character("d"), .character("y"))
        #expect(try Self.ada(path).value(forKey: "places") == .map(["work": .null]), "\(Self.text(driver))")
        driver.press(.character("u"))
        let places = try Self.ada(path).map(forKey: "places")
        guard case .link(let key)? = try places.value(forKey: "work") else {
            Issue.record("work is not back: \(driver.statusText)")
            return
        }
        let realm = try Realm(path: path, readOnly: true)
        #expect(try realm.object(ofType: "Address", key: key)?.value(forKey: "city") == .string("Trondheim"))
    }

    /// Undo refuses when the parent changed since (nothing written, the reason shown).
    @Test func anUndoAfterTheParentChangedIsRefused() throws {
        var (driver, path, folder) = try ExplorerEmbeddedTests.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(
            .enter, .enter, .character("j"), .character("j"), .character(" "), .character("j"), .character("d"),
            .character("y"))
        let realm = try Realm(path: path)
        try realm.write {
            try #require(try realm.object(ofType: "Person", forPrimaryKey: .string("Ada"))).list(forKey: "previous")
                .append(ExplorerEmbeddedTests.address("Alta"))
        }
        driver.press(.character("u"))
        #expect(driver.statusText.contains("changed since"), "\(driver.statusText)")
        #expect(try ExplorerEmbeddedEditTests.cities(path, "Ada") == [.string("Tromsø"), .string("Alta")])
    }
}
