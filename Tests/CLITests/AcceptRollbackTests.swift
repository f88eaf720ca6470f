import Foundation
import Testing
import RealmEngine

/// A user who puts an older copy of a file back on purpose (a backup restored over the live
/// file) met a rollback error in every command, with no way to accept it but deleting the lock
/// file by hand: `check --accept-rollback` makes the file's newest version the current one, and
/// the error says so. It refuses while another process has the file open.
@Suite(.tags(.multiProcess)) struct AcceptRollbackTests {
    @Test func anOlderCopyPutBackOnPurposeIsAccepted() throws {
        let s = try Scratch()
        let file = try s.database()
        let backup = s.path("backup.realm")
        try FileManager.default.copyItem(atPath: file, toPath: backup)
        let imported = try CLI.run(["import", file, "-"], stdin: #"{"Person": [{"id": 4242, "name": "after"}]}"#)
        #expect(imported.status == 0, "\(imported.stderr)")
        // Restore the backup over the live file (cp keeps the inode and the lock file).
        try Data(contentsOf: URL(fileURLWithPath: backup)).write(to: URL(fileURLWithPath: file))
        let checked = try CLI.run(["check", file])
        expectFailure(checked, contains: "--accept-rollback")
        let accepted = try CLI.run(["check", file, "--accept-rollback"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stdout.contains("accepted"), "\(accepted.stdout)")
        let after = try CLI.run(["check", file])
        #expect(after.status == 0 && after.stderr.isEmpty, "\(after.stderr)")
        let queried = try CLI.run(["query", file, "Person", "id == 4242", "--format", "count"])
        #expect(queried.status == 0 && queried.stderr.isEmpty, "\(queried.stderr)")
        #expect(queried.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    @Test func acceptingIsRefusedWhileTheFileIsOpenElsewhere() throws {
        let s = try Scratch()
        let file = try s.database()
        // The lock file is open in this process (as another program would have it).
        let realm = try Realm(path: file)
        let refused = try CLI.run(["check", file, "--accept-rollback"])
        expectFailure(refused, contains: "open")
        withExtendedLifetime(realm) {}
    }
}
