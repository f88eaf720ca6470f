import Foundation
import Testing

/// Reading a Realm file of many objects says how far it is on a terminal (the explorer's first
/// screen waits for it), and says nothing into a pipe.
@Suite(.tags(.tmux, .multiProcess)) struct RealmFileProgressTests {
    /// `../shared/realm-core/fixtures/generated-big.realm` (200,000 objects), when this machine has it.
    static let big: String? = {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = repository.deletingLastPathComponent().appendingPathComponent(
            "shared/realm-core/fixtures/generated-big.realm"
        ).path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }()

    @Test(
        .enabled(
            if: TmuxSession.isAvailable && big != nil,
            "needs tmux and ../shared/realm-core/fixtures/generated-big.realm"))
    func readingABigRealmFileShowsItsProgressOnATerminal() throws {
        let big = try #require(Self.big)
        let tmux = try TmuxSession(
            script: ExplorerEntryTests.script(["query", big, "Big", "_id >= 0", "--format", "count"]),
            width: 100, height: 20)
        defer { tmux.close() }
        var screen = try tmux.waitFor("reading generated-big.realm… ")
        #expect(screen.contains("/200000 ("), "\(screen)")
        screen = try tmux.waitFor("script done")
        #expect(screen.contains("200000") && screen.contains("exit=0"), "\(screen)")
        // The line is wiped when the reading is done: only the answer stays.
        #expect(!screen.contains("reading generated-big.realm…"), "\(screen)")

        let piped = try CLI.run(["query", big, "Big", "_id >= 0", "--format", "count"])
        #expect(piped.status == 0 && !piped.stderr.contains("reading"), "\(piped.stderr)")
    }
}
