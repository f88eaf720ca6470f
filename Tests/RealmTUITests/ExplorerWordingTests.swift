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
            ObjectSchema(name: "Owner", properties: [
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
        var driver = ExplorerDriver(state: ExplorerState(realm: realm, fileName: "w.realm", readOnly: false, width: 100, height: 20))
        driver.press(.enter, .character("l"), .character("e"))          // Owner › pet
        #expect(driver.screen.lines.contains { $0.contains("pick an Animal for pet") }, "\(driver.screen.lines.joined(separator: "\n"))")
    }
}
