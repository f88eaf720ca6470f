import Foundation
import Testing
@testable import RealmEngine

/// A power-loss simulator below `DatabaseFile` (SQLite's crash-test VFS; ALICE, CrashMonkey): it
/// records every write and size change between barriers, and at each barrier builds the images a
/// power loss right then could leave — the durable bytes plus any subset of the writes since the
/// last barrier, cut into 512-byte sectors that each land or not.
final class PowerLossSimulator: WriteRecorder {
    private enum Op {
        case write(offset: Int, bytes: [UInt8])
        case resize(to: Int)
    }

    /// The file as the disk holds it after the last barrier that returned.
    private(set) var durable: [UInt8]
    private var pending: [Op] = []
    /// Called at every barrier, before it returns.
    var atBarrier: (PowerLossSimulator) throws -> Void = { _ in }
    /// Errors thrown by `atBarrier` (a barrier inside the engine must not see them).
    private(set) var failures: [String] = []
    private(set) var barriers = 0
    /// What the commit in flight holds (set by the workload before it commits).
    var expectedInFlight: [Int64: String]?
    private var rng: SeededGenerator

    init(file: [UInt8], seed: UInt64) {
        durable = file
        rng = SeededGenerator(seed: seed)
    }

    func wrote(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) {
        // Cut at sector boundaries of the file: each piece lands or not on its own.
        var at = Int(offset)
        var from = 0
        while from < bytes.count {
            let n = min(bytes.count - from, 512 - at % 512)
            pending.append(.write(offset: at, bytes: [UInt8](UnsafeRawBufferPointer(rebasing: bytes[from..<from + n]))))
            at += n
            from += n
        }
    }

    func resized(from old: UInt64, to new: UInt64) { pending.append(.resize(to: Int(new))) }

    func barrierStarts() {
        barriers += 1
        do { try atBarrier(self) } catch { failures.append("barrier \(barriers): \(error)") }
    }

    /// Set by a test to stage a writer that died between its slot and the end of its barrier:
    /// barriers then make nothing durable (the writes stay in the page cache only).
    var barriersDoNotReturn = false

    func barrierReturned() {
        guard !barriersDoNotReturn else { return }
        durable = image { _ in true }
        pending.removeAll()
    }

    /// The number of pieces (sector writes and size changes) written since the last barrier.
    var pendingCount: Int { pending.count }

    /// The durable file plus the pending pieces `keep` accepts, applied in order.
    func image(keeping keep: (Int) -> Bool) -> [UInt8] {
        var out = durable
        for (i, op) in pending.enumerated() where keep(i) {
            switch op {
            case .resize(let size):
                if size < out.count {
                    out.removeLast(out.count - size)
                } else {
                    out += [UInt8](repeating: 0, count: size - out.count)
                }
            case .write(let offset, let bytes):
                if out.count < offset + bytes.count {
                    out += [UInt8](repeating: 0, count: offset + bytes.count - out.count)
                }
                out.replaceSubrange(offset..<offset + bytes.count, with: bytes)
            }
        }
        return out
    }

    /// A deterministic random number (SplitMix64).
    func random() -> UInt64 { rng.next() }

    /// The images to try at this barrier, one at a time (a run by hand makes a million, too
    /// many to hold): nothing landed, everything landed, every prefix in issue order at a few
    /// cut points, and `random` subsets with each piece kept with probability ½ or ⅞.
    func forEachImage(random count: Int, _ body: ([UInt8]) throws -> Void) rethrows {
        let n = pending.count
        try body(image { _ in false })
        try body(image { _ in true })
        for cut in [n / 4, n / 2, 3 * n / 4, n - 1] where cut > 0 && cut < n { try body(image { $0 < cut }) }
        for k in 0..<count {
            let threshold: UInt64 = k % 2 == 0 ? UInt64.max / 2 : UInt64.max / 8 * 7
            var keep = [Bool]()
            keep.reserveCapacity(n)
            for _ in 0..<n { keep.append(random() < threshold) }
            try body(image { keep[$0] })
        }
    }
}

