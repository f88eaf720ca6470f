import Foundation
import RealmEngine
import RealmTUI
import Testing

/// The title bar's breadcrumb: a path too long for the bar keeps its end, where the user is,
/// measured in columns (CJK names take two each).
@Suite("Explorer title bar")
struct ExplorerTitleTests {
    @Test(arguments: [40, 44, 47, 53, 60])
    func aLongPathKeepsItsEndInColumns(width: Int) throws {
        var driver = try ExplorerFixture.driver(width: width)
        // Person › 张三 › dogs › 大黄
        driver.press(.enter, .enter)
        for _ in 0..<5 where !(driver.screen.lines.first { $0.hasPrefix("›") } ?? "").contains("dogs") {
            driver.press(.down)
        }
        driver.press(.enter, .enter)
        let title = driver.screen.lines[0]
        // The screen's lines leave out trailing blanks: the hint's last one.
        #expect(title.hasSuffix("? help  q quit"), "\(title)")
        let path = title.replacingOccurrences(of: "? help  q quit", with: "").trimmingCharacters(in: .whitespaces)
        #expect(path.hasSuffix("dogs › 大黄"), "\(title)")
        #expect(displayWidth(title) == width - 1, "\(title)")
    }
}
