import Foundation
import RealmEngine
import RealmTUI
import Testing

/// Help and `:schema` lines longer than the screen wrap at word boundaries with a hanging
/// indent, and j/k/PgDn scroll over the wrapped rows (nothing is cut at the right edge).
@Suite("Help and schema wrap")
struct HelpSchemaWrapTests {
    /// Every row shown while paging from the top to the end, words joined by single spaces.
    /// Rows that stay put on every page (the help screen's title) are taken from the first page
    /// only: repeated between pages, they would split an entry that wraps over a page break.
    static func pagedText(_ driver: inout ExplorerDriver) -> String {
        var pages: [[String]] = []
        for _ in 0..<40 {
            let lines = Array(driver.screen.lines.dropFirst(1).dropLast(1))
            if lines == pages.last { break }
            pages.append(lines)
            driver.press(.pageDown)
        }
        guard let first = pages.first else { return "" }
        var fixed = 0
        while pages.count > 1, fixed < first.count, pages.allSatisfy({ fixed < $0.count && $0[fixed] == first[fixed] })
        { fixed += 1 }
        let rows = first + pages.dropFirst().flatMap { $0.dropFirst(fixed) }
        return rows.joined(separator: " ").split(separator: " ").joined(separator: " ")
    }

    @Test(arguments: [80, 60])
    func everyHelpTextIsShownWhole(width: Int) throws {
        var driver = try ExplorerFixture.driver(width: width, height: 24)
        driver.press(.enter, .character("?"))
        try expectGolden("help-table-\(width)", driver.screen)
        let text = Self.pagedText(&driver)
        for help in [
            "edit the value under the cursor (Enter writes, Esc cancels; ^S",
            "write the table's objects (query and sort applied) to a file (asks before replacing one)",
            "salvage a commit that was set aside (⚠ on the status line) into a new file",
            "Enter apply · Esc cancel · Up/Down history · Tab complete",
        ] {
            #expect(text.contains(help), "\(help) not shown whole at \(width) columns")
        }
        // Paging stops at the end of the last help line, whole.
        #expect(text.hasSuffix(":q quit (asks when edits are staged; :q! does not)"), "\(driver.screen.lines)")
    }

    @Test func theSchemaWrapsItsAttributesAt60Columns() throws {
        var driver = try ExplorerFixture.driver(width: 60, height: 24)
        driver.press(.character(":"))
        driver.type("schema")
        driver.press(.enter)
        try expectGolden("schema-60", driver.screen)
        #expect(Self.pagedText(&driver).contains("backlinks of Person.dogs"))
    }
}