@Suite(.tags(.integrity, .slow)) struct PowerLossTests {
    /// id → name of every Person.
    static func people(_ realm: Realm) throws -> [Int64: String] {
        var out: [Int64: String] = [:]
        let all = try realm.objects("Person")
        for o in all {
            guard case .int(let id)? = o["id"], case .string(let name)? = o["name"] else {
                throw RealmError.invalidInput("person without id or name")
            }
            out[id] = name
        }
        // Iteration records a read error and stops: an image that cannot be read whole fails.
        if let error = all.error { throw error }
        return out
    }

    /// Random images per barrier (`TestSize`): in CI 420 for a plain file (over 10,000 images in all, as the
    /// integrity issue asks) and 70 for an encrypted one (each image is decrypted whole at
    /// open); `REALMTUI_POWER_LOSS_IMAGES` and `REALMTUI_POWER_LOSS_IMAGES_ENCRYPTED` set them
    /// for a run by hand.
    static func randomImagesPerBarrier(encrypted: Bool) -> Int {
        let variable = encrypted ? "REALMTUI_POWER_LOSS_IMAGES_ENCRYPTED" : "REALMTUI_POWER_LOSS_IMAGES"
        return TestSize.rounds(variable, ci: encrypted ? 70 : 420)
    }

    static func person(_ id: Int, _ name: String) -> [String: Value] { ["id": .int(Int64(id)), "name": .string(name)] }

    /// Small (one-barrier) and large (two-barrier) commits, growth, updates, deletes and a
    /// cancelled transaction; at every barrier, every image must open, pass the integrity check
    /// and hold exactly the acknowledged commits, or those and the one in flight. Encrypted too:
    /// there a page rewrite re-encrypts the whole page, and the two copies per page
    /// (`EncryptedFile`) must keep what the commit protocol assumes of the bytes not written.
    @Test(arguments: [false, true]) func everyCrashImageHoldsAPrefixOfTheAcknowledgedCommits(encrypted: Bool) throws {
        let key = encrypted ? EncryptionTests.key : nil
        let dir = TempDir()
        let path = dir.path("workload.realm")
        // Images live in memory when the machine has a tmpfs: opening one may sync it.
        let shm =
            FileManager.default.fileExists(atPath: "/dev/shm")
            ? "/dev/shm/realmtui-power-loss-\(UUID().uuidString).realm" : nil
        let imagePath = shm ?? dir.path("image.realm")
        defer {
            try? FileManager.default.removeItem(atPath: imagePath)
            try? FileManager.default.removeItem(atPath: LockFile.path(forRealmAt: imagePath))
        }
        let realm = try Realm(
            configuration: .init(fileURL: URL(fileURLWithPath: path), schema: Fixtures.people, encryptionKey: key))
        try realm.write { for i in 0..<20 { try realm.create("Person", Self.person(i, "seed \(i)")) } }
        let simulator = PowerLossSimulator(file: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), seed: 11)
        var states = [try Self.people(realm)]
        // The oldest state the disk may still hold: the newest commit whose barrier returned.
        var floor = 0
        var checked = 0
        var fellBack = 0
        simulator.atBarrier = { sim in
            let possible = states[floor...]
            try sim.forEachImage(random: Self.randomImagesPerBarrier(encrypted: encrypted)) { image in
                try? FileManager.default.removeItem(atPath: imagePath)
                try? FileManager.default.removeItem(atPath: LockFile.path(forRealmAt: imagePath))
                try Data(image).write(to: URL(fileURLWithPath: imagePath))
                let opened = try Realm(
                    configuration: .init(fileURL: URL(fileURLWithPath: imagePath), encryptionKey: key))
                _ = try opened.checkIntegrity()
                let found = try Self.people(opened)
                if possible.contains(found) {
                    if opened.recoveredFromDamagedCommit != nil { fellBack += 1 }
                } else if found != sim.expectedInFlight {
                    throw RealmError.invalidInput(
                        "image \(checked) at barrier \(sim.barriers) holds \(found.count) people, neither an acknowledged state (\(possible.map(\.count))) nor the commit in flight"
                    )
                }
                checked += 1
            }
        }
        realm.shared.file.recorder = simulator
        defer { realm.shared.file.recorder = nil }

        func commit(writerDies: Bool = false, _ body: () throws -> Void) throws {
            try realm.beginWrite()
            try body()
            simulator.expectedInFlight = try Self.people(realm)
            simulator.barriersDoNotReturn = writerDies
            try realm.commitWrite()
            simulator.barriersDoNotReturn = false
            states.append(try Self.people(realm))
            if writerDies {
                // Killed after its slot, before its barrier returned: nothing of it is durable,
                // and the lock file never learnt that it was.
                realm.shared.lock.forgetDurable()
            } else {
                floor = states.count - 1
            }
        }
        for i in 20..<24 { try commit { try realm.create("Person", Self.person(i, "small \(i)")) } }
        // A large commit that grows the file.
        try commit {
            for i in 100..<8100 {
                try realm.create("Person", Self.person(i, String(repeating: "L", count: 20 + i % 80)))
            }
        }
        try commit { try realm.delete(try realm.objects("Person").filter("id >= 150 AND id < 8100")) }
        // A cancelled transaction: its writes to free space are undone without a barrier.
        try realm.beginWrite()
        for i in 500..<520 { try realm.create("Person", Self.person(i, String(repeating: "c", count: 2000))) }
        realm.cancelWrite()
        for i in 0..<4 {
            try commit {
                try realm.object(ofType: "Person", forPrimaryKey: .int(Int64(i)))?.setValue(
                    Value.string("renamed \(i)"), forKey: "name")
            }
        }
        for i in 24..<28 { try commit { try realm.create("Person", Self.person(i, "late \(i)")) } }
        // Defect 6: the next writer must not reuse space the last durable version needs.
        for round in 0..<3 {
            try commit(writerDies: true) { try realm.create("Person", Self.person(40 + round, "dies \(round)")) }
            try commit {
                try realm.object(ofType: "Person", forPrimaryKey: .int(Int64(20 + round)))?.setValue(
                    Value.string("after \(round)"), forKey: "name")
                try realm.create("Person", Self.person(50 + round, "next \(round)"))
            }
        }

        #expect(simulator.failures.isEmpty, "\(simulator.failures.prefix(3))")
        #expect(simulator.barriers > states.count - 1, "a large commit takes two barriers")
        #expect(
            checked >= (encrypted ? 1000 : 10_000)
                || Self.randomImagesPerBarrier(encrypted: encrypted) < (encrypted ? 70 : 420))
        print(
            "power-loss harness\(encrypted ? " (encrypted)" : ""): \(checked) crash images over \(simulator.barriers) barriers and \(states.count - 1) commits; \(fellBack) fell back to the previous commit"
        )
    }
}
