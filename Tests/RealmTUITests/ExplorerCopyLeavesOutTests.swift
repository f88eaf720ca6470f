import Foundation
import RealmEngine
import RealmTUI
import Testing

/// `:copy PATH` on a file whose copy would not hold everything (a Realm file with properties
/// this version cannot show yet) asks first, as `realmtui copy` refuses without
/// `--leave-out-unsupported`. Before, it wrote the shorter copy without a word.
@Suite("Explorer :copy asks before leaving something out")
struct ExplorerCopyLeavesOutTests {
    @Test func copyAsksAndNoWritesNothing() throws {
        let folder = try EditFixture.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("seed.realm").path
        try EditFixture.fixtureFile(at: path)
        var driver = try EditFixture.driver(path: path, readOnly: true)
        driver.state.copyLeavesOut = "Dog.toys (a set)"
        let copy = folder.appendingPathComponent("copy.realm").path

        driver.press(.character(":"))
        driver.type("copy \(copy)")
        driver.press(.enter)
        #expect(
            driver.screen.lines.contains {
                $0.contains("the copy leaves out what is not shown (Dog.toys (a set)): copy anyway? (y/n)")
            },
            "\(driver.screen.lines)")
        #expect(!FileManager.default.fileExists(atPath: copy))
        driver.press(.character("n"))
        #expect(!FileManager.default.fileExists(atPath: copy))
        #expect(driver.state.readOnly)

        driver.press(.character(":"))
        driver.type("copy \(copy)")
        driver.press(.enter, .character("y"))
        #expect(FileManager.default.fileExists(atPath: copy))
        #expect(driver.statusText.contains("copy.realm is open writable"), "\(driver.statusText)")
    }

    @Test func aCopyThatHoldsEverythingDoesNotAsk() throws {
        let folder = try EditFixture.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("seed.realm").path
        try EditFixture.fixtureFile(at: path)
        var driver = try EditFixture.driver(path: path, readOnly: true)
        let copy = folder.appendingPathComponent("copy.realm").path
        driver.press(.character(":"))
        driver.type("copy \(copy)")
        driver.press(.enter)
        #expect(FileManager.default.fileExists(atPath: copy))
    }
}
