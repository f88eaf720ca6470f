import RealmEngine

/// One step from a detail view's property into the embedded objects it holds: a field of an
/// embedded object, an element of a list of them, an entry of a dictionary of them.
enum NestedStep: Hashable {
    case field(String)
    case element(Int)
    case entry(String)
}

/// A row of the detail view: a property of the object (an empty path), or a row nested under it.
struct DetailRowID: Hashable {
    var property: Int
    var path: [NestedStep] = []

    func appending(_ step: NestedStep) -> DetailRowID { DetailRowID(property: property, path: path + [step]) }
}

/// What a nested row is about: the object whose field it shows (an embedded object) and that
/// field, or, for an element or entry row, the list or dictionary's owner and property and the
/// embedded object at that position.
struct NestedRow {
    let owner: DynamicObject
    let property: Property
    /// The embedded object an element or entry row shows (nil for a field row).
    let element: DynamicObject?
    /// The row's last step.
    let step: NestedStep?
}

/// The detail view's rows nested under a property holding embedded objects, shown when the
/// property (or a nested row) is expanded (space): an embedded object's fields, a list's
/// elements (`[0]`), a dictionary's entries (by key), each embedded one expandable in turn.
extension DetailLayout {
    /// Deepest nesting laid out (a schema may nest an embedded class in itself; the data is finite,
    /// but a screen of indentation is not useful).
    static let nestingLimit = 8

    /// Whether `value` of `property` has rows to show nested: an embedded object, or a non-empty
    /// list or dictionary of them.
    static func isExpandable(_ value: Value?, _ property: Property, _ formatter: ValueFormatter) -> Bool {
        guard formatter.embeddedTarget(property) != nil, let value else { return false }
        switch value {
        case .link: return true
        case .list(let items): return !items.isEmpty
        case .map(let entries): return !entries.isEmpty
        default: return false
        }
    }

    /// The marker before an expandable value: `▸` collapsed, `▾` expanded.
    static func marker(_ expandable: Bool, _ expanded: Bool) -> String {
        expandable ? (expanded ? "▾ " : "▸ ") : ""
    }

    /// The rows nested under row `id`, whose value is `value` of `property`, at `depth`.
    /// `expanded(id)` says which rows show theirs.
    static func nestedLines(
        _ value: Value, _ property: Property, id: DetailRowID, depth: Int, valueWidth: Int,
        formatter: ValueFormatter, markers: Bool, expanded: (DetailRowID) -> Bool
    ) -> [Line] {
        guard depth <= nestingLimit, let target = formatter.embeddedTarget(property) else { return [] }
        var element = property
        element.isList = false
        element.isMap = false
        element.isSet = false
        element.isOptional = true
        var lines: [Line] = []
        func row(_ child: DetailRowID, _ label: String, _ value: Value?, _ property: Property) {
            let expandable = isExpandable(value, property, formatter)
            let open = expandable && expanded(child)
            let shown: ValueFormatter.Shown =
                value.map { full($0, property, formatter) } ?? .init(text: "⚠ could not be read")
            let text = (markers ? marker(expandable, open) : "") + shown.text
            for (i, part) in wrap(text, width: valueWidth).enumerated() {
                lines.append(
                    Line(
                        property: id.property, isFirst: i == 0, text: part, isNull: shown.isNull,
                        path: child.path, label: label, depth: depth, isExpandable: expandable))
            }
            if open, let value {
                lines += nestedLines(
                    value, property, id: child, depth: depth + 1, valueWidth: valueWidth,
                    formatter: formatter, markers: markers, expanded: expanded)
            }
        }
        switch value {
        case .link(let key):
            guard let object = try? formatter.realm.object(ofType: target.name, key: key) else {
                lines.append(
                    Line(
                        property: id.property, isFirst: true, text: "⚠ \(target.name)#\(key.rawValue) missing",
                        isNull: false,
                        path: id.path + [.field("")], label: "", depth: depth))
                return lines
            }
            for field in object.objectSchema.properties where field.type != .linkingObjects {
                row(id.appending(.field(field.name)), field.name, try? object.value(forKey: field.name), field)
            }
        case .list(let items):
            for (i, item) in items.prefix(listLimit).enumerated() {
                row(id.appending(.element(i)), "[\(i)]", item, element)
            }
        case .map:
            for entry in value.sortedEntries.prefix(listLimit) {
                row(id.appending(.entry(entry.key)), ValueFormatter.key(entry.key), entry.value, element)
            }
        default: break
        }
        return lines
    }

