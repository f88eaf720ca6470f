import Foundation
import RealmEngine
@testable import RealmTUI
import Testing

/// NaN is not equal to itself, so change checks that compared stored values with `==` saw a
/// change where there was none. Before: undo of a NaN write was refused ("changed since"), a
/// batch touching an object holding NaN always reported a conflict, a detail view of such an
/// object showed "was: nan" after unrelated commits, and its table row marked the NaN cell.
@Suite("Explorer: NaN in change checks")
struct ExplorerNaNTests {
    typealias Fixture = ExplorerLiveTests.Fixture

    /// The fixture file with Dog#0's weight NaN, and a driver on the Dog table.
    func nanDogTable() throws -> (driver: ExplorerDriver, path: String, folder: URL) {
        let folder = try EditFixture.folder()
        let path = folder.appendingPathComponent("fixture.realm").path
        try EditFixture.fixtureFile(at: path)
        let writer = try Realm(path: path)
        try writer.write {
            try writer.object(ofType: "Dog", key: ObjectKey(0))?.setValue(.double(.nan), forKey: "weight")
        }
        var driver = try EditFixture.driver(path: path, width: 120)
        driver.press(.down, .enter, .character("l"))
        return (driver, path, folder)
    }

    @Test func undoOfANaNWriteRestoresTheValue() throws {
        let folder = try EditFixture.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("fixture.realm").path
        try EditFixture.fixtureFile(at: path)
        var driver = try EditFixture.driver(path: path)
        driver.press(.down, .enter, .character("l"), .character("l"))  // 大黄's weight, 12.5
        driver.press(.character("e"), .control("u"))
        driver.type("nan")
        driver.press(.enter)
        guard case .double(let written)? = try EditFixture.reread(path, "Dog", key: 0, "weight") else {
            Issue.record("weight is not a double")
            return
        }
        #expect(written.isNaN)
        driver.press(.character("u"))
        #expect(!driver.statusText.contains("changed since"), "\(driver.statusText)")
        #expect(try EditFixture.reread(path, "Dog", key: 0, "weight") == .double(12.5))
    }

    @Test func aBatchTouchingAnObjectHoldingNaNCommits() throws {
        var (driver, path, folder) = try nanDogTable()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character(":"))
        driver.type("begin")
        driver.press(.enter)
        driver.press(.character("e"), .control("u"))
        driver.type("7")
        driver.press(.enter, .control("s"))
        #expect(!driver.statusText.contains("conflict"), "\(driver.statusText)")
        #expect(try EditFixture.reread(path, "Dog", key: 0, "age") == .int(7))
    }

    @Test func anUnrelatedCommitMarksNothingOnAnObjectHoldingNaN() throws {
        let f = try Fixture(height: 14, opening: [.down, .enter]) { writer in
            try writer.create("Dog", ["name": .string("nan dog"), "age": .int(1), "weight": .double(.nan)])
            try writer.create("Dog", ["name": .string("other"), "age": .int(2)])
        }
        // The table: a commit changing the NaN dog's age marks its age cell only.
        try f.commit { _ in try f.dog("nan dog").setValue(.int(5), forKey: "age") }
        f.driver.refresh()
        let table = try ExplorerLiveChangesTests.table(f.driver.state)
        let nanDog = try f.dog("nan dog").key
        #expect(table.marks[nanDog]?.cells == [try ExplorerLiveChangesTests.index("age", in: table)])
        // Its detail view: an unrelated commit shows no "was:".
        f.driver.press(.enter)
        try f.commit { _ in try f.dog("other").setValue(.int(3), forKey: "age") }
        f.driver.refresh()
        #expect(!f.lines.contains { $0.contains("was:") }, "\(f.lines)")
        let detail = try ExplorerLiveChangesTests.detail(f.driver.state)
        #expect(detail.changes.isEmpty)
    }
}
