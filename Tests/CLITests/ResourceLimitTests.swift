import Foundation
import Testing

/// Commands under tight resource limits end with one `error:` line, never a crash: `update`
/// under `ulimit -n 5` died of SIGILL inside libdispatch (its event loop could not get a
/// descriptor), and a file was mapped with a reservation of address space so large that, under
/// `ulimit -v`, it left the heap nothing (or could not be made at all).
@Suite("CLI resource limits", .tags(.multiProcess))
struct ResourceLimitTests {
    /// Runs `realmtui args…` under the sh `ulimit` option `limit` (`-n 5`, `-v 400000`).
    static func limited(_ limit: String, _ args: [String], stdin: String? = nil) throws -> CLI.Result {
        try CLI.run(
            [], stdin: stdin, executable: "/bin/sh",
            arguments: ["-c", "ulimit \(limit) && exec \"$0\" \"$@\"", CLI.executable.path] + args)
    }

    @Test func writingCommandsWithTooFewDescriptorsFailWithAnError() throws {
        let s = try Scratch()
        let db = try s.database()
        for limit in [5, 6] {
            try expectUnchanged(db) {
                expectFailure(
                    try Self.limited("-n \(limit)", ["update", db, "Dog", "TRUEPREDICATE", "--set", "age=9"]),
                    contains: "file descriptors")
                expectFailure(
                    try Self.limited("-n \(limit)", ["import", db, "-"], stdin: #"{"Dog": [{"name": "Rex"}]}"#),
                    contains: "file descriptors")
            }
        }
        // With enough of them the same command works.
        let r = try Self.limited("-n 16", ["update", db, "Dog", "TRUEPREDICATE", "--set", "age=9"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "updated 2 objects\n")
    }

    /// Under `ulimit -v` of a few hundred MB, a small file is mapped with a reservation scaled
    /// to it (a fixed 1 GiB one left no room and the open failed, or left the heap too little
    /// and the next allocation crashed).
    @Test func commandsWorkUnderAnAddressSpaceLimit() throws {
        let s = try Scratch()
        let db = try s.database()
        let limit = "-v 600000"  // KiB
        let count = try Self.limited(limit, ["query", db, "Dog", "--format", "count"])
        #expect(count.status == 0, "\(count.stderr)")
        #expect(count.stdout == "2\n")
        let updated = try Self.limited(limit, ["update", db, "Dog", "TRUEPREDICATE", "--set", "age=9"])
        #expect(updated.status == 0, "\(updated.stderr)")
        #expect(updated.stdout == "updated 2 objects\n")
        let rows = (0..<2000).map { #"{"name": "dog \#($0)", "tags": ["a", "b"]}"# }
        let imported = try Self.limited(
            limit, ["import", db, "-"], stdin: #"{"Dog": ["# + rows.joined(separator: ",") + "]}")
        #expect(imported.status == 0, "\(imported.stderr)")
        let checked = try Self.limited(limit, ["check", db])
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stdout.contains("Dog: 2002"), "\(checked.stdout)")
    }
}
