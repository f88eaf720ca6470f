import Foundation
import RealmEngine
import RealmTUI
import Testing

/// Every screen of the explorer as plain text, compared with `Golden/*.txt`.
@Suite("Explorer golden screens")
struct ExplorerGoldenTests {
    @Test func classList() throws {
        let driver = try ExplorerFixture.driver()
        try expectGolden("classes", driver.screen)
    }

    @Test func classListFiltered() throws {
        var driver = try ExplorerFixture.driver()
        driver.press(.character("/"))
        driver.type("do")
        try expectGolden("classes-filtered", driver.screen)
        driver.press(.enter)
        #expect(driver.screen.lines[1].contains("Dog"))
        driver.press(.enter)
        #expect(driver.screen.lines[0].contains("Dog"))
    }

    @Test func typingANameFiltersTheClassList() throws {
        var driver = try ExplorerFixture.driver()
        driver.type("Pe")
        #expect(driver.screen.lines[1].hasPrefix("› Person"))
        #expect(!driver.screen.lines.contains { $0.contains("Dog") && !$0.contains("dogs") })
        driver.press(.escape)
        #expect(driver.screen.lines[2].contains("Dog"))
        driver.type("xyz")
        #expect(driver.screen.lines[1].contains("no class matches"))
    }

    /// After Enter closes the filter's input bar, the filter still narrows the list: the status
    /// line shows it (and how many classes it hides), an empty list says which filter matched
    /// nothing, and Escape clears it. Before, the list just read "no class matches" and
    /// "0 classes", with the filter nowhere on screen.
    @Test func aClassFilterStaysVisibleAfterEnterAndEscapeClearsIt() throws {
        var driver = try ExplorerFixture.driver()
        driver.type("xyz")
        driver.press(.enter)
        let status = driver.statusText
        #expect(status.contains("0 of 2 classes") && status.contains("/xyz"), "\(status)")
        #expect(driver.screen.lines[1].contains("no class matches /xyz"))
        driver.press(.escape)
        #expect(driver.screen.lines[1].contains("Person") && driver.screen.lines[2].contains("Dog"))
        #expect(driver.statusText.contains("2 classes") == true)
        #expect(driver.statusText.contains("/xyz") == false)
    }

    @Test func tableWithCJKNullsEmptyStringsDatesAndData() throws {
        var driver = try ExplorerFixture.driver(width: 140, height: 12)
        driver.press(.enter)
        try expectGolden("table-person", driver.screen)
    }

    @Test func narrowTableKeepsThePrimaryKeyInView() throws {
        var driver = try ExplorerFixture.driver(width: 40, height: 10)
        driver.press(.enter)
        try expectGolden("table-narrow", driver.screen)
        driver.press(.character("$"))
        try expectGolden("table-narrow-last-column", driver.screen)
    }

    @Test func detailWrapsLongValuesAndEscapesControls() throws {
        var driver = try ExplorerFixture.driver(width: 60, height: 14)
        driver.press(.enter, .character("G"), .enter)
        try expectGolden("detail-long", driver.screen)
        #expect(!driver.screen.cells.contains { $0.text.unicodeScalars.contains { $0.value == 0x1B } })
    }

    @Test func followLinksListsAndBacklinksWithBreadcrumb() throws {
        var driver = try ExplorerFixture.driver()
        driver.press(.enter, .enter)  // Person › 张三
        try expectGolden("detail-person", driver.screen)
        // dogs
        driver.press(.character("j"), .character("j"), .character("j"), .character("j"), .character("j"), .enter)
        try expectGolden("list-dogs", driver.screen)
        driver.press(.enter)  // 大黄
        driver.press(.character("G"), .enter)  // owners
        try expectGolden("backlinks-owners", driver.screen)
    }

    @Test func valueList() throws {
        var driver = try ExplorerFixture.driver(width: 60, height: 12)
        driver.press(.enter, .enter, .character("G"), .enter)
        try expectGolden("values-tags", driver.screen)
    }

    @Test func queryErrorShowsACaretUnderItsColumn() throws {
        var driver = try ExplorerFixture.driver(width: 80, height: 12)
        driver.press(.enter, .character("/"))
        driver.type("id > 1 AND nmae == 'x'")
        driver.press(.enter)
        try expectGolden("query-error", driver.screen)
    }

    @Test func queryAndSortShownInHeaderAndStatus() throws {
        var driver = try ExplorerFixture.driver(width: 80, height: 12)
        driver.press(.down, .enter)
        driver.press(.character("/"))
        driver.type("age != nil")
        driver.press(.enter, .character("l"), .character("S"))
        try expectGolden("query-sorted", driver.screen)
    }

    @Test func helpIsGeneratedFromTheKeyMap() throws {
        var driver = try ExplorerFixture.driver(width: 100, height: 40)
        driver.press(.enter, .character("?"))
        try expectGolden("help-table", driver.screen)
    }

    @Test func schemaCommand() throws {
        var driver = try ExplorerFixture.driver(width: 80, height: 24)
        driver.press(.character(":"))
        driver.type("schema")
        driver.press(.enter)
        try expectGolden("schema", driver.screen)
    }

    @Test func terminalTooSmall() throws {
        var driver = try ExplorerFixture.driver(width: 39, height: 9)
        try expectGolden("too-small", driver.screen)
        driver.send(.resize(width: 80, height: 24))
        try expectGolden("classes", driver.screen)
    }
}
