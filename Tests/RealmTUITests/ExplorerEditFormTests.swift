import Foundation
import RealmEngine
import RealmTUI
import Testing

/// The new-object form, the link picker and list editing (issue 12, Edit), each checked by
/// reading the file again.
@Suite("Explorer edit: form, picker, lists")
struct ExplorerEditFormTests {
    func fixture() throws -> (driver: ExplorerDriver, path: String, folder: URL) {
        let folder = try EditFixture.folder()
        let path = folder.appendingPathComponent("fixture.realm").path
        try EditFixture.fixtureFile(at: path)
        return (try EditFixture.driver(path: path), path, folder)
    }

    @Test func aOpensAFormWithDefaultsAndChecksThePrimaryKeyBeforeCommit() throws {
        var (driver, path, folder) = try fixture()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.enter, .character("a"))
        let lines = driver.screen.lines
        #expect(lines.contains { $0.contains("*id") && $0.contains("required") && $0.contains("0") })
        #expect(lines.contains { $0.contains("nickname") && !$0.contains("required") && $0.contains("null") })
        driver.press(.control("u"))
        driver.type("1")
        let version = driver.state.realmVersion
        let effects = update(&driver.state, .key(.enter))
        #expect(effects.isEmpty)
        #expect(driver.screen.lines.contains { $0.contains("id 1 is taken") })
        #expect(driver.state.realmVersion == version)
        driver.press(.control("u"))
        driver.type("4")
        driver.press(.down, .control("u"))
        driver.type("Zoe")
        driver.press(.down, .control("u"))
        driver.type("Z")
        driver.press(.enter)
        #expect(try EditFixture.reread(path, "Person", key: 3, "name") == .string("Zoe"))
        #expect(try EditFixture.reread(path, "Person", key: 3, "nickname") == .string("Z"))
        #expect(try EditFixture.reread(path, "Person", key: 3, "born") == .null)
        #expect(driver.screen.lines.contains { $0.hasPrefix("›") && $0.contains("Zoe") })
        driver.press(.character("u"))
        #expect(try EditFixture.reread(path, "Person", key: 3, "name") == nil)
    }

    /// A field still holding its default (`0`, `null`, `now`) is replaced by the first key
    /// typed into it, as a selected placeholder is: typing 4 into id gives 4, not 04, and a
    /// name typed into `null` is the name. Moving the cursor in the field keeps the default.
    @Test func typingIntoAnUntouchedDefaultReplacesIt() throws {
        var (driver, path, folder) = try fixture()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.enter, .character("a"))
        driver.type("4")
        driver.press(.down)
        driver.type("Zoe")
        driver.press(.down)
        driver.type("Z")
        driver.press(.down, .end)
        driver.type("x")
        driver.press(.control("u"))
        driver.type("2020-01-02")
        driver.press(.enter)
        #expect(try EditFixture.reread(path, "Person", key: 3, "id") == .int(4))
        #expect(try EditFixture.reread(path, "Person", key: 3, "name") == .string("Zoe"))
        #expect(try EditFixture.reread(path, "Person", key: 3, "nickname") == .string("Z"))
    }

    /// A value longer than its field scrolls as the query bar does: the end being typed and the
    /// cursor stay in view.
    @Test func aLongFieldScrollsToKeepTheCursorInView() throws {
        var (driver, _, folder) = try fixture()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.enter, .character("a"), .down, .control("u"))
        let typed = (0..<8).map { "word\($0)" }.joined(separator: " ") + " 名字的结尾END"
        driver.type(typed)
        let grid = driver.screen
        let row = try #require(grid.lines.firstIndex { $0.hasPrefix("›") && $0.contains("name") }, "\(grid.lines)")
        #expect(grid.lines[row].hasSuffix("结尾END"), "\(grid.lines[row])")
        // The cursor: the one reversed cell after the `›` mark.
        let cursorCells = (2..<grid.width).filter { grid[$0, row].style.reverse }
        #expect(cursorCells.count == 1, "\(grid.lines[row])")
        #expect(cursorCells.first == displayWidth(grid.lines[row]), "\(grid.lines[row])")
    }

    @Test func aFormFieldThatDoesNotFitIsNamedAndNothingIsCreated() throws {
        var (driver, path, folder) = try fixture()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.down, .enter, .character("a"), .control("u"))
        driver.type("Fido")
        driver.press(.down, .control("u"))
        driver.type("old")
        driver.press(.enter)
        #expect(driver.screen.lines.contains { $0.contains("refused") && $0.contains("age") })
        driver.press(.escape)
        #expect(try Realm(path: path, readOnly: true).objects("Dog").count == 3)
    }

    @Test func eOnALinkOpensAPickerAndCtrlNClearsIt() throws {
        var (driver, path, folder) = try fixture()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.down, .enter, .down, .character("l"), .character("l"), .character("l"), .character("e"))
        #expect(driver.screen.lines[0].contains("pick Dog"))
        driver.press(.character("G"), .enter)
        #expect(try EditFixture.reread(path, "Dog", key: 1, "friend") == .link(ObjectKey(2)))
        #expect(!driver.screen.lines[0].contains("pick"))
        driver.press(.character("e"), .escape)
        #expect(try EditFixture.reread(path, "Dog", key: 1, "friend") == .link(ObjectKey(2)))
        driver.press(.character("e"), .control("n"))
        #expect(try EditFixture.reread(path, "Dog", key: 1, "friend") == .null)
    }

    @Test func listsOfObjectsAppendInsertRemoveAndMove() throws {
        var (driver, path, folder) = try fixture()
        defer { try? FileManager.default.removeItem(at: folder) }
        func dogs() throws -> Value? { try EditFixture.reread(path, "Person", key: 0, "dogs") }
        driver.press(.enter, .enter)
        for _ in 0..<5 { driver.press(.character("j")) }
        driver.press(.enter)  // 张三 › dogs: 大黄, Rex
        driver.press(.character("a"), .character("G"), .enter)  // append Ghost
        #expect(try dogs() == .list([.link(ObjectKey(0)), .link(ObjectKey(1)), .link(ObjectKey(2))]))
        #expect(driver.screen.lines.contains { $0.contains("Ghost") })
        driver.press(.character("J"))  // 大黄 down
        #expect(try dogs() == .list([.link(ObjectKey(1)), .link(ObjectKey(0)), .link(ObjectKey(2))]))
        driver.press(.character("K"))
        #expect(try dogs() == .list([.link(ObjectKey(0)), .link(ObjectKey(1)), .link(ObjectKey(2))]))
        driver.press(.character("x"))
        #expect(try dogs() == .list([.link(ObjectKey(1)), .link(ObjectKey(2))]))
        driver.press(.character("i"), .enter)  // insert 大黄 (the picker's first row) before Rex
        #expect(try dogs() == .list([.link(ObjectKey(0)), .link(ObjectKey(1)), .link(ObjectKey(2))]))
        driver.press(.character("u"))  // undo the insert
        #expect(try dogs() == .list([.link(ObjectKey(1)), .link(ObjectKey(2))]))
    }

    @Test func listsOfValuesAppendRemoveAndClear() throws {
        var (driver, path, folder) = try fixture()
        defer { try? FileManager.default.removeItem(at: folder) }
        func tags() throws -> Value? { try EditFixture.reread(path, "Person", key: 0, "tags") }
        driver.press(.enter, .enter, .character("G"), .enter)  // 张三 › tags
        driver.press(.character("a"), .control("u"))
        driver.type("猫")
        driver.press(.enter)
        #expect(try tags() == .list([.string("owner"), .string("北京"), .string("猫")]))
        driver.press(.character("x"))
        #expect(try tags() == .list([.string("北京"), .string("猫")]))
        driver.press(.character("u"))
        #expect(try tags() == .list([.string("owner"), .string("北京"), .string("猫")]))
        driver.press(.character("e"))
        #expect(driver.screen.lines.contains("=owner"))
        driver.press(.control("u"))
        driver.type("owner2")
        driver.press(.enter)
        #expect(try tags() == .list([.string("owner2"), .string("北京"), .string("猫")]))
        driver.press(.character("x"))
        driver.press(.character(":"))
        driver.type("clear")
        driver.press(.enter)
        #expect(driver.screen.lines.contains { $0.contains("remove all 2 elements of tags? (y/n)") })
        driver.press(.character("y"))
        #expect(try tags() == .list([]))
    }

    @Test func listEditsRefuseASortedList() throws {
        var (driver, path, folder) = try fixture()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.enter, .enter)
        for _ in 0..<5 { driver.press(.character("j")) }
        driver.press(.enter, .character("S"), .character("x"))
        #expect(driver.statusText.contains("sorted or filtered") == true)
        #expect(
            try EditFixture.reread(path, "Person", key: 0, "dogs") == .list([.link(ObjectKey(0)), .link(ObjectKey(1))]))
    }
}
