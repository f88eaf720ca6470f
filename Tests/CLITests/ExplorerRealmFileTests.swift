import Foundation
import Testing

/// The explorer on a Realm file (written by Realm Core): its classes and objects are browsed,
/// links followed, and without an edit nothing of the file changes (its lock file is created
/// beside it, as a Realm app creates it).
@Suite(.tags(.tmux, .multiProcess)) struct ExplorerRealmFileTests {
    @Test(
        .enabled(
            if: TmuxSession.isAvailable, "tmux is not installed: the explorer's terminal tests need a real terminal"))
    func browseARealmFileAndLeaveItUnchanged() throws {
        let scratch = try Scratch()
        let (path, bytes, listing) = try RealmCoreFileTests.copy("generated-dogs.realm", into: scratch)
        // Its own query history, so that no other explorer's history file speaks first.
        let state = scratch.path("state")
        let tmux = try TmuxSession(
            script: ExplorerEntryTests.script(
                [path], environment: "LANG=C.UTF-8 TERM=xterm-256color XDG_STATE_HOME=\(state)"),
            width: 120, height: 40)
        defer { tmux.close() }
        var screen = try tmux.waitFor("editing a Realm file (format 24)")
        #expect(screen.contains("Person           250"), "\(screen)")
        try tmux.sendKeys("j", "Enter")  // Person's table
        screen = try tmux.waitFor("row 1 of 250")
        #expect(screen.contains("*_id"), "\(screen)")
        try tmux.sendKeys("Enter")  // the first person
        screen = try tmux.waitFor("Person › Marco #1")
        try tmux.sendKeys("j", "j", "j", "j", "Enter")  // its dogs (a list of links)
        screen = try tmux.waitUntil("the person's dogs") { $0.contains("› dogs") && $0.contains("row 1 of") }
        #expect(screen.contains("Buddy 0"), "\(screen)")
        try tmux.sendKeys("q")
        screen = try tmux.waitFor("script done")
        #expect(screen.contains("exit=0"), "\(screen)")
        try ExplorerEntryTests.expectRestored(tmux, screen, "quit")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0 != "state" }.sorted()
                == (listing + ["generated-dogs.realm.lock"]).sorted())
    }

    /// Realm 10's kinds of value in a Realm file, browsed: a set, a dictionary (one key → value
    /// row each, non-ASCII keys included), a Mixed, sets and dictionaries of links.
    @Test(
        .enabled(
            if: TmuxSession.isAvailable, "tmux is not installed: the explorer's terminal tests need a real terminal"))
    func browseSetsDictionariesAndMixedOfARealmFile() throws {
        let scratch = try Scratch()
        let (path, bytes, _) = try RealmCoreFileTests.copy("generated-alltypes.realm", into: scratch)
        let state = scratch.path("state")
        let tmux = try TmuxSession(
            script: ExplorerEntryTests.script(
                [path], environment: "LANG=C.UTF-8 TERM=xterm-256color XDG_STATE_HOME=\(state)"),
            width: 120, height: 48)
        defer { tmux.close() }
        var screen = try tmux.waitFor("editing a Realm file (format 24)")
        #expect(screen.contains("AllTypes              5"), "\(screen)")
        // The classes in the file's order: Target, EmbeddedChild, Embedded (embedded, not listed on their own), AllTypes.
        try tmux.sendKeys("j", "j", "j", "Enter")  // AllTypes' table
        screen = try tmux.waitFor("row 1 of 5")
        try tmux.sendKeys("j", "j", "Enter")  // the third object, every collection filled
        screen = try tmux.waitFor("AllTypes › 2")
        try tmux.sendKeys("G")  // its last properties
        screen = try tmux.waitUntil("the collections and Mixed") {
            $0.contains("mixedCol") && $0.contains("objectDict")
        }
        #expect(screen.contains("objectIdSet      {2} 000000000000000000000001, 5f8d0d55b54764421b715e01"), "\(screen)")
        #expect(screen.contains("键 → 000000000000000000000001"), "\(screen)")
        #expect(screen.contains(#"mixedCol         "mixed string 混合""#), "\(screen)")
        #expect(
            screen.contains("objectSet        {2} → 650000000000000000000000, → 650000000000000000000001"), "\(screen)")
        #expect(screen.contains(#"indexedMixed     "five""#), "\(screen)")
        #expect(screen.contains("embeddedObj      ▸ ⟨Embedded⟩ embedded of 2, null, …"), "\(screen)")
        try tmux.sendKeys("q")
        screen = try tmux.waitFor("script done")
        #expect(screen.contains("exit=0"), "\(screen)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }
}
