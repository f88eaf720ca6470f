import Foundation
import RealmEngine
@testable import RealmTUI
import Testing

/// Live updates shown in detail: the cells a commit changed, a detail's values before the
/// change, and the changes pane's list of a commit's objects.
@Suite("Explorer live changes")
struct ExplorerLiveChangesTests {
    typealias Fixture = ExplorerLiveTests.Fixture

    /// The table on top of the stack.
    static func table(_ state: ExplorerState) throws -> TableScreen {
        guard case .table(let table) = state.current else { throw Failure("not on a table") }
        return table
    }

    static func detail(_ state: ExplorerState) throws -> DetailScreen {
        guard case .detail(let detail) = state.current else { throw Failure("not on a detail view") }
        return detail
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static func index(_ name: String, in table: TableScreen) throws -> Int {
        try #require(table.schema.properties.firstIndex { $0.name == name })
    }

    // MARK: The update function

    /// The change set's modified row was on screen: only the properties whose values differ
    /// from the remembered ones are marked; a row that was not on screen is marked without cells.
    @Test func aModifiedRowMarksOnlyTheCellsWhoseValuesChanged() throws {
        let f = try Fixture(count: 50, height: 14)
        var state = f.driver.state
        state.rememberShownValues()
        let table = try Self.table(state)
        try f.commit { _ in
            try f.dog("dog 1").setValue(.double(7), forKey: "weight")
            try f.dog("dog 1").setValue(.int(1), forKey: "age")  // the same value: not a change
            try f.dog("dog 15").setValue(.int(3), forKey: "age")  // below the window
        }
        state.realm.refresh()
        _ = update(
            &state,
            .tableChanged(
                TableChange(
                    table: ObjectIdentifier(table.rows), deletions: [], insertions: [],
                    modifications: [1, 15])))
        let after = try Self.table(state)
        let dog1 = try f.dog("dog 1").key
        let dog15 = try f.dog("dog 15").key
        #expect(after.marks[dog1]?.kind == .modified)
        #expect(after.marks[dog1]?.cells == [try Self.index("weight", in: table)])
        #expect(after.marks[dog15]?.kind == .modified)
        #expect(after.marks[dog15]?.cells == [])
    }

    /// A modification that moves its row in a sorted table (a deletion and an insertion in the
    /// change set): the moved row is marked modified with its changed cell, and no other row is
    /// marked (the modification's old index is not someone else's new one).
    @Test func aRowTheSortMovesIsMarkedModifiedAndNoOtherRowIs() throws {
        let f = try Fixture(count: 10, height: 14)
        f.driver.press(.character("/"))
        f.driver.type("TRUEPREDICATE SORT(age DESC)")
        f.driver.press(.enter)
        try f.commit { _ in try f.dog("dog 4").setValue(.int(50), forKey: "age") }
        f.driver.refresh()
        let table = try Self.table(f.driver.state)
        let moved = try f.dog("dog 4").key
        #expect(table.marks[moved]?.kind == .modified)
        #expect(table.marks[moved]?.cells == [try Self.index("age", in: table)])
        #expect(table.marks.count == 1, "\(f.lines)")
        #expect(f.lines[3].hasPrefix(" ~dog 4 "), "\(f.lines)")
    }

    /// The one-pass shift of many positions equals shifting each on its own (deletions before
    /// it move it up, insertions up to where it lands move it down).
    @Test func shiftingManyPositionsAtOnceEqualsShiftingEach() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let old = Int.random(in: 0...40, using: &generator)
            let deletions = (0..<old).filter { _ in Int.random(in: 0..<4, using: &generator) == 0 }
            let new = old - deletions.count + Int.random(in: 0...10, using: &generator)
            let insertions = (0..<new).filter { _ in Int.random(in: 0..<3, using: &generator) == 0 }
            let change = TableChange(
                table: ObjectIdentifier(Self.self), deletions: deletions.shuffled(), insertions: insertions.shuffled(),
                modifications: [])
            func naive(_ index: Int) -> Int {
                var position = index - deletions.filter { $0 < index }.count
                for inserted in insertions where inserted <= position { position += 1 }
                return max(0, position)
            }
            let positions = Array(0..<old)
            #expect(ExplorerState.shifted(positions, change) == positions.map(naive), "\(change)")
        }
    }

    /// A commit that modifies every row of a long table marks only the rows near the screen.
    @Test func aLargeChangeMarksOnlyTheRowsNearTheScreen() throws {
        let f = try Fixture(count: 2000, height: 14)
        try f.commit { realm in try realm.objects("Dog").setValue(.value(.double(1)), forKey: "weight") }
        f.driver.refresh()
        let table = try Self.table(f.driver.state)
        #expect(
            table.marks.count > 0 && table.marks.count <= 5 * f.driver.state.tableBodyHeight, "\(table.marks.count)")
        #expect(f.lines[3].hasPrefix("›~dog 0 ") && f.lines[4].hasPrefix(" ~dog 1 "), "\(f.lines)")
    }

    /// A second commit while the mark lives adds its cells to the ones highlighted; after the
    /// mark faded, only the new ones are.
    @Test func cellsOfSuccessiveCommitsAddUpWhileTheMarkLives() throws {
        let f = try Fixture(count: 10, height: 14)
        try f.commit { _ in try f.dog("dog 2").setValue(.double(1), forKey: "weight") }
        f.driver.refresh()
        try f.commit { _ in try f.dog("dog 2").setValue(.int(5), forKey: "age") }
        f.driver.refresh()
        let key = try f.dog("dog 2").key
        var table = try Self.table(f.driver.state)
        let age = try Self.index("age", in: table)
        let weight = try Self.index("weight", in: table)
        #expect(table.marks[key]?.cells == [age, weight])
        f.driver.send(.tick(seconds: 10))
        try f.commit { _ in try f.dog("dog 2").setValue(.double(2), forKey: "weight") }
        f.driver.refresh()
        table = try Self.table(f.driver.state)
        #expect(table.marks[key]?.cells == [weight])
    }

    /// A detail view remembers its values before the Realm moves and, after, marks what changed
    /// with the value before; an unchanged property is not marked.
    @Test func aDetailKeepsTheValueBeforeAChange() throws {
        let f = try Fixture(count: 5, height: 14)
        f.driver.press(.down, .enter)  // dog 1
        var state = f.driver.state
        state.rememberShownValues()
        try f.commit { _ in
            try f.dog("dog 1").setValue(.int(12), forKey: "age")
            try f.dog("dog 1").setValue(.string("dog 1"), forKey: "name")
        }
        state.realm.refresh()
        _ = update(&state, .refreshed)
        let detail = try Self.detail(state)
        let properties = detail.object.objectSchema.properties
        let age = try #require(properties.firstIndex { $0.name == "age" })
        #expect(Array(detail.changes.keys) == [age])
        #expect(detail.changes[age]?.was == .int(1))
        #expect(detail.shownValues == nil)
    }

    /// A detail whose object another process renamed shows the new name in the breadcrumb.
    @Test func aRenamedDetailObjectGetsItsNewBreadcrumb() throws {
        let f = try Fixture(count: 5, height: 14)
        f.driver.press(.down, .enter)
        #expect(f.lines[0].contains("Dog › dog 1"))
        try f.commit { _ in try f.dog("dog 1").setValue(.string("Rex"), forKey: "name") }
        f.driver.refresh()
        #expect(f.lines[0].contains("Dog › Rex"), "\(f.lines)")
        #expect(f.lines.contains { $0.contains("was: dog 1") }, "\(f.lines)")
    }

    // MARK: Screens

    /// The table after another process changed `weight` of one visible row and `age` of the row
    /// under the cursor: the screen, then the cells drawn in the theme's `modified` style.
    @Test func goldenModifiedCells() throws {
        let f = try Fixture(count: 20, height: 12)
        f.driver.state.theme = .colored  // `modified` differs from every other role
        f.driver.press(.down, .down)
        try f.commit { _ in
            try f.dog("dog 0").setValue(.double(4.5), forKey: "weight")
            try f.dog("dog 2").setValue(.int(17), forKey: "age")
        }
        f.driver.refresh()
        try expectGolden("live-modified-cells", styled(f.driver.screen, f.driver.state.theme))
        let grid = f.driver.screen
        let row = try #require(grid.lines.firstIndex { $0.hasPrefix(" ~dog 0 ") })
        let weightColumn = try #require(grid.lines[row].range(of: "4.5")).lowerBound.utf16Offset(in: grid.lines[row])
        #expect(grid[weightColumn, row].style == f.driver.state.theme.modified)
        #expect(grid[3, row].style != f.driver.state.theme.modified, "the name did not change")
        f.driver.send(.tick(seconds: 10))
        #expect(!f.driver.screen.cells.contains { $0.style == f.driver.state.theme.modified })
    }

    @Test func goldenDetailShowsTheValueBeforeTheChange() throws {
        let f = try Fixture(count: 5, height: 12)
        f.driver.state.theme = .colored
        f.driver.press(.down, .enter)  // dog 1
        try f.commit { _ in
            try f.dog("dog 1").setValue(.int(12), forKey: "age")
            try f.dog("dog 1").setValue(.double(8.25), forKey: "weight")
        }
        f.driver.refresh()
        try expectGolden("live-detail-was", styled(f.driver.screen, f.driver.state.theme))
        // The highlight fades; the value before stays while the view is open.
        f.driver.send(.tick(seconds: 10))
        #expect(f.driver.screen.lines.contains { $0.contains("was: 1") })
        #expect(!f.driver.screen.lines.contains { $0.hasPrefix(" ~") })
        f.driver.press(.escape, .enter)
        #expect(!f.driver.screen.lines.contains { $0.contains("was:") })
    }

    /// Enter on a commit lists its objects per class (created `+`, modified `~`, deleted since:
    /// gone); Enter on one opens its detail; `c` comes back to the commit.
    @Test func goldenChangesPaneOpensACommitsObjects() throws {
        let f = try Fixture(count: 5, height: 14)
        try f.commit { realm in
            try realm.create("Dog", ["name": .string("puppy"), "age": .int(0)])
            try realm.create("Dog", ["name": .string("short-lived"), "age": .int(0)])
            try f.dog("dog 3").setValue(.int(9), forKey: "age")
            try realm.delete(try f.dog("dog 4"))
        }
        f.driver.refresh()
        try f.commit { realm in try realm.delete(try f.dog("short-lived")) }
        f.driver.refresh()
        f.driver.press(.character("c"), .down)
        try expectGolden("live-changes-list", withoutTimes(f.driver.screen))
        f.driver.press(.enter)
        try expectGolden("live-changes-commit", withoutTimes(f.driver.screen))
        let lines = f.driver.screen.lines
        #expect(lines.contains { $0.contains("+ puppy") })
        #expect(lines.contains { $0.contains("~ dog 3") })
        #expect(lines.contains { $0.contains("gone (deleted since)") })
        #expect(lines.contains { $0.contains("1 object was deleted in this commit") })
        // Enter on the gone object says so and stays.
        let gone = try #require(lines.firstIndex { $0.contains("gone") })
        let cursor = try #require(lines.firstIndex { $0.hasPrefix("›") })
        for _ in 0..<(gone - cursor) { f.driver.press(.down) }
        f.driver.press(.enter)
        #expect(f.driver.statusText.contains("was deleted since this commit") == true, "\(f.driver.screen.lines)")
        // Enter on dog 3 opens its detail.
        for _ in 0..<(gone - cursor) { f.driver.press(.up) }
        #expect(f.driver.screen.lines[cursor].contains("dog 3"), "the cursor starts on the first object")
        while !(f.driver.screen.lines.first { $0.hasPrefix("›") } ?? "").contains("dog 3") { f.driver.press(.down) }
        f.driver.press(.enter)
        #expect(f.driver.screen.lines[0].contains("Dog › v3 Dog: dog 3"), "\(f.driver.screen.lines)")
        f.driver.press(.character("c"))
        #expect(f.driver.screen.lines.contains { $0.contains("+ puppy") })
        f.driver.press(.escape)
        #expect(f.driver.screen.lines.contains { $0.contains("Commits since opening") })
        f.driver.press(.escape)
        #expect(f.driver.screen.lines[0].contains("Dog › v3 Dog: dog 3"))
    }

    /// A list of commits longer than the pane: `G` shows the oldest commit and, under it, the
    /// note on commits the file's log no longer held; `g` the newest again; each line in between
    /// is its commit's, in order, wherever the window is.
    @Test func aLongListOfCommitsScrollsToItsOldestCommitAndTheNoteUnderIt() throws {
        let f = try Fixture(count: 5, height: 14)
        let first = f.writer.version + 1
        for i in 0..<30 {
            try f.commit { realm in try realm.create("Dog", ["name": .string("late \(i)"), "age": .int(1)]) }
            f.driver.refresh()
        }
        var state = f.driver.state
        state.commitsNotShown = 7
        _ = update(&state, .key(.character("c")))
        func commitLines() -> [String] { render(state).lines.filter { $0.contains("Dog +1 −0 ~0") } }
        let newest = try #require(commitLines().first)
        #expect(newest.contains("v\(first + 29) "), "\(render(state).lines)")
        _ = update(&state, .key(.character("G")))
        let lines = render(state).lines
        let oldest = try #require(lines.lastIndex { $0.contains("Dog +1 −0 ~0") }, "\(lines)")
        #expect(lines[oldest].contains("v\(first) ") && lines[oldest].hasPrefix("›"), "\(lines)")
        #expect(lines[oldest + 1].contains("(7 more commits, no longer in the file's change log)"), "\(lines)")
        // The times line up whatever the versions' widths (v9 under v10).
        #expect(first < 10 && commitLines().contains { $0.contains("v10 ") })
        let columns = Set(
            commitLines().compactMap {
                $0.range(of: #"\d\d:\d\d:\d\d"#, options: .regularExpression)?.lowerBound.utf16Offset(in: $0)
            })
        #expect(columns.count == 1, "\(commitLines())")
        // Each shown commit is one older than the line above it, wherever the window is.
        for key in [Key.character("k"), .pageUp, .pageUp, .character("j"), .character("g")] {
            _ = update(&state, .key(key))
            let versions = commitLines().compactMap { line in
                line.split(separator: " ").first { $0.hasPrefix("v") }.flatMap { UInt64($0.dropFirst()) }
            }
            #expect(versions.count >= 8, "\(render(state).lines)")
            #expect(zip(versions, versions.dropFirst()).allSatisfy { $0 == $1 + 1 }, "\(versions)")
        }
        #expect(try #require(commitLines().first).hasPrefix("›"))
        #expect(try #require(commitLines().first).contains("v\(first + 29) "))
    }

    /// A smaller terminal keeps the selected commit, or the selected object of an opened
    /// commit, on screen.
    @Test func aResizeKeepsTheChangesPaneCursorInView() throws {
        let f = try Fixture(count: 5, height: 40)
        for i in 0..<30 {
            try f.commit { realm in try realm.create("Dog", ["name": .string("late \(i)"), "age": .int(1)]) }
            f.driver.refresh()
        }
        try f.commit { realm in
            for i in 0..<30 { try realm.create("Dog", ["name": .string("litter \(i)"), "age": .int(0)]) }
        }
        f.driver.refresh()
        f.driver.press(.character("c"))
        for _ in 0..<29 { f.driver.press(.character("j")) }
        f.driver.send(.resize(width: 80, height: 14))
        #expect(f.lines.contains { $0.hasPrefix("›") && $0.contains("Dog +1 −0 ~0") }, "\(f.lines)")
        f.driver.send(.resize(width: 80, height: 40))
        f.driver.press(.character("g"), .enter)
        for _ in 0..<29 { f.driver.press(.character("j")) }
        f.driver.send(.resize(width: 80, height: 14))
        #expect(f.lines.contains { $0.hasPrefix("›") && $0.contains("litter") }, "\(f.lines)")
    }

    /// The screen with each time of day (`12:34:56`, when a commit was seen) as `hh:mm:ss`.
    func withoutTimes(_ grid: Grid) -> Grid {
        var out = grid
        for row in 0..<grid.height {
            let line = grid.lines[row]
            guard let match = line.range(of: #"\d\d:\d\d:\d\d"#, options: .regularExpression) else { continue }
            let column = displayWidth(String(line[..<match.lowerBound]))
            out.write("hh:mm:ss", column: column, row: row, style: grid[column, row].style)
        }
        return out
    }

    /// A screen's text, then which cells are drawn in the theme's `modified` style (`^`).
    func styled(_ grid: Grid, _ theme: Theme) -> Grid {
        var out = Grid(width: grid.width, height: grid.height * 2 + 1)
        for row in 0..<grid.height {
            for column in 0..<grid.width { out[column, row] = grid[column, row] }
        }
        out.write(
            "── cells in the `modified` style (^), or reversed on the cursor's line (*) ──", column: 0, row: grid.height
        )
        for row in 0..<grid.height {
            for column in 0..<grid.width {
                var style = grid[column, row].style
                if style == theme.modified {
                    out[column, grid.height + 1 + row] = Cell("^")
                } else if style.reverse {
                    style.reverse = false
                    if style == theme.modified { out[column, grid.height + 1 + row] = Cell("*") }
                }
            }
        }
        return out
    }
}

@Suite struct CommitTimeTests {
    @Test func timesOfDayAreUTCWithSecondsRoundedDown() {
        #expect(ChangesView.time(Date(timeIntervalSince1970: 0)) == "00:00:00")
        #expect(ChangesView.time(Date(timeIntervalSince1970: 3_661.9)) == "01:01:01")
        #expect(ChangesView.time(Date(timeIntervalSince1970: 1_700_000_000)) == "22:13:20")
        #expect(ChangesView.time(Date(timeIntervalSince1970: -1)) == "23:59:59")
        #expect(ChangesView.time(Date(timeIntervalSince1970: -0.5)) == "23:59:59")
        #expect(ChangesView.time(Date(timeIntervalSince1970: 86_399.999)) == "23:59:59")
    }
}
