import Foundation
import RealmEngine
import RealmTUI
import Testing

/// The explorer's behaviour through `update` and the driver, without a terminal.
@Suite("Explorer update")
struct ExplorerUpdateTests {
    @Test func enterInTheQueryBarAsksToRunTheQuery() throws {
        var driver = try ExplorerFixture.driver()
        driver.press(.enter, .character("/"))
        for ch in "id > 1" { _ = update(&driver.state, .key(.character(ch))) }
        let effects = update(&driver.state, .key(.enter))
        #expect(effects == [.runQuery("id > 1")])
    }

    @Test func aQueryFiltersAndEscKeepsTheLastQueryThatWorked() throws {
        var driver = try ExplorerFixture.driver()
        driver.press(.enter, .character("/"))
        driver.type("id > 1")
        driver.press(.enter)
        #expect(driver.statusText.contains("2 objects") == true)
        driver.press(.character("/"), .control("u"))
        driver.type("id >")
        driver.press(.enter)
        #expect(driver.screen.lines.contains { $0.contains("^") })
        driver.press(.escape)
        #expect(driver.statusText.contains("2 objects") == true)
        #expect(!driver.screen.lines.contains { $0.contains("^") })
    }

    @Test func queryLanguageSortDistinctLimitAndArguments() throws {
        var driver = try ExplorerFixture.driver(extraDogs: 50)
        driver.press(.down, .enter, .character("/"))
        driver.type("age >= 5 SORT(age DESC) LIMIT(4)")
        driver.press(.enter)
        let lines = driver.screen.lines
        #expect(lines.last?.contains("4 objects") == true)
        #expect(lines[3].contains("19"))
    }

    @Test func linksAreWrittenInQueriesAsTheyAreShown() throws {
        var driver = try ExplorerFixture.driver()
        driver.press(.down, .enter)
        #expect(driver.screen.lines[4].contains("→ Dog#0"))
        driver.press(.character("/"))
        driver.type("friend == Dog#0 OR name == 'Dog#0'")
        driver.press(.enter)
        #expect(driver.statusText.contains("1 object") == true)
        #expect(driver.screen.lines[3].contains("Rex"))
        driver.press(.character("/"), .control("u"))
        driver.type("friend == Dog#0 AND nmae == 1")
        driver.press(.enter)
        let caretRow = try #require(driver.screen.lines.firstIndex { $0.contains("^") })
        #expect(driver.screen.lines[caretRow].hasPrefix(String(repeating: " ", count: 21) + "^"))
    }

    /// A history file that cannot be read is set aside as `history.json.damaged` (never
    /// overwritten, never a crash), the status line says so, and a new history is started.
    @Test func anUnreadableHistoryFileIsSetAsideAndReported() throws {
        let scratch = TempDir("realmtui-history")
        defer { withExtendedLifetime(scratch) {} }
        let folder = scratch.url
        let url = folder.appendingPathComponent("realmtui/history.json")
        #expect(try QueryHistory.load(from: url) == QueryHistory())
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let damaged = Data("{\"Person\": [\"id > 1\", 2".utf8)
        try damaged.write(to: url)
        #expect(throws: (any Error).self) { try QueryHistory.load(from: url) }
        let realm = try ExplorerFixture.realm()
        let session = ExplorerSession(
            realm: realm, path: "f.realm", readOnly: false,
            environment: ["XDG_STATE_HOME": folder.path, "HOME": folder.path])
        var driver = try session.makeDriver(width: 80, height: 24, hasColor: false)
        #expect(driver.statusText.contains("query history damaged") == true, "\(driver.statusText)")
        driver.press(.enter, .character("/"))
        driver.type("id > 1")
        driver.press(.enter)
        #expect(try Data(contentsOf: url.appendingPathExtension("damaged")) == damaged)
        let file = QueryHistory.fileKey(for: realm.configuration)
        #expect(try QueryHistory.load(from: url).queries(file: file, className: "Person") == ["id > 1"])
    }

