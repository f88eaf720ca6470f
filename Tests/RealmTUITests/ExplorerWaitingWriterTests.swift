import Foundation
import RealmEngine
import RealmTUI
import Testing

/// Writes run on the driver's writer thread and never block the explorer: while another writer
/// holds the lock the status line says "waiting for another writer", keys and other events are
/// still answered, Esc cancels (nothing written, even once the lock is free), and otherwise the
/// write happens as soon as the lock is free and its outcome comes back as an event.
@Suite("Explorer edit: waiting for another writer")
struct ExplorerWaitingWriterTests {
    @Test func aWriteWaitsWithoutBlockingAndEscCancels() throws {
        let folder = try EditFixture.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("fixture.realm").path
        try EditFixture.fixtureFile(at: path)
        var driver = try EditFixture.driver(path: path)
        driver.press(.down, .enter, .character("l"))
        let other = try Realm(path: path)
        try other.beginWrite()  // another writer holds the lock

        driver.press(.character("e"), .control("u"))
        driver.type("7")
        driver.press(.enter)  // returns: the writer thread waits
        #expect(driver.isWriting)
        #expect(driver.screen.lines.contains { $0.hasPrefix("waiting for another writer") })
        try expectGolden("edit-waiting", driver.screen)
        // Events are still processed while the write waits: a resize, a tick, a key.
        driver.send(.resize(width: 90, height: 24))
        #expect(driver.state.width == 90 && driver.screen.lines[0].hasSuffix("q quit"))
        driver.send(.tick(seconds: 1))
        driver.press(.character("j"))
        #expect(driver.statusText.contains("waiting for another writer (Esc cancels)") == true)
        #expect(driver.isWriting)
        driver.press(.escape)
        #expect(!driver.isWriting)
        #expect(driver.statusText.contains("gave up waiting for the other writer: nothing written") == true)
        other.cancelWrite()  // the lock is free: still nothing written
        driver.finishWrite()
        #expect(try EditFixture.reread(path, "Dog", key: 0, "age") == .int(3))

        try other.beginWrite()
        driver.send(.resize(width: 80, height: 24))
        driver.press(.character("e"), .control("u"))
        driver.type("8")
        driver.press(.enter)
        #expect(try EditFixture.reread(path, "Dog", key: 0, "age") == .int(3))
        try other.object(ofType: "Dog", key: ObjectKey(1))?.setValue(Value.int(40), forKey: "age")
        try other.commitWrite()
        driver.finishWrite()  // the lock is free: written now
        #expect(try EditFixture.reread(path, "Dog", key: 0, "age") == .int(8))
        #expect(try EditFixture.reread(path, "Dog", key: 1, "age") == .int(40))
        #expect(!driver.screen.lines.contains { $0.hasPrefix("waiting") })
        #expect(driver.statusText.contains("Dog#0.age = 8") == true)
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
        driver.finishWrite()
        #expect(try EditFixture.reread(path, "Dog", key: 0, "age") == .int(9))
        #expect(driver.statusText.contains("committed 1 staged edit") == true)
    }

    /// With the session's short wait, a write over many objects returns at once; the driver
    /// keeps answering keys and the outcome arrives when the writer is done.
    @Test func aLongWriteDoesNotHoldTheKeys() throws {
        let realm = try ExplorerFixture.realm(extraDogs: 5_000)
        var driver = ExplorerDriver(
            state: ExplorerState(realm: realm, fileName: "fixture.realm", readOnly: false, width: 100, height: 24))
        driver.writeWaitLimit = .zero
        driver.press(.down, .enter, .character(":"))
        driver.type("set age = 1")
        driver.press(.enter, .character("y"))
        #expect(driver.isWriting)  // 5,003 objects take far longer than no wait
        for _ in 0..<3 { driver.press(.character("j")) }
        #expect(driver.statusText.contains("writing…") == true || !driver.isWriting)
        driver.finishWrite()
        #expect(!driver.isWriting)
        #expect(driver.statusText.contains("age of 5,003 Dog objects = 1") == true)
        realm.refresh()
        let ages = try realm.objects("Dog").filter("age != 1").count
        #expect(ages == 0)
    }

    /// Esc during a long write cancels its transaction: nothing of it is written (were the
    /// commit already under way, all of it is, and the status line says Esc came too late).
    @Test func escDuringALongWriteWritesNothing() throws {
        let realm = try ExplorerFixture.realm(extraDogs: 5_000)
        var driver = ExplorerDriver(
            state: ExplorerState(realm: realm, fileName: "fixture.realm", readOnly: false, width: 160, height: 24))
        driver.writeWaitLimit = .zero
        let version = realm.version
        driver.press(.down, .enter, .character(":"))
        driver.type("set age = 1")
        driver.press(.enter, .character("y"), .escape)
        driver.finishWrite()
        let status = driver.statusText
        realm.refresh()
        let changed = try realm.objects("Dog").filter("age == 1").count
        if status.contains("write cancelled: nothing written") {
            #expect(realm.version == version)
            #expect(changed == 250)  // the fixture's dogs with i % 20 == 1
        } else {
            #expect(status.contains("Esc came after the commit began"), "\(status)")
            #expect(changed == 5_003)
        }
        driver.press(.character("u"))  // nothing to undo after a cancel
        #expect(driver.statusText.contains(status.contains("cancelled") ? "nothing to undo" : "undone") == true)
    }

    /// The pure side: the writer's reports drive the status line (golden screen of a long write).
    @Test func progressReportsShowInTheStatusLine() throws {
        let realm = try ExplorerFixture.realm()
        var driver = ExplorerDriver(
            state: ExplorerState(realm: realm, fileName: "fixture.realm", readOnly: false, width: 100, height: 24))
        let other = try Realm(configuration: realm.configuration)
        try other.beginWrite()  // keeps the write from ending meanwhile
        defer { other.cancelWrite() }
        driver.press(.down, .enter, .character(":"))
        driver.type("delete")
        driver.press(.enter, .character("y"))
        _ = update(&driver.state, .write(.progress(done: 250_000, total: 1_000_000)))
        try expectGolden("edit-writing", driver.screen)
        #expect(driver.statusText.contains("writing… 25% (Esc cancels)") == true)
        driver.press(.escape)
        #expect(driver.statusText.contains("nothing written") == true)
        #expect(try realm.objects("Dog").count == 3)
    }
}
