import Foundation
import RealmEngine
import RealmTUI
import Testing

/// Live updates: commits from another instance reach the table through its collection
/// notifications; the cursor stays on its object; marks; pause; deleted objects.
@Suite("Explorer live updates")
struct ExplorerLiveTests {
    /// A file with `count` dogs named "dog 0"… (age i % 20), an explorer driver on it showing
    /// the Dog table, and a second instance of the file to commit from.
    final class Fixture {
        let folder: URL
        let path: String
        var driver: ExplorerDriver
        let writer: Realm

        convenience init(count: Int = 50, height: Int = 14) throws {
            try self.init(height: height, opening: [.down, .enter]) { writer in
                for i in 0..<count {
                    try writer.create("Dog", ["name": .string("dog \(i)"), "age": .int(Int64(i % 20))])
                }
            }
        }

        /// A file of the fixture's schema filled by `fill` in one commit, the explorer on it
        /// after the keys `opening`.
        init(height: Int, opening keys: [Key], fill: (Realm) throws -> Void) throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "realmtui-live-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = folder.appendingPathComponent("live.realm").path
            let writer = try Realm(path: path, schema: ExplorerFixture.schema)
            try writer.write { try fill(writer) }
            self.folder = folder
            self.path = path
            self.writer = writer
            let realm = try Realm(path: path)
            driver = ExplorerDriver(
                state: ExplorerState(realm: realm, fileName: "live.realm", readOnly: false, width: 80, height: height))
            for key in keys { driver.press(key) }
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        func commit(_ body: (Realm) throws -> Void) throws {
            try writer.write { try body(writer) }
        }

        func dog(_ name: String) throws -> DynamicObject {
            try #require(try writer.objects("Dog").filter("name == $0", .string(name)).first)
        }

        var lines: [String] { driver.screen.lines }
        var cursorLine: String { lines.first { $0.hasPrefix("›") } ?? "" }
    }

    /// "N objects match" is about the version the query ran on: a commit that changes the
    /// result takes it off the status line, which then shows only the live count.
    @Test func aQuerysMatchCountDoesNotOutliveItsVersion() throws {
        let f = try Fixture(height: 14)
        f.driver.press(.character("/"))
        f.driver.type("age < 5")
        f.driver.press(.enter)
        #expect(f.driver.statusText.contains("15 objects match") == true, "\(f.lines)")
        try f.commit { try $0.create("Dog", ["name": .string("new"), "age": .int(1)]) }
        let moved = f.driver.refresh()
        #expect(moved)
        #expect(f.driver.statusText.contains("16 objects") == true, "\(f.lines)")
        #expect(f.driver.statusText.contains("15 objects match") == false, "a count of an older version: \(f.lines)")
    }

    @Test func insertsAboveTheCursorKeepItOnItsObjectAndAreMarked() throws {
        let f = try Fixture()
        f.driver.press(.character("/"))
        f.driver.type("age < 5 SORT(name ASC)")
        f.driver.press(.enter, .down, .down)
        #expect(f.cursorLine.contains("dog 2 "))
        try f.commit { try $0.create("Dog", ["name": .string("dog 0a"), "age": .int(1)]) }
        let moved = f.driver.refresh()
        #expect(moved)
        #expect(f.cursorLine.contains("dog 2 "), "\(f.lines)")
        #expect(f.lines.contains { $0.hasPrefix(" +dog 0a") }, "\(f.lines)")
        #expect(f.driver.statusText.contains("row 4 of") == true)
        f.driver.send(.tick(seconds: 10))
        #expect(!f.lines.contains { $0.hasPrefix(" +") })
    }