    /// Every row's text with everything expanded and nothing wrapped, by row: what a live change
    /// is compared against (a change inside an embedded object leaves its parent's link as it
    /// was, so the values alone would not show it). Empty for an object without embedded ones.
    static func snapshot(_ object: DynamicObject, realm: Realm) -> [DetailRowID: String] {
        let formatter = ValueFormatter(realm: realm)
        var out: [DetailRowID: String] = [:]
        for (index, property) in object.objectSchema.properties.enumerated()
        where formatter.embeddedTarget(property) != nil {
            let id = DetailRowID(property: index)
            guard let value = try? object.value(forKey: property.name) else {
                out[id] = "⚠"
                continue
            }
            out[id] = full(value, property, formatter).text
            let nested = nestedLines(
                value, property, id: id, depth: 1, valueWidth: Int.max / 4, formatter: formatter,
                markers: false, expanded: { _ in true })
            for line in nested where line.isFirst { out[DetailRowID(property: index, path: line.path)] = line.text }
        }
        return out
    }
}

extension ExplorerState {
    /// What nested row `id` of `detail` is about; nil for a property's own row (an empty path).
    func resolveNested(_ detail: DetailScreen, _ id: DetailRowID) throws -> NestedRow? {
        guard !id.path.isEmpty else { return nil }
        let properties = detail.object.objectSchema.properties
        guard properties.indices.contains(id.property) else { return nil }
        var owner = detail.object
        var property = properties[id.property]
        var element: DynamicObject?
        func missing() -> RealmError { RealmError.invalidInput("that row is gone (the data changed): move the cursor") }
        for step in id.path {
            switch step {
            case .field(let name):
                let object: DynamicObject
                if let element {
                    object = element
                } else {
                    guard let linked = try owner.linkedObject(forKey: property.name) else { throw missing() }
                    object = linked
                }
                guard let field = object.objectSchema[name] else { throw missing() }
                owner = object
                property = field
                element = nil
            case .element(let index):
                if let element { owner = element }
                let list = try owner.list(forKey: property.name)
                guard index >= 0, index < list.count else { throw missing() }
                element = try list.object(at: index)
            case .entry(let key):
                if let element { owner = element }
                guard case .link(let target)? = try owner.map(forKey: property.name).value(forKey: key),
                    let className = property.objectClassName,
                    let object = try realm.object(ofType: className, key: target)
                else { throw missing() }
                element = object
            }
        }
        return NestedRow(owner: owner, property: property, element: element, step: id.path.last)
    }

    /// Space in the detail view: expands the row under the cursor (an embedded object, a list or
    /// dictionary of them) to show its rows nested under it, or collapses it.
    mutating func toggleNested() {
        guard case .detail(var detail) = current else { return }
        let id = detail.cursorRow
        let layout = DetailLayout.cached(detail, realm: realm, width: width)
        guard let line = layout.lines.first(where: { $0.property == id.property && $0.path == id.path && $0.isFirst }),
            line.isExpandable
        else {
            return refuse("space expands an embedded object, or a list or dictionary of them: there is none here")
        }
        if detail.expanded.contains(id) { detail.expanded.remove(id) } else { detail.expanded.insert(id) }
        current = .detail(detail)
        keepCursorInView()
    }

    /// Marks what changed inside the embedded objects `detail` shows: their property (with the
    /// value before as shown) and each nested row whose text changed. Returns whether any did.
    mutating func noteNestedChanges(_ detail: inout DetailScreen, before: [DetailRowID: String], values: [Value?])
        -> Bool
    {
        let after = DetailLayout.snapshot(detail.object, realm: realm)
        var changed = false
        let until = now + Self.markSeconds
        for id in Set(before.keys).union(after.keys) where before[id] != after[id] {
            changed = true
            if !id.path.isEmpty { detail.nestedMarks[id] = until }
            // Its property is changed too: said once, with the value before as it was shown.
            let top = DetailRowID(property: id.property)
            let was = values.indices.contains(id.property) ? values[id.property] : nil
            detail.changes[id.property] = DetailChange(was: was, wasText: before[top] ?? "(nothing)", until: until)
        }
        return changed
    }
}
