import Foundation
import RealmEngine

/// How a value looks in the explorer: one line for a table cell, the whole value for the detail
/// view. Text is returned raw; the grid sanitizes control characters when it is drawn.
///
/// Rules (issue "The explorer, part 1"): a null is `null` drawn in the null style, an empty string
/// is `""` and a string reading null is `"null"`, so they never look alike; dates ISO 8601 in UTC with fractions; data as its size
/// and a short hex preview; a link as the target's primary key (or `Class#key`); a list as
/// `[n] first, second…`; a set as `{n} first, second…`; a dictionary as `{n} key: value, …` on one
/// line and as `key → value` rows whole; linking objects as their count.
struct ValueFormatter {
    let realm: Realm

    /// What a cell shows, and whether it is a null (drawn in its own style).
    struct Shown: Equatable {
        var text: String
        var isNull: Bool = false
    }

    /// The one-line form of property `property` of `object`. A value that cannot be read is
    /// shown as an error, never as a plausible value.
    func cell(_ object: DynamicObject, _ property: Property) -> Shown {
        do {
            if property.type == .linkingObjects {
                let count = try object.linkingObjects(forKey: property.name).keys().count
                return Shown(text: "← \(count)")
            }
            let value = try object.value(forKey: property.name)
            return shown(value, property, oneLine: true)
        } catch {
            return Shown(text: "⚠ \(ExplorerText.describe(error))")
        }
    }

    /// A value of `property` (or of one element of a list when `element`).
    func shown(_ value: Value, _ property: Property, oneLine: Bool, element: Bool = false) -> Shown {
        if property.type == .mixed, let mixed = mixedShown(value) { return mixed }
        if property.type == .object, let embedded = embeddedShown(value, property, oneLine: oneLine) { return embedded }
        switch value {
        case .null: return Shown(text: "null", isNull: true)
        // An empty string, and one reading `null`, are quoted: neither may look like a null.
        case .string(let text): return Shown(text: text.isEmpty || text == "null" ? "\"\(text)\"" : text)
        case .data(let data): return Shown(text: ValueFormatter.data(data))
        case .link(let key):
            return Shown(text: link(key, className: property.objectClassName ?? "?"))
        case .list(let items):
            let parts = items.prefix(oneLine ? 8 : items.count).map {
                shown($0, property, oneLine: true, element: true).text
            }
            let more = items.count > parts.count ? ", …" : ""
            let count = property.isSet ? "{\(items.count)}" : "[\(items.count)]"
            return Shown(text: count + (parts.isEmpty ? "" : " " + parts.joined(separator: ", ") + more))
        case .map:
            let entries = value.sortedEntries
            let limit = oneLine ? 8 : DetailLayout.listLimit
            let parts = entries.prefix(limit).map { entry in
                (
                    key: ValueFormatter.key(entry.key),
                    value: shown(entry.value, property, oneLine: true, element: true).text
                )
            }
            let more = entries.count > parts.count ? (oneLine ? ", …" : "\n…") : ""
            guard !parts.isEmpty else { return Shown(text: "{0}") }
            if oneLine {
                return Shown(
                    text: "{\(entries.count)} " + parts.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + more)
            }
            // Whole: one row a key, `key → value`.
            return Shown(
                text: "{\(entries.count)}\n" + parts.map { "\($0.key) → \($0.value)" }.joined(separator: "\n") + more)
        case .float(let v): return Shown(text: ValueFormatter.number(Double(v), isFloat: true))
        case .double(let v): return Shown(text: ValueFormatter.number(v, isFloat: false))
        // Realm Core's own text: every digit, as Realm Studio and the SDKs print it.
        case .decimal128(let v): return Shown(text: v.description)
        default: return Shown(text: value.description)
        }
    }

    /// A dictionary key as shown: quoted when it is empty or holds a character that would blur
    /// where it ends (a space, `:`, `→`, a control).
    static func key(_ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy {
                $0.value > 0x20 && $0 != ":" && $0 != "→" && $0 != "\"" && $0.value != 0x7F
            }
        return plain ? key : JSONWriter.quoted(key)
    }

    /// A link target named by its primary key when its class has one, else `Class#key`.
    func link(_ key: ObjectKey, className: String) -> String {
        if let schema = realm.schema[className], let pk = schema.primaryKeyProperty,
            let target = try? realm.object(ofType: className, key: key),
            let value = try? target.value(forKey: pk.name)
        {
            return "→ " + value.description
        }
        return "→ \(className)#\(key.rawValue)"
    }

    /// How an object is named in a breadcrumb: a non-empty `name` or `title`, else its primary
    /// key, else its first non-empty string, else `Class#key` (`Person › 张三 › dogs › 大黄`).
    func name(of object: DynamicObject) -> String {
        let schema = object.objectSchema
        func text(_ property: Property?) -> String? {
            guard let property, property.type == .string, !property.isList,
                case .string(let value)? = try? object.value(forKey: property.name), !value.isEmpty
            else { return nil }
            return value
        }
        if let named = text(schema["name"]) ?? text(schema["title"]) { return named }
        if let pk = schema.primaryKeyProperty, let value = try? object.value(forKey: pk.name) {
            return value.description
        }
        if let first = schema.persistedProperties.lazy.compactMap(text).first { return first }
        return "\(schema.name)#\(object.key.rawValue)"
    }

    /// Data as its size and the first bytes in hex: `12 B 0a1b2c…`.
    static func data(_ data: Data) -> String {
        let preview = hex(data.prefix(8), separator: "")
        return "\(byteCount(data.count)) \(preview)\(data.count > 8 ? "…" : "")"
    }

    /// Bytes as two lowercase hex digits each.
    static func hex(_ bytes: Data, separator: String) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: separator)
    }

    /// A byte count in B, KiB, MiB or GiB.
    static func byteCount(_ count: Int) -> String { ByteCount.text(count) }

    /// A float or double in its shortest round-trip form (`3.5`, `1e-07`, `nan`).
    static func number(_ value: Double, isFloat: Bool) -> String {
        isFloat ? "\(Float(value))" : "\(value)"
    }

    /// An integer with thousands separators: `1,000,000`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return value < 0 ? "-" + out : out
    }
}

/// Text the explorer shows for errors.
enum ExplorerText {
    /// `word` with its article: "an int", "an Author[]", "a string", "a uuid".
    static func withArticle(_ word: String) -> String {
        let vowel = word.first.map { "aeioAEIO".contains($0) } ?? false
        return (vowel ? "an " : "a ") + word
    }

    /// What a list (or the objects linking to one object) says once that object is deleted.
    static func ownerDeleted(_ property: String) -> String {
        "the object whose \(property) these were was deleted"
    }

    /// One line for a failure to read a list of `property`: its object deleted, or the error.
    static func listUnreadable(_ error: Error, _ property: String) -> String {
        if case .invalidatedObject? = error as? RealmError { return ownerDeleted(property) }
        return describe(error)
    }

    /// One line for an error: the engine's message, without a trailing newline.
    static func describe(_ error: Error) -> String {
        let text = (error as? RealmError).map { "\($0)" } ?? "\(error)"
        return text.replacingOccurrences(of: "\n", with: " ")
    }
}
