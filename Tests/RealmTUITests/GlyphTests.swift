import Testing
@testable import RealmTUI

/// A cell keeps its cluster's bytes inline; what it gives back is what it was given, or, for a
/// cluster longer than a glyph holds, its first whole scalars.
@Suite struct GlyphTests {
    @Test(arguments: [
        "", " ", "a", "~", "é", "e\u{301}", "张", "😀", "👨‍👩‍👧", "🇯🇵", "␛", "\u{FFFD}",
        String(repeating: "x", count: 23), String(repeating: "é", count: 11) + "x",
    ])
    func keepsWhatFits(_ text: String) {
        #expect(Glyph(text).text == text)
        #expect(Glyph(text).count == text.utf8.count)
        #expect(Cell(text).text == text)
        #expect(Cell(text).isContinuation == text.isEmpty)
    }

    @Test func aLongClusterKeepsItsFirstWholeScalars() {
        // 1 + 30 × 2 bytes: the base and 11 combining marks fit in 23 bytes.
        let accented = "e" + String(repeating: "\u{301}", count: 30)
        #expect(Glyph(accented).text == "e" + String(repeating: "\u{301}", count: 11))
        // 👨‍👩‍👧‍👦 is 25 bytes: the last 👦 (4 bytes) does not fit, and no half scalar is kept.
        let family = "👨‍👩‍👧‍👦"
        #expect(Glyph(family).text == "👨\u{200D}👩\u{200D}👧\u{200D}")
        #expect(String(repeating: "x", count: 40).utf8.count > Glyph.capacity)
        #expect(Glyph(String(repeating: "x", count: 40)).count == Glyph.capacity)
        for length in 0...40 {
            let text = String(repeating: "张", count: length)
            let kept = Glyph(text).text
            #expect(kept == String(repeating: "张", count: min(length, Glyph.capacity / 3)))
        }
    }

    @Test func theScalarAndASCIIFormsMatchTheTextForm() {
        for value in [0x20, 0x41, 0x7E, 0xE9, 0x301, 0x2026, 0x5F20, 0xFFFD, 0x1F600, 0x3FFFD] as [UInt32] {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(Glyph(scalar) == Glyph(String(scalar)))
        }
        for byte in UInt8(0x20)...UInt8(0x7E) {
            #expect(Glyph(ascii: byte) == Glyph(String(UnicodeScalar(byte))))
        }
        #expect(Glyph.blank.text == " " && Glyph.continuation.isEmpty)
    }

    @Test func cellsCompareByTextAndStyle() {
        #expect(Cell("张") == Cell("张"))
        #expect(Cell("张") != Cell("三"))
        #expect(Cell("a", style: CellStyle(bold: true)) != Cell("a"))
        #expect(Set([Cell("a"), Cell("a"), Cell("b")]).count == 2)
        var cell = Cell("a")
        cell.text = "大"
        #expect(cell == Cell("大"))
    }
}
