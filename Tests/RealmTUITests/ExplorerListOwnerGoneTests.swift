import Foundation
import RealmEngine
import RealmTUI
import Testing

/// Another process deletes the object whose list is on screen, or changes the object under the
/// cursor so that it leaves the query: the screen says what happened, never "the list is
/// empty", "the file is damaged" or "deleted" when it was not.
@Suite("Explorer: a list's object deleted, an object leaving the query")
struct ExplorerListOwnerGoneTests {
    typealias Fixture = ExplorerLiveTests.Fixture

    /// A file with Person 1 (张三: dogs 大黄 and Rex, tags owner and 北京), the explorer on it
    /// showing Person 1's detail, and a second instance to commit from.
    static func personFixture() throws -> Fixture {
        try Fixture(height: 16, opening: [.enter, .enter]) { writer in  // Person, then 张三's detail
            let dahuang = try writer.create("Dog", ["name": .string("大黄"), "age": .int(3)])
            let rex = try writer.create("Dog", ["name": .string("Rex")])
            try writer.create(
                "Person",
                value: .dictionary([
                    "id": .value(.int(1)), "name": .value(.string("张三")),
                    "dogs": .array([.value(.link(dahuang.key)), .value(.link(rex.key))]),
                    "tags": .array([.value(.string("owner")), .value(.string("北京"))]),
                ]))
        }
    }

    /// Another instance deletes Person 1; the explorer refreshes.
    static func deletePerson(_ f: Fixture) throws {
        try f.commit { writer in
            guard let person = try writer.object(ofType: "Person", forPrimaryKey: .int(1)) else { return }
            try writer.delete(person)
        }
        f.driver.refresh()
    }

    @Test func aListOfValuesWhoseObjectWasDeletedSaysSo() throws {
        let f = try Self.personFixture()
        f.driver.press(.down, .down, .down, .down, .down, .down, .enter)
        #expect(f.lines.contains { $0.contains("北京") }, "\(f.lines)")
        try Self.deletePerson(f)
        #expect(!f.lines.contains { $0.contains("the list is empty") }, "\(f.lines)")
        #expect(f.lines.contains { $0.contains("deleted") }, "\(f.lines)")
        f.driver.press(.character("e"))
        #expect(f.driver.statusText.contains("the list is empty") == false, "\(f.driver.statusText)")
        #expect(f.driver.statusText.contains("deleted") == true, "\(f.driver.statusText)")
        f.driver.press(.character("x"))
        #expect(f.driver.statusText.contains("deleted") == true, "\(f.driver.statusText)")
    }

    @Test func aListOfObjectsWhoseObjectWasDeletedSaysSoNotDamaged() throws {
        let f = try Self.personFixture()
        f.driver.press(.down, .down, .down, .down, .down, .enter)
        #expect(f.lines.contains { $0.contains("Rex") }, "\(f.lines)")
        try Self.deletePerson(f)
        #expect(!f.lines.contains { $0.contains("damaged") }, "\(f.lines)")
        #expect(f.lines.contains { $0.contains("was deleted") }, "\(f.lines)")
    }

    @Test func anObjectThatLeavesTheQueryIsNotCalledDeleted() throws {
        let f = try ExplorerLiveTests.Fixture()
        f.driver.press(.character("/"))
        f.driver.type("age < 5")
        f.driver.press(.enter)
        #expect(f.cursorLine.contains("dog 0 "), "\(f.lines)")
        try f.commit { _ in try f.dog("dog 0").setValue(.int(10), forKey: "age") }
        f.driver.refresh()
        #expect(f.driver.statusText.contains("was deleted") == false, "\(f.driver.statusText)")
        #expect(f.driver.statusText.contains("no longer matches the query") == true, "\(f.driver.statusText)")
    }
}
