import Foundation
import Testing

@Suite(.tags(.multiProcess)) struct BareFileTests {
    /// The bundled demo is a file of the current format: it passes `check`, and a copy takes a
    /// write (a demo left from an older development format opened for reading but failed both).
    @Test func theBundledDemoChecksAndTakesWrites() throws {
        let exe = try #require(WatchCommandTests.realmtui())
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let scratch = TempDir("demo")
        defer { withExtendedLifetime(scratch) {} }
        let dir = scratch.url
        let copy = dir.appendingPathComponent("demo.realm").path
        try FileManager.default.copyItem(atPath: root.appendingPathComponent("Resources/demo.realm").path, toPath: copy)
        func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let p = Process()
            p.executableURL = exe
            p.arguments = arguments
            let out = Pipe()
            p.standardOutput = out
            p.standardError = out
            try p.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            return (p.terminationStatus, text)
        }
        let checked = try run(["check", copy])
        #expect(checked.status == 0, "\(checked.output)")
        let updated = try run(["update", copy, "Author", "id == 2", "--set", "country=\"Peru\""])
        #expect(updated.status == 0, "\(updated.output)")
        #expect(try run(["check", copy]).status == 0)
        let found = try run(["query", copy, "Author", "country == 'Peru' AND id == 2", "--format", "count"])
        #expect(found.output.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }
}
