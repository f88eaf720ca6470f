import Foundation
import RealmEngine
import RealmTUI
import Testing

/// Writes never block the explorer: while another writer holds the lock the status line says
/// "waiting for another writer", keys are still answered, Esc gives up, and the write happens
/// on the first event after the lock is free.
@Suite("Explorer edit: waiting for another writer")
struct ExplorerWaitingWriterTests {
    @Test func aWriteWaitsWithoutBlockingAndEscGivesUp() throws {
        let folder = try EditFixture.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("fixture.realm").path
        try EditFixture.fixtureFile(at: path)
        var driver = try EditFixture.driver(path: path)
        driver.press(.down, .enter, .character("l"))
        let other = try Realm(path: path)
        try other.beginWrite()                                // another writer holds the lock

        driver.press(.character("e"), .control("u"))
        driver.type("7")
        driver.press(.enter)                                  // returns at once: the lock is taken
        #expect(driver.screen.lines.contains { $0.hasPrefix("waiting for another writer") })
        try expectGolden("edit-waiting", driver.screen)
        driver.send(.tick(seconds: 0))
        #expect(driver.screen.lines.contains { $0.hasPrefix("waiting for another writer") })
        driver.press(.escape)
        #expect(driver.screen.lines.last?.contains("nothing written") == true)
        driver.send(.tick(seconds: 0))
        other.cancelWrite()
        driver.send(.tick(seconds: 0))
        #expect(try EditFixture.reread(path, "Dog", key: 0, "age") == .int(3))

        try other.beginWrite()
        driver.press(.character("e"), .control("u"))
        driver.type("8")
        driver.press(.enter)
        driver.send(.tick(seconds: 0))
        #expect(try EditFixture.reread(path, "Dog", key: 0, "age") == .int(3))
        try other.object(ofType: "Dog", key: ObjectKey(1))?.setValue(Value.int(40), forKey: "age")
        try other.commitWrite()
        driver.send(.tick(seconds: 0))                                    // the lock is free: written now
        #expect(try EditFixture.reread(path, "Dog", key: 0, "age") == .int(8))
        #expect(try EditFixture.reread(path, "Dog", key: 1, "age") == .int(40))
        #expect(!driver.screen.lines.contains { $0.hasPrefix("waiting") })
        #expect(driver.screen.lines[4].contains("40"))
    }

    @Test func aBatchCommitWaitsToo() throws {
        let folder = try EditFixture.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("fixture.realm").path
        try EditFixture.fixtureFile(at: path)
        var driver = try EditFixture.driver(path: path, width: 120)
        driver.press(.down, .enter, .character("l"), .character(":"))
        driver.type("begin")
        driver.press(.enter, .character("e"), .control("u"))
        driver.type("9")
        driver.press(.enter)
        let other = try Realm(path: path)
        try other.beginWrite()
        driver.press(.control("s"))
        #expect(driver.screen.lines.contains { $0.hasPrefix("waiting for another writer") })
        other.cancelWrite()
        driver.send(.tick(seconds: 0))
        #expect(try EditFixture.reread(path, "Dog", key: 0, "age") == .int(9))
        #expect(driver.screen.lines.last?.contains("committed 1 staged edit") == true)
    }
}
