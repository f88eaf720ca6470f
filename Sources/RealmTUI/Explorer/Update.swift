import RealmEngine

/// The explorer's one transition function: the state and an event give the new state and the
/// effects to perform.
///
/// Keys go first to the input bar or overlay that takes text; otherwise the key map names the
/// action for the current screen.
public func update(_ state: inout ExplorerState, _ event: ExplorerEvent) -> [ExplorerEffect] {
    switch event {
    case .resize(let width, let height):
        state.width = width
        state.height = height
        state.keepCursorInView()
        return []
    case .tick(let seconds):
        state.now = seconds
        state.expireMarks()
        state.countOtherProcesses()
        return []
    case .tableChanged(let change):
        state.apply(change)
        return []
    case .refreshed:
        state.noteRefresh()
        return []
    case .commits(let summaries, let seenAt):
        state.noteCommits(summaries, seenAt: seenAt)
        return []
    case .write(let report):
        return state.keepingCursorInView {
            $0.handleWriteReport(report)
            return []
        }
    case .sync(let report):
        state.handleSyncReport(report)
        return []
    case .mouse(let mouse):
        return state.keepingCursorInView { $0.handleMouse(mouse) }
    case .key(let key):
        return state.keepingCursorInView { $0.handleKey(key) }
    }
}

extension ExplorerState {
    /// Runs `body`, then scrolls the cursor back into view when it changed the rows the screen
    /// has (an input bar, a prompt or an editor opened or closed under it).
    mutating func keepingCursorInView(_ body: (inout ExplorerState) -> [ExplorerEffect]) -> [ExplorerEffect] {
        let rows = contentRows
        let effects = body(&self)
        if contentRows != rows { keepCursorInView() }
        return effects
    }
}

extension ExplorerState {
    mutating func handleKey(_ key: Key) -> [ExplorerEffect] {
        switch mode {
        case .query: return handleQueryKey(key)
        case .edit(let flow): return handleEditKey(key, flow)
        case .classFilter(var editor):
            switch key {
            case .enter: mode = .browse
            case .escape:
                mode = .browse
                setClassFilter("")
            default:
                if editor.handle(key) {
                    mode = .classFilter(editor)
                    setClassFilter(editor.text)
                }
            }
            return []
        case .command(var editor):
            switch key {
            case .enter:
                mode = .browse
                return runCommand(editor.text)
            case .escape: mode = .browse
            case .backspace where editor.text.isEmpty: mode = .browse
            default:
                if editor.handle(key) { mode = .command(editor) }
            }
            return []
        case .changes: return handleChangesKey(key)
        case .help(let top), .schema(let top):
            let isHelp = if case .help = mode { true } else { false }
            let (count, page) =
                isHelp
                ? (HelpView.rows(self).count, HelpView.visibleRows(self))
                : (SchemaView.rows(self).rows.count, SchemaView.visibleRows(self))
            func scroll(_ delta: Int) {
                let moved = max(0, min(max(0, count - page), top + delta))
                mode = isHelp ? .help(top: moved) : .schema(top: moved)
            }
            switch key {
            case .character("j"), .down: scroll(1)
            case .character("k"), .up: scroll(-1)
            case .pageDown, .control("f"), .character(" "): scroll(page)
            case .pageUp, .control("b"): scroll(-page)
            default: mode = .browse
            }
            return []
        case .browse:
            message = nil
            if let effects = handlePickKey(key) { return effects }
            guard let action = keyMap.action(for: key, on: current.kind) else {
                if case .classes = current, case .character(let ch) = key, ch != " " {
                    // Typing a class's name filters the list (the keys bound here come first).
                    var editor = LineEditor()
                    _ = editor.handle(key)
                    mode = .classFilter(editor)
                    setClassFilter(editor.text)
                    return []
                }
                if case .character(let ch) = key, ch != " " {
                    message = Message(text: "\(ch): no such key here (? shows the keys)", isError: false)
                }
                return []
            }
            return perform(action)
        }
    }

