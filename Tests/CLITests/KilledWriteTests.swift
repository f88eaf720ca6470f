import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// A `copy`, `recover` or `compact` killed while it writes must leave no destination that
/// `check` calls sound (it used to leave one holding 0 objects, and a rerun refused because it
/// existed), and a rerun must then work.
///
/// The kill is real and lands at a chosen place without timing: the command runs under
/// `ulimit -f` (RLIMIT_FSIZE, in 512-byte blocks in sh), and the kernel kills it with SIGXFSZ at
/// its first write past that size — inside the copy's big commit, once the limit is below the
/// finished copy's size and above what the empty file it starts from needs.
@Suite("CLI killed writes", .tags(.multiProcess, .integrity, .slow))
struct KilledWriteTests {
    static let objects = 12_000
    static let hasPython = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

    /// A source file of `objects` objects (about 300 KB).
    static func source(_ s: Scratch) throws -> String {
        let schema = try s.write("items.json", #"[{"name": "Item", "properties": {"id": "int", "name": "string"}}]"#)
        let file = try s.createRealm("source.realm", schema: schema)
        let rows = (0..<objects).map { #"{"id": \#($0), "name": "item number \#($0)"}"# }
        let data = try s.write("data.json", #"{"Item": ["# + rows.joined(separator: ",") + "]}")
        let imported = try CLI.run(["import", file, data])
        try #require(imported.status == 0, "\(imported.stderr)")
        return file
    }

    /// Runs `realmtui args…` with a file size limit of `blocks` × 512 bytes. Through python3,
    /// not sh's `ulimit -f`: the test runner starts children with SIGXFSZ blocked, a mask exec
    /// keeps and sh cannot change, and a blocked SIGXFSZ is no kill (the write fails with EFBIG
    /// and the command cleans up). A kill by a signal is reported as that signal's number.
    static func limited(_ blocks: Int, _ args: [String]) throws -> CLI.Result {
        let script = """
            import os, resource, signal, sys
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGXFSZ])
            signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
            resource.setrlimit(resource.RLIMIT_FSIZE, (\(blocks * 512), \(blocks * 512)))
            os.execv(sys.argv[1], sys.argv[1:])
            """
        return try CLI.run([], executable: "/usr/bin/python3", arguments: ["-c", script, CLI.executable.path] + args)
    }

    /// The file size limits the commands are killed at: 40% and 70% of the source's size.
    static func limits(_ file: String) throws -> [Int] {
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        return [size * 4 / 10 / 512, size * 7 / 10 / 512]
    }

    /// Expects `check` to pass on `file` with every object of the source.
    static func expectWhole(_ file: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let checked = try CLI.run(["check", file])
        #expect(checked.status == 0, "\(checked.stderr)", sourceLocation: sourceLocation)
        #expect(checked.stdout.contains("Item: \(objects)"), "\(checked.stdout)", sourceLocation: sourceLocation)
    }

    /// The names in `s`'s folder that a write in progress uses (a stale temporary file).
    static func leftovers(_ s: Scratch) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: s.url.path).filter {
            $0.contains("partial") || $0.contains(".compact")
        }
    }

    @Test(
        .enabled(if: hasPython, "needs /usr/bin/python3 (to set the file size limit)"), arguments: ["copy", "recover"])
    func aKilledCopyLeavesNoDestination(_ command: String) throws {
        let s = try Scratch()
        let source = try Self.source(s)
        for blocks in try Self.limits(source) {
            let destination = s.path("out-\(blocks).realm")
            let killed = try Self.limited(blocks, [command, source, destination])
            #expect(killed.status == SIGXFSZ, "not killed at \(blocks) blocks: \(killed.status) \(killed.stderr)")
            #expect(!FileManager.default.fileExists(atPath: destination), "a killed \(command) left \(destination)")
            let checked = try CLI.run(["check", destination])
            #expect(checked.status != 0, "check calls the destination of a killed \(command) sound: \(checked.stdout)")
            // The rerun works and cleans up what the killed one left.
            let again = try CLI.run([command, source, destination])
            #expect(again.status == 0, "\(again.stderr)")
            try Self.expectWhole(destination)
            let left = try Self.leftovers(s)
            #expect(left.isEmpty, "\(left)")
        }
    }

    @Test(.enabled(if: hasPython, "needs /usr/bin/python3 (to set the file size limit)"))
    func aKilledCompactLeavesTheFileWholeAndARerunWorks() throws {
        let s = try Scratch()
        let source = try Self.source(s)
        for blocks in try Self.limits(source) {
            let killed = try Self.limited(blocks, ["compact", source])
            #expect(killed.status == SIGXFSZ, "not killed at \(blocks) blocks: \(killed.status) \(killed.stderr)")
            try Self.expectWhole(source)
            let again = try CLI.run(["compact", source])
            #expect(again.status == 0, "\(again.stderr)")
            try Self.expectWhole(source)
            let left = try Self.leftovers(s)
            #expect(left.isEmpty, "\(left)")
        }
    }
}
