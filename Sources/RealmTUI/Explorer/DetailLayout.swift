import RealmEngine

/// The detail view's lines: each property's full value wrapped to the screen, the name on the
/// first line of each.
struct DetailLayout {
    struct Line {
        /// Index into the schema's properties.
        let property: Int
        /// Whether this is the property's first line (where its name shows).
        let isFirst: Bool
        let text: String
        let isNull: Bool
        /// Whether this line shows the value before a live change (`was: …`), not the value.
        var isPrevious = false
        /// The nested row this line belongs to within the property (empty: the property's own row).
        var path: [NestedStep] = []
        /// A nested row's name (a field, `[i]`, a key); nil on a property's own row.
        var label: String? = nil
        /// How deep a nested row is (0: a property's own row).
        var depth = 0
        /// Whether space expands (or collapses) this row.
        var isExpandable = false

        var row: DetailRowID { DetailRowID(property: property, path: path) }
    }

    static let gutter = 2
    /// Most list elements the detail view lists before `…`.
    static let listLimit = 200

    let nameWidth: Int
    let lines: [Line]
    /// Set when the object was deleted or cannot be read.
    let error: String?

    /// The lines row `id` takes (its own: not the rows nested under it).
    func span(of id: DetailRowID) -> Range<Int>? {
        guard let first = lines.firstIndex(where: { $0.property == id.property && $0.path == id.path }) else {
            return nil
        }
        let end = lines[first...].firstIndex(where: { $0.property != id.property || $0.path != id.path }) ?? lines.count
        return first..<end
    }

    /// The rows the cursor moves over, in screen order.
    var rows: [DetailRowID] { lines.filter { $0.isFirst && !$0.isPrevious }.map(\.row) }

    /// Everything a detail layout depends on.
    struct Key: Equatable {
        let className: String
        let object: ObjectKey
        let version: UInt64
        let width: Int
        /// The values before the changes shown (`was: …` lines).
        let previous: [Int: Value?]
        let previousTexts: [Int: String]
        let expanded: Set<DetailRowID>
        let deletedInVersion: UInt64?
    }

    /// The layout of `detail` at `width`, made once per version, width and set of changes
    /// (kept in the screen's `layouts`).
    static func cached(_ detail: DetailScreen, realm: Realm, width: Int) -> DetailLayout {
        let key =
            realm.isInWriteTransaction || detail.object.realm !== realm
            ? nil
            : Key(
                className: detail.object.className, object: detail.object.key, version: realm.version, width: width,
                previous: detail.changes.mapValues(\.was), previousTexts: detail.changes.compactMapValues(\.wasText),
                expanded: detail.expanded,
                deletedInVersion: detail.deletedInVersion)
        return detail.layouts.layout(for: key) { make(detail, realm: realm, width: width) }
    }

