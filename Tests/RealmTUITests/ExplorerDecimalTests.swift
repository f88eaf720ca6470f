import Foundation
import RealmEngine
import RealmTUI
import Testing

/// Decimal128 in the explorer: the table shows Realm Core's text, the editor starts from it and
/// writes the typed text exactly (no rounding through a double), and refuses what is not a decimal.
@Suite("Explorer decimal128")
struct ExplorerDecimalTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Price",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "amount", type: .decimal128),
                Property(name: "discount", type: .decimal128, isOptional: true),
            ])
    ])

    func driver() throws -> (driver: ExplorerDriver, path: String, folder: URL) {
        let folder = try EditFixture.folder()
        let path = folder.appendingPathComponent("prices.realm").path
        let realm = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), schema: Self.schema))
        try realm.write {
            try realm.create(
                "Price", ["id": .int(1), "amount": .decimal128(try Decimal128(parsing: "10.50")), "discount": .null])
            try realm.create(
                "Price",
                [
                    "id": .int(2), "amount": .decimal128(try Decimal128(parsing: "-1E-6143")),
                    "discount": .decimal128(.nan),
                ])
        }
        var driver = try EditFixture.driver(path: path, width: 100)
        driver.press(.enter)
        return (driver, path, folder)
    }

    @Test func cellsShowRealmCoresText() throws {
        let (driver, _, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(driver.screen.lines.contains { $0.contains("10.50") && $0.contains("null") })
        #expect(driver.screen.lines.contains { $0.contains("-1E-6143") && $0.contains("NaN") })
    }

    @Test func theEditorWritesTheDecimalExactly() throws {
        var (driver, path, folder) = try driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("l"), .character("e"))
        #expect(driver.screen.lines.contains("=10.50"))
        driver.press(.control("u"))
        driver.type("0.30000000000000000000000000000001")
        driver.press(.enter)
        let written = try EditFixture.reread(path, "Price", key: 0, "amount")
        #expect(written == .decimal128(try Decimal128(parsing: "0.30000000000000000000000000000001")))
        // Not a decimal: refused, nothing written.
        driver.press(.character("e"), .control("u"))
        driver.type("ten")
        driver.press(.enter)
        #expect(driver.screen.lines.contains { $0.hasPrefix("refused, nothing written") && $0.contains("amount") })
        #expect(try EditFixture.reread(path, "Price", key: 0, "amount") == written)
    }
}
