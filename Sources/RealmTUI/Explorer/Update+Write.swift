import RealmEngine

/// The `writing` state of the edit flow: a write runs on the driver's writer thread while the
/// explorer keeps answering keys; the thread's reports arrive as `ExplorerEvent.write`.
extension ExplorerState {
    /// The driver handed `pending` to its writer thread.
    mutating func beginWriting(_ pending: PendingWrite) {
        let status = WriteStatus(pending: pending, reopen: editAwaitingWrite)
        editAwaitingWrite = nil
        mode = .edit(.writing(status))
        message = Message(text: status.text, isError: false)
    }

    /// A write that could not be handed to the writer: the editor or form that asked for it is
    /// open again with `reason`.
    mutating func refuseWrite(_ reason: String) {
        message = Message(text: reason, isError: true)
        if let reopen = editAwaitingWrite { mode = .edit(reopen.reopened(refusal: reason)) }
        editAwaitingWrite = nil
    }

    /// Whether a write runs on the writer thread.
    var isWriting: Bool {
        if case .edit(.writing) = mode { return true }
        return false
    }

    /// A key while a write runs: Esc asks the writer to cancel; any other key is answered with
    /// what the write is doing (the write goes on).
    mutating func handleWritingKey(_ key: Key, _ status: WriteStatus) -> [ExplorerEffect] {
        var status = status
        guard key == .escape else {
            message = Message(text: status.text, isError: status.phase == .waitingForLock)
            return []
        }
        guard !status.isCancelling else { return [] }
        status.isCancelling = true
        mode = .edit(.writing(status))
        message = Message(text: status.text, isError: false)
        return [.cancelWrite]
    }

    /// A report of the writer thread.
    mutating func handleWriteReport(_ report: WriteEvent) {
        // A report with no write running (none should come) changes nothing.
        guard case .edit(.writing(var status)) = mode else { return }
        switch report {
        case .waitingForLock:
            status.phase = .waitingForLock
            mode = .edit(.writing(status))
            message = Message(text: status.text, isError: true)
        case .progress(let done, let total):
            status.phase = .writing(done: done, total: total)
            mode = .edit(.writing(status))
            message = Message(text: status.text, isError: false)
        case .finished(let outcome):
            mode = .browse
            finishWrite(status, outcome)
        }
    }

    /// The outcome of a write: the status line says what happened, `u` learns how to take it
    /// back, the cursor goes to a created object, a detail view of a deleted object closes.
    private mutating func finishWrite(_ status: WriteStatus, _ outcome: WriteOutcome) {
        let isBatch = if case .batch = status.pending { true } else { false }
        switch outcome {
        case .written(let receipt):
            var summary = receipt.summary
            if case .write(.undo) = status.pending {
                // A redo is the undo of the inverse: the writer says "undone".
                if undoHistory.finished(written: true) == .redo, summary.hasPrefix("undone: ") {
                    summary = "redone: " + summary.dropFirst("undone: ".count)
                }
            } else {
                undoHistory.committed(receipt.undo)
            }
            if isBatch { batch = nil }
            var hints: [String] = []
            if !undoHistory.undoable.isEmpty { hints.append("u undoes") }
            if !undoHistory.redoable.isEmpty { hints.append("ctrl-r redoes") }
            var text = "\(summary) (v\(receipt.version)" + hints.map { "; " + $0 }.joined() + ")"
            if status.isCancelling { text += "; Esc came after the commit began" }
            message = Message(text: text, isError: false)
            if let created = receipt.created { moveCursor(to: created) }
            if case .write(.list(_, _, _, .move(_, let to))) = status.pending { moveCursor(toRow: to) }
        case .refused(let reason):
            var reason = reason
            // An undo its objects' later changes refuse never becomes possible: it is dropped,
            // so that u reaches the changes before it.
            if case .write(.undo) = status.pending, undoHistory.finished(written: false) != nil {
                reason += " (dropped: u now takes back the change before it)"
            }
            message = Message(text: (isBatch ? "not committed: " : "nothing written: ") + reason, isError: true)
            if let reopen = status.reopen { mode = .edit(reopen.reopened(refusal: "nothing written: " + reason)) }
        case .conflicts(let list):
            message = Message(
                text: "not committed: \(list.count) conflict\(list.count == 1 ? "" : "s"): "
                    + list.joined(separator: ", "),
                isError: true)
        case .cancelled:
            undoHistory.cancelled()
            let text =
                status.phase == .waitingForLock
                ? "gave up waiting for the other writer: nothing written" : "write cancelled: nothing written"
            message = Message(text: text, isError: false)
        }
        if case .detail(let detail) = current, detail.object.isInvalidated { goBack() }
        keepCursorInView()
    }

    /// Puts the cursor of a list's table or values on row `row` (a moved element).
    private mutating func moveCursor(toRow row: Int) {
        switch current {
        case .table(let table): moveRows(row - table.cursorRow)
        case .values(let values): moveRows(row - values.cursor)
        default: break
        }
    }

    /// Puts the table's cursor on the object `key` when the table shows it (looked for among
    /// the first 100,000 rows only, so a huge table never stalls a commit).
    private mutating func moveCursor(to key: ObjectKey) {
        guard case .table(var table) = current, table.rows.count <= 100_000,
            let row = try? table.rows.results.keys().firstIndex(of: key)
        else { return }
        table.cursorRow = row
        current = .table(table)
    }
}
