import Foundation
import RealmEngine
import Testing

/// End to end in a real terminal, issue 12: another process inserts, modifies and deletes while
/// the explorer shows a sorted, filtered table (the marks appear, the cursor stays); then edits
/// in the explorer (a string, a wrong-typed value refused, a delete with confirmation), each
/// checked through `realmtui query`.
@Suite("Explorer live and edit, end to end", .tags(.tmux, .multiProcess))
struct ExplorerLiveEditTests {
    @Test(
        .enabled(
            if: TmuxSession.isAvailable, "tmux is not installed: the explorer's terminal tests need a real terminal"))
    func anotherProcessWritesWhileTheExplorerShowsASortedFilteredTable() throws {
        let s = try Scratch()
        let db = s.path("demo.realm")
        try FileManager.default.copyItem(atPath: ExplorerEntryTests.demo, toPath: db)
        let tmux = try TmuxSession(script: ExplorerEntryTests.script([db]), width: 120, height: 40)
        defer { tmux.close() }
        _ = try tmux.waitFor("Author · primary key id")
        try tmux.sendKeys("j", "j", "Enter")  // Review
        _ = try tmux.waitFor("row 1 of 600")
        try tmux.sendKeys("/")
        try tmux.type("rating >= 4")
        try tmux.sendKeys("Enter")
        var screen = try tmux.waitFor("objects match")
        let matching = try count(db, "Review", "rating >= 4")
        #expect(screen.contains("\(matching) objects"), "\(screen)")
        try tmux.sendKeys("l", "l", "l", "l", "S")  // newest first by `created`
        _ = try tmux.waitFor("created ▼")
        try tmux.sendKeys("j", "j")  // the cursor on the third row
        screen = try tmux.waitFor("row 3 of")
        let cursorLine = try #require(screen.split(separator: "\n").first { $0.hasPrefix("›") }).dropFirst(2)
        let cursorText = String(cursorLine.prefix(30)).trimmingCharacters(in: .whitespaces)

        // Another process inserts a review newer than all: it appears on top, marked `+`; the
        // cursor stays on its review (now the fourth row).
        let data = s.path("new.json")
        try
            #"{"Review": [{"reviewer": "LIVE REVIEWER", "rating": 5, "text": "live", "created": "2031-01-01T00:00:00Z"}]}"#
            .write(toFile: data, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["import", db, data]).status == 0)
        screen = try tmux.waitUntil("the inserted row, marked") { $0.contains("+") && $0.contains("LIVE REVIEWER") }
        #expect(screen.contains("row 4 of \(matching + 1)"), "\(screen)")
        let newCursor = try #require(screen.split(separator: "\n").first { $0.hasPrefix("›") })
        #expect(newCursor.contains(cursorText), "the cursor stayed on its object: \(newCursor) vs \(cursorText)")

