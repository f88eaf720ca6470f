import Foundation
import RealmEngine
@testable import RealmTUI
import Testing

/// Everything a screen holds can be scrolled into view, and the cursor's line stays in view
/// whatever opens under it.
@Suite("Explorer scrolling")
struct ExplorerScrollingTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Note",
            properties: [
                Property(name: "title", type: .string),
                Property(name: "body", type: .string),
            ] + (0..<10).map { Property(name: "extra\($0)", type: .string) })
    ])

    /// A note whose body is `bodyLines` lines (`body line 1`…), then ten short properties, open
    /// in the detail view at 80×24.
    static func noteDetail(bodyLines: Int = 60) throws -> ExplorerDriver {
        let realm = try Realm(
            configuration: .init(inMemoryIdentifier: "scrolling-\(UUID().uuidString)", schema: schema))
        try realm.write {
            var values: [String: Value] = [
                "title": .string("a long note"),
                "body": .string((1...bodyLines).map { "body line \($0)" }.joined(separator: "\n")),
            ]
            for i in 0..<10 { values["extra\(i)"] = .string("extra value \(i)") }
            try realm.create("Note", values)
        }
        var driver = ExplorerDriver(
            state: ExplorerState(realm: realm, fileName: "notes.realm", readOnly: false, width: 80, height: 24))
        driver.press(.enter, .enter)
        #expect(driver.screen.lines[0].contains("Note › a long note"), "\(driver.screen.lines)")
        return driver
    }

    static func bodyLinesShown(_ driver: ExplorerDriver) -> Set<Int> {
        Set(
            driver.screen.lines.compactMap { line in
                line.range(of: #"body line \d+"#, options: .regularExpression).flatMap {
                    Int(line[$0].split(separator: " ").last ?? "")
                }
            })
    }

    /// A value taller than the screen: `j` scrolls through it line by line before the cursor
    /// moves on, and `k` back; every line of it is seen either way, and so is every property.
    @Test func jAndKScrollThroughAValueTallerThanTheScreen() throws {
        var driver = try Self.noteDetail()
        var seen = Self.bodyLinesShown(driver)
        for _ in 0..<200 {
            driver.press(.character("j"))
            seen.formUnion(Self.bodyLinesShown(driver))
        }
        #expect(seen == Set(1...60), "never shown: \(Set(1...60).subtracting(seen).sorted())")
        #expect(driver.screen.lines.contains { $0.hasPrefix("›") && $0.contains("extra9") }, "\(driver.screen.lines)")
        seen = []
        for _ in 0..<200 {
            driver.press(.character("k"))
            seen.formUnion(Self.bodyLinesShown(driver))
        }
        #expect(seen == Set(1...60), "never shown going up: \(Set(1...60).subtracting(seen).sorted())")
        #expect(driver.screen.lines.contains { $0.hasPrefix("›") && $0.contains("title") }, "\(driver.screen.lines)")
    }

    /// Paging through a tall value shows all of it too, a page at a time; `G` and `g` still go to
    /// the last and the first property.
    @Test func pagesScrollThroughAValueTallerThanTheScreen() throws {
        var driver = try Self.noteDetail(bodyLines: 100)
        driver.press(.character("j"))
        var seen = Self.bodyLinesShown(driver)
        var pages = 0
        while !seen.isSuperset(of: Set(1...100)), pages < 20 {
            driver.press(.pageDown)
            seen.formUnion(Self.bodyLinesShown(driver))
            pages += 1
        }
        #expect(seen == Set(1...100), "never shown: \(Set(1...100).subtracting(seen).sorted())")
        #expect(pages <= 6, "\(pages) pages for 100 lines in 20 rows")
        driver.press(.character("G"))
        #expect(driver.screen.lines.contains { $0.hasPrefix("›") && $0.contains("extra9") }, "\(driver.screen.lines)")
        driver.press(.character("g"))
        #expect(driver.screen.lines.contains { $0.hasPrefix("›") && $0.contains("title") }, "\(driver.screen.lines)")
    }
}

