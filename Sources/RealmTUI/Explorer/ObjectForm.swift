import Foundation
import RealmEngine

/// The form `a` opens in a table: one editor per property a new object can be given, filled
/// with the schema's default (or the type's zero, `now`, `new`, null), required ones marked.
/// Lists start empty and linking objects are computed, so neither has a field.
struct ObjectForm {
    struct Field {
        var property: Property
        var editor: LineEditor
        /// Whether the field still holds its default, untouched: the first character typed
        /// replaces it, as a selected placeholder is (typing 4 into `0` gives 4, not 04).
        var isDefault = true
        /// Whether the object cannot be created without a value here (not optional).
        var isRequired: Bool { !property.isOptional }
    }

    /// Where a new embedded object goes: into `object`'s to-one or list `property`, at `index`
    /// in a list (nil: appended).
    struct EmbedTarget {
        var object: DynamicObject
        var property: Property
        var index: Int?
        /// For a dictionary of embedded objects: the new key.
        var mapKey: String? = nil
    }

    var schema: ObjectSchema
    var fields: [Field]
    /// Set for an embedded object: created inside its parent, never on its own.
    var embedIn: EmbedTarget?
    /// The field being edited.
    var cursor = 0
    /// Why the last Enter was refused, naming the field (the cursor is moved to it).
    var refusal: String?

    /// A form for a new object of `schema`, each field filled with its default.
    init(schema: ObjectSchema, realm: Realm, embedIn: EmbedTarget? = nil) {
        self.schema = schema
        self.embedIn = embedIn
        fields = schema.properties.filter { $0.isPersisted && !$0.isList }.map { property in
            Field(property: property, editor: LineEditor(ObjectForm.defaultText(property, realm: realm)))
        }
    }

    /// The text a field starts with.
    static func defaultText(_ property: Property, realm: Realm) -> String {
        if let value = property.defaultValue { return EditText.text(for: value, property, realm: realm) }
        if property.isOptional { return "null" }
        switch property.type {
        case .bool: return "false"
        case .int, .int8, .int16, .int32, .float, .double, .decimal128: return "0"
        case .string: return ""  // empty text is the empty string
        case .date: return "now"
        case .objectId, .uuid: return "new"
        case .data: return "0x"
        default: return ""
        }
    }

    /// The values of every field, or the first refusal (and the field it is about).
    func values(realm: Realm, now: Date) -> Result<[String: Value], FormError> {
        var values: [String: Value] = [:]
        for (index, field) in fields.enumerated() {
            do {
                values[field.property.name] = try EditText.parse(
                    field.editor.text, for: field.property, className: schema.name,
                    realm: realm, now: now)
            } catch {
                return .failure(
                    FormError(field: index, message: "\(field.property.name): \(ExplorerText.describe(error))"))
            }
        }
        if let pk = schema.primaryKeyProperty, let key = values[pk.name] {
            do {
                if try realm.object(ofType: schema.name, forPrimaryKey: key) != nil {
                    let index = fields.firstIndex { $0.property.name == pk.name } ?? 0
                    return .failure(
                        FormError(
                            field: index,
                            message: "\(pk.name) \(key) is taken: another \(schema.name) has this primary key"))
                }
            } catch {
                return .failure(FormError(field: 0, message: ExplorerText.describe(error)))
            }
        }
        return .success(values)
    }

    /// A refused form: the field and why.
    struct FormError: Error {
        var field: Int
        var message: String
    }
}

extension ExplorerState {
    /// `a` in a table: opens the form for a new object of the table's class.
    mutating func beginCreate() {
        guard !readOnly else { return refuse(readOnlyRefusal) }
        guard case .table(let table) = current else { return }
        if let list = listUnderTable() {
            return beginListInsert(list, at: nil)
        }
        guard table.crumb == table.schema.name else {
            return refuse("a creates objects in a class's table; this table lists \(table.crumb)")
        }
        mode = .edit(.creating(ObjectForm(schema: table.schema, realm: realm)))
    }

    /// A key while the form is open.
    mutating func handleFormKey(_ key: Key, _ form: ObjectForm) -> [ExplorerEffect] {
        var form = form
        switch key {
        case .escape:
            mode = .browse
            message = Message(text: "nothing created", isError: false)
            return []
        case .enter:
            switch form.values(realm: realm, now: Date()) {
            case .success(let values):
                mode = .browse
                editAwaitingWrite = .creating(form)
                if let target = form.embedIn, let mapKey = target.mapKey {
                    return [
                        .write(
                            .embedEntry(
                                className: target.object.className, key: target.object.key,
                                property: target.property.name, mapKey: mapKey, values: values))
                    ]
                }
                if let target = form.embedIn {
                    return [
                        .write(
                            .embed(
                                className: target.object.className, key: target.object.key,
                                property: target.property.name,
                                values: values, at: target.index))
                    ]
                }
                return [.write(.create(className: form.schema.name, values: values))]
            case .failure(let error):
                form.cursor = error.field
                form.refusal = "refused, nothing written: " + error.message
                mode = .edit(.creating(form))
                return []
            }
        case .down, .tab: form.cursor = min(form.fields.count - 1, form.cursor + 1)
        case .up, .backTab: form.cursor = max(0, form.cursor - 1)
        case .control("n"):
            guard form.fields.indices.contains(form.cursor) else { return [] }
            if form.fields[form.cursor].property.isOptional {
                form.fields[form.cursor].editor.set("null")
                form.fields[form.cursor].isDefault = true
            } else {
                form.refusal = "\(form.fields[form.cursor].property.name) is required: it cannot be null"
                mode = .edit(.creating(form))
                return []
            }
        case .character(" ")
        where form.fields.indices.contains(form.cursor) && form.fields[form.cursor].property.type == .bool:
            let text = form.fields[form.cursor].editor.text.trimmingCharacters(in: .whitespaces)
            form.fields[form.cursor].editor.set(text == "true" ? "false" : "true")
            form.fields[form.cursor].isDefault = false
        default:
            guard form.fields.indices.contains(form.cursor) else { return [] }
            var field = form.fields[form.cursor]
            if field.isDefault, case .character = key { field.editor.set("") }
            guard field.editor.handle(key) else { return [] }
            field.isDefault = false
            form.fields[form.cursor] = field
        }
        form.refusal = nil
        mode = .edit(.creating(form))
        return []
    }
}
