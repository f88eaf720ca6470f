/// One change to a property of an object, as `realmtui update --set` spells it:
///
/// | text             | change                                                                   |
/// |------------------|--------------------------------------------------------------------------|
/// | `prop=VALUE`     | sets the whole property (a list, set or dictionary as JSON)               |
/// | `prop+=VALUE`    | adds an element to a set (unless an equal one is there); appends to a list |
/// | `prop-=VALUE`    | removes the equal element from a set; every equal element from a list    |
/// | `dict.KEY=VALUE` | puts a dictionary entry (the key is everything after the first dot)      |
/// | `dict-=KEY`      | removes a dictionary's key                                                |
/// | `emb.CHANGE`     | makes CHANGE (any form above) inside the embedded object of the to-one link `emb`: `address.city=Oslo`, `address.geo.lat=60` |
///
/// VALUE is read by the one value syntax (`ValueSyntax`) for the property's type, or for one
/// element of it; an object of a list, set or dictionary of links is named by its primary key.
/// Removing what is not there changes nothing, as Realm's `remove` does.
public struct Assignment: Sendable, Equatable {
    /// What an assignment does to its property.
    public enum Operation: Sendable, Equatable {
        /// Sets the whole property.
        case assign(ObjectInput)
        /// Adds an element to a set, appends one to a list.
        case add(ObjectInput)
        /// Removes the equal element from a set, every equal element from a list.
        case remove(ObjectInput)
        /// Puts a dictionary entry.
        case put(key: String, ObjectInput)
        /// Removes a dictionary key.
        case removeKey(String)
        /// Makes a change inside the embedded object the to-one link holds (in place: the
        /// object keeps its identity, as RealmSwift's `person.address.city = …` does).
        indirect case inside(Assignment)
    }

    /// The property changed.
    public let property: Property
    /// The change.
    public let operation: Operation
    /// The class of the objects it is for, for messages.
    let className: String
    /// The value as given, for messages (`no Pet has the primary key 'x'`).
    let text: String
    /// For `.inside`: the first property of the embedded class, for the example when the link is nil.
    var exampleProperty: String? = nil

    /// Parses `text` (see the table above) for objects of `objectSchema`.
    ///
    /// A name that is a property as a whole (`a-` in `a-=1`) is a plain assignment, so that
    /// every `prop=VALUE` means what it meant before these forms existed.
    ///
    /// - Throws: `invalidInput` without `=`, for `+=` on a dictionary or for a key Realm refuses
    ///   (`$…`, one containing `.`); `noSuchProperty` for an unknown name (naming the nearest);
    ///   `typeMismatch` for `+=`/`-=` on a property that is no collection, `.KEY` on one that is
    ///   no dictionary, or a value the type does not accept; `missingValue` for nil where the
    ///   elements cannot be nil.
    public static func parse(_ text: String, objectSchema: ObjectSchema, schema: Schema) throws -> Assignment {
        guard let eq = text.firstIndex(of: "=") else {
            throw RealmError.invalidInput(
                "'\(text)': expected prop=VALUE, prop+=VALUE, prop-=VALUE or dict.KEY=VALUE, e.g. age=4 or tags+=new")
        }
        let lhs = String(text[..<eq])
        let raw = String(text[text.index(after: eq)...])
        let className = objectSchema.name
        func plain() throws -> Assignment {
            let (property, input) = try JSONImport.assignment(text, objectSchema: objectSchema, schema: schema)
            return Assignment(property: property, operation: .assign(input), className: className, text: raw)
        }
        func property(_ name: String) throws -> Property {
            guard let p = objectSchema[name], p.isPersisted else {
                throw RealmError.noSuchProperty(
                    className: className, property: name,
                    available: objectSchema.persistedProperties.map(\.name))
            }
            return p
        }
        if objectSchema[lhs] != nil { return try plain() }

        // `address.city=Oslo`: a change inside the embedded object of a to-one link (before the
        // dictionary form, which a to-one link does not have; the rest may nest again).
        if let dot = text[..<eq].firstIndex(of: "."), let p = objectSchema[String(text[..<dot])], p.isPersisted,
            p.type == .object, !p.isCollection, let target = p.objectClassName.flatMap({ schema[$0] }),
            target.isEmbedded
        {
            let inner = try parse(String(text[text.index(after: dot)...]), objectSchema: target, schema: schema)
            return Assignment(
                property: p, operation: .inside(inner), className: className, text: raw,
                exampleProperty: target.persistedProperties.first?.name)
        }

        if let sign = lhs.last, sign == "+" || sign == "-" {
            let name = String(lhs.dropLast())
            let op = "\(sign)="
            if objectSchema[name] == nil, let dot = name.firstIndex(of: ".") {
                let dict = String(name[..<dot])
                throw RealmError.invalidInput(
                    "'\(text)': \(op) takes a whole list, set or dictionary; put a dictionary entry with \(dict).KEY=VALUE, remove one with \(dict)-=KEY"
                )
            }
            let p = try property(name)
            if p.isMap {
                guard sign == "-" else {
                    throw RealmError.invalidInput(
                        "'\(text)': \(className).\(name) is a dictionary; put an entry with \(name).KEY=VALUE (\(name)-=KEY removes one)"
                    )
                }
                try MapKey.check(raw, className: className, property: name)
                return Assignment(property: p, operation: .removeKey(raw), className: className, text: raw)
            }
            guard p.isList else {
                throw RealmError.typeMismatch(
                    className: className, property: name,
                    expected:
                        "a list or set for '\(op)' (\(sign == "+" ? "it adds an element" : "it removes an element"))",
                    got: p.typeDescription)
            }
            let input = try ValueSyntax.parse(
                raw, for: element(of: p, label: name), className: className, schema: schema)
            return Assignment(
                property: p, operation: sign == "+" ? .add(input) : .remove(input), className: className, text: raw)
        }

        guard let dot = lhs.firstIndex(of: ".") else { return try plain() }
        let name = String(lhs[..<dot])
        let key = String(lhs[lhs.index(after: dot)...])
        let p = try property(name)
        guard p.isMap else {
            throw RealmError.typeMismatch(
                className: className, property: name,
                expected: "a dictionary for '\(name).KEY=VALUE' (it puts an entry); \(name) is not a dictionary",
                got: p.typeDescription)
        }
        try MapKey.check(key, className: className, property: name)
        let input = try ValueSyntax.parse(
            raw, for: element(of: p, label: "\(name)['\(key)']"), className: className, schema: schema)
        return Assignment(property: p, operation: .put(key: key, input), className: className, text: raw)
    }

