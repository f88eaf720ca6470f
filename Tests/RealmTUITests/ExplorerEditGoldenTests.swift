import Foundation
import RealmEngine
import RealmTUI
import Testing

/// Each editor and prompt of the edit flow as plain text, compared with `Golden/edit-*.txt`.
@Suite("Explorer edit golden screens")
struct ExplorerEditGoldenTests {
    @Test func tableCellEditor() throws {
        var driver = try ExplorerFixture.driver(width: 80, height: 12)
        driver.press(.down, .enter, .character("l"), .character("e"))
        try expectGolden("edit-table-cell", driver.screen)
    }

    @Test func refusedValueKeepsTheEditorOpen() throws {
        var driver = try ExplorerFixture.driver(width: 80, height: 12)
        driver.press(.down, .enter, .character("l"), .character("e"), .control("u"))
        driver.type("three")
        driver.press(.enter)
        try expectGolden("edit-refused", driver.screen)
    }

    @Test func detailEditorOfAnOptionalDate() throws {
        var driver = try ExplorerFixture.driver(width: 80, height: 14)
        driver.press(.enter, .enter, .down, .down, .down, .enter)  // 张三 › born
        try expectGolden("edit-detail-date", driver.screen)
    }

    @Test func deletePromptSaysHowManyObjectsLinkHere() throws {
        var driver = try ExplorerFixture.driver(width: 80, height: 12)
        driver.press(.down, .enter, .character("d"))
        try expectGolden("edit-delete-prompt", driver.screen)
    }

    @Test func readOnlyRefusalOffersCopy() throws {
        let realm = try ExplorerFixture.realm()
        var driver = ExplorerDriver(
            state: ExplorerState(realm: realm, fileName: "seed.realm", readOnly: true, width: 100, height: 12))
        driver.press(.down, .enter, .character("e"))
        try expectGolden("edit-read-only", driver.screen)
    }

    @Test func newObjectForm() throws {
        var driver = try ExplorerFixture.driver(width: 80, height: 14)
        driver.press(.enter, .character("a"), .down)
        driver.type("Ann")
        try expectGolden("edit-form-person", driver.screen)
    }

    @Test func linkPicker() throws {
        var driver = try ExplorerFixture.driver(width: 80, height: 12)
        driver.press(.down, .enter, .down, .character("$"), .character("h"), .character("e"))
        try expectGolden("edit-link-picker", driver.screen)
    }

    @Test func listElementEditor() throws {
        var driver = try ExplorerFixture.driver(width: 80, height: 12)
        driver.press(.enter, .enter, .character("G"), .enter, .character("i"))
        try expectGolden("edit-list-insert", driver.screen)
    }

    @Test func multilineStringEditor() throws {
        var driver = try ExplorerFixture.driver(width: 80, height: 16)
        driver.press(.enter, .character("G"), .enter, .down, .enter)
        try expectGolden("edit-multiline", driver.screen)
    }
}
