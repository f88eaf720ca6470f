import Foundation
import RealmEngine
@testable import RealmTUI
import Testing

/// A table's layout (columns, objects read, cells formatted) is made once per version, window
/// and size: a key press that moves only the cursor draws from it, and anything that changes what
/// is shown makes a new one.
@Suite struct TableLayoutCacheTests {
    private func layoutsMade(_ driver: ExplorerDriver) throws -> Int {
        guard case .table(let table) = driver.state.current else {
            Issue.record("not on a table")
            return -1
        }
        return table.rows.layoutsMade
    }

    /// The dog's name on the cursor's row ("› dog 11   11 null …" → "dog 11").
    private func cursorName(_ f: ExplorerLiveTests.Fixture) -> String? {
        let words = f.cursorLine.split(separator: " ")
        return words.count > 2 ? "\(words[1]) \(words[2])" : nil
    }

    @Test func aCursorMoveDrawsFromTheLayoutAndAnythingElseMakesANewOne() throws {
        let f = try ExplorerLiveTests.Fixture(count: 50, height: 14)
        let first = f.lines
        let made = try layoutsMade(f.driver)
        f.driver.press(.down)
        let moved = f.lines
        #expect(try layoutsMade(f.driver) == made, "a cursor move within the window made a new layout")
        #expect(moved != first && cursorName(f) == "dog 1", "\(moved)")

        f.driver.press(.pageDown)
        _ = f.lines
        #expect(try layoutsMade(f.driver) > made, "a new window drew from the old layout")
        #expect(cursorName(f) != "dog 1", "\(f.lines)")

        // A commit that renames a dog on screen: the next frame shows the new name.
        let shown = try #require(cursorName(f))
        let beforeCommit = try layoutsMade(f.driver)
        try f.commit { _ in try f.dog(shown).setValue(.string("renamed"), forKey: "name") }
        _ = f.driver.refresh()
        #expect(f.cursorLine.contains("renamed"), "\(f.lines)")
        #expect(try layoutsMade(f.driver) > beforeCommit)

        let beforeResize = try layoutsMade(f.driver)
        f.driver.send(.resize(width: 60, height: 14))
        #expect(f.lines.allSatisfy { displayWidth($0) <= 60 })
        #expect(try layoutsMade(f.driver) > beforeResize)
    }
}
