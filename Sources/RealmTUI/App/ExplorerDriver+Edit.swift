import Foundation
import RealmEngine

/// The driver's side of writes: each write effect goes to the writer thread (`EditWriter`),
/// whose reports come back through `deliverWriteReports()` as `ExplorerEvent.write` events for
/// `update`. The session calls that whenever its event wait wakes (the writer wakes it through
/// the terminal's self-pipe); tests call `finishWrite()` to wait for a write's end.
extension ExplorerDriver {
    /// Performs a write effect: staged when a batch is open, otherwise handed to the writer.
    mutating func startWrite(_ write: EditWrite) {
        if state.batch != nil, !isUndo(write) {
            state.stage(write)
            state.editAwaitingWrite = nil
            return
        }
        start(.write(write), pending: .write(write))
    }

    /// `:commit` (ctrl-s) of the open batch: its staged edits and snapshots go to the writer.
    mutating func startBatchCommit() {
        guard let batch = state.batch else { return }
        let snapshots = batch.snapshots.map {
            BatchSnapshot(className: $0.key.className, key: $0.key.key, values: $0.value)
        }
        start(.batch(writes: batch.writes, snapshots: snapshots), pending: .batch)
    }

    private func isUndo(_ write: EditWrite) -> Bool {
        if case .undo = write { return true }
        return false
    }

    private mutating func start(_ job: WriteJob, pending: PendingWrite) {
        if writer == nil {
            writer = EditWriter(configuration: state.realm.configuration, beforeCommit: beforeCommit, wake: wakeOnWrite)
        }
        guard let writer, writer.submit(job) else {
            state.refuseWrite("another write is still running: nothing written")
            return
        }
        state.beginWriting(pending)
        writer.settle(limit: writeWaitLimit)
        deliverWriteReports()
    }

    /// Esc while a write runs: asks the writer to cancel, then waits as for a new write.
    mutating func cancelWrite() {
        guard let writer else { return }
        writer.cancel()
        writer.settle(limit: writeWaitLimit)
        deliverWriteReports()
    }

    /// Sends the writer's reports to `update`. Before a commit's outcome, the Realm moves to the
    /// newest version (even while live updates are paused: the explorer shows its own writes),
    /// so the screens show what was written.
    public mutating func deliverWriteReports() {
        guard let writer else { return }
        for report in writer.poll() {
            if case .finished(.written) = report { refresh(force: true) }
            perform(update(&state, .write(report)))
        }
    }

    /// Waits until the running write ends (however long another writer holds the lock), then
    /// delivers its reports. For tests and scripts; the session never blocks on a write.
    public mutating func finishWrite() {
        guard let writer else { return }
        while writer.isBusy { writer.settle(limit: .milliseconds(10)) }
        deliverWriteReports()
    }

    /// Whether a write runs on the writer thread.
    public var isWriting: Bool { writer?.isBusy == true }
}

extension ExplorerDriver {
    /// `:copy PATH`: writes a compacted copy of the file (the engine's `writeCopy`) and opens the
    /// copy writable in place of the original, on the class list. The copy of an encrypted file
    /// is encrypted with the same key.
    mutating func copyAndReopen(path: String) {
        let expanded = (path as NSString).expandingTildeInPath
        do {
            let key = state.realm.configuration.encryptionKey
            try state.realm.writeCopy(toFile: expanded, encryptionKey: key)
            let copy = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: expanded), encryptionKey: key))
            let old = state
            // Nothing of the original stays open (another process may compact it while the
            // explorer is on the copy): the writer thread's instance, the tables' observers,
            // and the state's instance with the old state. The next write starts a writer on
            // the copy; the session moves its commit watcher when `fileGeneration` changes.
            writer?.close()
            writer = nil
            beforeCommit = nil
            for token in observers.values { token.invalidate() }
            observers.removeAll()
            inbox.changes.removeAll()
            inbox.failed.removeAll()
            fileGeneration += 1
            state = ExplorerState(
                realm: copy, fileName: URL(fileURLWithPath: expanded).lastPathComponent, readOnly: false,
                width: old.width, height: old.height, theme: old.theme, keyMap: old.keyMap, history: old.history)
            state.message = .init(text: "copied: \(state.fileName) is open writable", isError: false)
        } catch {
            state.message = .init(text: ":copy failed: \(ExplorerText.describe(error))", isError: true)
        }
    }
}
