import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// A database path naming something that is not a regular file (a FIFO, a device) is refused
/// with one `error:` line saying what it is, by every command, without waiting for a writer and
/// without leaving a lock file beside it.
@Suite("CLI special files", .tags(.multiProcess))
struct SpecialFileTests {
    /// Makes a FIFO at `path`.
    static func fifo(_ path: String) throws {
        try #require(mkfifo(path, 0o644) == 0, "mkfifo: \(String(cString: strerror(errno)))")
    }

    @Test func everyCommandRefusesAFIFO() throws {
        let s = try Scratch()
        try s.write("data.json", #"{"Dog": [{"name": "Rex"}]}"#)
        let file = s.path("pipe.realm")
        try Self.fifo(file)
        // Holding the FIFO open read-write (never blocks on Linux) lets a command that opens it
        // without O_NONBLOCK go on instead of hanging the suite, so a regression fails here.
        let held = open(file, O_RDWR | O_NONBLOCK)
        try #require(held >= 0)
        defer { close(held) }
        for args in BadFileTests.commands(file, s) {
            let r = try CLI.run(args)
            expectFailure(r, contains: "not a regular file")
            #expect(r.stderr.contains("FIFO"), "\(args[0]): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: file + ".lock"), "\(args[0]) left a lock file")
            #expect(!s.exists("copy.realm"), "\(args[0]) left a copy")
        }
    }

    /// A link to /dev/zero used to be called "the file is empty"; it is named for what it is.
    @Test func aLinkToADeviceIsNamedAsOne() throws {
        let s = try Scratch()
        let file = s.path("zero.realm")
        try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: "/dev/zero")
        for args in [["schema", file], ["check", file], ["query", file, "Dog"], ["import", file, "-"]] {
            let r = try CLI.run(args, stdin: "{}")
            expectFailure(r, contains: "a character device, not a regular file")
            #expect(!s.exists("zero.realm.lock"), "\(args[0]) left a lock file")
        }
    }

    /// No process has the FIFO open: opening it without O_NONBLOCK would wait forever.
    @Test func aFIFOWithNoWriterDoesNotHang() throws {
        let s = try Scratch()
        let file = s.path("lonely.realm")
        try Self.fifo(file)
        for args in [["schema", file], ["check", file], ["query", file, "Dog"]] {
            expectFailure(try CLI.run(args), contains: "not a regular file")
        }
    }
}
