import Foundation
import Testing
@testable import RealmEngine

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.serialized, .tags(.multiProcess)) struct MultiProcessTests {
    /// The writers' environment and the key to open the file with: encrypted files run the same
    /// tests (every writer rewrites pages the others wrote, and must see them).
    static func encryption(_ encrypted: Bool) -> (environment: [String: String]?, key: Data?) {
        guard encrypted else { return (nil, nil) }
        let key = EncryptionTests.key
        return (["REALM_TORTURE_KEY": key.map { String(format: "%02x", $0) }.joined()], key)
    }

    static func open(_ path: String, key: Data?) throws -> Realm {
        try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), encryptionKey: key))
    }

    @Test(arguments: [false, true]) func concurrentWritersInSeveralProcessesLoseNoUpdate(encrypted: Bool) throws {
        let (environment, key) = Self.encryption(encrypted)
        guard let exe = BuiltExecutable.url("realm-torture") else {
            Issue.record("realm-torture was not built next to the tests")
            return
        }
        let dir = TempDir()
        let path = dir.path("counter.realm")
        let processes = (0..<4).map { _ -> Process in
            let p = Process()
            p.executableURL = exe
            p.arguments = ["increment", path, "40"]
            if let environment { p.environment = environment }
            return p
        }
        for p in processes { try p.run() }
        for p in processes { p.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
        let realm = try Self.open(path, key: key)
        #expect(try realm.object(ofType: "Counter", forPrimaryKey: .int(0))?["value"] == .int(160))
        _ = try realm.checkIntegrity()
    }

    /// SIGKILL a writer at random moments during commits, again and again: the file always
    /// checks, every batch is all-or-nothing, and every acknowledged batch is present.
    @Test(arguments: [false, true]) func killedWritersLeaveACheckableFileWithAtomicBatches(encrypted: Bool) throws {
        let (environment, key) = Self.encryption(encrypted)
        guard let exe = BuiltExecutable.url("realm-torture") else {
            Issue.record("realm-torture was not built next to the tests")
            return
        }
        let dir = TempDir()
        let path = dir.path("crash.realm")
        let batchSize = 20
        var acked: [Int: Int] = [:]  // writer → highest acknowledged batch
        var rng = SystemRandomNumberGenerator()
        for round in 0..<25 {
            let p = Process()
            p.executableURL = exe
            p.arguments = ["batches", path, "\(round)", "0", "\(batchSize)"]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            if let environment { p.environment = environment }
            try p.run()
            usleep(UInt32.random(in: 20_000...150_000, using: &rng))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: " ")
                if parts.count == 3, let w = Int(parts[1]), let b = Int(parts[2]) { acked[w] = max(acked[w] ?? -1, b) }
            }
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let realm: Realm
            do {
                realm = try Self.open(path, key: key)
            } catch RealmError.notARealmFile {
                continue
            } catch RealmError.invalidSchema {
                // Killed while creating the file, before its first commit: the header is still
                // blank (opening it with a schema would create it). Nothing was acknowledged.
                #expect(acked[round] == nil)
                continue
            }
            _ = try realm.checkIntegrity()
            var perBatch: [Int64: Int] = [:]
            for b in try realm.objects("Item").filter("writer == $0", .int(Int64(round))).value(forKey: "batch") {
                if case .int(let b) = b { perBatch[b, default: 0] += 1 }
            }
            for (b, n) in perBatch {
                #expect(n == batchSize, "round \(round) batch \(b) has \(n) of \(batchSize) items")
            }
            if let a = acked[round] {
                for b in 0...a {
                    #expect(perBatch[Int64(b)] == batchSize, "acknowledged batch \(b) of round \(round) is missing")
                }
            }
        }
    }
}
