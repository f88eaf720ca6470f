/// Every action of the explorer, by a stable name. Keys are bound to names in `KeyMap`, so the
/// help screen, the tests and a future remapping all use the same table.
public enum ActionName: String, Sendable, CaseIterable {
    case cursorUp = "cursor.up"
    case cursorDown = "cursor.down"
    case cursorLeft = "cursor.left"
    case cursorRight = "cursor.right"
    case firstColumn = "cursor.firstColumn"
    case lastColumn = "cursor.lastColumn"
    case firstRow = "cursor.firstRow"
    case lastRow = "cursor.lastRow"
    case pageUp = "page.up"
    case pageDown = "page.down"
    case halfPageUp = "page.halfUp"
    case halfPageDown = "page.halfDown"
    case open = "item.open"
    case toggleNested = "item.toggle"
    case back = "nav.back"
    case nextPane = "pane.next"
    case previousPane = "pane.previous"
    case query = "query.open"
    case filterClasses = "classes.filter"
    case sortAscending = "sort.ascending"
    case sortDescending = "sort.descending"
    case clearSort = "sort.clear"
    case copyValue = "value.copy"
    case help = "help.toggle"
    case commandLine = "command.open"
    case editValue = "value.edit"
    case deleteObject = "object.delete"
    case undo = "edit.undo"
    case redo = "edit.redo"
    case createObject = "object.create"
    case commitBatch = "batch.commit"
    case appendElement = "list.append"
    case insertElement = "list.insert"
    case removeElement = "list.remove"
    case moveElementDown = "list.moveDown"
    case moveElementUp = "list.moveUp"
    case renameKey = "map.renameKey"
    case quit = "app.quit"
    case pauseLive = "live.pause"
    case changesPane = "live.changes"
}

/// The screens, for key bindings that apply to some of them only.
public enum ScreenKind: String, Sendable, CaseIterable {
    case classes, table, detail, values
}
