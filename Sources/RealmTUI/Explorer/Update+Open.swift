import RealmEngine

extension ExplorerState {
    /// Enter: a class opens its table, a row its object, a link its target, a list of objects a
    /// table, a list of values a value list, linking objects the objects that link here.
    mutating func openSelection() {
        switch current {
        case .classes(let screen):
            if screen.previewFocused { return }
            let classes = visibleClasses
            guard classes.indices.contains(screen.cursor) else { return }
            openClass(classes[screen.cursor])
        case .table(let table):
            guard table.cursorRow < table.rows.count else { return }
            do {
                let object = try table.rows.object(at: table.cursorRow)
                push(.detail(DetailScreen(crumb: crumbName(object), object: object)))
            } catch {
                message = Message(text: ExplorerText.describe(error), isError: true)
            }
        case .detail(let detail) where !detail.cursorPath.isEmpty:
            // A nested row: an embedded object opens on its own; a field as a property would.
            do {
                guard let row = try resolveNested(detail, detail.cursorRow) else { return }
                if let element = row.element {
                    push(.detail(DetailScreen(crumb: crumbName(element), object: element)))
                } else {
                    openProperty(row.property, of: row.owner)
                }
            } catch {
                message = Message(text: ExplorerText.describe(error), isError: true)
            }
        case .detail(let detail):
            let properties = detail.object.objectSchema.properties
            guard properties.indices.contains(detail.cursor) else { return }
            openProperty(properties[detail.cursor], of: detail.object)
        case .values(let values):
            openValueRow(values)
        }
    }

    mutating func openClass(_ schema: ObjectSchema) {
        if schema.isEmbedded { return explainEmbeddedClass(schema) }
        do {
            let results = try realm.objects(schema.name)
            push(.table(TableScreen(crumb: schema.name, schema: schema, base: results)))
        } catch {
            message = Message(text: ExplorerText.describe(error), isError: true)
        }
    }

    /// Follows a property of an object in the detail view.
    mutating func openProperty(_ property: Property, of object: DynamicObject) {
        do {
            if property.type == .linkingObjects {
                guard let className = property.objectClassName, let target = realm.schema[className] else { return }
                let results = try object.linkingObjects(forKey: property.name)
                push(.table(TableScreen(crumb: property.name, schema: target, base: results)))
            } else if property.isList && property.type == .object {
                guard let className = property.objectClassName, let target = realm.schema[className] else { return }
                let results = try object.list(forKey: property.name).objects()
                push(.table(TableScreen(crumb: property.name, schema: target, base: results)))
            } else if property.isList {
                push(.values(ValuesScreen(crumb: property.name, object: object, property: property)))
            } else if property.isMap {
                // Its entries, one a row: a link opens its object, an embedded object its fields.
                push(.values(ValuesScreen(crumb: property.name, object: object, property: property)))
            } else if property.type == .mixed {
                switch try object.value(forKey: property.name) {
                case .typedLink(let link):
                    guard let target = try realm.object(ofType: link.className, key: link.key) else {
                        return refuse("\(property.name): \(link.className)#\(link.key.rawValue) is gone")
                    }
                    push(.detail(DetailScreen(crumb: crumbName(target), object: target)))
                case .list, .map:
                    push(.values(ValuesScreen(crumb: property.name, object: object, property: property, path: [])))
                default:
                    message = Message(
                        text: "\(property.name) holds a single value: nothing to open (e edits it, y copies it)",
                        isError: false)
                }
            } else if property.type == .object {
                guard let target = try object.linkedObject(forKey: property.name) else {
                    message = Message(text: "\(property.name) is null: no object to open", isError: false)
                    return
                }
                push(.detail(DetailScreen(crumb: crumbName(target), object: target)))
            } else {
                message = Message(
                    text:
                        "\(property.name) is \(ExplorerText.withArticle(property.typeDescription)) value: nothing to open (y copies it)",
                    isError: false)
            }
        } catch {
            message = Message(text: ExplorerText.describe(error), isError: true)
        }
    }

    /// An object's breadcrumb step, cut to a readable length.
    func crumbName(_ object: DynamicObject) -> String {
        truncate(ValueFormatter(realm: realm).name(of: object), toWidth: 24)
    }

    mutating func push(_ screen: Screen) {
        stack.append(screen)
        keepCursorInView()
    }