    @Test func aDeletedCursorObjectMovesToItsNeighbourAndSaysSo() throws {
        let f = try Fixture()
        f.driver.press(.down, .down, .down)
        #expect(f.cursorLine.contains("dog 3 "))
        try f.commit { try $0.delete(try f.dog("dog 3")) }
        f.driver.refresh()
        #expect(f.cursorLine.contains("dog 4 "), "\(f.lines)")
        #expect(f.driver.statusText.contains("deleted") == true, "\(f.driver.statusText)")
        f.driver.press(.up)
        #expect(f.driver.statusText.contains("49 objects") == true, "\(f.driver.statusText)")
    }

    @Test func theCursorFollowsItsObjectWhenTheSortMovesIt() throws {
        let f = try Fixture()
        f.driver.press(.character("/"))
        f.driver.type("TRUEPREDICATE SORT(age ASC, name ASC)")
        f.driver.press(.enter, .down)
        let before = f.cursorLine
        #expect(before.contains("dog 20 "))
        try f.commit { _ in try f.dog("dog 20").setValue(.int(19), forKey: "age") }
        f.driver.refresh()
        #expect(f.cursorLine.contains("dog 20 "), "\(f.lines)")
        #expect(f.cursorLine.contains("19"))
    }

    @Test func modificationsAreMarked() throws {
        let f = try Fixture()
        try f.commit { _ in try f.dog("dog 1").setValue(.int(7), forKey: "weight") }
        f.driver.refresh()
        #expect(f.lines.contains { $0.hasPrefix(" ~dog 1 ") }, "\(f.lines)")
    }

    @Test func aBulkUpdateOfASortedFilteredTableIsMarked() throws {
        let f = try Fixture()
        f.driver.press(.character("/"))
        f.driver.type("age < 10")
        f.driver.press(.enter, .character("l"), .character("S"))
        try f.commit { realm in
            try realm.objects("Dog").filter("name == 'dog 9'").setValue(.value(.double(7)), forKey: "weight")
        }
        f.driver.refresh()
        #expect(f.lines.contains { $0.contains("~dog 9 ") }, "\(f.lines)")
    }

    @Test func aModificationOfASortedTableIsMarked() throws {
        let f = try Fixture()
        f.driver.press(.character("l"), .character("S"))
        try f.commit { _ in try f.dog("dog 19").setValue(.double(7), forKey: "weight") }
        f.driver.refresh()
        #expect(f.lines.contains { $0.contains("~dog 19 ") }, "\(f.lines)")
    }

    @Test func aModificationOfAFilteredTableIsMarked() throws {
        let f = try Fixture()
        f.driver.press(.character("/"))
        f.driver.type("age < 10")
        f.driver.press(.enter)
        try f.commit { _ in try f.dog("dog 1").setValue(.double(7), forKey: "weight") }
        f.driver.refresh()
        #expect(f.lines.contains { $0.hasPrefix(" ~dog 1 ") }, "\(f.lines)")
    }

    @Test func theChangesPaneListsEveryCommitWithItsClassCounts() throws {
        let f = try Fixture()
        try f.commit { try $0.create("Dog", ["name": .string("new")]) }
        f.driver.refresh()
        try f.commit { realm in
            try realm.delete(try f.dog("dog 0"))
            try f.dog("dog 1").setValue(.int(99), forKey: "age")
            try f.dog("dog 2").setValue(.int(98), forKey: "age")
        }
        f.driver.refresh()
        f.driver.press(.character("c"))
        let lines = f.lines
        let newest = try #require(lines.firstIndex { $0.contains("Dog +0 −1 ~2") }, "\(lines)")
        let older = try #require(lines.firstIndex { $0.contains("Dog +1 −0 ~0") }, "\(lines)")
        #expect(newest < older)
        #expect(lines[newest].contains("v4") && lines[older].contains("v3"), "\(lines)")
        f.driver.press(.escape)
        #expect(f.driver.statusText.contains("row") == true)
    }