    /// Performs a named action in browse mode.
    mutating func perform(_ action: ActionName) -> [ExplorerEffect] {
        switch action {
        case .quit: return confirmQuit()
        case .commitBatch: return commitBatchAction()
        case .changesPane:
            mode = .changes
            return []
        case .pauseLive:
            togglePause()
            return isPaused ? [] : [.catchUp]
        case .help:
            mode = .help(top: 0)
        case .commandLine:
            mode = .command(LineEditor())
        case .filterClasses:
            if case .classes(let screen) = current { mode = .classFilter(LineEditor(screen.filter)) }
        case .query:
            if case .table(let table) = current { mode = .query(QueryBar(editor: LineEditor(table.query))) }
        case .open: if !editOnEnter() { openSelection() }
        case .toggleNested: toggleNested()
        case .editValue: beginEdit()
        case .deleteObject: beginDelete()
        case .undo: return beginUndo()
        case .redo: return beginRedo()
        case .createObject:
            switch current {
            case .detail: beginDetailAppend()
            case .values(let values) where listUnderTable() == nil: beginPutKey(values)
            case .values: return performListAction(.appendElement)
            default:
                if listUnderTable() != nil { return performListAction(.appendElement) }
                beginCreate()
            }
        case .removeElement where isEntryScreen: return removeEntry()
        case .renameKey: beginRenameKey()
        case .appendElement, .insertElement, .removeElement, .moveElementDown, .moveElementUp:
            return performListAction(action)
        case .back: goBack()
        case .sortAscending, .sortDescending: sortByCursorColumn(ascending: action == .sortAscending)
        case .clearSort: clearSort()
        case .copyValue: return copySelection()
        case .nextPane, .previousPane: switchPane(forward: action == .nextPane)
        case .cursorUp: moveRows(-1)
        case .cursorDown: moveRows(1)
        case .pageUp: moveRows(-pageSize)
        case .pageDown: moveRows(pageSize)
        case .halfPageUp: moveRows(-max(1, pageSize / 2))
        case .halfPageDown: moveRows(max(1, pageSize / 2))
        case .firstRow: moveRows(Int.min / 2)
        case .lastRow: moveRows(Int.max / 2)
        case .cursorLeft: moveColumns(-1)
        case .cursorRight: moveColumns(1)
        case .firstColumn: moveColumns(Int.min / 2)
        case .lastColumn: moveColumns(Int.max / 2)
        }
        return []
    }

    /// Runs a `:` command.
    mutating func runCommand(_ text: String) -> [ExplorerEffect] {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let name = words.first else { return [] }
        if let effects = runEditCommand(text) { return effects }
        switch name {
        case "q", "quit": return confirmQuit()
        case "q!": return [.quit]
        case "schema":
            mode = .schema(top: 0)
        case "help":
            mode = .help(top: 0)
        case "export":
            // The whole file, from any screen: not the table's result.
            if words.count >= 3, words[1] == "realm" { return exportRealmCommand(Array(words[2...])) }
            guard case .table = current else {
                message = Message(text: ":export works on a table (open a class first)", isError: true)
                return []
            }
            guard words.count == 3, let format = ExportFormat(rawValue: words[1]) else {
                message = Message(
                    text: "usage: :export json|csv PATH (the table) or :export realm PATH (the file)", isError: true)
                return []
            }
            return [.export(format: format, path: words[2])]
        case "sync":
            guard words.count == 1 else {
                message = Message(text: "usage: :sync (starts the sync agent, or stops it)", isError: true)
                return []
            }
            return [.toggleSync]
        case "recover":
            guard words.count <= 2 else {
                message = Message(text: "usage: :recover [PATH]", isError: true)
                return []
            }
            return [.recoverSetAside(path: words.count == 2 ? words[1] : nil)]
        default:
            let known = HelpView.commands.map { ":" + $0.command }.joined(separator: ", ")
            message = Message(text: ":\(name): unknown command (\(known); :help lists them)", isError: true)
        }
        return []
    }
}