    @Test func historyIsKeptPerFileAndClassAndAcrossRuns() throws {
        let folder = try EditFixture.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("history.json")
        let path = folder.appendingPathComponent("a.realm").path
        let other = folder.appendingPathComponent("b.realm").path
        try EditFixture.fixtureFile(at: path)
        try EditFixture.fixtureFile(at: other)
        var driver = try EditFixture.driver(path: path)
        driver.historyURL = url
        driver.press(.enter, .character("/"))
        driver.type("id > 1")
        driver.press(.enter, .character("/"), .control("u"))
        driver.type("name BEGINSWITH 'A'")
        driver.press(.enter)
        let saved = try QueryHistory.load(from: url)
        let file = QueryHistory.fileKey(for: .init(fileURL: URL(fileURLWithPath: path)))
        #expect(saved.queries(file: file, className: "Person") == ["id > 1", "name BEGINSWITH 'A'"])

        var next = try EditFixture.driver(path: path)
        next.state = ExplorerState(
            realm: try Realm(path: path), fileName: "a.realm", readOnly: false, width: 80, height: 24,
            history: saved)
        next.press(.enter, .character("/"), .control("u"), .up)
        #expect(next.screen.lines.contains("/name BEGINSWITH 'A'"))
        next.press(.up)
        #expect(next.screen.lines.contains("/id > 1"))
        next.press(.down, .down)
        #expect(next.screen.lines.contains("/"))

        // A Person of another file: none of a.realm's queries.
        var elsewhere = try EditFixture.driver(path: other)
        elsewhere.state = ExplorerState(
            realm: try Realm(path: other), fileName: "b.realm", readOnly: false, width: 80, height: 24,
            history: saved)
        elsewhere.press(.enter, .character("/"), .control("u"), .up)
        #expect(elsewhere.screen.lines.contains("/"))
        #expect(!elsewhere.screen.lines.contains { $0.contains("id > 1") || $0.contains("BEGINSWITH") })
    }

    @Test func tabCompletesPropertiesKeyPathsAndKeywords() throws {
        var driver = try ExplorerFixture.driver()
        driver.press(.down, .enter, .character("/"))
        driver.type("fr")
        driver.press(.tab)
        #expect(driver.screen.lines.contains("/friend"))
        driver.type(".a")
        driver.press(.tab)
        #expect(driver.screen.lines.contains("/friend.age"))
        driver.type(" > 1 an")
        driver.press(.tab)
        #expect(driver.screen.lines.contains("/friend.age > 1 AN"))
        #expect(driver.screen.lines.contains { $0.contains("AND") && $0.contains("ANY") })
        driver.type("D name BEGINSW")
        driver.press(.tab)
        #expect(driver.screen.lines.contains("/friend.age > 1 AND name BEGINSWITH"))
        driver.press(.control("u"))
        driver.type("w")
        driver.press(.tab)
        #expect(driver.screen.lines.contains("/weight"))
    }

    @Test func backRestoresCursorAndScroll() throws {
        var driver = try ExplorerFixture.driver(width: 80, height: 12, extraDogs: 100)
        driver.press(.down, .enter)
        for _ in 0..<30 { driver.press(.character("j")) }
        let before = driver.screen
        driver.press(.enter)
        #expect(driver.screen.lines[0].contains("Dog › dog 27"))
        driver.press(.escape)
        #expect(driver.screen == before)
        driver.press(.backspace, .backspace, .escape)
        #expect(driver.screen.lines[0].contains("Classes"))
        #expect(!driver.didQuit)
    }

    @Test func paging() throws {
        var driver = try ExplorerFixture.driver(width: 80, height: 12, extraDogs: 997)
        driver.press(.down, .enter)
        driver.press(.character("G"))
        #expect(driver.statusText.contains("row 1,000 of 1,000") == true)
        #expect(driver.screen.lines.contains { $0.contains("dog 996") })
        driver.press(.character("g"))
        #expect(driver.statusText.contains("row 1 of 1,000") == true)
        driver.press(.pageDown)
        #expect(driver.statusText.contains("row 9 of 1,000") == true)
        driver.press(.control("d"))
        #expect(driver.statusText.contains("row 13 of 1,000") == true)
        driver.press(.control("u"), .pageUp, .end)
        #expect(driver.statusText.contains("row 1,000 of 1,000") == true)
        driver.press(.home, .control("f"), .control("b"))
        #expect(driver.statusText.contains("row 1 of 1,000") == true)
    }

