import Foundation
@testable import RealmEngine
import Synchronization
import Testing

/// `compact` replaces the file at its path; a process that opened the old file just before must
/// not commit into it (or watch it) once it is no longer at its path: its acknowledged writes
/// would be lost with it (issue 29, item 1).
@Suite(.serialized, .tags(.integrity, .multiProcess, .slow)) struct CompactRaceTests {
    /// The file, made by `realm-torture` with its own schema (Item, Counter), opened here with
    /// the schema it holds: the writers and this test must agree on it.
    private func makeFile(_ path: String) throws {
        let (status, _, err) = try BuiltExecutable.run("realm-torture", ["increment", path, "0"])
        try #require(status == 0, "\(err)")
    }

    private func configuration(_ path: String) -> Realm.Configuration {
        .init(fileURL: URL(fileURLWithPath: path))
    }

    private func count(_ path: String, _ query: String) throws -> Int {
        let realm = try Realm(configuration: configuration(path))
        return try realm.objects("Item").filter(query).count
    }

    /// The opener has the data file open and has not yet taken the lock file when another
    /// process compacts: the opener must end up writing into the file now at the path.
    @Test func anOpenerOvertakenByCompactionCommitsIntoTheFileAtThePath() throws {
        let dir = TempDir()
        let path = dir.path("race.realm")
        try makeFile(path)
        do {
            let realm = try Realm(configuration: configuration(path))
            try realm.write {
                for index in 0..<50 {
                    try realm.create(
                        "Item",
                        ["id": .string("seed-\(index)"), "writer": .int(0), "batch": .int(0), "payload": .string("x")])
                }
            }
        }
        let canonical = URL(fileURLWithPath: path).standardizedFileURL.path
        let compactions = Mutex<[String]>([])
        SharedFile.afterOpeningDataFileForTests = { opened in
            guard opened == canonical, compactions.withLock({ $0.isEmpty }) else { return }
            let outcome: String
            do {
                let (status, out, err) = try BuiltExecutable.run("realm-torture", ["compact", canonical, "1"])
                outcome = "exit \(status): \(out)\(err)"
            } catch {
                outcome = "could not run realm-torture: \(error)"
            }
            compactions.withLock { $0.append(outcome) }
        }
        defer { SharedFile.afterOpeningDataFileForTests = nil }
        do {
            let realm = try Realm(configuration: configuration(path))
            try realm.write {
                try realm.create(
                    "Item",
                    ["id": .string("late"), "writer": .int(1), "batch": .int(1), "payload": .string("acknowledged")])
            }
        }
        SharedFile.afterOpeningDataFileForTests = nil
        let outcomes = compactions.withLock { $0 }
        #expect(outcomes == ["exit 0: compacted 1 busy 0\n"], "the compaction must have run between the opener's steps")
        #expect(try count(path, "id == 'late'") == 1, "the acknowledged write was lost with the replaced file")
        #expect(try count(path, "TRUEPREDICATE") == 51)
    }

    /// Writers that open the file for each commit, while another process compacts in a loop:
    /// every acknowledged write is in the file at the end.
    @Test func compactionInALoopLosesNoAcknowledgedWrite() throws {
        let dir = TempDir()
        let path = dir.path("loop.realm")
        try makeFile(path)
        let perWriter = TestSize.rounds("REALMTUI_COMPACT_RACE_WRITES", ci: 400)
        let compactor = try ChildProcess(["compact", path, "0"], in: dir, name: "compactor")
        let writers = try (1...3).map { writer in
            try ChildProcess(["reopen", path, "\(writer)", "\(perWriter)"], in: dir, name: "writer\(writer)")
        }
        for writer in writers { writer.wait() }
        try #require(
            FileManager.default.createFile(atPath: path + ".stop", contents: nil),
            "cannot make the compactor's stop file")
        compactor.wait()
        for child in writers + [compactor] {
            #expect(child.status == 0, "\(child.name) failed: \(child.stderr)")
        }
        let acknowledged = writers.flatMap { $0.stdout.split(separator: "\n").map { $0.split(separator: " ") } }
        #expect(acknowledged.count == 3 * perWriter)
        let realm = try Realm(configuration: configuration(path))
        let items = try realm.objects("Item")
        #expect(try items.checkedCount() == acknowledged.count)
        var missing: [String] = []
        for ack in acknowledged where ack.count == 3 {
            let id = "\(ack[1])-\(ack[2])"
            if try realm.object(ofType: "Item", forPrimaryKey: .string(id)) == nil { missing.append(id) }
        }
        #expect(missing.isEmpty, "acknowledged but lost: \(missing.prefix(10)) (compactor: \(compactor.stdout))")
    }
}

/// A `realm-torture` child whose output goes to files in the test's folder (so a full pipe never
/// blocks it); read once it has exited.
final class ChildProcess {
    let name: String
    private let process = Process()
    private let outPath: String
    private let errPath: String

    init(_ arguments: [String], in dir: TempDir, name: String) throws {
        self.name = name
        outPath = dir.path("\(name).out")
        errPath = dir.path("\(name).err")
        guard let url = BuiltExecutable.url("realm-torture") else {
            throw RealmError.fileNotFound(path: "realm-torture")
        }
        guard FileManager.default.createFile(atPath: outPath, contents: nil),
            FileManager.default.createFile(atPath: errPath, contents: nil)
        else {
            throw RealmError.io(
                path: outPath, operation: "create", errno: errno, message: "cannot make the child's output files")
        }
        process.executableURL = url
        process.arguments = arguments
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        try process.run()
    }

    func wait() { process.waitUntilExit() }
    var status: Int32 { process.terminationStatus }
    var stdout: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }
}