    /// One element of the collection `property`, named `label` in messages: its type and
    /// whether it may be nil (never in a list or set of links; always in a dictionary of them).
    private static func element(of property: Property, label: String) -> Property {
        var element = property
        element.name = label
        element.isList = false
        element.isSet = false
        element.isMap = false
        element.isPrimaryKey = false
        if property.isLink { element.isOptional = property.isMap }
        return element
    }

    /// Makes the change on `object` (inside a write transaction).
    ///
    /// - Throws: what the change throws (a primary key no object has, a dictionary key Realm
    ///   refuses); the write is then to be cancelled.
    public func apply(to object: DynamicObject) throws {
        try apply(to: object, in: object, path: "")
    }

    /// `apply(to:)` on `object`, which is `owner` or an embedded object inside it at `path`
    /// (`address.`), for the message when a link on the way is nil.
    private func apply(to object: DynamicObject, in owner: DynamicObject, path: String) throws {
        switch operation {
        case .inside(let inner):
            guard let child = try object.linkedObject(forKey: property.name) else {
                let target = property.objectClassName ?? "object"
                let example = "\(path)\(property.name)={" + (exampleProperty.map { "\"\($0)\": …" } ?? "…") + "}"
                throw RealmError.invalidInput(
                    "\(owner.className).\(path)\(property.name) is null in \(try Self.describe(owner)): set a whole \(target) first, e.g. \(example)"
                )
            }
            try inner.apply(to: child, in: owner, path: path + property.name + ".")
        case .assign(let input):
            try object.setValue(input, forKey: property.name)
        case .add(let input):
            if property.isSet {
                try object.set(forKey: property.name).insertInput(input)
            } else {
                try object.list(forKey: property.name).append(input)
            }
        case .remove(let input):
            let value = try element(input, in: object.realm)
            if property.isSet {
                try object.set(forKey: property.name).remove(value)
            } else {
                try object.list(forKey: property.name).removeAll(equalTo: value)
            }
        case .put(let key, let input):
            try object.map(forKey: property.name).setInput(input, forKey: key)
        case .removeKey(let key):
            try object.map(forKey: property.name).removeValue(forKey: key)
        }
    }

    /// `the Person with name "Bo"`, or `a Person` for a class without a primary key.
    private static func describe(_ object: DynamicObject) throws -> String {
        guard let pk = object.objectSchema.primaryKeyProperty else { return "a \(object.className)" }
        let value = try object.value(forKey: pk.name)
        return "the \(object.className) with \(pk.name) \(JSONExport.plainJSON(value)?.jsonText() ?? "\(value)")"
    }

    /// The stored value an element to remove stands for: a link for a primary key.
    private func element(_ input: ObjectInput, in realm: Realm) throws -> Value {
        switch input {
        case .value(let value):
            return value
        case .primaryKey(let key):
            let target = property.objectClassName ?? "object"
            guard let object = try realm.object(ofType: target, forPrimaryKey: key) else {
                throw RealmError.invalidInput(
                    "\(className).\(property.name): no \(target) has the primary key '\(text)'")
            }
            return .link(object.key)
        case .dictionary, .array:
            throw RealmError.invalidInput(
                "\(className).\(property.name)-=\(text): name the \(property.objectClassName ?? "object") to remove by its primary key"
            )
        }
    }
}
