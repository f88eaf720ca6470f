import RealmEngine

/// Draws the explorer: the state → a grid of cells. Reads only what is on screen.
public func render(_ state: ExplorerState) -> Grid {
    var grid = Grid(width: state.width, height: state.height)
    if state.isTooSmall {
        grid.write("terminal too small: 40×10 at least", column: 0, row: 0, style: state.theme.error)
        return grid
    }
    drawTitle(state, into: &grid)
    switch state.mode {
    case .help(let top): HelpView.draw(state, top: top, into: &grid)
    case .edit(.creating(let form)): FormView.draw(state, form, into: &grid)
    case .schema(let top): SchemaView.draw(state, top: top, into: &grid)
    case .changes: ChangesView.draw(state, into: &grid)
    default:
        switch state.current {
        case .classes(let screen): ClassesView.draw(state, screen, into: &grid)
        case .table(let table): TableView.draw(state, table, into: &grid)
        case .detail(let detail): DetailView.draw(state, detail, into: &grid)
        case .values(let values): ValuesView.draw(state, values, into: &grid)
        }
    }
    if case .edit(.choosingType(let picker)) = state.mode { MixedTypePickerView.draw(state, picker, into: &grid) }
    InputBarView.draw(state, into: &grid)
    StatusLineView.draw(state, into: &grid)
    return grid
}

/// The title bar: the breadcrumb (`Person › 张三 › dogs`) and the main keys.
private func drawTitle(_ state: ExplorerState, into grid: inout Grid) {
    grid.fill(row: 0, style: state.theme.title)
    let crumbs = state.stack.compactMap(\.crumb)
    let path = crumbs.isEmpty ? "Classes" : crumbs.joined(separator: " › ")
    let hint = "? help  q quit "
    let room = state.width - displayWidth(hint) - 1
    var text = " " + path
    if displayWidth(text) > room {
        // Keep the end of a long path: where the user is matters most.
        text = " …" + end(of: path, width: room - 2)
    }
    grid.write(text, column: 0, row: 0, style: state.theme.title, limit: room)
    grid.write(hint, column: state.width - displayWidth(hint), row: 0, style: state.theme.title)
}

/// The last characters of `text` that fit in `width` columns.
private func end(of text: String, width: Int) -> String {
    var kept: [Character] = []
    var used = 0
    for character in text.reversed() {
        let columns = displayWidth(of: character)
        guard used + columns <= width else { break }
        kept.append(character)
        used += columns
    }
    return String(kept.reversed())
}
