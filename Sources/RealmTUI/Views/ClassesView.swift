import RealmEngine

/// The class list (name and object count, counted in O(1) each) and the selected class's schema.
enum ClassesView {
    /// Columns taken by the list pane (the preview starts after it).
    static func listWidth(_ state: ExplorerState) -> Int {
        let classes = state.realm.schema.objectSchemas
        let names = classes.map { displayWidth($0.name) }.max() ?? 8
        return min(max(24, names + 14), state.width / 2)
    }

    static func draw(_ state: ExplorerState, _ screen: ClassesScreen, into grid: inout Grid) {
        let theme = state.theme
        let rows = state.contentRows
        let listWidth = listWidth(state)
        let classes = state.visibleClasses
        if classes.isEmpty {
            let text = screen.filter.isEmpty ? "no classes in this file" : "no class matches /\(screen.filter)"
            grid.write("  " + text, column: 0, row: rows.lowerBound, style: theme.muted, limit: listWidth - 1)
        }
        for (offset, row) in rows.enumerated() {
            let index = screen.top + offset
            guard classes.indices.contains(index) else { break }
            let schema = classes[index]
            let count: String
            do {
                // An embedded class is no table of its own: marked, not counted.
                count =
                    schema.isEmbedded
                    ? "embedded" : ValueFormatter.grouped(try state.realm.objects(schema.name).checkedCount())
            } catch {
                count = "⚠"
            }
            let selected = index == screen.cursor
            var style = CellStyle.plain
            if selected { style = screen.previewFocused ? theme.header : theme.selection }
            grid.fill(row: row, count: listWidth - 1, style: style)
            grid.write(selected ? "›" : " ", column: 0, row: row, style: style)
            let countWidth = displayWidth(count)
            grid.write(schema.name, column: 2, row: row, style: style, limit: listWidth - countWidth - 5)
            grid.write(count, column: listWidth - 2 - countWidth, row: row, style: selected ? style : theme.muted)
        }
        for row in rows { grid.write("│", column: listWidth - 1, row: row, style: theme.muted) }
        guard classes.indices.contains(screen.cursor) else { return }
        drawPreview(
            state, classes[screen.cursor], top: screen.previewTop, focused: screen.previewFocused,
            x: listWidth + 1, into: &grid)
    }

    /// The properties of `schema`: name, type, attributes.
    static func drawPreview(
        _ state: ExplorerState, _ schema: ObjectSchema, top: Int, focused: Bool, x: Int, into grid: inout Grid
    ) {
        let theme = state.theme
        let rows = state.contentRows
        var lines: [(String, CellStyle, String, String)] = []
        var title = schema.name
        if let pk = schema.primaryKeyProperty { title += " · primary key \(pk.name)" }
        if schema.isEmbedded {
            let holders = state.realm.schema.embeddingProperties(of: schema.name)
            title += " · embedded in " + (holders.isEmpty ? "no class" : holders.joined(separator: ", "))
        }
        lines.append((title, focused ? theme.selection : theme.header, "", ""))
        lines.append(("", .plain, "", ""))
        for property in schema.properties {
            lines.append((property.name, .plain, property.typeDescription, attributes(property)))
        }
        let nameWidth = min(24, schema.properties.map { displayWidth($0.name) }.max() ?? 4)
        let typeWidth = min(28, schema.properties.map { displayWidth($0.typeDescription) }.max() ?? 4)
        for (offset, row) in rows.enumerated() {
            let index = top + offset
            guard lines.indices.contains(index) else { break }
            let (name, style, type, attributes) = lines[index]
            grid.write(name, column: x, row: row, style: style, limit: index < 2 ? nil : nameWidth)
            if !type.isEmpty {
                grid.write(type, column: x + nameWidth + 2, row: row, style: theme.link, limit: typeWidth)
                grid.write(attributes, column: x + nameWidth + typeWidth + 4, row: row, style: theme.muted)
            }
        }
    }

    static func attributes(_ property: Property) -> String {
        var out: [String] = []
        if property.isPrimaryKey { out.append("primary key") }
        if property.isIndexed { out.append("indexed") }
        if property.type == .linkingObjects, let origin = property.linkOriginPropertyName,
            let from = property.objectClassName
        {
            out.append("backlinks of \(from).\(origin)")
        }
        return out.joined(separator: ", ")
    }
}
