import CNCurses
import Testing
@testable import RealmTUI
#if canImport(Glibc)
    import Glibc
#endif

/// The ncurses backend's pure parts: key and mouse decoding, colour pairs, the frame diff, the
/// OSC 52 sequence and how cells are handed to ncurses. (The backend on a real terminal is
/// tested in tmux by CLITests' ExplorerEntryTests.)
@Suite struct KeyDecodingTests {
    @Test func controlCodesAreTheirKeys() {
        #expect(KeyDecoding.character(10) == .enter)
        #expect(KeyDecoding.character(13) == .enter)
        #expect(KeyDecoding.character(127) == .backspace)
        #expect(KeyDecoding.character(8) == .backspace)
        #expect(KeyDecoding.character(9) == .tab)
        #expect(KeyDecoding.character(27) == .escape)
    }

    @Test func ctrlLettersAreControlKeys() {
        #expect(KeyDecoding.character(21) == .control("u"))
        #expect(KeyDecoding.character(4) == .control("d"))
        #expect(KeyDecoding.character(2) == .control("b"))
        #expect(KeyDecoding.character(6) == .control("f"))
        #expect(KeyDecoding.character(1) == .control("a"))
        #expect(KeyDecoding.character(26) == .control("z"))
        #expect(KeyDecoding.character(0) == .control(" "))
        #expect(KeyDecoding.character(31) == .control("_"))
    }

    @Test func charactersAreCharacters() {
        #expect(KeyDecoding.character(0x71) == .character("q"))
        #expect(KeyDecoding.character(0x53) == .character("S"))
        #expect(KeyDecoding.character(0x2F) == .character("/"))
        #expect(KeyDecoding.character(0x5F20) == .character("张"))
        #expect(KeyDecoding.character(0x1F600) == .character("😀"))
        #expect(KeyDecoding.character(0x85) == nil, "a C1 control is no key")
        #expect(KeyDecoding.character(0xD800) == nil, "a surrogate is no scalar")
    }

    @Test func functionKeys() {
        let expected: [(Int32, Key)] = [
            (KEY_UP, .up), (KEY_DOWN, .down), (KEY_LEFT, .left), (KEY_RIGHT, .right),
            (KEY_HOME, .home), (KEY_END, .end), (KEY_PPAGE, .pageUp), (KEY_NPAGE, .pageDown),
            (KEY_ENTER, .enter), (KEY_BACKSPACE, .backspace), (KEY_DC, .delete), (KEY_BTAB, .backTab),
            (rt_key_f0() + 1, .function(1)), (rt_key_f0() + 12, .function(12)),
        ]
        for (code, key) in expected { #expect(KeyDecoding.functionKey(code) == key, "\(code)") }
        #expect(KeyDecoding.functionKey(KEY_IC) == nil)
    }

    @Test func mouseReports() {
        #expect(
            KeyDecoding.mouse(state: rt_button_event(1, 2), column: 5, row: 2)
                == MouseEvent(.press(button: 1), column: 5, row: 2))
        #expect(
            KeyDecoding.mouse(state: rt_button_event(1, 4), column: 0, row: 0)
                == MouseEvent(.press(button: 1), column: 0, row: 0))
        #expect(
            KeyDecoding.mouse(state: rt_button_event(3, 2), column: 1, row: 1)
                == MouseEvent(.press(button: 3), column: 1, row: 1))
        #expect(
            KeyDecoding.mouse(state: rt_button4_pressed(), column: 9, row: 3) == MouseEvent(.wheelUp, column: 9, row: 3)
        )
        #expect(
            KeyDecoding.mouse(state: rt_button5_pressed(), column: 9, row: 3)
                == MouseEvent(.wheelDown, column: 9, row: 3))
        #expect(KeyDecoding.mouse(state: rt_button_event(1, 1), column: 5, row: 2) == nil, "a release is ignored")
    }
}

@Suite struct ColorPairTests {
    @Test func pairsAreAllocatedOncePerCombination() {
        var pairs = ColorPairs(limit: 256, hasDefaultColors: true)
        var calls: [[Int16]] = []
        let record: (Int16, Int16, Int16) -> Int32 = {
            calls.append([$0, $1, $2])
            return 0
        }
        #expect(pairs.pair(foreground: .standard, background: .standard, initPair: record) == 0)
        #expect(pairs.pair(foreground: .red, background: .standard, initPair: record) == 1)
        #expect(pairs.pair(foreground: .white, background: .blue, initPair: record) == 2)
        #expect(pairs.pair(foreground: .red, background: .standard, initPair: record) == 1)
        #expect(calls == [[1, 1, -1], [2, 7, 4]])
        #expect(pairs.count == 2)
    }

