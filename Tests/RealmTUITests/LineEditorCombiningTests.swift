import RealmTUI
import Testing

/// A combining mark typed after a letter joins it into one character (found by fuzz-explorer:
/// the cursor counted two characters, and drawing the query bar indexed past the text's end).
@Suite struct LineEditorCombiningTests {
    @Test func combiningMarkJoinsThePreviousCharacter() {
        var editor = LineEditor()
        _ = editor.handle(.character("e"))
        _ = editor.handle(.character("\u{301}"))
        #expect(editor.text == "é")
        #expect(editor.cursor == editor.text.count)
    }

    @Test func letterBeforeACombiningMarkKeepsTheCursorInside() {
        var editor = LineEditor("\u{301}x")
        _ = editor.handle(.home)
        _ = editor.handle(.character("a"))
        #expect(editor.cursor <= editor.text.count)
        _ = editor.handle(.end)
        _ = editor.handle(.backspace)
        #expect(editor.cursor == editor.text.count)
    }

    @Test func replacementEndingInACombiningMarkKeepsTheCursorInside() {
        var editor = LineEditor("ab")
        editor.replace(0..<1, with: "x\u{301}")
        #expect(editor.cursor <= editor.text.count)
        editor.replace(1..<2, with: "\u{301}")
        #expect(editor.cursor <= editor.text.count)
    }

    @Test func classFilterDrawsAfterACombiningMark() throws {
        var driver = try ExplorerFixture.driver()
        driver.press(.character("/"))
        driver.type("e\u{301}")
        #expect(driver.screen.lines.contains { $0.contains("é") })
    }
}
