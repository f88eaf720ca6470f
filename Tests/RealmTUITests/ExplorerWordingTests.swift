import Foundation
import RealmEngine
import RealmTUI
import Testing

/// The status line's grammar (issue 29, item 16). Before: "1 objects match", "pick a Animal".
@Suite("Explorer wording")
struct ExplorerWordingTests {
    @Test func oneObjectMatches() throws {
        var driver = try ExplorerFixture.driver()
        driver.press(.enter, .character("/"))
        driver.type("id == 1")
        driver.press(.enter)
        #expect(driver.statusText.contains("1 object matches"), "\(driver.statusText)")
        driver.press(.character("/"), .control("u"))
        driver.type("id > 1")
        driver.press(.enter)
        #expect(driver.statusText.contains("2 objects match"), "\(driver.statusText)")
    }

    @Test func thePickerNamesItsClassWithTheRightArticle() throws {
        let schema = Schema([
            ObjectSchema(
                name: "Owner",
                properties: [
                    Property(name: "name", type: .string),
                    Property(name: "pet", type: .object, isOptional: true, objectClassName: "Animal"),
                ]),
            ObjectSchema(name: "Animal", properties: [Property(name: "name", type: .string)]),
        ])
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "wording-\(UUID().uuidString)", schema: schema))
        try realm.write {
            try realm.create("Animal", ["name": .string("cat")])
            try realm.create("Owner", ["name": .string("Ann")])
        }
        var driver = ExplorerDriver(
            state: ExplorerState(realm: realm, fileName: "w.realm", readOnly: false, width: 100, height: 20))
        driver.press(.enter, .character("l"), .character("e"))  // Owner › pet
        #expect(
            driver.screen.lines.contains { $0.contains("pick an Animal for pet") },
            "\(driver.screen.lines.joined(separator: "\n"))")
    }

    /// Before, a query too long for the status line was dropped from it whole: a filtered table
    /// looked unfiltered. It is cut instead, and never shorter than "/…".
    @Test func aLongQueryStaysOnTheStatusLineCut() throws {
        var driver = try ExplorerFixture.driver(width: 80, height: 12)
        driver.press(.down, .enter, .character("/"))
        let query = "name != 'a name long enough to push the query off the status line' AND age != nil"
        driver.type(query)
        driver.press(.enter)
        let status = try #require(driver.screen.lines.last)
        #expect(status.contains("/name != 'a"), "\(status)")
        #expect(status.contains("…"), "\(status)")
        #expect(status.contains("2 objects match"), "\(status)")
        // On a screen too narrow for any of it, the indicator stays.
        driver.send(.resize(width: 40, height: 12))
        #expect(
            driver.screen.lines.last?.contains("/…") == true || driver.screen.lines.last?.contains("/n") == true,
            "\(driver.screen.lines.last ?? "")")
    }
}