    @Test func sortKeysAndHeaderClicks() throws {
        var driver = try ExplorerFixture.driver()
        driver.press(.down, .enter, .character("s"))
        #expect(driver.screen.lines[1].contains("name ▲"))
        #expect(driver.screen.lines[3].contains("Ghost"))
        driver.press(.character("S"))
        #expect(driver.screen.lines[1].contains("name ▼"))
        #expect(driver.screen.lines[3].contains("大黄"))
        let ageColumn = try #require(driver.screen.lines[1].range(of: "age")).lowerBound.utf16Offset(
            in: driver.screen.lines[1])
        driver.send(.mouse(MouseEvent(.press(button: 1), column: ageColumn, row: 1)))
        #expect(driver.screen.lines[1].contains("age ▲"))
        driver.send(.mouse(MouseEvent(.press(button: 1), column: ageColumn, row: 1)))
        #expect(driver.screen.lines[1].contains("age ▼"))
    }

    /// The most recent sort request wins, and the header shows it. Before, a query's
    /// `SORT(…)` run after `S` on a column kept the column sort (and its ▼).
    @Test func aQuerysSortAfterAColumnSortWinsAndTheHeaderShowsIt() throws {
        var driver = try ExplorerFixture.driver()
        driver.press(.down, .enter, .character("l"), .character("S"))
        #expect(driver.screen.lines[1].contains("age ▼"))
        #expect(driver.screen.lines[3].contains("Ghost"))
        driver.press(.character("/"))
        driver.type("TRUEPREDICATE SORT(name ASC)")
        driver.press(.enter)
        #expect(driver.screen.lines[1].contains("name ▲"), "\(driver.screen.lines[1])")
        #expect(!driver.screen.lines[1].contains("▼"), "\(driver.screen.lines[1])")
        #expect(
            driver.screen.lines[3].contains("Ghost") && driver.screen.lines[4].contains("Rex")
                && driver.screen.lines[5].contains("大黄"), "\(driver.screen.lines)")
        // A column sort after the query's wins in turn.
        driver.press(.character("S"))
        #expect(
            driver.screen.lines[1].contains("age ▼") && !driver.screen.lines[1].contains("name ▲"),
            "\(driver.screen.lines[1])")
        #expect(
            driver.screen.lines[3].contains("Ghost") && driver.screen.lines[4].contains("大黄"), "\(driver.screen.lines)")
    }

    /// Before, nothing cleared a sort: the table stayed sorted until it was closed.
    @Test func oClearsTheColumnSortAndHelpListsIt() throws {
        var driver = try ExplorerFixture.driver()
        driver.press(.down, .enter, .character("l"), .character("S"))
        #expect(driver.screen.lines[1].contains("age ▼"))
        driver.press(.character("o"))
        #expect(!driver.screen.lines[1].contains("▼"), "\(driver.screen.lines[1])")
        #expect(
            driver.screen.lines[3].contains("大黄") && driver.screen.lines[4].contains("Rex"), "\(driver.screen.lines)")
        #expect(driver.statusText.contains("sort cleared"), "\(driver.statusText)")
        // A query's SORT is part of the query: o says where to change it.
        driver.press(.character("/"))
        driver.type("TRUEPREDICATE SORT(name DESC)")
        driver.press(.enter, .character("o"))
        #expect(driver.screen.lines[1].contains("name ▼"))
        #expect(driver.statusText.contains("the query's SORT"), "\(driver.statusText)")
        #expect(KeyMap.standard.action(for: .character("o"), on: .table) == .clearSort)
    }

    @Test func mouseSelectsAndOpensAndTheWheelScrolls() throws {
        var driver = try ExplorerFixture.driver(width: 80, height: 12, extraDogs: 40)
        driver.send(.mouse(MouseEvent(.press(button: 1), column: 3, row: 2)))
        #expect(driver.screen.lines[2].hasPrefix("› Dog"))
        driver.send(.mouse(MouseEvent(.press(button: 1), column: 3, row: 2)))
        #expect(driver.screen.lines[0].contains("Dog"))
        driver.send(.mouse(MouseEvent(.wheelDown, column: 3, row: 5)))
        #expect(driver.statusText.contains("row 4 of 43") == true)
        driver.send(.mouse(MouseEvent(.press(button: 1), column: 3, row: 4)))
        #expect(driver.statusText.contains("row 2 of 43") == true)
    }

    @Test func copyPutsTheValueUnderTheCursorOnTheClipboard() throws {
        var driver = try ExplorerFixture.driver()
        driver.press(.enter, .character("l"), .character("y"))
        #expect(driver.copied == ["张三"])
        // The status line shows what was copied, not a count that reads like table columns.
        #expect(driver.statusText.contains("copied: 张三"), "\(driver.statusText)")
        driver.press(.enter, .character("j"), .character("j"), .character("j"), .character("y"))
        #expect(driver.copied.last == "1990-01-01T00:00:00.25Z")
        #expect(driver.statusText.contains("copied: 1990-01-01T00:00:00.25Z"), "\(driver.statusText)")
    }

    @Test func exportWritesTheCurrentResult() throws {
        let scratch = TempDir("realmtui-export")
        defer { withExtendedLifetime(scratch) {} }
        let folder = scratch.url
        var driver = try ExplorerFixture.driver()
        driver.press(.down, .enter, .character("/"))
        driver.type("age != nil")
        driver.press(.enter, .character(":"))
        driver.type("export json \(folder.path)/dogs.json")
        driver.press(.enter)
        let json = try String(contentsOf: folder.appendingPathComponent("dogs.json"), encoding: .utf8)
        #expect(json.contains("\"大黄\"") && json.contains("\"Ghost\"") && !json.contains("Rex"))
        driver.press(.character(":"))
        driver.type("export csv \(folder.path)/dogs.csv")
        driver.press(.enter)
        let csv = try String(contentsOf: folder.appendingPathComponent("dogs.csv"), encoding: .utf8)
        #expect(csv.hasPrefix("name,age,weight,friend"))
        driver.press(.character(":"))
        driver.type("export xml /tmp/x")
        driver.press(.enter)
        #expect(
            driver.statusText.contains("usage: :export json|csv PATH (the table) or :export realm PATH (the file)")
                == true)
        driver.press(.character(":"))
        driver.type("export json /nonexistent-folder/x.json")
        driver.press(.enter)
        #expect(driver.statusText.contains("export failed") == true)
    }

    /// Before, `:export` replaced an existing file without a word.
    @Test func exportAsksBeforeReplacingAFile() throws {
        let scratch = TempDir("realmtui-export")
        defer { withExtendedLifetime(scratch) {} }
        let folder = scratch.url
        let target = folder.appendingPathComponent("dogs.json")
        try Data("keep me".utf8).write(to: target)
        var driver = try ExplorerFixture.driver()
        driver.press(.down, .enter, .character(":"))
        driver.type("export json \(target.path)")
        driver.press(.enter)
        let question = driver.screen.lines.joined(separator: " ")  // the question wraps
        #expect(question.contains("dogs.json exists: replace it? (y/n)"), "\(driver.screen.lines)")
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep me")
        driver.press(.character("n"))
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep me")
        #expect(driver.statusText.contains("nothing written"), "\(driver.statusText)")
        driver.press(.character(":"))
        driver.type("export json \(target.path)")
        driver.press(.enter, .character("y"))
        #expect(try String(contentsOf: target, encoding: .utf8).contains("\"Ghost\""))
        #expect(driver.statusText.contains("exported 3 objects"), "\(driver.statusText)")
    }

    /// An export that fails (here: Rex's friend 大黄 is not in the output, and Dog has no
    /// primary key to name it by) leaves the file already at PATH as it was, and no other file.
    @Test func aFailedExportKeepsTheFileItWouldHaveReplaced() throws {
        let scratch = TempDir("realmtui-export")
        defer { withExtendedLifetime(scratch) {} }
        let folder = scratch.url
        let target = folder.appendingPathComponent("dogs.json")
        var driver = try ExplorerFixture.driver()
        driver.press(.down, .enter, .character(":"))
        driver.type("export json \(target.path)")
        driver.press(.enter)
        let before = try Data(contentsOf: target)
        #expect(String(decoding: before, as: UTF8.self).contains("Ghost"))
        driver.press(.character("/"))
        driver.type("age == nil")
        driver.press(.enter, .character(":"))
        driver.type("export json \(target.path)")
        driver.press(.enter, .character("y"))  // yes, replace it
        #expect(driver.statusText.contains("export failed") == true, "\(driver.statusText)")
        #expect(try Data(contentsOf: target) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["dogs.json"])
    }

    @Test func quitFromEveryScreenButNotWhileTyping() throws {
        var driver = try ExplorerFixture.driver()
        driver.press(.enter, .character("/"), .character("q"))
        #expect(!driver.didQuit)
        driver.press(.escape, .enter, .character("q"))
        #expect(driver.didQuit)
        var other = try ExplorerFixture.driver()
        other.press(.character(":"), .character("q"), .enter)
        #expect(other.didQuit)
    }

    /// q in help closes it (as in less and man) instead of quitting; help lists the `:`
    /// commands too, and an unknown command names them all.
    @Test func qClosesHelpAndHelpListsTheCommands() throws {
        var driver = try ExplorerFixture.driver(width: 100, height: 60)
        driver.press(.enter, .character("?"))
        #expect(
            driver.screen.lines.contains { $0.contains(":begin") && $0.contains(":rollback") }, "\(driver.screen.lines)"
        )
        driver.press(.character("q"))
        #expect(!driver.didQuit)
        #expect(!driver.screen.lines.contains { $0.contains("Keys of this screen") })
        driver.press(.character(":"))
        driver.type("frobnicate")
        driver.press(.enter)
        let status = driver.statusText
        #expect(status.contains(":frobnicate: unknown command") && status.contains(":begin"), "\(status)")
    }

    /// e on a list says how to reach it from where the cursor is: in a table, Enter opens the
    /// object first; in the object's detail, Enter opens the list.
    @Test func eOnAListSaysHowToOpenItFromHere() throws {
        var driver = try ExplorerFixture.driver(width: 120)
        driver.press(.enter, .character("$"), .character("e"))
        #expect(
            driver.statusText.contains("tags is a list: Enter on the object, then on tags, opens it"),
            "\(driver.statusText)")
        driver.press(.enter)
        for _ in 0..<6 { driver.press(.down) }
        driver.press(.character("e"))
        #expect(driver.statusText.contains("tags is a list: Enter opens it"), "\(driver.statusText)")
    }

    /// Messages naming a type take its article: "an Author[]", not "a Author[]".
    @Test func sortingByAListNamesItsTypeWithTheRightArticle() throws {
        let schema = Schema([
            ObjectSchema(name: "Author", properties: [Property(name: "name", type: .string)]),
            ObjectSchema(
                name: "Book",
                properties: [
                    Property(name: "title", type: .string),
                    Property(name: "authors", type: .object, isList: true, objectClassName: "Author"),
                ]),
        ])
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "articles-\(UUID().uuidString)", schema: schema))
        try realm.write { try realm.create("Book", ["title": .string("雪")]) }
        var driver = ExplorerDriver(
            state: ExplorerState(realm: realm, fileName: "f.realm", readOnly: false, width: 100, height: 20))
        driver.press(.down, .enter, .character("$"), .character("s"))
        #expect(
            driver.statusText.contains("authors is an Author[]: tables sort by scalar columns"), "\(driver.statusText)")
    }

    @Test func resizeKeepsTheCursorOnScreen() throws {
        var driver = try ExplorerFixture.driver(width: 80, height: 40, extraDogs: 100)
        driver.press(.down, .enter)
        for _ in 0..<30 { driver.press(.down) }
        driver.send(.resize(width: 60, height: 12))
        #expect(driver.screen.lines.contains { $0.hasPrefix("› dog 27") })
    }

    @Test func controlCharactersNeverReachTheTerminal() throws {
        var driver = try ExplorerFixture.driver(width: 120, height: 20)
        driver.press(.enter)
        for grid in [driver.screen] {
            #expect(
                !grid.cells.contains {
                    $0.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
                })
        }
    }

    @Test func aBadLinkOrScalarOpensNothingButSaysWhy() throws {
        var driver = try ExplorerFixture.driver()
        driver.press(.down, .enter, .enter, .character("j"), .character("j"), .character("j"), .enter)
        #expect(driver.statusText.contains("friend is null") == true)
        // Enter on a scalar edits it (issue 12); on a read-only file it opens nothing and says why.
        driver.press(.character("k"), .enter)
        #expect(driver.screen.lines.contains { $0.hasPrefix("=") })
        var readOnly = ExplorerDriver(
            state: ExplorerState(
                realm: try ExplorerFixture.realm(), fileName: "f", readOnly: true,
                width: 80, height: 24))
        readOnly.press(.down, .enter, .enter, .character("j"), .character("j"), .enter)
        #expect(readOnly.screen.lines.last?.contains("nothing to open") == true)
    }
}
