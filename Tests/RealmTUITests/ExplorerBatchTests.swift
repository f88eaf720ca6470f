import Foundation
import RealmEngine
import RealmTUI
import Testing

/// Batch mode (issue 12, Edit): `:begin` stages, `:commit`/ctrl-s writes all in one transaction
/// or refuses with the conflicts, `:rollback` drops, quitting with staged edits asks.
@Suite("Explorer edit: batch mode")
struct ExplorerBatchTests {
    func dogTable() throws -> (driver: ExplorerDriver, path: String, folder: URL) {
        let folder = try EditFixture.folder()
        let path = folder.appendingPathComponent("fixture.realm").path
        try EditFixture.fixtureFile(at: path)
        var driver = try EditFixture.driver(path: path, width: 120)
        driver.press(.down, .enter, .character("l"))
        return (driver, path, folder)
    }

    func command(_ driver: inout ExplorerDriver, _ text: String) {
        driver.press(.character(":"))
        driver.type(text)
        driver.press(.enter)
    }

    func setAge(_ driver: inout ExplorerDriver, _ text: String) {
        driver.press(.character("e"), .control("u"))
        driver.type(text)
        driver.press(.enter)
    }

    @Test func stagedEditsAreShownButWrittenOnlyByCommitInOneTransaction() throws {
        var (driver, path, folder) = try dogTable()
        defer { try? FileManager.default.removeItem(at: folder) }
        command(&driver, "begin")
        let version = driver.state.realmVersion
        setAge(&driver, "7")
        driver.press(.down, .down)
        setAge(&driver, "12")
        #expect(driver.state.realmVersion == version)
        #expect(try EditFixture.reread(path, "Dog", key: 0, "age") == .int(3))
        #expect(driver.screen.lines[3].contains(" 7 "))
        #expect(driver.statusText.contains("batch: 2 staged") == true)
        try expectGolden("edit-batch-staged", driver.screen)
        driver.press(.enter)  // Ghost's detail shows the staged age
        #expect(driver.screen.lines.contains { $0.contains("age") && $0.contains("12") })
        driver.press(.escape)
        driver.press(.control("s"))
        #expect(driver.state.realmVersion == version + 1)
        #expect(try EditFixture.reread(path, "Dog", key: 0, "age") == .int(7))
        #expect(try EditFixture.reread(path, "Dog", key: 2, "age") == .int(12))
        #expect(driver.statusText.contains("batch") == false)
    }

    @Test func commitRefusesWithTheConflictsWhenAnotherWriterChangedAStagedObject() throws {
        var (driver, path, folder) = try dogTable()
        defer { try? FileManager.default.removeItem(at: folder) }
        command(&driver, "begin")
        setAge(&driver, "7")
        driver.press(.down)
        driver.press(.character("d"), .character("y"))
        let other = try Realm(path: path)
        try other.write {
            try other.object(ofType: "Dog", key: ObjectKey(0))?.setValue(Value.double(1), forKey: "weight")
            if let rex = try other.object(ofType: "Dog", key: ObjectKey(1)) { try other.delete(rex) }
        }
        command(&driver, "commit")
        #expect(driver.statusText.contains("2 conflicts: Dog#0 changed, Dog#1 deleted") == true)
        #expect(try EditFixture.reread(path, "Dog", key: 0, "age") == .int(3))
        #expect(try EditFixture.reread(path, "Dog", key: 0, "weight") == .double(1))
        command(&driver, "rollback")
        #expect(driver.statusText.contains("2 staged edits dropped") == true)
        driver.press(.character("g"))
        setAge(&driver, "5")
        #expect(try EditFixture.reread(path, "Dog", key: 0, "age") == .int(5))
    }

    @Test func quittingWithStagedEditsAsksFirstAndUDropsTheLastStagedEdit() throws {
        var (driver, path, folder) = try dogTable()
        defer { try? FileManager.default.removeItem(at: folder) }
        command(&driver, "begin")
        setAge(&driver, "7")
        setAge(&driver, "8")
        driver.press(.character("u"))
        #expect(driver.statusText.contains("batch: 1 staged") == true)
        driver.press(.character("q"))
        #expect(!driver.didQuit)
        #expect(driver.screen.lines.contains { $0.contains("quit and drop 1 staged edit?") })
        driver.press(.character("n"))
        #expect(!driver.didQuit)
        #expect(driver.statusText.contains("not quitting: the staged edits are kept"), "\(driver.statusText)")
        #expect(driver.statusText.contains("batch: 1 staged"), "\(driver.statusText)")
        driver.press(.character("q"), .character("y"))
        #expect(driver.didQuit)
        #expect(try EditFixture.reread(path, "Dog", key: 0, "age") == .int(3))
    }

    /// `u` drops an edit and with it the object's place in the conflict check: another writer
    /// then changing that object does not stop the edits still staged.
    @Test func anObjectWhoseEditWasDroppedIsNoConflict() throws {
        var (driver, path, folder) = try dogTable()
        defer { try? FileManager.default.removeItem(at: folder) }
        command(&driver, "begin")
        setAge(&driver, "7")  // 大黄 (Dog#0)
        driver.press(.character("u"))
        driver.press(.down)
        setAge(&driver, "9")  // Rex (Dog#1)
        let other = try Realm(path: path)
        try other.write {
            try other.object(ofType: "Dog", key: ObjectKey(0))?.setValue(Value.double(1), forKey: "weight")
        }
        let version = driver.state.realmVersion
        command(&driver, "commit")
        #expect(driver.statusText.contains("conflict") == false, "\(driver.statusText)")
        #expect(try EditFixture.reread(path, "Dog", key: 1, "age") == .int(9))
        #expect(try EditFixture.reread(path, "Dog", key: 0, "age") == .int(3))
        #expect(driver.state.realmVersion > version)
    }
}
