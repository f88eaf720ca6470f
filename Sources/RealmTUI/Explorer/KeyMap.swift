/// One key binding: the keys, the action they trigger, where, and the help text.
public struct KeyBinding: Sendable {
    /// The keys that trigger the action (the first is the one help shows first).
    public var keys: [Key]
    /// The action.
    public var action: ActionName
    /// The screens where the binding applies.
    public var screens: Set<ScreenKind>
    /// What the action does, for the help screen.
    public var help: String
}

/// The one table from keys to actions. Habits of vim, less, lazygit and k9s.
public struct KeyMap: Sendable {
    /// Every binding, in the order help lists them.
    public var bindings: [KeyBinding]

    /// The action `key` triggers on `screen`, if any.
    public func action(for key: Key, on screen: ScreenKind) -> ActionName? {
        bindings.first { $0.screens.contains(screen) && $0.keys.contains(key) }?.action
    }

    /// The bindings that apply on `screen`, for help.
    public func bindings(on screen: ScreenKind) -> [KeyBinding] {
        bindings.filter { $0.screens.contains(screen) }
    }

    /// The explorer's keys.
    public static let standard: KeyMap = {
        let all = Set(ScreenKind.allCases)
        let lists: Set<ScreenKind> = [.classes, .table, .detail, .values]
        let table: Set<ScreenKind> = [.table]
        func bind(_ keys: [Key], _ action: ActionName, _ screens: Set<ScreenKind>, _ help: String) -> KeyBinding {
            KeyBinding(keys: keys, action: action, screens: screens, help: help)
        }
        return KeyMap(bindings: [
            bind([.character("j"), .down], .cursorDown, lists, "move down"),
            bind([.character("k"), .up], .cursorUp, lists, "move up"),
            bind([.character("h"), .left], .cursorLeft, table, "column left"),
            bind([.character("l"), .right], .cursorRight, table, "column right"),
            bind([.character("0")], .firstColumn, table, "first column"),
            bind([.character("$")], .lastColumn, table, "last column"),
            bind([.character("g"), .home], .firstRow, lists, "first row"),
            bind([.character("G"), .end], .lastRow, lists, "last row"),
            bind([.pageDown, .control("f")], .pageDown, lists, "page down"),
            bind([.pageUp, .control("b")], .pageUp, lists, "page up"),
            bind([.control("d")], .halfPageDown, lists, "half a page down"),
            bind([.control("u")], .halfPageUp, lists, "half a page up"),
            bind([.enter], .open, [.classes, .table, .detail, .values], "open: class, object, link, list, backlinks"),
            bind(
                [.character(" ")], .toggleNested, [.detail],
                "expand or collapse an embedded object, or a list or dictionary of them"),
            bind([.escape, .backspace], .back, all, "back one step (restores cursor and scroll)"),
            bind([.tab], .nextPane, [.classes, .table], "next pane (classes: schema preview; table: next column)"),
            bind([.backTab], .previousPane, [.classes, .table], "previous pane"),
            bind([.character("/")], .filterClasses, [.classes], "filter the classes by name (or just type a name)"),
            bind([.character("/")], .query, [.table], "query (Realm query language, SORT/DISTINCT/LIMIT)"),
            bind([.character("s")], .sortAscending, table, "sort ascending by the column under the cursor"),
            bind([.character("S")], .sortDescending, table, "sort descending by the column under the cursor"),
            bind([.character("o")], .clearSort, table, "original order: clears the s/S sort"),
            bind(
                [.character("y")], .copyValue, [.table, .detail, .values], "copy the value under the cursor (OSC 52)"),
            bind(
                [.character("e")], .editValue, [.table, .detail, .values],
                "edit the value under the cursor (Enter writes, Esc cancels; ^S in a long text)"),
            bind([.character("d")], .deleteObject, [.table, .detail], "delete the object under the cursor (asks y/n)"),
            bind(
                [.character("u")], .undo, [.table, .detail, .values],
                "undo the last change made here; again: the one before"),
            bind([.control("r")], .redo, [.table, .detail, .values], "redo what u took back (values and lists)"),
            bind(
                [.character("a")], .createObject, [.table, .values, .detail],
                "add: a new object (a form), or append to the list shown"),
            bind([.character("i")], .insertElement, [.table, .values], "insert into the list before the cursor"),
            bind(
                [.character("x")], .removeElement, [.table, .values],
                "remove the element under the cursor from the list"),
            bind(
                [.character("r")], .renameKey, [.values],
                "dictionary: rename the key under the cursor (a puts a key, x removes one)"),
            bind([.character("J")], .moveElementDown, [.table, .values], "move the list element down"),
            bind([.character("K")], .moveElementUp, [.table, .values], "move the list element up"),
            bind([.control("s")], .commitBatch, all, "commit the staged edits (:begin stages, :rollback drops)"),
            bind([.character("?")], .help, all, "help: the keys of this screen"),
            bind([.character(":")], .commandLine, all, "command line: :set, :begin, :export … (listed below)"),
            bind([.character("p")], .pauseLive, all, "pause live updates (p again catches up)"),
            bind([.character("c")], .changesPane, all, "changes: every commit since the explorer opened"),
            bind([.character("q")], .quit, all, "quit"),
        ])
    }()
}
