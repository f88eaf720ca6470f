import Foundation
import RealmEngine
@testable import RealmTUI
import Testing

/// Deleting several embedded objects at once (`:delete` on a table of a list of them, all its
/// rows or those a query left) is undone by one `u`: each object comes back at its position with
/// its values and its nested embedded objects; ctrl-r takes them all out again. Before, such a
/// delete said u could not restore them.
@Suite("Explorer embedded objects, a delete of several undone")
struct ExplorerEmbeddedGroupUndoTests {
    static func text(_ driver: ExplorerDriver) -> String { driver.screen.lines.joined(separator: "\n") }

    /// Ada with previous = [Bergen (geo 60.4), Tromsø, Alta (street Elvegata)], and a driver on
    /// the class list.
    static func driver() throws -> (driver: ExplorerDriver, path: String, folder: URL) {
        let folder = try EditFixture.folder()
        let path = folder.appendingPathComponent("people.realm").path
        let realm = try Realm(
            configuration: .init(fileURL: URL(fileURLWithPath: path), schema: ExplorerEmbeddedTests.schema))
        try realm.write {
            try realm.create(
                "Person",
                value: .dictionary([
                    "name": .value(.string("Ada")),
                    "previous": .array([
                        ExplorerEmbeddedTests.address("Bergen", lat: 60.4), ExplorerEmbeddedTests.address("Tromsø"),
                        ExplorerEmbeddedTests.address("Alta", street: "Elvegata"),
                    ]),
                ]))
        }
        return (try EditFixture.driver(path: path, width: 100), path, folder)
    }

    /// Ada's previous addresses as (city, street, geo's lat).
    static func previous(_ path: String) throws -> [[Value]] {
        let ada = try ExplorerEmbeddedEditTests.person(path, "Ada")
        let list = try ada.list(forKey: "previous")
        return try (0..<list.count).map { index in
            let address = try list.object(at: index)
            let lat = try address.linkedObject(forKey: "geo")?.value(forKey: "lat") ?? .null
            return [try address.value(forKey: "city"), try address.value(forKey: "street"), lat]
        }
    }

    static let all: [[Value]] = [
        [.string("Bergen"), .null, .double(60.4)], [.string("Tromsø"), .null, .null],
        [.string("Alta"), .string("Elvegata"), .null],
    ]

    static func openPrevious(_ driver: inout ExplorerDriver) {
        driver.press(.enter, .enter, .character("j"), .character("j"), .enter)  // Person › Ada › previous, as a table
    }

    static func delete(_ driver: inout ExplorerDriver) {
        driver.press(.character(":"))
        driver.type("delete")
        driver.press(.enter, .character("y"))
    }

    @Test func oneUPutsBackEveryDeletedElementAtItsPosition() throws {
        var (driver, path, folder) = try Self.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        Self.openPrevious(&driver)
        driver.press(.character("/"))
        driver.type("city != 'Tromsø'")
        driver.press(.enter)
        Self.delete(&driver)
        #expect(try Self.previous(path) == [[.string("Tromsø"), .null, .null]], "\(Self.text(driver))")
        #expect(!driver.statusText.contains("cannot restore"), "\(driver.statusText)")
        driver.press(.character("u"))
        #expect(try Self.previous(path) == Self.all, "\(driver.statusText)")
        #expect(driver.statusText.contains("undone: 2 Address objects restored"), "\(driver.statusText)")
        driver.press(.control("r"))
        #expect(try Self.previous(path) == [[.string("Tromsø"), .null, .null]], "\(driver.statusText)")
        driver.press(.character("u"))
        #expect(try Self.previous(path) == Self.all, "\(driver.statusText)")
        _ = try Realm(path: path, readOnly: true).checkIntegrity()
    }

    @Test func aWholeListDeletedComesBackInOneStep() throws {
        var (driver, path, folder) = try Self.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        Self.openPrevious(&driver)
        Self.delete(&driver)
        #expect(try Self.previous(path).isEmpty, "\(Self.text(driver))")
        driver.press(.character("u"))
        #expect(try Self.previous(path) == Self.all, "\(driver.statusText)")
        driver.press(.character("u"))  // nothing before the delete
        #expect(
            try Self.previous(path) == Self.all && driver.statusText.contains("nothing to undo"), "\(driver.statusText)"
        )
        try expectGolden("embedded-group-undo-restored", driver.screen)
        _ = try Realm(path: path, readOnly: true).checkIntegrity()
    }

    /// `:clear` on a list of embedded objects deletes them all; one u makes them all again (it
    /// used to say u could not take it back).
    @Test func clearingAListOfEmbeddedObjectsIsUndoneInOneStep() throws {
        var (driver, path, folder) = try Self.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        Self.openPrevious(&driver)
        driver.press(.character(":"))
        driver.type("clear")
        driver.press(.enter, .character("y"))
        #expect(try Self.previous(path).isEmpty, "\(Self.text(driver))")
        #expect(driver.statusText.contains("u puts them back"), "\(driver.statusText)")
        driver.press(.character("u"))
        #expect(try Self.previous(path) == Self.all, "\(driver.statusText)")
        _ = try Realm(path: path, readOnly: true).checkIntegrity()
    }

    /// Undo refuses when the list changed since (nothing written, the reason shown).
    @Test func anUndoAfterTheListChangedIsRefused() throws {
        var (driver, path, folder) = try Self.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        Self.openPrevious(&driver)
        Self.delete(&driver)
        let realm = try Realm(path: path)
        try realm.write {
            try #require(try realm.object(ofType: "Person", forPrimaryKey: .string("Ada"))).list(forKey: "previous")
                .append(ExplorerEmbeddedTests.address("Oslo"))
        }
        driver.press(.character("u"))
        #expect(driver.statusText.contains("changed since"), "\(driver.statusText)")
        #expect(try Self.previous(path) == [[.string("Oslo"), .null, .null]])
    }
}
