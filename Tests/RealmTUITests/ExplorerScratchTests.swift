import Foundation
import RealmEngine
import RealmTUI
import Testing

@Test func scratchScreens() throws {
    var d = try ExplorerFixture.driver()
    print(d.screen.lines.joined(separator: "\n"))
    d.press(.down, .enter)
    print(d.screen.lines.joined(separator: "\n"))
    d.press(.enter)
    print(d.screen.lines.joined(separator: "\n"))
    d.press(.escape, .escape, .up, .enter, .enter)
    print(d.screen.lines.joined(separator: "\n"))
}
