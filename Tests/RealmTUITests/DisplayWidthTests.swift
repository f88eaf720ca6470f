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
        "·", "›", "▲", "␛", "か", "\u{3099}", "ｶ", "ﾞ", "한", "\u{1100}", "\u{1161}", "⚠", "\u{FE0F}", "👍", "🏽",
        "\u{200D}",
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

    /// Two scalars that each stand alone never form one cluster (but CR LF), whichever comes first:
    /// every such scalar of planes 0 to 3, against Swift's own breaking.
    @Test func standaloneScalarsAreClustersOfOne() {
        let neighbours: [Unicode.Scalar] = [
            "a", "\r", "\n", "\u{1B}", "é", "张", "…", "▲", "か", "ｶ", "😀", "🙏", "\u{FFFD}",
        ]
        var checked = 0
        for value in 0..<0x40000 {
            guard let scalar = Unicode.Scalar(UInt32(value)), standsAlone(scalar) else { continue }
            checked += 1
            for neighbour in neighbours + [scalar] where !(scalar == "\r" && neighbour == "\n") {
                var pair = String.UnicodeScalarView()
                pair.append(scalar)
                pair.append(neighbour)
                #expect(
                    String(pair).count == 2,
                    "U+\(String(value, radix: 16)) then U+\(String(neighbour.value, radix: 16))")
                if neighbour != "\r" {
                    pair = String.UnicodeScalarView([neighbour, scalar])
                    #expect(
                        String(pair).count == 2,
                        "U+\(String(neighbour.value, radix: 16)) then U+\(String(value, radix: 16))")
                }
            }
        }
        #expect(checked > 150_000)
        #expect(
            !standsAlone("\u{301}") && !standsAlone("\u{200D}") && !standsAlone("\u{FE0F}") && !standsAlone("\u{1F3FD}")
        )
        #expect(!standsAlone("\u{1100}") && !standsAlone("한") && !standsAlone("\u{1F1EF}") && !standsAlone("\u{FF9E}"))
    }

    /// `Grid.write` answers what writing a cell per grapheme cluster answers, for every sample,
    /// at several columns and limits.
    @Test func writingMatchesTheClusterPath() {
        func clusterWrite(_ text: String, column: Int, limit: Int) -> (Grid, Int) {
            var grid = Grid(width: 12, height: 1)
            let end = min(12, column + limit)
            var x = column
            for character in sanitizeForTerminal(text) {
                let columns = displayWidth(of: character)
                if columns == 0 { continue }
                if x + columns > end {
                    if x < end {
                        grid[x, 0] = Cell(" ")
                        x += 1
                    }
                    break
                }
                if x >= 0 {
                    grid[x, 0] = Cell(String(character))
                    if columns == 2 { grid[x + 1, 0] = Cell("") }
                }
                x += columns
            }
            return (grid, x - column)
        }
        for text in Self.samples() {
            for (column, limit) in [(0, 12), (-1, 12), (3, 4), (2, 1)] {
                var grid = Grid(width: 12, height: 1)
                let used = grid.write(text, column: column, row: 0, limit: limit)
                let (expected, expectedUsed) = clusterWrite(text, column: column, limit: limit)
                #expect(
                    grid == expected && used == expectedUsed,
                    "\(text.unicodeScalars.map { String($0.value, radix: 16) }) at \(column), limit \(limit)")
            }
        }
    }

    /// `truncate` answers what cutting a grapheme cluster at a time answers.
    @Test func truncatingMatchesTheClusterPath() {
        for text in Self.samples() {
            let clean = sanitizeForTerminal(text)
            for width in 1...8 {
                var expected = clean
                if clean.reduce(0, { $0 + displayWidth(of: $1) }) > width {
                    expected = ""
                    var used = 0
                    for character in clean {
                        let columns = displayWidth(of: character)
                        if used + columns > width - 1 { break }
                        expected.append(character)
                        used += columns
                    }
                    expected += "…"
                }
                #expect(
                    truncate(text, toWidth: width) == expected,
                    "\(text.unicodeScalars.map { String($0.value, radix: 16) }) to \(width)")
            }
        }
    }

    /// Writing in a width with an alignment draws what writing `pad`'s text draws, for text that
    /// does not start with a mark that joins the blank before it (see the next test).
    @Test func paddedWritingMatchesWritingThePaddedText() {
        for text in Self.samples() {
            let clean = sanitizeForTerminal(text)
            let startsWithMark = (" " + clean).count != 1 + clean.count
            for (column, width) in [(0, 12), (2, 5), (9, 6), (3, 1), (0, 0)] {
                for alignment in [TextAlignment.left, .right, .center] where alignment == .left || !startsWithMark {
                    var grid = Grid(width: 12, height: 1)
                    grid.write(
                        text, column: column, row: 0, style: CellStyle(underline: true), width: width,
                        alignment: alignment)
                    var expected = Grid(width: 12, height: 1)
                    expected.write(
                        pad(text, toWidth: width, alignment: alignment), column: column, row: 0,
                        style: CellStyle(underline: true), limit: width)
                    let same = grid == expected
                    #expect(
                        same,
                        "\(text.unicodeScalars.map { String($0.value, radix: 16) }) at \(column) in \(width), \(alignment): \(grid.lines) against \(expected.lines)"
                    )
                }
            }
        }
    }

    /// A mark that starts a value is not joined to the blanks before it: joined to a blank,
    /// U+FE0F made a two-column cluster and pushed the value's last character out, and a
    /// one-column mark (U+FF9E) shared the blank's cell, leaving the value a column short.
    @Test func aLeadingMarkDoesNotJoinThePadding() {
        var grid = Grid(width: 6, height: 1)
        grid.write("\u{FE0F}ab", column: 0, row: 0, width: 6, alignment: .right)
        #expect(grid.lines == ["    ab"])
        grid.write("\u{FE0F}ab", column: 0, row: 0, width: 6, alignment: .center)
        #expect(grid.lines == ["  ab"])
        grid.write("\u{FF9E}ab", column: 0, row: 0, width: 6, alignment: .right)
        #expect(grid.lines == ["   \u{FF9E}ab"])
    }

    @Test func asciiTextFillsOneCellPerByteUpToTheLimit() {
        for text in ["", "a", "hello world", "0123456789abcdef", "~!@#$%^&*()_+{}|:<>?"] {
            for column in [-3, 0, 2, 9] {
                for limit in [nil, 0, 1, 4, 30] as [Int?] {
                    var grid = Grid(width: 10, height: 1)
                    let used = grid.write(text, column: column, row: 0, style: CellStyle(bold: true), limit: limit)
                    let end = min(10, limit.map { column + $0 } ?? 10)
                    let characters = Array(text)
                    #expect(
                        used == min(end, column + characters.count) - column,
                        "\(text) at \(column), limit \(String(describing: limit))")
                    for x in 0..<10 {
                        let inside = x >= column && x < min(end, column + characters.count)
                        let expected =
                            inside ? Cell(String(characters[x - column]), style: CellStyle(bold: true)) : Cell()
                        #expect(
                            grid[x, 0] == expected,
                            "\(text) at \(column), limit \(String(describing: limit)), cell \(x)")
                    }
                }
            }
        }
    }
}
