import Foundation
// The shared helpers (TempDir, SeededGenerator, child processes, tags, TestSize) for every file of this target.
@_exported import TestSupport
import RealmSwift

/// Runs `body` on a fresh thread and waits for it.
func onOtherThread(_ body: @escaping @Sendable () throws -> Void) throws {
    nonisolated(unsafe) var failure: Error?
    let done = DispatchSemaphore(value: 0)
    let t = Thread {
        do { try body() } catch { failure = error }
        done.signal()
    }
    t.start()
    done.wait()
    if let failure { throw failure }
}

/// An in-memory Realm of its own; tests name their classes because several tests declare
/// classes of the same name with different properties.
func memoryConfig(_ types: [Object.Type], _ id: String = UUID().uuidString) -> Realm.Configuration {
    Realm.Configuration(inMemoryIdentifier: id, objectTypes: types)
}

/// A file-backed configuration in a fresh folder (removed by the caller with `removeFolder`).
func fileConfig(_ types: [Object.Type], name: String = "t.realm") throws -> Realm.Configuration {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("realmswift-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return Realm.Configuration(fileURL: dir.appendingPathComponent(name), objectTypes: types)
}

func removeFolder(of config: Realm.Configuration) {
    if let url = config.fileURL { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
}
