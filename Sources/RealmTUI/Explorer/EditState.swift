import Foundation
import RealmEngine

/// The explorer's edit flow, one state at a time (STYLE.md "State machines").
///
///     browse ──e / Enter on a scalar──▶ editing ──Enter, value fits──▶ browse + `.write(.set)`
///                                          │  ▲
///                        value refused ────┘  └── the refusal shown, nothing written
///     browse ──e on a Mixed──▶ choosingType ──Enter on a type──▶ editing (that type's editor)
///                                  └──Enter on null──▶ browse + `.write(.set)`
///     browse ──a in a class's table──▶ creating ──Enter, every field fits, key free──▶ browse + `.write(.create)`
///     any write ──handed to the writer thread──▶ writing ──finished (written, refused)──▶ browse
///                  (waiting for another writer's lock,            └──Esc──▶ cancelling ──cancelled──▶ browse, nothing written
///                   or writing with progress)
///     browse ──d / :delete / :set──▶ confirming ──y──▶ browse + `.write(…)`
///                                          └──any other key──▶ browse, nothing written
///
/// Esc leaves every state for browse without writing. The write itself is an effect
/// (`ExplorerEffect.write`) that the driver hands to its writer thread, which runs it in one
/// write transaction on its own Realm instance; the thread's reports (waiting for the lock,
/// progress, the outcome) come back as `ExplorerEvent.write`. A failure (a schema violation, a
/// lost object) comes back as an error message and writes nothing.
enum EditFlow {
    /// Typing a new value for one property of one object.
    case editing(ValueEditor)
    /// Choosing the type a Mixed value is edited as (then its typed editor opens).
    case choosingType(MixedTypePicker)
    /// A `y/n` question before a write that cannot be taken back by Esc.
    case confirming(Confirmation)
    /// The form of a new object (`a` in a class's table).
    case creating(ObjectForm)
    /// A write running on the writer thread (waiting for the lock, or writing). Keys are still
    /// answered; Esc asks the thread to cancel, and nothing is written unless the commit had
    /// already begun.
    case writing(WriteStatus)
}

/// An editor or form that asked for a write, to open again if the write is refused.
enum ReopenableEdit {
    case editing(ValueEditor)
    case creating(ObjectForm)

    /// The edit flow showing it again with `refusal` under it.
    func reopened(refusal: String) -> EditFlow {
        switch self {
        case .editing(var editor):
            editor.refusal = refusal
            return .editing(editor)
        case .creating(var form):
            form.refusal = refusal
            return .creating(form)
        }
    }
}

/// A write handed to the writer thread.
enum PendingWrite {
    case write(EditWrite)
    /// The open batch's `:commit`.
    case batch
}

/// The editor of one value: the object, the property and the text typed so far.
struct ValueEditor {
    var object: DynamicObject
    var property: Property
    var editor: LineEditor
    /// Why the last Enter was refused (the editor stays open, nothing was written).
    var refusal: String?
    /// For a new element of a list of values: where it goes (`property` is then the element's).
    var insertAt: Int?
    /// For an element of a list of values edited in place (`e` in the list's view).
    var replaceAt: Int?
    /// A string in the detail view: the text itself over several lines (Enter starts a new
    /// line, ctrl-s writes), not the one-line value syntax.
    var isMultiline = false
    /// For a dictionary's entry (or a value of a collection inside a Mixed): which one, or that
    /// the text is a key (a new one, or a new name). `property` is then the values' property.
    var entry: EntryTarget?
    /// For a Mixed value: the type picked for it (`property` is then a stand-in of that type,
    /// with the Mixed property's name; a list or dictionary keeps the Mixed property and must
    /// read as that kind). Nil for the one-line JSON editor and for every other property.
    var mixedAs: MixedKind?

    /// Whether the text is a dictionary key (a new one, or a new name), not a value.
    var isKeyEditor: Bool {
        switch entry?.step {
        case .newKey?, .rename?: true
        default: false
        }
    }
}

/// What an editor of a values screen writes: a key's value, a list position's, or a key.
struct EntryTarget {
    enum Step: Equatable {
        /// The text is a new key; its value comes next (an editor, a picker or a form).
        case newKey
        /// The text is the new name of the key.
        case rename(String)
        /// The text is the value of this key.
        case key(String)
        /// The text is the value at this position of a list inside a Mixed.
        case index(Int)
    }
    /// The collection's path inside the property (`ValuesScreen.path`).
    var path: [MixedStep]
    var step: Step
}

/// A question waiting for `y`.
struct Confirmation {
    /// The question shown in the input bar.
    var question: String
    /// What `y` does.
    var effects: [ExplorerEffect]

    init(question: String, effects: [ExplorerEffect]) {
        self.question = question
        self.effects = effects
    }

    init(question: String, write: EditWrite) {
        self.init(question: question, effects: [.write(write)])
    }
}

