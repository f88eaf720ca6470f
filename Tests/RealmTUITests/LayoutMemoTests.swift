import Foundation
import RealmEngine
@testable import RealmTUI
import Testing

/// A table's layout (columns, objects read, cells formatted) is made once per version, window
/// and size, and an object's detail layout once per version, width and set of changes: a key
/// press that moves only the cursor draws from it, and anything that changes what is shown makes
/// a new one.
@Suite struct LayoutMemoTests {
    private func layoutsMade(_ driver: ExplorerDriver) throws -> Int {
        guard case .table(let table) = driver.state.current else {
            Issue.record("not on a table")
            return -1
        }
        return table.rows.layouts.made
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

    @Test func aDetailLayoutIsRemadeOnlyWhenWhatItShowsChanges() throws {
        let f = try ExplorerLiveTests.Fixture(count: 5, height: 20)
        f.driver.press(.enter)
        guard case .detail(let detail) = f.driver.state.current else {
            Issue.record("Enter did not open the object: \(f.lines)")
            return
        }
        _ = f.lines
        let made = detail.layouts.made
        f.driver.press(.down)
        _ = f.lines
        f.driver.press(.down)
        #expect(f.lines.contains { $0.hasPrefix("›") && $0.contains("weight") }, "\(f.lines)")
        #expect(detail.layouts.made == made, "a cursor move made a new detail layout")

        try f.commit { _ in try f.dog("dog 0").setValue(.int(99), forKey: "age") }
        _ = f.driver.refresh()
        let lines = f.lines
        #expect(lines.contains { $0.contains("age") && $0.contains("99") }, "\(lines)")
        #expect(lines.contains { $0.contains("was: 0") }, "\(lines)")
        #expect(detail.layouts.made > made)

        let beforeResize = detail.layouts.made
        f.driver.send(.resize(width: 50, height: 20))
        #expect(f.lines.allSatisfy { displayWidth($0) <= 50 })
        #expect(detail.layouts.made > beforeResize)
    }
}
