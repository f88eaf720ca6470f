import Foundation
import Testing
import RealmEngine
#if canImport(Glibc)
    import Glibc
#endif

/// Import from pipes, FIFOs and `<(…)`; Ctrl-C before anything is written; the message of a
/// writer waiting for another one.
@Suite(.serialized, .tags(.multiProcess)) struct ImportStreamTests {
    static let data = #"{"Person": [{"id": 9, "name": "九"}]}"#

    func count(_ db: String) throws -> String {
        try CLI.run(["query", db, "Person", "id == 9", "--format", "count"]).stdout
    }

    /// Starts `realmtui args…` with stderr collected; the caller waits for it.
    func start(_ args: [String]) throws -> (Process, WatchCommandTests.UncheckedData) {
        let p = Process()
        p.executableURL = CLI.executable
        p.arguments = args
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        return (p, WatchCommandTests.UncheckedData.reading(err.fileHandleForReading))
    }

    /// Waits until process `pid` no longer takes SIGINT's default action (its bit in /proc's
    /// SigIgn or SigCgt mask: `Interrupt` ignores it, then libdispatch's signal source catches
    /// it), so a Ctrl-C now gets its answer, not the default death. False when the process
    /// ended first. No deadline: a loaded machine starts it late.
    func waitUntilHandlingSIGINT(_ pid: Int32) -> Bool {
        let bit = UInt64(1) << UInt64(SIGINT - 1)
        func mask(_ name: String, in status: String) -> UInt64 {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
            return UInt64(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces), radix: 16) ?? 0
        }
        while true {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8), !status.isEmpty
            else { return false }
            if status.contains("State:\tZ") { return false }
            if (mask("SigIgn", in: status) | mask("SigCgt", in: status)) & bit != 0 { return true }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    @Test func importReadsAFIFO() throws {
        let s = try Scratch()
        let db = try s.database()
        let fifo = s.path("in.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let (p, stderr) = try start(["import", db, fifo])
        defer { if p.isRunning { p.terminate() } }
        let writer = try #require(FileHandle(forWritingAtPath: fifo))
        writer.write(Data(Self.data.utf8))
        try writer.close()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(stderr.waitForEnd())")
        #expect(try count(db) == "1\n")
    }

    @Test func importReadsProcessSubstitution() throws {
        let s = try Scratch()
        let db = try s.database()
        let script = "'\(CLI.executable.path)' import '\(db)' <(printf '%s' '\(Self.data)')"
        let r = try CLI.run([], executable: "/bin/bash", arguments: ["-c", script])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try count(db) == "1\n")
        let piped = try CLI.run(
            [], executable: "/bin/bash",
            arguments: [
                "-c",
                "printf '%s' '{\"Person\": [{\"id\": 10, \"name\": \"十\"}]}' | '\(CLI.executable.path)' import '\(db)' -",
            ])
        #expect(piped.status == 0, "\(piped.stderr)")
    }

    @Test func ctrlCWhileReadingWritesNothing() throws {
        let s = try Scratch()
        let db = try s.database()
        let fifo = s.path("slow.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        try expectUnchanged(db) {
            let (p, stderr) = try start(["import", db, fifo])
            defer { if p.isRunning { p.terminate() } }
            let writer = try #require(FileHandle(forWritingAtPath: fifo))
            // Opening the FIFO for writing returns once the import has opened it for reading,
            // which it does after installing its signal handling.
            writer.write(Data(#"{"Person": ["#.utf8))
            kill(p.processIdentifier, SIGINT)
            // The event: the import's answer to the signal (or its stderr ending without it).
            let answered = stderr.waitFor("interrupted: nothing was written")
            try? writer.close()  // the import, if it went on reading, now sees the end and exits
            p.waitUntilExit()
            let text = stderr.waitForEnd()
            #expect(answered, "\(text)")
            #expect(p.terminationStatus == 130, "\(text)")
        }
    }

    @Test func ctrlCDuringALargeImportWritesNothingAndKeepsTheSize() throws {
        let s = try Scratch()
        let db = try s.database()
        var text = #"{"Person": ["#
        for i in 100..<80_100 { text += (i > 100 ? "," : "") + #"{"id": \#(i), "name": "note \#(i) 的内容"}"# }
        text += "]}"
        let input = try s.write("big.json", text)
        let size = RealmFilesSize.of(db)
        try expectUnchanged(db) {
            let (p, stderr) = try start(["import", db, input])
            defer { if p.isRunning { p.terminate() } }
            // Once the import handles SIGINT (not after a fixed sleep: a loaded machine starts
            // it late, and the default SIGINT would kill it silently), the signal lands while
            // parsing or while importing, and either way nothing may be written.
            #expect(waitUntilHandlingSIGINT(p.processIdentifier), "\(stderr.text)")
            kill(p.processIdentifier, SIGINT)
            p.waitUntilExit()
            let text = stderr.waitForEnd()
            #expect(p.terminationStatus != 0, "\(text)")
            #expect(text.contains("interrupted: nothing was written"), "\(text)")
        }
        #expect(RealmFilesSize.of(db) == size)
        #expect(try CLI.run(["query", db, "Person", "--format", "count"]).stdout == "2\n")
    }

    @Test func aWaitingWriterSaysSoAndCtrlCCancelsTheWait() throws {
        let s = try Scratch()
        let db = try s.database()
        let input = try s.write("in.json", Self.data)
        let realm = try Realm(
            configuration: .init(fileURL: URL(fileURLWithPath: db), readOnly: false, createIfMissing: false))
        try realm.beginWrite()
        // Waits, says so after a second, and goes on once the lock is free.
        let (first, firstErr) = try start(["import", db, input])
        defer { if first.isRunning { first.terminate() } }
        #expect(firstErr.waitFor("waiting for another process that is writing to"), "\(firstErr.text)")
        realm.cancelWrite()
        first.waitUntilExit()
        #expect(first.terminationStatus == 0, "\(firstErr.waitForEnd())")
        #expect(try count(db) == "1\n")
        // Ctrl-C while waiting ends it, with nothing written.
        try realm.beginWrite()
        try expectUnchanged(db) {
            let (second, secondErr) = try start(["update", db, "Person", "id == 9", "--set", "name=x"])
            defer { if second.isRunning { second.terminate() } }
            #expect(secondErr.waitFor("waiting for another process"), "\(secondErr.text)")
            kill(second.processIdentifier, SIGINT)
            second.waitUntilExit()
            #expect(second.terminationStatus == 130, "\(secondErr.waitForEnd())")
        }
        realm.cancelWrite()
    }
}

enum RealmFilesSize {
    static func of(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.intValue ?? -1
    }
}
