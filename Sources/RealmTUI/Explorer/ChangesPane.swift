import Foundation
import RealmEngine

/// The changes pane (`c`): the commits seen since the explorer opened, newest first, and — after
/// Enter on one — that commit's objects. Kept in the state while the pane is closed, so `c`
/// after opening one of the objects comes back to the same commit.
struct ChangesPane {
    /// The commit line under the cursor (0: the newest).
    var cursor = 0
    /// The first commit line shown.
    var top = 0
    /// The commit opened with Enter, listing its objects (nil: the list of commits is shown).
    var opened: OpenedCommit?
}

/// One commit's objects, per class: those it created (`+`) or modified (`~`), found again by
/// key when drawn (so an object deleted since shows as gone), and how many it deleted.
struct OpenedCommit {
    /// One line of the list.
    enum Entry: Equatable {
        /// A class's counts: `Dog  +1 −0 ~2`.
        case heading(String)
        /// An object the commit created or modified.
        case object(className: String, key: ObjectKey, inserted: Bool)
        /// A remark: objects deleted in the commit, or keys not listed.
        case note(String)
    }

    let version: UInt64
    let seenAt: Date
    let entries: [Entry]
    /// The line under the cursor.
    var cursor = 0
    /// The first line shown.
    var top = 0

    /// The lines of `summary`'s objects, class by class in schema order.
    init(_ summary: CommitSummary, seenAt: Date) {
        version = summary.version
        self.seenAt = seenAt
        var entries: [Entry] = []
        if summary.changedSchema {
            entries.append(.note("this commit changed the schema: any object may have changed"))
        }
        for changes in summary.classes {
            entries.append(
                .heading("\(changes.className)  +\(changes.inserted) −\(changes.deleted) ~\(changes.modified)"))
            let inserted = Set(changes.insertedKeys)
            for key in changes.touchedKeys {
                entries.append(.object(className: changes.className, key: key, inserted: inserted.contains(key)))
            }
            // The engine lists the first 1,000 keys; say so rather than suggest that is all.
            if changes.touchedKeys.count < max(changes.inserted, changes.modified)
                || (changes.touchedKeys.count >= 1000 && changes.inserted + changes.modified > 1000)
            {
                entries.append(.note("only the first \(changes.touchedKeys.count) objects (by key) are listed"))
            }
            if changes.deleted > 0 {
                entries.append(
                    .note("\(changes.deleted) object\(changes.deleted == 1 ? " was" : "s were") deleted in this commit")
                )
            }
        }
        if entries.isEmpty { entries.append(.note("this commit changed no objects")) }
        self.entries = entries
        // The cursor starts on the first object: what Enter is for here.
        cursor = entries.firstIndex { if case .object = $0 { true } else { false } } ?? 0
    }
}

extension ExplorerState {
    /// Keys while the changes pane is open: j/k move, Enter opens a commit (or, in a commit,
    /// the object under the cursor), Esc goes back (to the commits, then out); q quits and any
    /// other key closes the pane.
    mutating func handleChangesKey(_ key: Key) -> [ExplorerEffect] {
        let page = max(1, contentRows.count - 2)
        switch key {
        case .character("q"): return confirmQuit()
        case .character("j"), .down: moveChangesCursor(1)
        case .character("k"), .up: moveChangesCursor(-1)
        case .pageDown, .control("f"), .character(" "): moveChangesCursor(page)
        case .pageUp, .control("b"): moveChangesCursor(-page)
        case .character("g"), .home: moveChangesCursor(Int.min / 2)
        case .character("G"), .end: moveChangesCursor(Int.max / 2)
        case .enter, .character("l"), .right: openChangesSelection()
        case .escape, .backspace, .character("h"), .left:
            if changesPane.opened != nil { changesPane.opened = nil } else { mode = .browse }
        default: mode = .browse
        }
        return []
    }

    /// Moves the pane's cursor `delta` lines (clamped) and scrolls it into view; 0 after a resize.
    mutating func moveChangesCursor(_ delta: Int) {
        let height = max(1, contentRows.count - 2)
        if var opened = changesPane.opened {
            opened.cursor = max(
                0, min(opened.entries.count - 1, opened.cursor.addingReportingOverflow(delta).partialValue))
            opened.top = scrolled(top: opened.top, cursor: opened.cursor, count: opened.entries.count, height: height)
            changesPane.opened = opened
        } else {
            // The cursor is on a commit; the note on commits no longer in the log, under the
            // oldest, scrolls into view with it.
            let count = commitLog.count
            changesPane.cursor = max(0, min(count - 1, changesPane.cursor.addingReportingOverflow(delta).partialValue))
            let lines = ChangesView.lineCount(self)
            let shown = changesPane.cursor == count - 1 ? lines - 1 : changesPane.cursor
            changesPane.top = scrolled(top: changesPane.top, cursor: shown, count: lines, height: height)
        }
    }

    /// Enter: on a commit, lists its objects; on one of them that still exists, closes the pane
    /// and opens its detail view.
    private mutating func openChangesSelection() {
        guard let opened = changesPane.opened else {
            let index = commitLog.count - 1 - changesPane.cursor
            guard commitLog.indices.contains(index) else { return }
            changesPane.opened = OpenedCommit(commitLog[index].summary, seenAt: commitLog[index].seenAt)
            return
        }
        guard opened.entries.indices.contains(opened.cursor),
            case .object(let className, let key, _) = opened.entries[opened.cursor]
        else { return }
        do {
            guard let object = try realm.object(ofType: className, key: key) else {
                message = Message(text: "\(className)#\(key.rawValue) was deleted since this commit", isError: false)
                return
            }
            mode = .browse
            // The crumb says where the object came from: it may be of another class than the
            // table below it.
            let origin = "v\(opened.version) \(className)"
            var detail = DetailScreen(crumb: origin + ": " + crumbName(object), object: object)
            detail.origin = origin
            push(.detail(detail))
        } catch {
            message = Message(text: ExplorerText.describe(error), isError: true)
        }
    }

    /// New commits reach the changes pane: logged (the newest 10,000 kept), and the cursor of an
    /// open list of commits stays on its commit.
    mutating func noteCommits(_ summaries: [CommitSummary], seenAt: Date) {
        commitLog += summaries.map { ($0, seenAt) }
        if commitLog.count > 10_000 { commitLog.removeFirst(commitLog.count - 10_000) }
        if changesPane.cursor > 0 || changesPane.top > 0 {
            changesPane.cursor = min(commitLog.count - 1, changesPane.cursor + summaries.count)
            changesPane.top = min(commitLog.count - 1, changesPane.top + summaries.count)
        }
    }
}
