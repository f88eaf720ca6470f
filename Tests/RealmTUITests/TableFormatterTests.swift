import Testing
@testable import RealmTUI

@Suite struct TableFormatterTests {
    let header = ["id", "name", "city"]
    let rows = [["1", "张三", "北京"], ["22", "Bob", "San Francisco"], ["333", "李四四", ""]]

    @Test func alignsCJKAndRightAlignsNumbers() {
        let lines = TableFormatter().format(header: header, rows: rows, maxWidth: nil)
        #expect(
            lines == [
                " id  name    city",
                "---  ------  -------------",
                "  1  张三    北京",
                " 22  Bob     San Francisco",
                "333  李四四",
            ])
        for line in lines.dropLast() { #expect(displayWidth(line) <= 26) }
    }

    @Test func shrinksTheWidestColumnFirst() {
        let lines = TableFormatter().format(header: header, rows: rows, maxWidth: 20)
        #expect(
            lines == [
                " id  name    city",
                "---  ------  -------",
                "  1  张三    北京",
                " 22  Bob     San Fr…",
                "333  李四四",
            ])
        for line in lines { #expect(displayWidth(line) <= 20) }
    }

    @Test func widthsWaterFill() {
        let f = TableFormatter(columnSeparator: " ", headerRule: nil, minimumColumnWidth: 3)
        #expect(f.columnWidths(natural: [5, 20, 30], maxWidth: 100) == [5, 20, 30])
        #expect(f.columnWidths(natural: [5, 20, 30], maxWidth: 42) == [5, 18, 17])
        #expect(f.columnWidths(natural: [5, 20, 30], maxWidth: 11) == [3, 3, 3])
        // Not even the minimums fit: columns are dropped from the right.
        #expect(f.columnWidths(natural: [5, 20, 30], maxWidth: 8) == [4, 3, 0])
        #expect(f.columnWidths(natural: [5, 20, 30], maxWidth: 2) == [2, 0, 0])
        #expect(f.columnWidths(natural: [1, 20], maxWidth: 6) == [1, 4])
        for max in 0...60 {
            let w = f.columnWidths(natural: [5, 20, 30, 2], maxWidth: max)
            let shown = w.filter { $0 > 0 }
            #expect(shown.reduce(0, +) + Swift.max(0, shown.count - 1) <= Swift.max(max, 0) || shown.count <= 1)
        }
    }

    @Test func everyLineFitsAnyWidth() {
        let f = TableFormatter(columnSeparator: " | ")
        let cjk = [["名前", "説明"], ["長い長い名前です", "とても長い説明がここに入ります"], ["x", "😀😀😀😀"]]
        for width in 1...60 {
            for line in f.format(header: cjk[0], rows: Array(cjk.dropFirst()), maxWidth: width) {
                #expect(displayWidth(line) <= width, "\(width): \(line)")
            }
        }
    }

    @Test func cellsAreOneLineAndRaggedRowsAreFilled() {
        let lines = TableFormatter(headerRule: nil).format(
            header: nil, rows: [["a\nb", "c"], ["d"]], maxWidth: nil, alignments: [.left, .left])
        #expect(lines == ["a␊b  c", "d"])
    }

    @Test func separatorRule() {
        let lines = TableFormatter(columnSeparator: " | ").format(
            header: ["a", "b"], rows: [["1", "x"]], maxWidth: nil)
        #expect(lines == ["a | b", "--+--", "1 | x"])
        #expect(TableFormatter().format(header: nil, rows: [], maxWidth: 10) == [])
    }
}
