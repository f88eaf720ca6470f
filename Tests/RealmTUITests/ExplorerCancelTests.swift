import Foundation
import RealmEngine
@testable import RealmTUI
import Testing

/// A long read caused by a key reports progress and can be cancelled; the screen then goes back
/// to what it was (issue 29, item 15).
@Suite struct ExplorerCancelTests {
    /// 12,300 dogs, each a friend of one of 50 (an OR through the link evaluates per object; a
    /// single comparison through links is answered from the far end, `LinkPlan`).
    static func driver() throws -> ExplorerDriver {
        let realm = try ExplorerFixture.realm(extraDogs: 12_300)
        try realm.write {
            let dogs = try realm.objects("Dog").keys()
            for (index, key) in dogs.enumerated() where index >= 3 {
                try realm.object(ofType: "Dog", key: key)?.setValue(.link(dogs[index % 50]), forKey: "friend")
            }
        }
        var driver = ExplorerDriver(
            state: ExplorerState(realm: realm, fileName: "many.realm", readOnly: false, width: 100, height: 20))
        driver.press(.down, .enter)
        return driver
    }

    static let slowQuery = "friend.name BEGINSWITH 'dog 1' OR friend.age == -1"

    @Test func escapeDuringAQueryKeepsTheTableAsItWas() throws {
        var driver = try Self.driver()
        #expect(driver.statusText.contains("12,303 objects"), "\(driver.statusText)")
        driver.press(.character("/"))
        driver.type(Self.slowQuery)
        var reports: [(Int, Int)] = []
        let cancelling = ProgressMonitor { done, total in
            reports.append((done, total))
            return false
        }
        driver.send(.key(.enter), monitor: cancelling)
        #expect(reports.count == 1)
        #expect(driver.statusText.contains("cancelled"), "\(driver.statusText)")
        #expect(driver.statusText.contains("12,303 objects"), "\(driver.statusText)")
        // The query bar is still open with what was typed: Enter runs it whole.
        var progress = 0
        let watching = ProgressMonitor { _, _ in
            progress += 1
            return true
        }
        driver.send(.key(.enter), monitor: watching)
        #expect(progress >= 3)
        let expected = try driver.state.realm.objects("Dog").filter(Self.slowQuery).checkedCount()
        #expect(driver.statusText.contains("\(ValueFormatter.grouped(expected)) objects"), "\(driver.statusText)")
    }

    /// The first screen of a column sort is a bounded top-k pass over every object; cancelling
    /// it leaves the table unsorted. (The last page of a sorted query is no test of this: the
    /// table's notifier sorts the whole result off the input loop and the page comes from it.)
    @Test func cancellingAColumnSortLeavesTheTableUnsorted() throws {
        var driver = try Self.driver()
        driver.press(.character("l"))
        let before = driver.screen.lines
        var reports = 0
        driver.send(
            .key(.character("S")),
            monitor: ProgressMonitor { _, _ in
                reports += 1
                return false
            })
        #expect(reports == 1)
        #expect(driver.statusText.contains("cancelled"), "\(driver.statusText)")
        #expect(Array(driver.screen.lines.dropLast()) == Array(before.dropLast()))
        driver.press(.character("S"))
        #expect(driver.screen.lines[1].contains("age ▼"), "\(driver.screen.lines[1])")
    }
}
