import Foundation
@testable import RealmEngine

/// The workload the I/O-error harness (`FaultInjectionTests`) runs under an injected fault: open
/// (create), small commits, a large commit that grows the file, a delete, `writeCopy`,
/// compaction and a reopen — every kind of system call the engine makes on a database, its lock
/// file and its folder. It keeps the model of what was acknowledged: every commit that returned
/// without throwing is in it; a commit that threw is not, unless the engine entered its ERROR
/// state on it (the outcome is then unknown, `uncertain`).
final class FaultWorkload {
    /// The workload's own folder, which its fault plans are scoped to. On tmpfs when there is
    /// one: the harness tests error handling, not durability, and a real disk's fdatasync would
    /// make each of its thousand runs ten times slower.
    let folder: String
    var path: String { folder + "/db.realm" }
    var copyPath: String { folder + "/copy.realm" }

    /// Acknowledged objects, id → name.
    private(set) var model: [Int64: String] = [:]
    /// The one commit whose outcome the engine declared unknown (ERROR state), as the model it
    /// would make if it landed. Later writes are refused, so there is at most one.
    private(set) var uncertain: [Int64: String]?
    /// What the model was when `writeCopy` succeeded (the copy must hold exactly that).
    private(set) var copied: [Int64: String]?
    /// Errors thrown by the steps, in order (each must be a `RealmError`).
    private(set) var errors: [(step: String, error: Error)] = []
    /// Whether any instance reported the ERROR state (writes refused until reopened).
    private(set) var sawErrorState = false
    /// Called once the writes are done: if the fault has struck by then, the test removes its
    /// plan (the device is back) and returns true, and a last commit on the same instance
    /// follows; otherwise the plan stays for `writeCopy`, compaction and reopening.
    var deviceBack: () -> Bool = { false }
    /// Promises the last commit broke: in the ERROR state it must be refused (until the file is
    /// reopened); otherwise, with the device back, it must succeed.
    private(set) var broken: [String] = []

    init() {
        let shm = "/dev/shm"
        let parent = FileManager.default.isWritableFile(atPath: shm) ? shm : FileManager.default.temporaryDirectory.path
        folder = parent + "/realmtui-faults-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// Time spent per step of the last `run` (for measurements).
    private(set) var timings: [(step: String, duration: Duration)] = []
    private let clock = ContinuousClock()

    private func attempt(_ step: String, _ body: () throws -> Void) {
        let start = clock.now
        defer { timings.append((step, clock.now - start)) }
        do { try body() } catch { errors.append((step, error)) }
    }

    /// A commit of `change` applied to the model, acknowledged only if it returns.
    private func commit(
        _ realm: Realm, _ step: String, change: (inout [Int64: String]) -> Void,
        _ body: () throws -> Void
    ) {
        let start = clock.now
        defer { timings.append((step, clock.now - start)) }
        var next = model
        change(&next)
        do {
            try realm.write(body)
            model = next
        } catch {
            if realm.isInWriteTransaction { realm.cancelWrite() }
            errors.append((step, error))
            if realm.shared.writeFailure != nil && !sawErrorState {
                sawErrorState = true
                uncertain = next
            }
        }
    }

    static func name(_ id: Int64, large: Bool) -> String {
        large ? String(repeating: "L\(id % 10)", count: 5000) : "p\(id)"
    }

    /// Runs every step; a step that throws is recorded and the next one runs anyway.
    func run() {
        do {
            let realm: Realm
            do {
                realm = try Realm(path: path, schema: Fixtures.people)
            } catch {
                errors.append(("open", error))
                return
            }
            for id in Int64(0)..<2 {
                commit(realm, "small commit \(id)", change: { $0[id] = Self.name(id, large: false) }) {
                    try realm.create("Person", ["id": .int(id), "name": .string(Self.name(id, large: false))])
                }
            }
            let large = Int64(100)..<Int64(108)
            commit(realm, "large commit", change: { m in for id in large { m[id] = Self.name(id, large: true) } }) {
                for id in large {
                    try realm.create("Person", ["id": .int(id), "name": .string(Self.name(id, large: true))])
                }
            }
            commit(realm, "delete", change: { m in m = m.filter { $0.key >= 150 } }) {
                try realm.delete(try realm.objects("Person").filter("id < 150"))
            }
            commit(realm, "small commit after delete", change: { $0[7] = "seven" }) {
                try realm.create("Person", ["id": .int(7), "name": .string("seven")])
            }
            let before = model
            attempt("writeCopy") {
                try realm.writeCopy(toFile: copyPath)
                copied = before
            }
            if deviceBack() {
                let refused = errors.count
                commit(realm, "commit with the device back", change: { $0[8] = "eight" }) {
                    try realm.create("Person", ["id": .int(8), "name": .string("eight")])
                }
                let failed = errors.count > refused
                if sawErrorState && !failed { broken.append("a write was accepted in the ERROR state") }
                if !sawErrorState && failed {
                    broken.append("a write failed with the device back: \(errors[refused].error)")
                }
                if sawErrorState, failed, case RealmError.io(_, _, _, let message) = errors[refused].error,
                    !message.contains("reopen")
                {
                    broken.append("the ERROR state's refusal does not say to reopen: \(message)")
                }
            }
        }
        attempt("compact") { try Realm.compact(path: path) }
        attempt("reopen") {
            let realm = try Realm(path: path)
            _ = try realm.objects("Person").checkedCount()
        }
    }

    /// The objects in the file at `path` now, id → name.
    static func contents(of path: String) throws -> [Int64: String] {
        let realm = try Realm(path: path)
        var found: [Int64: String] = [:]
        let people = try realm.objects("Person")
        for object in people {
            guard case .int(let id) = try object.value(forKey: "id"),
                case .string(let name) = try object.value(forKey: "name")
            else {
                throw RealmError.invalidInput("an object without id or name")
            }
            found[id] = name
        }
        if let error = people.error { throw error }
        return found
    }

    /// Whether `found` is a state the engine may leave: the acknowledged model, or the model
    /// with the one commit of unknown outcome.
    func allows(_ found: [Int64: String]) -> Bool {
        found == model || found == uncertain
    }
}