/// One change the explorer asks the driver to write, in one write transaction. Data only
/// (class names, keys and values), so tests can assert it without a database.
public enum EditWrite: Sendable, Equatable {
    /// Sets `property` of the objects `keys` of `className` to `value`.
    case set(className: String, keys: [ObjectKey], property: String, value: Value)
    /// Deletes the objects `keys` of `className`.
    case delete(className: String, keys: [ObjectKey])
    /// Creates an object of `className` with `values` (its primary key checked first).
    case create(className: String, values: [String: Value])
    /// Creates an embedded object with `values` inside object `key` of `className`: as its
    /// to-one `property`, or in its list `property` at `index` (nil: appended).
    case embed(className: String, key: ObjectKey, property: String, values: [String: Value], at: Int?)
    /// Changes the list `property` of object `key` of `className`.
    case list(className: String, key: ObjectKey, property: String, edit: ListEdit)
    /// Changes one entry of the dictionary `property` of object `key` of `className`, or of the
    /// list or dictionary `path` leads to inside it (a collection nested in a Mixed value).
    case entry(className: String, key: ObjectKey, property: String, path: [MixedStep], edit: EntryEdit)
    /// Creates an embedded object with `values` under `mapKey` (a key not there yet) of the
    /// dictionary `property` of object `key` of `className`.
    case embedEntry(className: String, key: ObjectKey, property: String, mapKey: String, values: [String: Value])
    /// Takes back an earlier commit (`u`), if nobody changed its objects since.
    case undo(UndoRecord)
}

/// One change of a list, by position.
public enum ListEdit: Sendable, Equatable {
    /// Inserts `value` (a scalar, or `.link` for a list of objects) at `index` (the count appends).
    case insert(Value, at: Int)
    /// Removes the element at `index`.
    case remove(at: Int)
    /// Moves the element at `from` to `to`.
    case move(from: Int, to: Int)
    /// Replaces the element at `index` with `value`.
    case replace(at: Int, with: Value)
    /// Removes every element (`:clear`).
    case removeAll
}

/// One change of a dictionary by key (or of a list nested in a Mixed value, by position).
public enum EntryEdit: Sendable, Equatable {
    /// Sets `key` to `value` (adding the key when it is new).
    case put(String, Value)
    /// Removes `key` (an embedded object under it is deleted).
    case remove(String)
    /// Moves the value of `from` to the key `to` (which must be free).
    case rename(String, to: String)
    /// Replaces the element at `index` of a list nested in a Mixed value.
    case replace(Int, Value)
}

/// What one commit of this explorer changed, so that `u` can take it back.
public enum UndoRecord: Sendable, Equatable {
    /// One object's value before and after the commit.
    public struct Change: Sendable, Equatable {
        /// The object.
        public var key: ObjectKey
        /// The value before the commit.
        public var old: Value
        /// The value the commit wrote.
        public var new: Value
    }
    /// A `set` of `property` on objects of `className`.
    case values(className: String, property: String, changes: [Change])
    /// A new object (`a`), with the values it was created with.
    case created(className: String, key: ObjectKey, values: [String: Value])
    /// A change of one list: its elements before and after.
    case list(className: String, key: ObjectKey, property: String, before: [Value], after: [Value])
    /// A delete (`d`, `:delete`): the objects and the links that pointed at them.
    case deleted(DeletedObjects)
    /// An embedded object taken out of its place (deleted, removed from its list or its
    /// dictionary): undone by making it again there with the same values.
    case embeddedRemoved(EmbeddedEntry)
    /// An embedded object put at a place (an undone removal): undone by taking it out again.
    case embeddedAdded(EmbeddedEntry)
    /// Several embedded objects deleted in one write: undone by making them all again at their
    /// places, in one step.
    case embeddedGroupRemoved(EmbeddedGroup)
    /// Several embedded objects put back (an undone group delete): undone by taking them out again.
    case embeddedGroupAdded(EmbeddedGroup)
    /// A dictionary key renamed from `from` to `to` (a dictionary of embedded objects: their
    /// values cannot be set back as a whole): undone by renaming it back.
    case renamed(className: String, key: ObjectKey, property: String, from: String, to: String)
}

