import Testing
@testable import RealmTUI

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("", 0), ("abc", 3), ("hello world", 11), ("é", 1), ("e\u{301}", 1), ("ñandú", 5),
        ("张三", 4), ("大黄 dog", 8), ("ｆｕｌｌ", 8), ("한국어", 6), ("\u{1100}\u{1161}\u{11A8}", 2), ("カタカナ", 8), ("ｶﾀｶﾅ", 4),
        ("😀", 2), ("👍🏽", 2), ("👨‍👩‍👧", 2), ("🇯🇵", 2), ("❤️", 2), ("❤", 1), ("1️⃣", 2),
        ("\u{301}", 0), ("\u{200B}", 0), ("a\u{200D}b", 2), ("\u{FEFF}", 0),
        ("\n", 1), ("a\tb", 3), ("\r\n", 2), ("\u{1B}[31m", 5), ("\u{85}", 1), ("…", 1), ("─", 1),
        ("𠀀", 2), ("\u{2FFFD}", 2),
    ])
    func widths(_ text: String, _ width: Int) {
        #expect(displayWidth(text) == width, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func sanitizesControls() {
        #expect(sanitizeForTerminal("a\nb") == "a␊b")
        #expect(sanitizeForTerminal("\u{1B}[2J") == "␛[2J")
        #expect(sanitizeForTerminal("\u{0}\u{7F}\u{85}\u{2028}") == "␀␡\u{FFFD}\u{FFFD}")
        #expect(sanitizeForTerminal("张三 ok") == "张三 ok")
        #expect(displayWidth(sanitizeForTerminal("\r\n\t")) == displayWidth("\r\n\t"))
    }

    @Test func truncates() {
        #expect(truncate("hello", toWidth: 10) == "hello")
        #expect(truncate("hello", toWidth: 5) == "hello")
        #expect(truncate("hello world", toWidth: 5) == "hell…")
        #expect(truncate("张三李四", toWidth: 5) == "张三…")
        #expect(truncate("张三李四", toWidth: 4) == "张…")  // 张 (2) + … (1) = 3: 三 would straddle
        #expect(truncate("abc", toWidth: 1) == "…")
        #expect(truncate("abc", toWidth: 0) == "")
        #expect(truncate("e\u{301}e\u{301}e\u{301}", toWidth: 2) == "e\u{301}…")
        #expect(truncate("👨‍👩‍👧👨‍👩‍👧", toWidth: 3) == "👨‍👩‍👧…")
        #expect(truncate("a\nb\nc", toWidth: 3) == "a␊…")
        #expect(truncate("abcdef", toWidth: 4, ellipsis: "...") == "a...")
        #expect(truncate("abcdef", toWidth: 2, ellipsis: "...") == "ab")
        for w in 0...10 {
            #expect(displayWidth(truncate("张a三b李c四", toWidth: w)) <= w)
        }
    }

    @Test func pads() {
        #expect(pad("ab", toWidth: 5) == "ab   ")
        #expect(pad("ab", toWidth: 5, alignment: .right) == "   ab")
        #expect(pad("ab", toWidth: 5, alignment: .center) == " ab  ")
        #expect(pad("张三", toWidth: 5) == "张三 ")
        #expect(pad("张三李四", toWidth: 4) == "张… ")
        #expect(pad("abc", toWidth: 0) == "")
        for w in 1...12 {
            #expect(displayWidth(pad("张a三b李c四😀", toWidth: w)) == w)
        }
    }
}

/// The ASCII and UTF-8 shortcuts of `displayWidth`, `sanitizeForTerminal` and `Grid.write` answer
/// exactly what the cluster-by-cluster paths answer.
@Suite struct TextShortcutTests {
    static let pieces: [String] = [
        "a", "Z", " ", "~", "\n", "\r\n", "\t", "\u{1B}", "\u{7F}", "\u{0}", "\u{85}", "\u{9F}", "\u{A0}",
        "\u{2028}", "\u{2029}", "\u{2027}", "\u{202A}", "é", "e\u{301}", "\u{301}", "张", "😀", "🇯🇵", "…", "─",
    ]

    /// Strings of 0–12 pieces from a fixed sequence, so every run checks the same ones.
    static func samples() -> [String] {
        var state: UInt64 = 7
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        return (0..<2_000).map { _ in (0..<next() % 13).map { _ in pieces[next() % pieces.count] }.joined() }
    }

    @Test func widthsAndControlsMatchTheClusterPaths() {
        for text in Self.samples() {
            let slow = text.reduce(0) { $0 + displayWidth(of: $1) }
            #expect(displayWidth(text) == slow, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(containsControl(text) == text.unicodeScalars.contains(where: isControl))
        }
    }

    @Test func asciiTextFillsOneCellPerByteUpToTheLimit() {
        for text in ["", "a", "hello world", "0123456789abcdef", "~!@#$%^&*()_+{}|:<>?"] {
            for column in [-3, 0, 2, 9] {
                for limit in [nil, 0, 1, 4, 30] as [Int?] {
                    var grid = Grid(width: 10, height: 1)
                    let used = grid.write(text, column: column, row: 0, style: CellStyle(bold: true), limit: limit)
                    let end = min(10, limit.map { column + $0 } ?? 10)
                    let characters = Array(text)
                    #expect(used == min(end, column + characters.count) - column, "\(text) at \(column), limit \(String(describing: limit))")
                    for x in 0..<10 {
                        let inside = x >= column && x < min(end, column + characters.count)
                        let expected = inside ? Cell(String(characters[x - column]), style: CellStyle(bold: true)) : Cell()
                        #expect(grid[x, 0] == expected, "\(text) at \(column), limit \(String(describing: limit)), cell \(x)")
                    }
                }
            }
        }
    }
}
