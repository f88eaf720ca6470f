import Foundation
import RealmEngine

/// What a Mixed value is edited as: one of the types a Mixed holds, or the one-line JSON/tagged
/// editor (`json…`) that takes any of them, nested collections whole.
enum MixedKind: String, CaseIterable {
    case null, bool, int, double, float, string, data, date, objectId, uuid, decimal128, link, list, dictionary
    case json = "json…"

    /// The kind of `value` (nil's is `null`; a link to any class is `link`).
    init(of value: Value) {
        switch value {
        case .null: self = .null
        case .bool: self = .bool
        case .int: self = .int
        case .double: self = .double
        case .float: self = .float
        case .string: self = .string
        case .data: self = .data
        case .date: self = .date
        case .objectId: self = .objectId
        case .uuid: self = .uuid
        case .decimal128: self = .decimal128
        case .link, .typedLink: self = .link
        case .list: self = .list
        case .map: self = .dictionary
        }
    }

    /// The scalar type whose editor this kind opens (nil: null, link and the collections, which
    /// have editors of their own).
    var scalarType: PropertyType? {
        switch self {
        case .bool: .bool
        case .int: .int
        case .double: .double
        case .float: .float
        case .string: .string
        case .data: .data
        case .date: .date
        case .objectId: .objectId
        case .uuid: .uuid
        case .decimal128: .decimal128
        case .null, .link, .list, .dictionary, .json: nil
        }
    }

    var isNumeric: Bool { self == .int || self == .double || self == .float || self == .decimal128 }
}

/// The type picker a Mixed value's edit starts with (issue 23): the types a Mixed holds, the
/// current value's preselected; Enter opens that type's own editor (the one a property of the
/// type has, so a value is read and refused exactly as there), `null` writes at once, `link`
/// asks for the class and then picks the object from its table, `json…` is the one-line
/// JSON/tagged editor. Esc cancels with nothing written.
struct MixedTypePicker {
    /// The editor the pick leads to: the object, the Mixed property and where the value goes.
    var base: ValueEditor
    /// The value being replaced (for the preselection and to fill the typed editor).
    var current: Value
    /// The choices shown: the kinds, or (after `link`) the classes a link may point to.
    var choices: [String]
    var cursor: Int
    /// Set once `link` is picked: the choices are then class names.
    var isChoosingClass = false
    /// A value not there yet (a new element or key): no choice is marked `(now)`.
    var isNew = false

    /// The picker over `base` (the editor of a Mixed property, list element or entry) replacing
    /// `current`.
    init(base: ValueEditor, current: Value, isNew: Bool = false) {
        self.base = base
        self.current = current
        self.isNew = isNew
        choices = MixedKind.allCases.map(\.rawValue)
        cursor = MixedKind.allCases.firstIndex(of: MixedKind(of: current)) ?? 0
    }

    /// The choice under the cursor moved by `step` (clamped, no wrap).
    mutating func move(_ step: Int) {
        cursor = max(0, min(choices.count - 1, cursor + step))
    }

    /// The first choice starting with `letter`; when the cursor is on one already, the next
    /// (wrapping), as file lists do: `d` goes double, data, date, decimal128, dictionary, double….
    mutating func jump(to letter: Character) {
        let lower = String(letter).lowercased()
        let matches = choices.indices.filter { choices[$0].lowercased().hasPrefix(lower) }
        guard let first = matches.first else { return }
        guard matches.contains(cursor) else {
            cursor = first
            return
        }
        cursor = matches.first { $0 > cursor } ?? first
    }
}

extension ExplorerState {
    /// `e` on a Mixed value (a property, a list element, a dictionary's or nested collection's
    /// value; `a` for a new one): the type picker, the current value's type selected. `base`
    /// says where the value goes (`replaceAt`, `insertAt`, `entry`), as for any editor.
    mutating func beginMixedEdit(_ base: ValueEditor, current: Value, isNew: Bool = false) {
        mode = .edit(.choosingType(MixedTypePicker(base: base, current: current, isNew: isNew)))
    }

    /// A key in the type picker: j/k and the arrows move, a letter jumps, Enter picks, Esc cancels.
    mutating func handleTypePickerKey(_ key: Key, _ picker: MixedTypePicker) -> [ExplorerEffect] {
        var picker = picker
        switch key {
        case .escape:
            mode = .browse
            message = Message(text: "edit cancelled: nothing written", isError: false)
            return []
        case .down, .character("j"), .tab: picker.move(1)
        case .up, .character("k"), .backTab: picker.move(-1)
        case .home: picker.cursor = 0
        case .end: picker.cursor = picker.choices.count - 1
        case .enter: return pickType(picker)
        case .character(let ch) where ch.isLetter: picker.jump(to: ch)
        default: break
        }
        mode = .edit(.choosingType(picker))
        return []
    }

