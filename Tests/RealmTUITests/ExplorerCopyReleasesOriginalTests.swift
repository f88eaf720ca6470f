import Foundation
import RealmEngine
import RealmTUI
import Testing

/// `:copy PATH` moves the explorer to the copy and lets go of the original: its Realm, the
/// writer thread's instance, the table observers and the session's commit watcher. Until it
/// did, `realmtui compact ORIGINAL` refused ("open in this process" / "in another process")
/// for as long as the explorer stayed open on the copy.
@Suite("Explorer :copy releases the original")
struct ExplorerCopyReleasesOriginalTests {
    @Test func theDriverReleasesTheOriginalSoItCanBeCompacted() throws {
        let folder = try EditFixture.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = folder.appendingPathComponent("original.realm").path
        let copy = folder.appendingPathComponent("copy.realm").path
        try EditFixture.fixtureFile(at: original)
        var driver = try EditFixture.driver(path: original)
        // A write on the original (its writer thread opens an instance of its own) and an
        // observed table, as a user would have before copying.
        driver.press(.down, .enter, .character("l"), .character("e"), .control("u"))
        driver.type("7")
        driver.press(.enter)
        driver.finishWrite()
        #expect(try EditFixture.reread(original, "Dog", key: 0, "age") == .int(7))
        driver.press(.escape, .escape, .escape)
        driver.press(.character(":"))
        driver.type("copy \(copy)")
        driver.press(.enter)
        #expect(driver.statusText.contains("copy.realm is open writable"), "\(driver.statusText)")

        let sizes = try Realm.compact(path: original)
        #expect(sizes.after > 0)
        // The explorer goes on, on the copy, writing it and not the original.
        driver.press(.down, .enter, .character("l"), .character("e"), .control("u"))
        driver.type("12")
        driver.press(.enter)
        driver.finishWrite()
        #expect(try EditFixture.reread(copy, "Dog", key: 0, "age") == .int(12))
        #expect(try EditFixture.reread(original, "Dog", key: 0, "age") == .int(7))
    }

    @Test func theSessionReleasesTheOriginalWhileItRunsOnTheCopy() throws {
        let folder = try EditFixture.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = folder.appendingPathComponent("original.realm").path
        let copy = folder.appendingPathComponent("copy.realm").path
        try EditFixture.fixtureFile(at: original)
        var events: [TerminalEvent] = [.key(.character(":"))]
        events += "copy \(copy)".map { .key(.character($0)) }
        events.append(.key(.enter))
        var compaction: Result<(before: UInt64, after: UInt64), Error>?
        let terminal = HookTerminal(events: events) {
            // The session is still running, on the copy: another tool compacts the original.
            compaction = Result { try Realm.compact(path: original) }
        }
        let session = ExplorerSession(
            realm: try Realm(path: original), path: original, readOnly: false, environment: [:])
        try session.run(on: terminal)
        let outcome = try #require(compaction)
        switch outcome {
        case .success(let sizes): #expect(sizes.after > 0)
        case .failure(let error):
            Issue.record("compact of the original refused while the explorer is on the copy: \(error)")
        }
        #expect(terminal.script.lastFrame?.lines.joined().contains("copy.realm") == true)
    }
}

/// A scripted terminal that runs `atEnd` once its script is used up, then quits the session.
private final class HookTerminal: TerminalBackend {
    let script: ScriptedTerminal
    private var atEnd: (() -> Void)?

    init(events: [TerminalEvent], atEnd: @escaping () -> Void) {
        script = ScriptedTerminal(width: 80, height: 24, hasColor: false, events: events)
        self.atEnd = atEnd
    }

    var size: (width: Int, height: Int) { script.size }
    var hasColor: Bool { false }
    func draw(_ grid: Grid) { script.draw(grid) }
    func nextEvent(timeoutMilliseconds: Int) -> TerminalEvent? {
        if let event = script.nextEvent(timeoutMilliseconds: timeoutMilliseconds) { return event }
        if let atEnd {
            self.atEnd = nil
            atEnd()
            return nil
        }
        return .key(.character("q"))
    }
    func wake() { script.wake() }
    func copyToClipboard(_ text: String) { script.copyToClipboard(text) }
    func close() { script.close() }
}
