import Foundation
import RealmEngine
import RealmTUI
import Testing

/// Emoji ZWJ sequences, flags, keycaps and combining marks on screen: a cell holds a whole
/// grapheme cluster, is as wide as a terminal draws it, and a cut (at a column's edge or the
/// screen's) never splits one nor leaves part of it in a neighbouring cell.
@Suite("Grapheme clusters on screen")
struct GraphemeScreenTests {
    static let names = ["👨‍👩‍👧 family", "🇯🇵 Japan", "e\u{301}te\u{301}", "1️⃣ first"]

    static func driver(width: Int, height: Int = 16) throws -> ExplorerDriver {
        let realm = try Realm(
            configuration: .init(
                inMemoryIdentifier: "graphemes-\(UUID().uuidString)",
                schema: ExplorerFixture.schema))
        try realm.write {
            for name in names { try realm.create("Dog", ["name": .string(name), "age": .int(1)]) }
            // Each cluster in turn at a column's edge and at the screen's.
            for pad in [9, 10, 11, 12, width - 6, width - 5, width - 4] {
                try realm.create(
                    "Dog", ["name": .string(String(repeating: "x", count: pad) + "👨‍👩‍👧🇯🇵1️⃣e\u{301}👨‍👩‍👧"), "age": .int(2)])
            }
        }
        return ExplorerDriver(
            state: ExplorerState(realm: realm, fileName: "g.realm", readOnly: false, width: width, height: height))
    }

    /// Every cell holds one whole cluster of the width its grid spans; a wide one is followed by
    /// its continuation; every row spans the grid's width exactly.
    static func expectWholeClusters(_ grid: Grid, sourceLocation: SourceLocation = #_sourceLocation) {
        for row in 0..<grid.height {
            var column = 0
            while column < grid.width {
                let cell = grid[column, row]
                #expect(
                    !cell.isContinuation, "row \(row) column \(column): a continuation without its wide cluster",
                    sourceLocation: sourceLocation)
                #expect(
                    cell.text.count == 1,
                    "row \(row) column \(column): \(cell.text.unicodeScalars.map { String($0.value, radix: 16) }) is not one cluster",
                    sourceLocation: sourceLocation)
                let width = displayWidth(cell.text)
                #expect(
                    width == 1 || width == 2, "row \(row) column \(column): width \(width)",
                    sourceLocation: sourceLocation)
                if width == 2 {
                    #expect(
                        grid[column + 1, row].isContinuation || column + 1 == grid.width, sourceLocation: sourceLocation
                    )
                    column += 2
                } else {
                    column += 1
                }
            }
        }
    }

    @Test func widthsOfTheClustersAreAsTerminalsDrawThem() {
        #expect(displayWidth("👨‍👩‍👧") == 2)
        #expect(displayWidth("🇯🇵") == 2)
        #expect(displayWidth("e\u{301}") == 1)
        #expect(displayWidth("1️⃣") == 2)
        #expect(displayWidth("❤️") == 2)
        #expect(displayWidth("👨‍👩‍👧 family") == 9)
    }

    @Test func aTableRowAndItsEdges() throws {
        var driver = try Self.driver(width: 40)
        driver.press(.down, .enter)
        try expectGolden("graphemes-table", driver.screen)
        Self.expectWholeClusters(driver.screen)
        for name in Self.names.map({ $0.split(separator: " ")[0] }) {
            #expect(driver.screen.lines.contains { $0.contains(name) }, "\(name) not shown whole")
        }
    }

    @Test func aDetailValueAtTheScreensEdge() throws {
        for width in 40...44 {
            var driver = try Self.driver(width: width)
            driver.press(.down, .enter)
            for _ in 0..<11 {
                driver.press(.enter)
                Self.expectWholeClusters(driver.screen)
                driver.press(.escape, .down)
            }
        }
        var last = try Self.driver(width: 40)
        last.press(.down, .enter, .character("G"), .enter)
        try expectGolden("graphemes-detail-40", last.screen)
        var driver = try Self.driver(width: 40)
        driver.press(.down, .enter, .enter)
        Self.expectWholeClusters(driver.screen)
        #expect(driver.screen.lines.contains { $0.contains("👨‍👩‍👧 family") })
    }

    @Test func narrowColumnsCutBeforeACluster() throws {
        for width in 40...46 {
            var driver = try Self.driver(width: width, height: 16)
            driver.press(.down, .enter)
            Self.expectWholeClusters(driver.screen)
        }
    }
}
