import Foundation
import RealmEngine

/// Change sets delivered by the engine's collection notifications, waiting for the driver to
/// turn them into events (the callbacks run inside `Realm.refresh()`).
final class LiveInbox {
    var changes: [TableChange] = []
    /// Tables whose observer ended with an error (the notifier could not read a newer version):
    /// observed again, from the version shown, by the next `observeTables`.
    var failed: Set<ObjectIdentifier> = []
}

extension ExplorerDriver {
    /// Tables with more objects than this follow commits without change sets: their count and
    /// rows are re-read at each new version (the cursor keeps its row number, no marks). A change
    /// set needs the previous result's keys in memory (8 bytes an object) and a first full
    /// evaluation; above this size that would cost the explorer its bounded memory and its
    /// first-frame time on a 10,000,000-object class.
    public static let liveChangeSetLimit = 1_000_000

    /// Observes the results of every table on the navigation stack (and stops observing tables
    /// that left it), so each commit's change set reaches them.
    mutating func observeTables() {
        for id in inbox.failed {
            observers[id]?.invalidate()
            observers[id] = nil
        }
        inbox.failed.removeAll()
        var wanted: [ObjectIdentifier: TableRows] = [:]
        for screen in state.stack {
            if case .table(let table) = screen { wanted[ObjectIdentifier(table.rows)] = table.rows }
        }
        for (id, token) in observers where wanted[id] == nil {
            token.invalidate()
            observers[id] = nil
        }
        for (id, rows) in wanted where observers[id] == nil {
            guard let count = try? rows.checkedCount(), count <= Self.liveChangeSetLimit else { continue }
            let inbox = self.inbox
            // A table that cannot be evaluated (a damaged class) shows its error and is not live.
            observers[id] = try? rows.results.observeFromCurrentVersion { change in
                switch change {
                case .update(_, let deletions, let insertions, let modifications):
                    inbox.changes.append(
                        TableChange(
                            table: id, deletions: deletions, insertions: insertions,
                            modifications: modifications))
                case .error:
                    // A registration ends with its error; a later good version must still be
                    // followed. (The status line says why the explorer could not move.)
                    inbox.failed.insert(id)
                case .initial:
                    break
                }
            }
        }
    }

    /// Moves the Realm to the newest version unless live updates are paused (or `force`: the
    /// explorer's own commit), and applies the change sets the move delivered. Returns whether
    /// the version moved. A newest version that cannot be read (its top node damaged) leaves
    /// the explorer on the version it shows, still pinned, with the reason in the status line.
    @discardableResult
    public mutating func refresh(force: Bool = false) -> Bool {
        guard force || !state.isPaused else { return false }
        let before = state.realm.version
        state.rememberShownValues()
        let moved: Bool
        do {
            moved = try state.realm.checkedRefresh()
        } catch {
            // The file's name is on the status line already: the place and the reason will do.
            let reason =
                if case RealmError.corruptFile(_, let offset, let why) = error {
                    "offset \(offset): \(why)"
                } else {
                    ExplorerText.describe(error)
                }
            state.message = .init(
                text: "⚠ cannot move to version \(state.realm.latestVersion) (still showing \(before)): \(reason)",
                isError: true)
            return false
        }
        if moved {
            // Nil: the log no longer holds them all (it keeps the newest commits only). A log
            // that cannot be read is not a trimmed one: the status line says so.
            var summaries: [CommitSummary]?
            do {
                summaries = try state.realm.commitSummaries(after: before)
            } catch {
                state.message = .init(
                    text: "⚠ the file's change log cannot be read, so the changes pane (c) misses "
                        + "v\(before + 1)…v\(state.realm.version): \(ExplorerText.describe(error))", isError: true)
            }
            if let summaries {
                send(.commits(summaries, seenAt: Date()))
            } else {
                state.commitsNotShown += Int(state.realm.version - before)
            }
        }
        let changes = inbox.changes
        inbox.changes.removeAll()
        for change in changes { send(.tableChanged(change)) }
        if moved || !changes.isEmpty { send(.refreshed) }
        return moved
    }

    /// Whether a newer version than the one shown exists.
    public var isBehind: Bool {
        state.realm.latestVersion > state.realm.version
    }
}
