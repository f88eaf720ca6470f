import Foundation
import Testing

@Suite struct BareFileTests {
    /// `realmtui FILE` shows the schema (and says on stderr that the explorer is not built yet)
    /// rather than failing with a usage error.
    @Test func aBareFileShowsItsSchema() throws {
        let exe = try #require(WatchCommandTests.realmtui())
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let demo = root.appendingPathComponent("Resources/demo.realm").path
        let p = Process()
        p.executableURL = exe
        p.arguments = [demo]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let note = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        #expect(text.contains("Book"))
        #expect(note.contains("explorer"))
    }
}
