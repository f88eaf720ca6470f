import Foundation
import Testing

/// The terminal draws grapheme clusters where the explorer's grid puts them: a ZWJ family, a
/// flag, a keycap and a combining accent take the columns the model gives them, every later
/// column stays aligned, and nothing of one row (a dangling joiner) turns up on another.
@Suite("Explorer grapheme clusters in tmux", .tags(.tmux, .multiProcess))
struct ExplorerGraphemeTerminalTests {
    @Test(
        .enabled(
            if: TmuxSession.isAvailable, "tmux is not installed: the explorer's terminal tests need a real terminal"))
    func clustersKeepTheirColumnsInARealTerminal() throws {
        let s = try Scratch()
        let db = s.path("g.realm")
        let schema = try s.write("schema.json", #"[{"name": "Dog", "properties": {"name": "string", "age": "int"}}]"#)
        let dogs = try s.write(
            "dogs.json",
            """
            [{"name": "👨‍👩‍👧 family", "age": 1}, {"name": "🇯🇵 Japan", "age": 2}, {"name": "e\\u0301te\\u0301", "age": 3},
             {"name": "1️⃣ first", "age": 4}, {"name": "xxxxxxxxxx👨‍👩‍👧🇯🇵1️⃣e\\u0301👨‍👩‍👧", "age": 5}]
            """)
        let created = try CLI.run(["create", db, "--schema", schema])
        #expect(created.status == 0, "\(created.stderr)")
        let imported = try CLI.run(["import", db, "--class", "Dog", dogs])
        #expect(imported.status == 0, "\(imported.stderr)")
        let tmux = try TmuxSession(script: ExplorerEntryTests.script([db]), width: 60, height: 14)
        defer { tmux.close() }
        _ = try tmux.waitFor("Dog")
        try tmux.sendKeys("j", "Enter")
        let screen = try tmux.waitFor("row 1 of 5")
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map {
            // tmux writes the blanks the explorer drew at the end of a row.
            var row = String($0)
            while row.hasSuffix(" ") { row.removeLast() }
            return row
        }
        // The ages sit in one column: the names before them took the columns the grid gave them
        // (tmux's capture writes each cell's text, so a misplaced cell shifts the digit).
        // ncurses draws one spacing character a cell: the family shows its first person.
        let expected = [
            "› 👨 family             1",
            "  🇯🇵 Japan              2",
            "  e\u{301}te\u{301}                   3",
            "  1  first              4",
            "  xxxxxxxxxx👨🇯🇵1 e\u{301}👨   5",
        ]
        for line in expected {
            #expect(rows.contains(line), "\(line.debugDescription) not on screen:\n\(screen)")
        }
        #expect(!screen.unicodeScalars.contains("\u{200D}"), "a dangling joiner reached the terminal:\n\(screen)")
        try tmux.sendKeys("q")
        _ = try tmux.waitFor("script done")
    }
}
