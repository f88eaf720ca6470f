import Foundation
import Testing

/// Standard output that cannot be written and standard input that cannot be read: the command
/// fails with one `error:` line and status 1 (a truncated backup never exits 0), except that a
/// reader closing the pipe early (`| head`) stays quiet, as it does for every Unix filter.
@Suite("CLI standard stream errors", .tags(.multiProcess))
struct StandardStreamErrorTests {
    /// Enough objects that the output passes the console's 64 KiB buffer and a pipe's capacity.
    static func largeDatabase(_ s: Scratch) throws -> String {
        let file = try s.database()
        let people = (100..<3100).map { #"{"id": \#($0), "name": "person-\#($0)-abcdefghijklmnopqrstuvwxyz"}"# }
        let imported = try CLI.run(
            ["import", file, "-"], stdin: #"{"Person": ["# + people.joined(separator: ",") + "]}")
        try #require(imported.status == 0, "\(imported.stderr)")
        return file
    }

    @Test(
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"),
        arguments: [["export"], ["query", "Person"], ["query", "Person", "--format", "json"]])
    func aFullDiskFailsTheCommand(_ command: [String]) throws {
        let s = try Scratch()
        let file = try Self.largeDatabase(s)
        let args = [command[0], file] + command.dropFirst()
        let r = try CLI.run(args, stdoutPath: "/dev/full")
        expectFailure(r, contains: "cannot write the output: No space left on device")
        // A small output too (it is written only when the command ends).
        let small = try CLI.run(["query", file, "Person", "id == 1", "--format", "count"], stdoutPath: "/dev/full")
        expectFailure(small, contains: "cannot write the output: No space left on device")
    }

    /// `realmtui export db | head -c 10`, with SIGPIPE at its default (the process ends on the
    /// signal) and ignored (as some parents leave it: the write fails with EPIPE): no message.
    @Test(arguments: ["", "trap '' PIPE; "])
    func aReaderThatClosesThePipeEarlyGetsNoMessage(_ prefix: String) throws {
        let s = try Scratch()
        let file = try Self.largeDatabase(s)
        let script = prefix + "\"$0\" export \"$1\" 2>\"$2\" | head -c 10 >/dev/null"
        let r = try CLI.run(
            [], executable: "/bin/sh",
            arguments: ["-c", script, CLI.executable.path, file, s.path("stderr.txt")])
        #expect(r.status == 0, "\(r.stderr)")
        let stderr = String(decoding: s.bytes("stderr.txt") ?? Data(), as: UTF8.self)
        #expect(stderr.isEmpty, "stderr: \(stderr)")
    }

    /// `realmtui import db - < /tmp`: reading standard input fails (EISDIR), an error, no crash.
    @Test func standardInputThatCannotBeReadIsAnError() throws {
        let s = try Scratch()
        let file = try s.database()
        try expectUnchanged(file) {
            let r = try CLI.run(
                ["import", file, "-"], environment: ["SWIFT_BACKTRACE": "enable=no"], stdinPath: s.url.path)
            expectFailure(r, contains: "standard input: cannot read the JSON input: Is a directory")
        }
        let schema = try CLI.run(
            ["create", s.path("new.realm"), "--schema", "-"],
            environment: ["SWIFT_BACKTRACE": "enable=no"], stdinPath: s.url.path)
        expectFailure(schema, contains: "standard input: cannot read the schema input: Is a directory")
        #expect(!s.exists("new.realm"))
    }
}
