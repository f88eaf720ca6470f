import RealmEngine

extension ExplorerDriver {
    /// Sends `event` with `monitor` watching the long reads it causes (a query through links
    /// over a million objects, a full sort for the last page): `update`, its effects, and the
    /// reads of the rows the next frame shows, so that drawing finds them cached. When the
    /// monitor cancels (Esc or ctrl-c on the progress line), the state goes back to what it was
    /// before the event — the table, its query and sort, the cursor — and says so; nothing the
    /// event asked for is done.
    public mutating func send(_ event: ExplorerEvent, monitor: ProgressMonitor) {
        let before = state
        monitor.run {
            let effects = update(&state, event)
            guard !monitor.isCancelled else { return }
            complete(effects)
            guard !monitor.isCancelled else { return }
            try? state.readVisibleRows()
        }
        guard monitor.isCancelled else { return }
        state = before
        state.message = ExplorerState.Message(text: "cancelled: the screen is as it was", isError: false)
        observeTables()
    }
}

extension ExplorerState {
    /// Reads what the next frame of a table shows (its count and the rows in view), filling
    /// the table's caches; throws what stopped the read.
    func readVisibleRows() throws {
        guard case .table(let table) = current else { return }
        _ = try table.rows.checkedCount()
        let rows = max(1, tableBodyHeight)
        _ = try table.rows.objects(in: table.topRow..<(table.topRow + rows))
    }
}
