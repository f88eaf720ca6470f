import Foundation
import RealmEngine
@testable import RealmTUI
import Testing

/// Embedded objects in the explorer: the class list marks an embedded class and says where its
/// objects live (they are never a table of their own); a cell shows an embedded object as
/// `⟨Address⟩ Oslo, …` (its first fields), a list of them as `[2] ⟨Address⟩ Bergen, Tromsø`, a
/// dictionary of them as `{1} ⟨Address⟩ work: Trondheim`.
@Suite("Explorer embedded objects")
struct ExplorerEmbeddedTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Person",
            properties: [
                Property(name: "name", type: .string, isPrimaryKey: true),
                Property(name: "address", type: .object, isOptional: true, objectClassName: "Address"),
                Property(name: "previous", type: .object, isList: true, objectClassName: "Address"),
                Property(name: "places", type: .object, isMap: true, objectClassName: "Address"),
            ]),
        ObjectSchema(
            name: "Address",
            properties: [
                Property(name: "city", type: .string),
                Property(name: "street", type: .string, isOptional: true),
                Property(name: "geo", type: .object, isOptional: true, objectClassName: "Geo"),
            ], isEmbedded: true),
        ObjectSchema(
            name: "Geo",
            properties: [
                Property(name: "lat", type: .double)
            ], isEmbedded: true),
    ])

    static func address(_ city: String, street: String? = nil, lat: Double? = nil) -> ObjectInput {
        var d: [String: ObjectInput] = ["city": .value(.string(city))]
        if let street { d["street"] = .value(.string(street)) }
        if let lat { d["geo"] = .dictionary(["lat": .value(.double(lat))]) }
        return .dictionary(d)
    }

    /// A file with Ada (an address with a street and a geo, two previous, one place) and Bob
    /// (no address), and a driver on its class list.
    static func driver(width: Int = 100) throws -> (driver: ExplorerDriver, path: String, folder: URL) {
        let folder = try EditFixture.folder()
        let path = folder.appendingPathComponent("people.realm").path
        let realm = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), schema: schema))
        try realm.write {
            try realm.create(
                "Person",
                value: .dictionary([
                    "name": .value(.string("Ada")), "address": address("Oslo", street: "Main St", lat: 59.9),
                    "previous": .array([address("Bergen"), address("Tromsø")]),
                    "places": .dictionary(["work": address("Trondheim")]),
                ]))
            try realm.create("Person", ["name": .string("Bob")])
        }
        return (try EditFixture.driver(path: path, width: width), path, folder)
    }

    static func text(_ driver: ExplorerDriver) -> String { driver.screen.lines.joined(separator: "\n") }

    @Test func theClassListMarksEmbeddedClassesAndSaysWhereTheirObjectsLive() throws {
        var (driver, _, folder) = try Self.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lines = driver.screen.lines
        #expect(
            lines.contains { $0.contains("Address") && $0.contains("embedded") && !$0.contains("⚠") },
            "\(Self.text(driver))")
        #expect(lines.contains { $0.contains("Person") && $0.contains(" 2 ") }, "\(Self.text(driver))")
        driver.press(.character("j"))  // Address: its preview says who holds its objects
        #expect(Self.text(driver).contains("embedded in Person"), "\(Self.text(driver))")
        driver.press(.enter)
        #expect(driver.state.current.kind == .classes, "\(Self.text(driver))")
        #expect(
            driver.statusText.contains(
                "Address objects live inside their parents: Person.address, Person.previous, Person.places"),
            "\(driver.statusText)")
        driver.press(.character("j"), .enter)  // Geo lives inside an embedded class
        #expect(
            driver.statusText.contains("Geo objects live inside their parents: Address.geo"), "\(driver.statusText)")
        try expectGolden("embedded-classes", driver.screen)
    }

    @Test func cellsShowTheFirstFieldsOfEmbeddedObjects() throws {
        var (driver, _, folder) = try Self.driver(width: 140)
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.enter)  // Person
        let lines = driver.screen.lines
        let ada = try #require(lines.first { $0.contains("Ada") }, "\(Self.text(driver))")
        #expect(ada.contains("⟨Address⟩ Oslo, Main St, …"), "\(ada)")
        #expect(ada.contains("[2] ⟨Address⟩ Bergen, Tromsø"), "\(ada)")
        #expect(ada.contains("{1} ⟨Address⟩ work: Trondheim"), "\(ada)")
        let bob = try #require(lines.first { $0.contains("Bob") })
        #expect(bob.contains("null") && bob.contains("[0]") && bob.contains("{0}"), "\(bob)")
        try expectGolden("embedded-table", driver.screen)
    }

    /// The row of `driver`'s screen that starts (after the cursor gutter) with `prefix`.
    static func row(_ driver: ExplorerDriver, _ prefix: String) -> String? {
        driver.screen.lines.first { $0.dropFirst(2).hasPrefix(prefix) }
    }

    @Test func theDetailViewNestsEmbeddedObjectsUnderTheirProperty() throws {
        var (driver, _, folder) = try Self.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.enter, .enter)  // Person › Ada
        #expect(Self.row(driver, "address ")?.contains("▸ ⟨Address⟩ Oslo, Main St, …") == true, "\(Self.text(driver))")
        #expect(Self.row(driver, "  city") == nil)
        driver.press(.character("j"), .character(" "))  // address expanded
        #expect(Self.row(driver, "address ")?.contains("▾ ⟨Address⟩") == true, "\(Self.text(driver))")
        #expect(Self.row(driver, "  city ")?.contains("Oslo") == true, "\(Self.text(driver))")
        #expect(Self.row(driver, "  street ")?.contains("Main St") == true)
        #expect(Self.row(driver, "  geo ")?.contains("▸ ⟨Geo⟩ 59.9") == true, "\(Self.text(driver))")
        driver.press(.character("j"), .character("j"), .character("j"), .character(" "))  // city, street, geo: expanded
        #expect(Self.row(driver, "    lat ")?.contains("59.9") == true, "\(Self.text(driver))")
        #expect(driver.screen.lines.first { $0.hasPrefix("›") }?.contains("geo") == true, "\(Self.text(driver))")
        driver.press(.character("j"), .character("j"), .character(" "))  // lat, previous: expanded
        #expect(Self.row(driver, "  [0] ")?.contains("▸ ⟨Address⟩ Bergen, null, …") == true, "\(Self.text(driver))")
        #expect(Self.row(driver, "  [1] ")?.contains("Tromsø") == true)
        driver.press(.character("j"), .character(" "))  // [0] expanded: its fields under it
        #expect(Self.row(driver, "    city ")?.contains("Bergen") == true, "\(Self.text(driver))")
        driver.press(.character("G"), .character(" "))  // places expanded
        #expect(Self.row(driver, "  work ")?.contains("▸ ⟨Address⟩ Trondheim") == true, "\(Self.text(driver))")
        try expectGolden("embedded-detail-expanded", driver.screen)
        driver.press(.character("g"), .character("j"), .character(" "))  // address collapsed again
        #expect(Self.row(driver, "  street ") == nil, "\(Self.text(driver))")
        #expect(Self.row(driver, "address ")?.contains("▸ ⟨Address⟩") == true)
        // The help says which key does it.
        driver.press(.character("?"))
        #expect(Self.text(driver).contains("expand or collapse"), "\(Self.text(driver))")
    }

    @Test func aChangeInsideAnEmbeddedObjectIsMarkedOnItsRow() throws {
        var (driver, path, folder) = try Self.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.enter, .enter, .character("j"), .character(" "))  // Ada, address expanded
        let writer = try Realm(path: path)
        try writer.write {
            let ada = try #require(try writer.object(ofType: "Person", forPrimaryKey: .string("Ada")))
            try #require(try ada.linkedObject(forKey: "address")).setValue(.string("Bergen"), forKey: "city")
        }
        let moved = driver.refresh()
        #expect(moved)
        let lines = driver.screen.lines
        #expect(
            lines.contains { $0.hasPrefix(" ~address") || $0.hasPrefix("›~address") },
            "\(lines.joined(separator: "\n"))")
        #expect(
            lines.contains { $0.hasPrefix(" ~  city") && $0.contains("Bergen") }, "\(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.contains("was: ⟨Address⟩ Oslo, Main St, …") }, "\(lines.joined(separator: "\n"))")
        #expect(!lines.contains { $0.hasPrefix(" ~  street") })
    }
}