    @Test func runningOutOfPairsFallsBackToTheDefault() {
        var pairs = ColorPairs(limit: 3, hasDefaultColors: true)
        let ok: (Int16, Int16, Int16) -> Int32 = { _, _, _ in 0 }
        #expect(pairs.pair(foreground: .red, background: .black, initPair: ok) == 1)
        #expect(pairs.pair(foreground: .green, background: .black, initPair: ok) == 2)
        #expect(pairs.pair(foreground: .blue, background: .black, initPair: ok) == 0)
        var failing = ColorPairs(limit: 64, hasDefaultColors: true)
        #expect(failing.pair(foreground: .red, background: .black) { _, _, _ in -1 } == 0)
    }

    @Test func withoutDefaultColorsStandardIsWhiteOnBlack() {
        var pairs = ColorPairs(limit: 64, hasDefaultColors: false)
        var calls: [[Int16]] = []
        _ = pairs.pair(foreground: .standard, background: .standard) {
            calls.append([$0, $1, $2])
            return 0
        }
        #expect(calls == [[1, 7, 0]])
    }
}

@Suite struct GridDiffTests {
    func grid(_ lines: [String], width: Int = 10) -> Grid {
        var g = Grid(width: width, height: lines.count)
        for (row, line) in lines.enumerated() { g.write(line, column: 0, row: row) }
        return g
    }

    @Test func theFirstFrameSendsEveryCellButContinuations() {
        let next = grid(["ab张c", "x"])
        let changes = GridDiff.changes(from: nil, to: next, width: 10, height: 2)
        #expect(changes.count == 19)
        #expect(!changes.contains { $0.column == 3 && $0.row == 0 }, "the right half of 张 is not sent")
    }

    @Test func onlyChangedCellsAreSent() {
        let before = grid(["hello", "world"])
        let after = grid(["hello", "wOrld"])
        let changes = GridDiff.changes(from: before, to: after, width: 10, height: 2)
        #expect(changes.map { [$0.column, $0.row] } == [[1, 1]])
        #expect(GridDiff.changes(from: after, to: after, width: 10, height: 2).isEmpty)
    }

    @Test func aStyleChangeIsAChange() {
        let before = grid(["row"])
        var after = before
        after.restyle(row: 0, count: 2) { $0.reverse = true }
        #expect(GridDiff.changes(from: before, to: after, width: 10, height: 1).map(\.column) == [0, 1])
    }

    @Test func overwritingTheRightHalfOfAWideCharacterRedrawsItsLeft() {
        // "张" at 0-1 becomes "a" at 0 and "b" at 1: both sent.
        #expect(GridDiff.changes(from: grid(["张"]), to: grid(["ab"]), width: 10, height: 1).map(\.column) == [0, 1])
        // A wide character moved right by one: the old right half is overwritten by the new left half.
        let changes = GridDiff.changes(from: grid(["张x"]), to: grid([" 张"]), width: 10, height: 1)
        #expect(changes.map(\.column) == [0, 1])
    }

    @Test func aSizeChangeSendsEverything() {
        let before = grid(["same"], width: 10)
        let after = grid(["same"], width: 12)
        #expect(GridDiff.changes(from: before, to: after, width: 12, height: 1).count == 12)
    }

    @Test func cellsOutsideTheTerminalAreNotSent() {
        let next = grid(["0123456789", "abcdefghij"])
        let changes = GridDiff.changes(from: nil, to: next, width: 4, height: 1)
        #expect(changes.map(\.column) == [0, 1, 2, 3])
        #expect(changes.allSatisfy { $0.row == 0 })
    }
}

@Suite struct OSC52Tests {
    @Test func base64MatchesRFC4648() {
        let vectors = [
            "": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=",
            "foobar": "Zm9vYmFy",
        ]
        for (plain, encoded) in vectors {
            #expect(String(decoding: OSC52.base64(Array(plain.utf8)), as: UTF8.self) == encoded)
        }
    }