    /// Enter in the type picker: the editor of the chosen type, or the write of null, or the
    /// class list of a link.
    private mutating func pickType(_ picker: MixedTypePicker) -> [ExplorerEffect] {
        var picker = picker
        let choice = picker.choices[picker.cursor]
        if picker.isChoosingClass {
            var target = Property(name: picker.base.property.name, type: .object, objectClassName: choice)
            target.isOptional = true
            mode = .browse
            beginPick(object: picker.base.object, property: target, insertAt: nil)
            pick?.isMixed = true
            // The picked link goes where the picker's value goes (an element, an entry).
            pick?.mixedBase = picker.base
            return []
        }
        guard let kind = MixedKind(rawValue: choice) else { return [] }
        var edit = picker.base
        switch kind {
        case .null:
            if edit.entry != nil { return commitEntryEditor(edit, text: "null", isNull: true) }
            return commitEditor(edit, text: "null", isNull: true)
        case .link:
            // Links reach objects of any class but an embedded one (it has one parent, never a link).
            let classes = realm.schema.objectSchemas.filter { !$0.isEmbedded }.map(\.name)
            guard !classes.isEmpty else {
                refuse("no class to link to")
                return []
            }
            picker.isChoosingClass = true
            picker.choices = classes
            if case .typedLink(let link) = picker.current, let index = classes.firstIndex(of: link.className) {
                picker.cursor = index
            } else {
                picker.cursor = 0
            }
            mode = .edit(.choosingType(picker))
            return []
        case .json:
            edit.editor = LineEditor(EditText.text(for: picker.current, edit.property, realm: realm))
        case .list, .dictionary:
            // A nested collection is typed whole, in the JSON editor, and must be of the kind picked.
            let same = MixedKind(of: picker.current) == kind
            let text =
                same ? EditText.text(for: picker.current, edit.property, realm: realm) : (kind == .list ? "[]" : "{}")
            edit.editor = LineEditor(text)
            edit.mixedAs = kind
        default:
            guard let type = kind.scalarType else { return [] }
            let typed = Self.standIn(for: edit.property, type: type)
            edit.editor = LineEditor(typedText(picker.current, as: kind, typed))
            if kind == .string, case .detail = current {
                // As a string property there: the text itself over several lines, ^S writes.
                edit.isMultiline = true
                if case .string = picker.current {
                    edit.editor = LineEditor(EditText.multilineText(for: picker.current, typed, realm: realm))
                }
            }
            edit.property = typed
            edit.mixedAs = kind
        }
        mode = .edit(.editing(edit))
        return []
    }

    /// The property of `type` a Mixed property is edited as: same name (messages name the real
    /// property), optional (a Mixed holds nil; `null` there writes it).
    static func standIn(for property: Property, type: PropertyType) -> Property {
        Property(name: property.name, type: type, isOptional: true)
    }

    /// The text the typed editor starts with: the current value when it is of that kind, or
    /// converted when it reads as one (int 5 → double 5.0, "42" → int 42, 5 → string "5"),
    /// else the type's default (as the new-object form gives it).
    private func typedText(_ value: Value, as kind: MixedKind, _ typed: Property) -> String {
        let from = MixedKind(of: value)
        if from == kind { return EditText.text(for: value, typed, realm: realm) }
        let convertible =
            (from.isNumeric && kind.isNumeric)
            || (from.scalarType != nil && from != .data && (kind == .string || from == .string))
        if convertible, let type = from.scalarType {
            let text = EditText.text(for: value, Self.standIn(for: typed, type: type), realm: realm)
            if let converted = try? EditText.parse(text, for: typed, className: "", realm: realm, now: Date()),
                converted != .null
            {
                return EditText.text(for: converted, typed, realm: realm)
            }
        }
        var required = typed
        required.isOptional = false
        return ObjectForm.defaultText(required, realm: realm)
    }
}

extension MixedKind {
    /// `value` if it is of this collection kind; a refusal naming what was typed otherwise.
    func checked(_ value: Value, property: String) throws -> Value {
        switch (self, value) {
        case (.list, .list), (.dictionary, .map): return value
        case (.list, _): throw RealmError.invalidInput("\(property): a list is written [1, \"two\", …]")
        case (.dictionary, _): throw RealmError.invalidInput("\(property): a dictionary is written {\"key\": value, …}")
        default: return value
        }
    }
}
