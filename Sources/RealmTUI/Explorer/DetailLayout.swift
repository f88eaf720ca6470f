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
    }

    static let gutter = 2
    /// Most list elements the detail view lists before `…`.
    static let listLimit = 200

    let nameWidth: Int
    let lines: [Line]
    /// Set when the object was deleted or cannot be read.
    let error: String?

    /// The lines property `index` takes.
    func span(of index: Int) -> Range<Int>? {
        guard let first = lines.firstIndex(where: { $0.property == index }) else { return nil }
        let end = lines[first...].firstIndex(where: { $0.property != index }) ?? lines.count
        return first..<end
    }

    /// Everything a detail layout depends on.
    struct Key: Equatable {
        let className: String
        let object: ObjectKey
        let version: UInt64
        let width: Int
        /// The values before the changes shown (`was: …` lines).
        let previous: [Int: Value?]
        let deletedInVersion: UInt64?
    }

    /// The layout of `detail` at `width`, made once per version, width and set of changes
    /// (kept in the screen's `layouts`).
    static func cached(_ detail: DetailScreen, realm: Realm, width: Int) -> DetailLayout {
        let key = realm.isInWriteTransaction || detail.object.realm !== realm ? nil
            : Key(className: detail.object.className, object: detail.object.key, version: realm.version, width: width,
                  previous: detail.changes.mapValues(\.was),
                  deletedInVersion: detail.deletedInVersion)
        return detail.layouts.layout(for: key) { make(detail, realm: realm, width: width) }
    }

    static func make(_ detail: DetailScreen, realm: Realm, width: Int) -> DetailLayout {
        let properties = detail.object.objectSchema.properties
        let nameWidth = min(24, properties.map { displayWidth($0.name) }.max() ?? 0)
        let valueWidth = max(8, width - gutter - nameWidth - 2)
        if detail.object.isInvalidated {
            let when = detail.deletedInVersion.map { " in version \($0)" } ?? ""
            return DetailLayout(nameWidth: nameWidth, lines: [], error: "this object was deleted\(when)")
        }
        let formatter = ValueFormatter(realm: realm)
        var lines: [Line] = []
        for (index, property) in properties.enumerated() {
            let shown = fullValue(detail.object, property, formatter)
            let wrapped = wrap(shown.text, width: valueWidth)
            for (i, text) in wrapped.enumerated() {
                lines.append(Line(property: index, isFirst: i == 0, text: text, isNull: shown.isNull))
            }
            if let change = detail.changes[index] {
                // The value before the last change a commit made while the view was open.
                let was = change.was.map { full($0, property, formatter).text } ?? "(could not be read)"
                for text in wrap("was: " + was, width: valueWidth) {
                    lines.append(Line(property: index, isFirst: false, text: text, isNull: false, isPrevious: true))
                }
            }
        }
        return DetailLayout(nameWidth: nameWidth, lines: lines, error: nil)
    }

    /// The whole value of a property, as the detail view shows it.
    static func fullValue(_ object: DynamicObject, _ property: Property, _ formatter: ValueFormatter) -> ValueFormatter.Shown {
        do {
            if property.type == .linkingObjects {
                let count = try object.linkingObjects(forKey: property.name).keys().count
                return .init(text: "← \(count) \(property.objectClassName ?? "") object\(count == 1 ? "" : "s") link here (Enter opens)")
            }
            return full(try object.value(forKey: property.name), property, formatter)
        } catch {
            return .init(text: "⚠ \(ExplorerText.describe(error))")
        }
    }

    /// A property's value as the detail view shows it whole (lists up to `listLimit` elements,
    /// data as its size and a hex dump of its first 256 bytes).
    static func full(_ value: Value, _ property: Property, _ formatter: ValueFormatter) -> ValueFormatter.Shown {
        if property.type == .object, let embedded = formatter.embeddedShown(value, property, oneLine: false) { return embedded }
        if case .list(let items) = value {
            var parts = items.prefix(listLimit).map { formatter.shown($0, property, oneLine: true, element: true).text }
            if items.count > listLimit { parts.append("…") }
            let count = property.isSet ? "{\(items.count)}" : "[\(items.count)]"
            return .init(text: count + (parts.isEmpty ? "" : " " + parts.joined(separator: ", ")))
        }
        if case .data(let data) = value {
            return .init(text: ValueFormatter.byteCount(data.count) + " " + ValueFormatter.hex(data.prefix(256), separator: " ") + (data.count > 256 ? " …" : ""))
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