    @Test func pauseStaysOnItsVersionAndCatchesUpInOneStep() throws {
        let f = try Fixture()
        f.driver.press(.character("p"))
        for i in 0..<3 { try f.commit { try $0.create("Dog", ["name": .string("late \(i)")]) } }
        let moved = f.driver.refresh()
        #expect(!moved)
        #expect(f.driver.statusText.contains("paused at version") == true, "\(f.driver.statusText)")
        #expect(f.driver.statusText.contains("3 commits behind") == true, "\(f.driver.statusText)")
        #expect(f.driver.statusText.contains("50 objects") == true)
        f.driver.press(.character("p"))
        #expect(f.driver.statusText.contains("53 objects") == true, "\(f.driver.statusText)")
    }

    @Test func aDetailOfADeletedObjectSaysInWhichVersion() throws {
        let f = try Fixture()
        f.driver.press(.enter)
        try f.commit { try $0.delete(try f.dog("dog 0")) }
        f.driver.refresh()
        let version = try Realm(path: f.path).version
        #expect(f.lines.contains { $0.contains("this object was deleted in version \(version)") }, "\(f.lines)")
    }

    /// Random commits against a sorted, filtered table: after each refresh the cursor is on its
    /// object whenever it still exists, and the visible rows equal a fresh query's rows.
    @Test func randomChangesKeepTheCursorAndTheWindowRight() throws {
        let f = try Fixture(count: 200, height: 12)
        f.driver.press(.character("/"))
        f.driver.type("age < 15 SORT(age DESC, name ASC)")
        f.driver.press(.enter)
        var generator = SystemRandomNumberGenerator()
        var nextName = 1000
        for round in 0..<40 {
            for _ in 0..<Int.random(in: 0...5, using: &generator) { f.driver.press(.down) }
            let cursorName = f.cursorLine.split(separator: " ", omittingEmptySubsequences: true).dropFirst().prefix(2)
                .joined(separator: " ")
            try f.commit { realm in
                let all = try realm.objects("Dog").keys()
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0:
                        try realm.create(
                            "Dog",
                            [
                                "name": .string("dog \(nextName)"),
                                "age": .int(Int64.random(in: 0..<20, using: &generator)),
                            ])
                        nextName += 1
                    case 1:
                        if let key = all.randomElement(using: &generator),
                            let dog = try realm.object(ofType: "Dog", key: key)
                        {
                            try realm.delete(dog)
                        }
                    default:
                        if let key = all.randomElement(using: &generator),
                            let dog = try realm.object(ofType: "Dog", key: key)
                        {
                            try dog.setValue(.int(Int64.random(in: 0..<20, using: &generator)), forKey: "age")
                        }
                    }
                }
            }
            f.driver.refresh()
            let fresh = try f.writer.objects("Dog").filter("age < 15 SORT(age DESC, name ASC)")
            // The table's rows: a long message's rows (they start in column 0) may take the last.
            let tableLines = f.lines.dropFirst(3).prefix(8).prefix { $0.hasPrefix(" ") || $0.hasPrefix("›") }
            let shownNames = tableLines.compactMap { line -> String? in
                let parts = line.dropFirst(2).split(separator: " ", omittingEmptySubsequences: true)
                return parts.count >= 2 ? parts.prefix(2).joined(separator: " ") : nil
            }
            let status = f.driver.statusText
            let row = Int(status.components(separatedBy: "row ").last?.split(separator: " ").first ?? "") ?? 0
            let cursorIndex = f.lines.dropFirst(3).firstIndex { $0.hasPrefix("›") }.map { $0 - 3 } ?? 0
            let top = row - 1 - cursorIndex
            let expected = try (top..<min(try fresh.checkedCount(), top + shownNames.count)).map { i -> String in
                guard case .string(let name) = try fresh.object(at: i).value(forKey: "name") else { return "?" }
                return name
            }
            #expect(shownNames == expected, "round \(round)")
            if try f.writer.objects("Dog").filter("name == $0 AND age < 15", .string(cursorName)).first != nil {
                #expect(
                    f.cursorLine.contains(cursorName + " "),
                    "round \(round): cursor was on \(cursorName): \(f.cursorLine)")
            }
        }
    }
}