    /// Esc/Backspace: back one step, to the cursor and scroll that step had. Never quits.
    mutating func goBack() {
        if stack.count > 1 {
            stack.removeLast()
            keepCursorInView()
        } else if case .classes(var screen) = current, screen.previewFocused {
            screen.previewFocused = false
            current = .classes(screen)
        } else if case .classes(let screen) = current, !screen.filter.isEmpty {
            setClassFilter("")
        }
    }

    /// `s`/`S`: sorts the table by the column under the cursor; again on the same column with
    /// the same key keeps it, on another column sorts by that one.
    mutating func sortByCursorColumn(ascending: Bool) {
        guard case .table(let table) = current else { return }
        guard let property = table.cursorProperty else {
            message = Message(text: "\(table.schema.name) has no properties to sort by", isError: true)
            return
        }
        guard !property.isList, property.type != .linkingObjects, property.type != .object else {
            message = Message(
                text:
                    "\(property.name) is \(ExplorerText.withArticle(property.typeDescription)): tables sort by scalar columns",
                isError: true)
            return
        }
        setSort(RealmEngine.SortDescriptor(keyPath: property.name, ascending: ascending))
    }

    /// `o`: back to the order without the column sort (key order, a list's order, or the
    /// query's own SORT, which only editing the query changes).
    mutating func clearSort() {
        guard case .table(let table) = current else { return }
        if table.sort != nil { setSort(nil) }
        if case .table(let cleared) = current, let left = cleared.shownSort {
            let word = left.ascending ? "ascending" : "descending"
            message = Message(
                text: "sorted by the query's SORT(\(left.keyPath) \(word)): edit the query (/) to change it",
                isError: false)
        } else if table.sort != nil {
            message = Message(text: "sort cleared: the original order", isError: false)
        } else {
            message = Message(text: "not sorted: already the original order", isError: false)
        }
    }

    mutating func setSort(_ sort: RealmEngine.SortDescriptor?) {
        guard case .table(var table) = current else { return }
        table.sort = sort
        do {
            table.rows = try TableScreen.rows(base: table.base, query: table.query, sort: sort)
            table.cursorRow = 0
            table.topRow = 0
            current = .table(table)
            if let sort {
                message = Message(
                    text: "sorted by \(sort.keyPath) \(sort.ascending ? "ascending" : "descending")", isError: false)
            }
        } catch {
            message = Message(text: ExplorerText.describe(error), isError: true)
        }
    }

    /// `y`: the value under the cursor to the clipboard, in the export syntax (`CopyText`); the
    /// status line shows what was copied (its start), or why nothing was.
    mutating func copySelection() -> [ExplorerEffect] {
        var text: String?
        do {
            switch current {
            case .table(let table):
                if let property = table.cursorProperty, table.cursorRow < table.rows.count {
                    text = try CopyText.text(of: try table.rows.object(at: table.cursorRow), property, realm: realm)
                }
            case .detail(let detail):
                let properties = detail.object.objectSchema.properties
                if properties.indices.contains(detail.cursor) {
                    text = try CopyText.text(of: detail.object, properties[detail.cursor], realm: realm)
                }
            case .values(let values):
                let rows = try values.rows()
                if rows.indices.contains(values.cursor) {
                    let property = values.path.isEmpty ? values.property : values.elementProperty
                    text = try CopyText.text(for: rows[values.cursor].value, property, realm: realm)
                }
            case .classes: break
            }
        } catch {
            refuse("nothing copied: " + ExplorerText.describe(error))
            return []
        }
        guard let text else { return [] }
        let start = DetailLayout.wrap(text, width: 40).first ?? ""
        let shown = start.count < text.count ? start.trimmingCharacters(in: .whitespaces) + "…" : text
        message = Message(text: "copied: \(shown)", isError: false)
        return [.copy(text)]
    }
}

extension TableScreen {
    /// `base` with a query (Realm's query language, "" for none) and a sort applied.
    static func rows(base: Results, query: String, sort: RealmEngine.SortDescriptor?) throws -> TableRows {
        var filtered = base
        if !query.trimmingCharacters(in: .whitespaces).isEmpty {
            let (text, arguments) = LinkLiterals.bind(query, schema: base.realm.schema)
            filtered = try filtered.filter(text, arguments: arguments)
        }
        return TableRows(results: try sort.map { try filtered.sorted(by: [$0]) } ?? filtered, counted: filtered)
    }
}

import Foundation
