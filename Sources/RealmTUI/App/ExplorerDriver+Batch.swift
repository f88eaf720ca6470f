import Foundation
import RealmEngine

extension ExplorerState {
    /// Writes every staged edit in one write transaction. First, inside the transaction (so no
    /// other writer can slip in between the check and the writes), every staged object is
    /// compared with its snapshot: one changed or deleted by anyone since it was staged is a
    /// conflict, and the whole batch is refused with the list, nothing written, the batch kept.
    mutating func commitBatch() {
        guard let batch else { return }
        do {
            let written: Int? = try transaction {
                var conflicts: [String] = []
                for (id, snapshot) in batch.snapshots.sorted(by: { ($0.key.className, $0.key.key) < ($1.key.className, $1.key.key) }) {
                    guard let object = try realm.object(ofType: id.className, key: id.key) else {
                        conflicts.append("\(id.className)#\(id.key.rawValue) deleted")
                        continue
                    }
                    if try object.values() != snapshot { conflicts.append("\(id.className)#\(id.key.rawValue) changed") }
                }
                if !conflicts.isEmpty {
                    throw BatchConflicts(list: conflicts)
                }
                for write in batch.writes { _ = try apply(write) }
                return batch.writes.count
            }
            guard let count = written else { return wait(.batch) }
            self.batch = nil
            lastEdit = nil
            message = Message(text: "committed \(count) staged edit\(count == 1 ? "" : "s") in one transaction (v\(realm.version))", isError: false)
        } catch let conflicts as BatchConflicts {
            message = Message(text: "not committed: \(conflicts.list.count) conflict\(conflicts.list.count == 1 ? "" : "s"): "
                              + conflicts.list.joined(separator: ", "), isError: true)
        } catch {
            message = Message(text: "not committed: " + ExplorerText.describe(error), isError: true)
        }
        if case .detail(let detail) = current, detail.object.isInvalidated { goBack() }
        keepCursorInView()
    }
}

/// Staged objects that another writer changed or deleted since they were staged.
struct BatchConflicts: Error {
    var list: [String]
}