/// The input bar, a prompt or an editor opening under the table takes rows from it: the
/// cursor's row scrolls up into view rather than hide behind them.
@Suite("Explorer cursor above the input bar")
struct ExplorerCursorAboveInputBarTests {
    /// The Dog table (43 dogs) at its last row, at 80×24.
    static func lastDog() throws -> ExplorerDriver {
        var driver = try ExplorerFixture.driver(extraDogs: 40)
        driver.press(.down, .enter, .character("G"))
        #expect(driver.screen.lines.contains { $0.hasPrefix("›") && $0.contains("dog 39") }, "\(driver.screen.lines)")
        return driver
    }

    @Test(arguments: [
        [Key.character("d")], [.character("/")], [.character("e")], [.character(":")],
        [.character("/"), .character("a"), .character("g"), .character("e"), .character(" "), .character(">"), .enter],
    ])
    func theCursorRowStaysInViewWhenTheBarOpens(keys: [Key]) throws {
        var driver = try Self.lastDog()
        for key in keys { driver.press(key) }
        let lines = driver.screen.lines
        #expect(lines.contains { $0.hasPrefix("›") && $0.contains("dog 39") }, "\(lines)")
    }
}

/// The help screen (`?`) and `:schema` page through all their lines and stop at their last.
@Suite("Explorer help and schema scrolling")
struct ExplorerHelpScrollingTests {
    /// The help lines' texts as drawn (the last column of each line).
    static func helpTexts(for kind: ScreenKind, _ state: ExplorerState) -> [String] {
        HelpView.lines(for: kind, keyMap: state.keyMap).map(\.help).filter { !$0.isEmpty }
    }

    @Test func pageDownShowsEveryHelpLineAndJStopsAtTheLast() throws {
        var driver = try ExplorerFixture.driver()
        driver.press(.enter, .character("?"))
        let expected = Self.helpTexts(for: .table, driver.state)
        var seen = Set<String>()
        func collect() {
            // A help text may be cut at the screen's edge: its first 24 characters are enough.
            for line in driver.screen.lines {
                for text in expected where line.contains(text.prefix(24)) { seen.insert(text) }
            }
        }
        collect()
        for _ in 0..<10 {
            driver.press(.pageDown)
            collect()
        }
        #expect(Set(expected).subtracting(seen).isEmpty, "never shown: \(Set(expected).subtracting(seen))")
        for _ in 0..<60 { driver.press(.character("j")) }
        #expect(
            driver.screen.lines.contains { $0.contains((expected.last ?? "?").prefix(24)) }, "\(driver.screen.lines)")
        #expect(
            driver.screen.lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.count > 10,
            "\(driver.screen.lines)")
        // One k from the end shows the line before the last page's first line: no dead presses.
        let before = driver.screen.lines
        driver.press(.character("k"))
        #expect(driver.screen.lines != before)
    }

    @Test func schemaScrollingStopsAtItsLastLine() throws {
        var driver = try ExplorerFixture.driver(height: 12)
        driver.press(.character(":"))
        driver.type("schema")
        driver.press(.enter)
        for _ in 0..<60 { driver.press(.character("j")) }
        #expect(driver.screen.lines.contains { $0.contains("owners") }, "\(driver.screen.lines)")
        let before = driver.screen.lines
        driver.press(.character("k"))
        #expect(driver.screen.lines != before)
    }
}

/// A query longer than its bar scrolls; the caret under a mistake follows the text as drawn.
@Suite("Explorer query error caret")
struct ExplorerQueryCaretTests {
    @Test(arguments: [80, 100])
    func theCaretIsUnderTheMistakeInALongQuery(width: Int) throws {
        var driver = try ExplorerFixture.driver(width: width)
        driver.press(.down, .enter, .character("/"))
        let query = (0..<9).map { "age != \($0)" }.joined(separator: " AND ") + " AND nosuchproperty == 1"
        driver.type(query)
        driver.press(.enter)
        let lines = driver.screen.lines
        let bar = try #require(lines.firstIndex { $0.hasPrefix("/") }, "\(lines)")
        let name = try #require(lines[bar].range(of: "nosuchproperty"), "\(lines[bar])")
        let nameColumn = displayWidth(String(lines[bar][..<name.lowerBound]))
        let caretLine = lines[bar + 1]
        let caret = try #require(caretLine.firstIndex(of: "^"), "\(lines)")
        #expect(displayWidth(String(caretLine[..<caret])) == nameColumn, "\(lines[bar])\n\(caretLine)")
    }
}