    @Test func theSequenceIsOSC52WithBEL() {
        let bytes = OSC52.sequence(for: "张三")
        #expect(String(decoding: bytes, as: UTF8.self) == "\u{1B}]52;c;5byg5LiJ\u{07}")
    }
}

@Suite struct CellDrawingTests {
    init() { _ = setlocale(LC_CTYPE, "C.UTF-8") }

    @Test func textThatLibcMeasuresAlikeIsDrawnAsIs() {
        #expect(NCursesTerminal.drawable("a", width: 1, room: 10) == .text([0x61]))
        #expect(NCursesTerminal.drawable("张", width: 2, room: 10) == .text([0x5F20]))
        #expect(NCursesTerminal.drawable("e\u{301}", width: 1, room: 10) == .text([0x65, 0x301]))
    }

    /// ncurses takes one spacing character a cell: a ZWJ sequence keeps its first emoji, and
    /// never its joiner, which a terminal (tmux 3.3) joined to whatever was drawn next, on
    /// another row ("👨‍" then a flag below showed "‍🇯" there).
    @Test func aZWJSequenceKeepsItsFirstPersonWithoutTheJoiner() {
        #expect(NCursesTerminal.drawable("👨‍👩‍👧", width: 2, room: 10) == .text([0x1F468]))
        #expect(
            NCursesTerminal.drawable("👩🏽‍💻", width: 2, room: 10) == .text([0x1F469, 0x1F3FD])
                || NCursesTerminal.drawable("👩🏽‍💻", width: 2, room: 10) == .text([0x1F469]))
    }

    /// A flag is two regional indicators, one column each for libc: both are drawn, in the
    /// cell and the next, so a terminal that joins them shows the flag and one that does not
    /// shows two letters, in the same two columns.
    @Test func aFlagIsDrawnAsItsTwoRegionalIndicators() {
        #expect(NCursesTerminal.drawable("🇯🇵", width: 2, room: 10) == .pair(0x1F1EF, 0x1F1F5))
        #expect(NCursesTerminal.drawable("🇯🇵", width: 2, room: 1) == .blank)
    }

    @Test func widthDisagreementsKeepColumnsAligned() {
        #expect(NCursesTerminal.drawable("❤️", width: 2, room: 10) == .narrowThenBlank(0x2764))
        #expect(NCursesTerminal.drawable("张", width: 2, room: 1) == .blank, "cut by the right edge")
        #expect(NCursesTerminal.drawable("张", width: 1, room: 10) == .replacement)
        #expect(NCursesTerminal.drawable("", width: 1, room: 10) == .blank)
    }
}

@Suite struct ScriptedTerminalTests {
    @Test func returnsItsScriptThenTheEndEvent() {
        let terminal = ScriptedTerminal(width: 20, height: 5, events: [.key(.down), .resize(width: 30, height: 8)])
        #expect(terminal.nextEvent(timeoutMilliseconds: 100) == .key(.down))
        #expect(terminal.size == (20, 5))
        #expect(terminal.nextEvent(timeoutMilliseconds: 100) == .resize(width: 30, height: 8))
        #expect(terminal.size == (30, 8), "a resize from the script changes the size")
        #expect(terminal.nextEvent(timeoutMilliseconds: 100) == nil)
        terminal.eventWhenScriptEnds = .key(.character("q"))
        terminal.enqueue(.key(.enter))
        #expect(terminal.nextEvent(timeoutMilliseconds: 5) == .key(.enter))
        #expect(terminal.nextEvent(timeoutMilliseconds: 5) == .key(.character("q")))
        #expect(terminal.requestedTimeouts == [100, 100, 100, 5, 5])
    }

    @Test func recordsFramesCopiesAndClose() {
        let terminal = ScriptedTerminal(width: 10, height: 2, framesKept: 2)
        for text in ["one", "two", "three"] {
            var grid = Grid(width: 10, height: 2)
            grid.write(text, column: 0, row: 0)
            terminal.draw(grid)
        }
        #expect(terminal.drawCount == 3)
        #expect(terminal.frames.map { $0.lines[0] } == ["two", "three"])
        #expect(terminal.lastFrame?.lines[0] == "three")
        terminal.copyToClipboard("张三")
        #expect(terminal.copiedTexts == ["张三"])
        #expect(!terminal.isClosed)
        terminal.close()
        terminal.close()
        #expect(terminal.isClosed)
    }
}
