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
