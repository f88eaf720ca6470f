import Foundation
import RealmEngine
import RealmTUI
import Testing

/// A message or question longer than the screen is wrapped onto rows of its own, never cut:
/// the end of a refusal says how to fix it, and the end of a question is its `(y/n)`.
@Suite struct LongMessageTests {
    @Test func aLongStatusMessageWrapsAboveTheStatusLine() throws {
        let state = ExplorerState(
            realm: try ExplorerFixture.realm(), fileName: "fixture.realm", readOnly: true, width: 40, height: 16)
        var driver = ExplorerDriver(state: state)
        driver.press(.down, .enter, .character("e"))
        let lines = driver.screen.lines
        let text = lines.joined(separator: "\n")
        #expect(text.replacingOccurrences(of: "\n", with: "").contains("writable copy"), "\(lines)")
        #expect(lines.last?.contains("fixture.realm") == true, "the status line keeps its fields: \(lines)")
        // The table gave up rows for it: the cursor row is still on screen.
        #expect(lines.contains { $0.hasPrefix("›") }, "\(lines)")
    }

    @Test func aLongQuestionWrapsAndEndsWithItsAnswerKeys() throws {
        var driver = try ExplorerFixture.driver(width: 40, height: 16)
        driver.press(.down, .enter, .character("d"))
        let lines = driver.screen.lines
        #expect(lines.contains { $0.contains("(y/n)") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("delete Dog") }, "\(lines)")
        driver.press(.character("n"))
        #expect(!driver.screen.lines.contains { $0.contains("(y/n)") })
    }
}