        // A modification is marked `~` (once the `+` of the insertion has faded); a deletion
        // leaves the table.
        _ = try tmux.waitUntil("the insertion's mark faded") { !$0.contains(" +") }
        #expect(
            try CLI.run(["update", db, "Review", "reviewer == 'LIVE REVIEWER'", "--set", "text=changed"]).status == 0)
        screen = try tmux.waitUntil("the modified row, marked") { $0.contains("~") && $0.contains("changed") }
        #expect(try CLI.run(["delete", db, "Review", "reviewer == 'LIVE REVIEWER'"]).status == 0)
        screen = try tmux.waitUntil("the deleted row gone") {
            !$0.contains("LIVE REVIEWER") && $0.contains("row 3 of \(matching)")
        }

        // Edits: a string, then a wrong-typed value (refused), then a delete with confirmation.
        try tmux.sendKeys("Escape", "Escape", "Escape", "k", "k", "Enter")  // Author, first row
        _ = try tmux.waitFor("row 1 of 76")
        try tmux.sendKeys("l", "e", "C-u")
        try tmux.type("Edited 作者")
        try tmux.sendKeys("Enter")
        _ = try tmux.waitFor("Edited 作者")
        #expect(try count(db, "Author", "name == 'Edited 作者'") == 1)
        try tmux.sendKeys("h", "e", "C-u")
        try tmux.type("not a number")
        try tmux.sendKeys("Enter")
        screen = try tmux.waitUntil("the refusal") { $0.contains("refused") || $0.contains("cannot be edited") }
        try tmux.sendKeys("Escape")
        #expect(try count(db, "Author", "TRUEPREDICATE") == 76)
        try tmux.sendKeys("d")
        screen = try tmux.waitUntil("the confirmation") { $0.contains("y/n") }
        try tmux.sendKeys("y")
        _ = try tmux.waitFor("75 objects")
        #expect(try count(db, "Author", "TRUEPREDICATE") == 75)

        // Another process (this test) holds the write lock: the explorer says it waits, keeps
        // answering keys, and Esc cancels (nothing written, even once the lock is free); a
        // second try is written as soon as the lock is free.
        let holder = try Realm(path: db)
        try holder.beginWrite()
        try tmux.sendKeys("l", "e", "C-u")
        try tmux.type("Waiting 作者")
        try tmux.sendKeys("Enter")
        _ = try tmux.waitFor("waiting for another writer")
        try tmux.sendKeys("?")  // answered, the write goes on waiting
        _ = try tmux.waitFor("waiting for another writer (Esc cancels)")
        try tmux.sendKeys("Escape")
        _ = try tmux.waitFor("gave up waiting for the other writer: nothing written")
        holder.cancelWrite()
        #expect(try count(db, "Author", "name == 'Waiting 作者'") == 0)
        try holder.beginWrite()
        try tmux.sendKeys("e", "C-u")
        try tmux.type("Waiting 作者")
        try tmux.sendKeys("Enter")
        _ = try tmux.waitFor("waiting for another writer")
        holder.cancelWrite()
        _ = try tmux.waitUntil("the write once the lock is free") {
            $0.contains("= Waiting 作者") && !$0.contains("waiting for")
        }
        #expect(try count(db, "Author", "name == 'Waiting 作者'") == 1)
        try tmux.sendKeys("q")
        let text = try tmux.waitFor("script done")
        #expect(text.contains("exit=0"), "\(text)")
        #expect(try CLI.run(["check", db]).status == 0)
    }

    /// ctrl-s commits a batch: the terminal's flow control (which would swallow it and stop
    /// the output) is off while the explorer runs.
    @Test(
        .enabled(
            if: TmuxSession.isAvailable, "tmux is not installed: the explorer's terminal tests need a real terminal"))
    func ctrlSCommitsTheBatch() throws {
        let s = try Scratch()
        let db = s.path("demo.realm")
        try FileManager.default.copyItem(atPath: ExplorerEntryTests.demo, toPath: db)
        let tmux = try TmuxSession(script: ExplorerEntryTests.script([db]), width: 120, height: 30)
        defer { tmux.close() }
        _ = try tmux.waitFor("Author · primary key id")
        try tmux.sendKeys("Enter")
        _ = try tmux.waitFor("row 1 of 76")
        try tmux.sendKeys(":")
        try tmux.type("begin")
        try tmux.sendKeys("Enter", "l", "e", "C-u")
        try tmux.type("Batched 作者")
        try tmux.sendKeys("Enter")
        _ = try tmux.waitFor("staged, not written")
        #expect(try count(db, "Author", "name == 'Batched 作者'") == 0)
        try tmux.sendKeys("C-s")
        _ = try tmux.waitUntil("the batch committed") { !$0.contains("staged, not written") && $0.contains("v4") }
        #expect(try count(db, "Author", "name == 'Batched 作者'") == 1)
        try tmux.sendKeys("q")
        let text = try tmux.waitFor("script done")
        #expect(text.contains("exit=0"), "\(text)")
    }

    private func count(_ db: String, _ className: String, _ query: String) throws -> Int {
        let result = try CLI.run(["query", db, className, query, "--format", "count"])
        return Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
}