/// Text ↔ value for the editors: the engine's one value syntax (`Value.parse`, `ValueSyntax`)
/// plus the editor's words: `now` for dates, `new` for ObjectId/UUID, hex for data, `Class#key`
/// or the target's primary key for links.
enum EditText {
    /// The text an editor starts with for `value`: what parses back to the same value.
    static func text(for value: Value, _ property: Property, realm: Realm) -> String {
        // A Mixed value as JSON text that reads back as the same type ("5" a string, 5 an int).
        if property.type == .mixed, !value.isNull, let text = value.mixedText { return text }
        switch value {
        case .null: return "null"
        case .string(let s):
            // Text that would read as something else (null, a JSON string, control characters)
            // is written as a JSON string.
            let plain = s.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
            if plain, (try? Value.parse(s, for: property, className: "")) == .string(s) { return s }
            return jsonQuoted(s)
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .float(let f): return ValueFormatter.number(Double(f), isFloat: true)
        case .double(let d): return ValueFormatter.number(d, isFloat: false)
        case .date(let t): return t.iso8601
        case .data(let d): return "0x" + d.map { String(format: "%02x", $0) }.joined()
        case .objectId(let o): return o.description
        case .uuid(let u): return u.uuidString
        // Realm Core's text, which reads back as the same decimal, every digit and exponent.
        case .decimal128(let d): return d.description
        case .link(let key):
            let className = property.objectClassName ?? ""
            if let pk = realm.schema[className]?.primaryKeyProperty,
                let target = try? realm.object(ofType: className, key: key),
                let pkValue = try? target.value(forKey: pk.name)
            {
                return text(for: pkValue, pk, realm: realm)
            }
            return "\(className)#\(key.rawValue)"
        case .typedLink(let l): return l.description
        // A dictionary as the JSON object that `parse` reads back.
        case .map: return JSONExport.plainJSON(value)?.jsonText(pretty: false) ?? "{}"
        case .list: return value.description
        }
    }

    /// The text the detail view's multi-line editor starts with for `value`: a string as it is,
    /// newlines and control characters too (the editor draws them visibly), unless it would read
    /// as something else (`null`, a JSON string), then as a JSON string; anything else (a null)
    /// as `text(for:)` writes it.
    static func multilineText(for value: Value, _ property: Property, realm: Realm) -> String {
        guard case .string(let s) = value else { return text(for: value, property, realm: realm) }
        if (try? Value.parse(s, for: property, className: "")) == .string(s) { return s }
        return jsonQuoted(s)
    }

    static func jsonQuoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// The value `text` means for `property` of `className`, or a `RealmError` saying why it
    /// does not fit. `now` is the time `now` stands for.
    static func parse(_ text: String, for property: Property, className: String, realm: Realm, now: Date) throws
        -> Value
    {
        // A dictionary of values is its JSON object (`{"color": "red"}`); `null` empties it.
        if property.isMap { return try Value.parse(text, for: property, className: className) }
        if property.type == .mixed, text.trimmingCharacters(in: .whitespaces) != "null" {
            return try mixed(text, for: property, className: className, realm: realm)
        }
        let word = text.trimmingCharacters(in: .whitespaces)
        if word == "null" {
            guard property.isOptional else {
                throw RealmError.missingValue(className: className, property: property.name)
            }
            return .null
        }
        switch property.type {
        case .date where word.lowercased() == "now": return .date(try Timestamp(now))
        case .objectId where word.lowercased() == "new": return .objectId(.generate())
        case .uuid where word.lowercased() == "new": return .uuid(UUID())
        case .data:
            if let bytes = hexBytes(word) { return .data(bytes) }
        case .object:
            return try link(word, for: property, className: className, realm: realm)
        default: break
        }
        return try Value.parse(text, for: property, className: className)
    }

    /// Hex: `0x` then pairs of hex digits, or two or more space-separated pairs (the detail
    /// view's dump). Anything else is read as base64.
    static func hexBytes(_ text: String) -> Data? {
        let digits: Substring
        if text.hasPrefix("0x") || text.hasPrefix("0X") {
            digits = text.dropFirst(2)
        } else {
            let parts = text.split(separator: " ")
            guard parts.count >= 2, parts.allSatisfy({ $0.count == 2 }) else { return nil }
            digits = Substring(parts.joined())
        }
        guard digits.count % 2 == 0 else { return nil }
        var bytes = Data()
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }

    /// A link by `Class#key` or the target's primary key (the engine's value syntax).
    static func link(_ text: String, for property: Property, className: String, realm: Realm) throws -> Value {
        let target = property.objectClassName ?? ""
        if text.hasPrefix(target + "#"), let raw = Int64(text.dropFirst(target.count + 1)) {
            guard try realm.object(ofType: target, key: ObjectKey(raw)) != nil else {
                throw RealmError.invalidInput("\(target)#\(raw): no such object")
            }
            return .link(ObjectKey(raw))
        }
        let input = try ValueSyntax.parse(text, for: property, className: className, schema: realm.schema)
        switch input {
        case .value(let value): return value
        case .primaryKey(let key):
            guard let object = try realm.object(ofType: target, forPrimaryKey: key) else {
                throw RealmError.invalidInput("no \(target) has the primary key \(key)")
            }
            return .link(object.key)
        default:
            throw RealmError.typeMismatch(
                className: className, property: property.name,
                expected: "the \(target)'s primary key, \(target)#key or null", got: text)
        }
    }
}
