import Foundation
import RealmEngine
import RealmTUI
import Testing

/// A class with no properties: a schema may hold one (Realm allows it). Its table has no
/// column under the cursor, so the keys that act on one say so instead of reaching for it.
@Suite("Explorer on a class without properties")
struct ExplorerEmptyClassTests {
    static let schema = Schema([
        ObjectSchema(name: "Empty", properties: []),
        ObjectSchema(name: "Dog", properties: [Property(name: "name", type: .string)]),
    ])

    /// Every key of a table, with the class empty and then holding two objects: the explorer
    /// draws each frame and keeps its table.
    @Test(arguments: [0, 2])
    func everyTableKeyWorksOnAClassWithoutProperties(objects: Int) throws {
        let realm = try Realm(
            configuration: .init(inMemoryIdentifier: "empty-class-\(UUID().uuidString)", schema: Self.schema))
        try realm.write {
            for _ in 0..<objects { try realm.create("Empty", [:]) }
        }
        var driver = ExplorerDriver(
            state: ExplorerState(realm: realm, fileName: "empty.realm", readOnly: false, width: 80, height: 24))
        driver.press(.enter)
        #expect(driver.screen.lines[0].contains("Empty"), "\(driver.screen.lines)")
        driver.press(.character("s"))
        #expect(driver.statusText.contains("Empty has no properties to sort by") == true, "\(driver.screen.lines)")
        let keys: [Key] = [
            .character("s"), .character("S"), .character("y"), .character("e"), .enter, .character("l"),
            .character("h"), .tab, .backTab, .right, .left, .character("d"), .character("n"), .character("a"),
            .escape, .character("j"), .character("k"), .character("G"), .character("g"),
        ]
        for key in keys {
            driver.press(key)
            #expect(driver.screen.lines.count == 24)
        }
        // Back to the class list, and into the class's table again: its objects all there.
        driver.press(.escape, .escape, .escape, .character("g"), .enter)
        #expect(driver.screen.lines[0].contains("Empty"), "\(driver.screen.lines)")
        #expect(driver.statusText.contains("\(objects) object") == true, "\(driver.screen.lines)")
    }
}
