import Foundation
import RealmEngine
import RealmTUI
import Testing

/// `y` copies a value in the export syntax (what `realmtui export` writes and the editors and
/// `import` read back), not the table's display form (issue 29, item 16).
@Suite struct ExplorerCopyTests {
    @Test func copyUsesTheExportSyntax() throws {
        var driver = try ExplorerFixture.driver()
        // Table, row 张三, column photo (data): base64, as export writes it.
        driver.press(.enter, .character("l"), .character("l"), .character("l"), .character("l"), .character("y"))
        #expect(
            driver.copied.last
                == Data([0xCA, 0xFE, 0xBA, 0xBE, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05]).base64EncodedString())
        // Detail view: a list of strings is a JSON array; a list of links names each target as
        // export does (Dog has no primary key: by position).
        driver.press(
            .enter, .character("j"), .character("j"), .character("j"), .character("j"), .character("j"), .character("y")
        )
        #expect(driver.copied.last == #"[{"$ref":"Dog","$index":0},{"$ref":"Dog","$index":1}]"#)
        driver.press(.character("j"), .character("y"))
        #expect(driver.copied.last == #"["owner","北京"]"#)
        // A string is its text, a date ISO 8601.
        driver.press(.character("k"), .character("k"), .character("k"), .character("k"), .character("y"))
        #expect(driver.copied.last == "小张")
        driver.press(.character("j"), .character("y"))
        #expect(driver.copied.last == "1990-01-01T00:00:00.25Z")
    }

    @Test func copiedNullReadsBackAsNull() throws {
        var driver = try ExplorerFixture.driver()
        // Ann (row 2): born is nil → `null`, which the editors read as nil.
        driver.press(.enter, .character("j"), .character("l"), .character("l"), .character("l"), .character("y"))
        #expect(driver.copied.last == "null")
    }
}
