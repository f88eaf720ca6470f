import Foundation
import RealmCoreFormat
import RealmEngine
import RealmTUI
import Testing

/// The explorer editing a Realm file (Realm Core's format) as `realmtui FILE` sets it up: the
/// file read through an edit session (its lock held), each committed edit written whole as the
/// file through `beforeCommit` — proved by Realm Core (`realm-core-tool`).
@Suite(.tags(.multiProcess)) struct ExplorerRealmFileEditTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtures = repository.appendingPathComponent("Tests/RealmCoreFormatTests/Fixtures")
    static let tool: URL? = {
        let url = repository.deletingLastPathComponent().appendingPathComponent(
            "shared/realm-core/tools/realm-core-tool")
        return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
    }()

    /// A driver on a copy of generated-dogs.realm opened for editing, as the explorer command does.
    static func driver(_ scratch: TempDir, width: Int = 120) throws -> (ExplorerDriver, RealmCoreEditSession, String) {
        let path = scratch.path("dogs.realm")
        try FileManager.default.copyItem(
            atPath: fixtures.appendingPathComponent("generated-dogs.realm").path, toPath: path)
        let session = try RealmCoreEditSession(path: path, key: nil, upgradeFormat: false)
        let realm = try session.makeRealm()
        var state = ExplorerState(realm: realm, fileName: "dogs.realm", readOnly: false, width: width, height: 30)
        state.fileNote = ExplorerSession.realmFileLockNote
        var driver = ExplorerDriver(state: state)
        driver.beforeCommit = { realm in try session.commit(realm) }
        return (driver, session, path)
    }

    @Test(.enabled(if: tool != nil, "needs ../shared/realm-core/tools/realm-core-tool"))
    func anEditedValueIsWrittenToTheRealmFile() throws {
        let tool = try #require(Self.tool)
        let scratch = TempDir("realmtui-realm-file-edit")
        var (driver, session, path) = try Self.driver(scratch)
        defer { session.close() }
        #expect(driver.statusText.contains(ExplorerSession.realmFileLockNote), "\(driver.statusText)")
        // The lock is held for the session: another taker (a Realm app's DB::open) cannot have it.
        #expect(throws: RealmError.self) { try RealmCoreEditLock(path: path) }

        driver.press(.enter)  // Dog's table (the first class)
        #expect(driver.screen.lines.contains { $0.contains("Buddy 0") }, "\(driver.screen.lines)")
        driver.press(.character("e"), .control("u"))  // Buddy 0's name
        driver.type("Renamed in place")
        driver.press(.enter)
        driver.finishWrite()
        #expect(driver.statusText.contains("Renamed in place"), "\(driver.statusText)")

        let query = try runChild(tool, ["query", path, "Dog", "name == 'Renamed in place'"])
        #expect(query.status == 0 && query.stdout.contains("\"count\": 1"), "\(query.stdout) \(query.stderr)")
        let gone = try runChild(tool, ["query", path, "Dog", "name == 'Buddy 0'"])
        #expect(gone.stdout.contains("\"count\": 0"), "\(gone.stdout) \(gone.stderr)")
        for command in ["verify", "write-test"] {
            let result = try runChild(tool, [command, path])
            #expect(
                result.status == 0 && result.stdout.contains("\"result\": \"ok\""),
                "realm-core-tool \(command): \(result.stderr)")
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == [
                "dogs.realm", "dogs.realm.lock",
            ])
    }

    /// The status line of a Realm file open for editing keeps its name and "writable" beside
    /// the lock note on an 80-column terminal: with the opening message (on rows of its own)
    /// and on a table.
    @Test func theStatusLineKeepsTheFileNameBesideTheLockNote() throws {
        let scratch = TempDir("realmtui-realm-file-edit")
        let path = scratch.path("dogs.realm")
        try FileManager.default.copyItem(
            atPath: Self.fixtures.appendingPathComponent("generated-dogs.realm").path, toPath: path)
        let editing = try RealmCoreEditSession(path: path, key: nil, upgradeFormat: false)
        defer { editing.close() }
        // As `realmtui FILE` sets it up (ExploreCommand).
        let session = ExplorerSession(
            realm: try editing.makeRealm(), path: path, readOnly: false,
            environment: ["XDG_STATE_HOME": scratch.path("state")])
        session.beforeCommit = { realm in try editing.commit(realm) }
        session.fileNote = ExplorerSession.realmFileLockNote
        session.openingMessage =
            "editing a Realm file (format 24): each commit rewrites it whole in format 24; its lock is "
            + "held until you quit, so a Realm app opening it waits until then"
        var driver = try session.makeDriver(width: 80, height: 30, hasColor: false)
        let opening = try #require(driver.screen.lines.last)
        #expect(opening.contains("dogs.realm · writable · \(ExplorerSession.realmFileLockNote)"), "\(opening)")
        driver.press(.enter)  // Dog's table
        let table = try #require(driver.screen.lines.last)
        #expect(
            table.contains("dogs.realm · writable · \(ExplorerSession.realmFileLockNote)")
                && table.contains("row 1 of 750"),
            "\(table)")
    }

    /// A commit whose file cannot be written (the session closed: its lock let go) is refused
    /// with the reason, and the Realm the explorer shows keeps the old value.
    @Test func aCommitThatCannotWriteTheFileWritesNothing() throws {
        let scratch = TempDir("realmtui-realm-file-edit")
        var (driver, session, path) = try Self.driver(scratch)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        session.close()
        driver.press(.enter, .character("e"), .control("u"))
        driver.type("Not written")
        driver.press(.enter)
        driver.finishWrite()
        #expect(driver.statusText.contains("the edit session is closed"), "\(driver.statusText)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(
            !driver.screen.lines.contains {
                $0.contains("Not written") && $0.contains("Buddy") == false && $0.hasPrefix("=") == false
            },
            "the refused value shows as written: \(driver.screen.lines)")
    }
}
