import Foundation
import Testing
import RealmEngine
#if canImport(Glibc)
import Glibc
#endif

/// Import from pipes, FIFOs and `<(…)`; Ctrl-C before anything is written; the message of a
/// writer waiting for another one.
@Suite(.serialized) struct ImportStreamTests {
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

    func waitUntil(_ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(30)
        while Date() < end {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    @Test func importReadsAFIFO() throws {
        let s = try Scratch()
        let db = try s.database()
        let fifo = s.path("in.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let (p, _) = try start(["import", db, fifo])
        let writer = try #require(FileHandle(forWritingAtPath: fifo))
        writer.write(Data(Self.data.utf8))
        try writer.close()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        #expect(try count(db) == "1\n")
    }

    @Test func importReadsProcessSubstitution() throws {
        let s = try Scratch()
        let db = try s.database()
        let script = "'\(CLI.executable.path)' import '\(db)' <(printf '%s' '\(Self.data)')"
        let r = try CLI.run([], executable: "/bin/bash", arguments: ["-c", script])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try count(db) == "1\n")
        let piped = try CLI.run([], executable: "/bin/bash",
                                arguments: ["-c", "printf '%s' '{\"Person\": [{\"id\": 10, \"name\": \"十\"}]}' | '\(CLI.executable.path)' import '\(db)' -"])
        #expect(piped.status == 0, "\(piped.stderr)")
    }

    @Test func ctrlCWhileReadingWritesNothing() throws {
        let s = try Scratch()
        let db = try s.database()
        let fifo = s.path("slow.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        try expectUnchanged(db) {
            let (p, stderr) = try start(["import", db, fifo])
            let writer = try #require(FileHandle(forWritingAtPath: fifo))
            // Opening the FIFO for writing returns once the import has opened it for reading,
            // which it does after installing its signal handling.
            writer.write(Data(#"{"Person": ["#.utf8))
            kill(p.processIdentifier, SIGINT)
            _ = waitUntil { !p.isRunning }
            try? writer.close()  // never left hanging if the signal were lost
            p.waitUntilExit()
            #expect(p.terminationStatus == 130)
            #expect(String(decoding: stderr.snapshot(), as: UTF8.self).contains("interrupted: nothing was written"))
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
            // Parsing takes a while; the signal lands while parsing or while importing, and
            // either way nothing may be written.
            Thread.sleep(forTimeInterval: 1.0)
            kill(p.processIdentifier, SIGINT)
            p.waitUntilExit()
            #expect(p.terminationStatus != 0)
            #expect(String(decoding: stderr.snapshot(), as: UTF8.self).contains("interrupted: nothing was written"))
        }
        #expect(RealmFilesSize.of(db) == size)
        #expect(try CLI.run(["query", db, "Person", "--format", "count"]).stdout == "2\n")
    }

    @Test func aWaitingWriterSaysSoAndCtrlCCancelsTheWait() throws {
        let s = try Scratch()
        let db = try s.database()
        let input = try s.write("in.json", Self.data)
        let realm = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: db), readOnly: false, createIfMissing: false))
        try realm.beginWrite()
        // Waits, says so after a second, and goes on once the lock is free.
        let (first, firstErr) = try start(["import", db, input])
        #expect(waitUntil { String(decoding: firstErr.snapshot(), as: UTF8.self).contains("waiting for another process that is writing to") })
        realm.cancelWrite()
        first.waitUntilExit()
        #expect(first.terminationStatus == 0, "\(String(decoding: firstErr.snapshot(), as: UTF8.self))")
        #expect(try count(db) == "1\n")
        // Ctrl-C while waiting ends it, with nothing written.
        try realm.beginWrite()
        try expectUnchanged(db) {
            let (second, secondErr) = try start(["update", db, "Person", "id == 9", "--set", "name=x"])
            #expect(waitUntil { String(decoding: secondErr.snapshot(), as: UTF8.self).contains("waiting for another process") })
            kill(second.processIdentifier, SIGINT)
            second.waitUntilExit()
            #expect(second.terminationStatus == 130)
        }
        realm.cancelWrite()
    }
}

enum RealmFilesSize {
    static func of(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.intValue ?? -1
    }
}