    static func make(_ detail: DetailScreen, realm: Realm, width: Int) -> DetailLayout {
        let properties = detail.object.objectSchema.properties
        // Nested rows' names are indented two columns a level: room for the deepest expanded
        // one's fields (any embedded class's, a bound cheaper than finding each row's class).
        let embeddedNames =
            realm.schema.objectSchemas.filter(\.isEmbedded).flatMap(\.properties).map { displayWidth($0.name) }.max()
            ?? 0
        let nestedWidth = detail.expanded.map { 2 * ($0.path.count + 1) + max(embeddedNames, 5) }.max() ?? 0
        let nameWidth = min(24, max(nestedWidth, properties.map { displayWidth($0.name) }.max() ?? 0))
        let valueWidth = max(8, width - gutter - nameWidth - 2)
        if detail.object.isInvalidated {
            let when = detail.deletedInVersion.map { " in version \($0)" } ?? ""
            return DetailLayout(nameWidth: nameWidth, lines: [], error: "this object was deleted\(when)")
        }
        let formatter = ValueFormatter(realm: realm)
        var lines: [Line] = []
        for (index, property) in properties.enumerated() {
            let shown = fullValue(detail.object, property, formatter)
            // A property holding embedded objects shows them nested under it when expanded.
            let id = DetailRowID(property: index)
            let value =
                formatter.embeddedTarget(property) == nil ? nil : try? detail.object.value(forKey: property.name)
            let expandable = isExpandable(value, property, formatter)
            let open = expandable && detail.expanded.contains(id)
            let wrapped = wrap(marker(expandable, open) + shown.text, width: valueWidth)
            for (i, text) in wrapped.enumerated() {
                lines.append(
                    Line(property: index, isFirst: i == 0, text: text, isNull: shown.isNull, isExpandable: expandable))
            }
            if let change = detail.changes[index] {
                // The value before the last change a commit made while the view was open.
                let was =
                    change.wasText ?? change.was.map { full($0, property, formatter).text } ?? "(could not be read)"
                for text in wrap("was: " + was, width: valueWidth) {
                    lines.append(Line(property: index, isFirst: false, text: text, isNull: false, isPrevious: true))
                }
            }
            if open, let value {
                lines += nestedLines(
                    value, property, id: id, depth: 1, valueWidth: valueWidth, formatter: formatter,
                    markers: true, expanded: { detail.expanded.contains($0) })
            }
        }
        return DetailLayout(nameWidth: nameWidth, lines: lines, error: nil)
    }

    /// The whole value of a property, as the detail view shows it.
    static func fullValue(_ object: DynamicObject, _ property: Property, _ formatter: ValueFormatter)
        -> ValueFormatter.Shown
    {
        do {
            if property.type == .linkingObjects {
                let count = try object.linkingObjects(forKey: property.name).keys().count
                return .init(
                    text:
                        "← \(count) \(property.objectClassName ?? "") object\(count == 1 ? "" : "s") link here (Enter opens)"
                )
            }
            return full(try object.value(forKey: property.name), property, formatter)
        } catch {
            return .init(text: "⚠ \(ExplorerText.describe(error))")
        }
    }

    /// A property's value as the detail view shows it whole (lists up to `listLimit` elements,
    /// data as its size and a hex dump of its first 256 bytes).
    static func full(_ value: Value, _ property: Property, _ formatter: ValueFormatter) -> ValueFormatter.Shown {
        if property.type == .object, let embedded = formatter.embeddedShown(value, property, oneLine: false) {
            return embedded
        }
        if case .list(let items) = value {
            var parts = items.prefix(listLimit).map { formatter.shown($0, property, oneLine: true, element: true).text }
            if items.count > listLimit { parts.append("…") }
            let count = property.isSet ? "{\(items.count)}" : "[\(items.count)]"
            return .init(text: count + (parts.isEmpty ? "" : " " + parts.joined(separator: ", ")))
        }
        if case .data(let data) = value {
            return .init(
                text: ValueFormatter.byteCount(data.count) + " " + ValueFormatter.hex(data.prefix(256), separator: " ")
                    + (data.count > 256 ? " …" : ""))
        }
        return formatter.shown(value, property, oneLine: false)
    }

    /// `text` in lines of at most `width` columns: at newlines, then after the last space that
    /// fits (or mid-word when a word is wider than a line); controls escaped.
    static func wrap(_ text: String, width: Int) -> [String] {
        var out: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var used = 0
            for ch in sanitizeForTerminal(String(paragraph)) {
                let w = displayWidth(of: ch)
                if used + w > width && !line.isEmpty {
                    // Break after the last space when there is one, so words stay whole.
                    if let space = line.lastIndex(of: " "), space != line.startIndex {
                        let rest = String(line[line.index(after: space)...])
                        out.append(String(line[...space]))
                        line = rest
                        used = displayWidth(rest)
                    } else {
                        out.append(line)
                        line = ""
                        used = 0
                    }
                }
                line.append(ch)
                used += w
            }
            out.append(line)
        }
        return out.isEmpty ? [""] : out
    }
}

import Foundation
