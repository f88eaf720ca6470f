/// Turning `ObjectInput` (dictionaries, arrays in property order, nested objects, primary-key
/// references) into rows: creation, upsert by primary key and partial update.
extension WriteTransaction {
    private func schema(_ classIndex: Int) -> ObjectSchema { layout.schema.objectSchemas[classIndex] }

    /// The given fields of an object input, by persisted column (nil: not given), read straight
    /// from the dictionary or array without copying it.
    struct Fields {
        let array: [ObjectInput]
        let dictionary: [String: ObjectInput]?
        let properties: ArraySlice<Property>

        subscript(column: Int) -> ObjectInput? {
            if let dictionary { return dictionary[properties[column].name] }
            return column < array.count ? array[column] : nil
        }
    }

    func fields(_ classIndex: Int, _ input: ObjectInput) throws -> Fields {
        try fields(classIndex, input, properties: layout.tables[classIndex].persisted)
    }

    /// `fields(_:_:)` for a class whose persisted properties the caller already has.
    private func fields(_ classIndex: Int, _ input: ObjectInput, properties: ArraySlice<Property>) throws -> Fields {
        switch input {
        case .dictionary(let d):
            return Fields(array: [], dictionary: d, properties: properties)
        case .array(let a):
            guard a.count <= properties.count else {
                throw RealmError.invalidInput(
                    "\(schema(classIndex).name): \(a.count) values given for \(properties.count) properties (\(properties.map(\.name).joined(separator: ", ")))"
                )
            }
            return Fields(array: a, dictionary: nil, properties: properties)
        default:
            throw RealmError.invalidInput("\(schema(classIndex).name): expected a dictionary or an array of values")
        }
    }

    /// Creates (or with `update`, upserts) an object and returns its key.
    func createObject(_ classIndex: Int, _ input: ObjectInput, update: UpdatePolicy) throws -> ObjectKey {
        switch input {
        case .value(.link(let k)):
            guard try state.contains(classIndex: classIndex, key: k) else { throw RealmError.invalidatedObject }
            return k
        case .primaryKey(let v):
            return try existing(classIndex, primaryKey: v)
        case .value(let v):
            throw RealmError.typeMismatch(
                className: schema(classIndex).name, property: "(object)", expected: "an object", got: v.kindName)
        case .dictionary, .array:
            break
        }
        // `layout` and `schema(_:)` return copies (a retain per stored array): read them once.
        let objectSchema = schema(classIndex)
        let table = layout.tables[classIndex]
        let properties = table.persisted
        let given = try fields(classIndex, input, properties: properties)
        if let pk = table.primaryKeyColumn {
            let pkValue: Value
            if let raw = given[pk] {
                guard case .value(let v) = raw else {
                    throw RealmError.typeMismatch(
                        className: objectSchema.name, property: properties[pk].name,
                        expected: properties[pk].typeDescription, got: "an object")
                }
                let pkType = table.columns.withUnsafeBufferPointer { $0[pk].type }  // no `Property` copy
                if let same = Self.alreadyStored(v, as: pkType) {
                    pkValue = same
                } else {
                    pkValue = try properties[pk].coerce(v, className: objectSchema.name)
                }
            } else if let d = properties[pk].defaultValue {
                pkValue = d
            } else if properties[pk].isOptional {
                pkValue = .null
            } else {
                throw RealmError.missingValue(className: objectSchema.name, property: properties[pk].name)
            }
            if let key = try existingObject(classIndex, primaryKey: pkValue, column: pk) {
                guard update != .error else {
                    throw RealmError.primaryKey(
                        "\(objectSchema.name): an object with primary key \(pkValue) already exists")
                }
                for column in properties.indices where column != pk {
                    if let raw = given[column] { try setField(classIndex, key, column: column, raw, update: update) }
                }
                return key
            }
        }
        var row: [Value] = []
        row.reserveCapacity(properties.count)
        // Through a buffer pointer: reading a `Property` out of the slice copies it (names,
        // defaults), which showed up per object in bulk-insert profiles.
        try properties.withUnsafeBufferPointer { properties in
            for column in properties.indices {
                if let raw = given[column] {
                    if case .value(let v) = raw, !properties[column].isList,
                        let same = Self.alreadyStored(v, as: properties[column].type)
                    {
                        row.append(same)
                    } else if case .value(let v) = raw, properties[column].type != .object {
                        row.append(try properties[column].coerce(v, className: objectSchema.name))
                    } else {
                        row.append(
                            try convert(raw, for: properties[column], className: objectSchema.name, update: update))
                    }
                } else if let d = properties[column].defaultValue {
                    row.append(d)
                } else if properties[column].isList {
                    row.append(.list([]))
                } else if properties[column].isMap {
                    row.append(.map([:]))
                } else if properties[column].isOptional {
                    row.append(.null)
                } else {
                    throw RealmError.missingValue(className: objectSchema.name, property: properties[column].name)
                }
            }
        }
        return try insertRow(classIndex, row, primaryKeyChecked: true)
    }

    /// The object of a class with a primary key whose primary key is `value` (stored form), if any.
    func existingObject(_ classIndex: Int, primaryKey value: Value) throws -> ObjectKey? {
        guard let column = layout.tables[classIndex].primaryKeyColumn else { return nil }
        return try existingObject(classIndex, primaryKey: value, column: column)
    }

    private func existingObject(_ classIndex: Int, primaryKey value: Value, column: Int) throws -> ObjectKey? {
        // A new largest key (a bulk insert in key order) cannot exist yet: no lookup needed.
        let isNew =
            state.tables[classIndex].indexes[column].map { SearchIndex.isPastLastEntry($0, hi: SearchIndex.key(value)) }
            ?? false
        return isNew ? nil : try state.object(classIndex: classIndex, primaryKey: value)
    }

    /// `value` itself when it already is the stored form of a plain (non-list) property of `type`
    /// — what `Property.coerce` would return — else nil (then `coerce` converts or throws).
    /// Bulk inserts give values of the right type; checking that here, from the type alone,
    /// keeps `coerce` (which copies its `Property`) off the per-object path.
    static func alreadyStored(_ value: Value, as type: PropertyType) -> Value? {
        switch (type, value) {
        case (.bool, .bool), (.int, .int), (.double, .double), (.float, .float), (.date, .date),
            (.objectId, .objectId), (.uuid, .uuid), (.decimal128, .decimal128):
            return value
        case (.string, .string(let s)):
            return s.utf8.count <= Limits.maxValueBytes ? value : nil
        default:
            return nil
        }
    }

    /// Sets one property from input (converting nested objects and references).
    func setField(
        _ classIndex: Int, _ key: ObjectKey, column: Int, _ raw: ObjectInput, update: UpdatePolicy = .modified
    ) throws {
        let objectSchema = schema(classIndex)
        let p = layout.tables[classIndex].columns[column]
        let value = try convert(raw, for: p, className: objectSchema.name, update: update)
        try setValue(classIndex, key, column: column, value)
    }

    private func existing(_ classIndex: Int, primaryKey v: Value) throws -> ObjectKey {
        let objectSchema = schema(classIndex)
        guard let pk = objectSchema.primaryKeyProperty else {
            throw RealmError.invalidInput("\(objectSchema.name) has no primary key to refer to an object by")
        }
        let value = try pk.coerce(v, className: objectSchema.name)
        guard let key = try state.object(classIndex: classIndex, primaryKey: value) else {
            throw RealmError.invalidInput("no \(objectSchema.name) with primary key \(value)")
        }
        return key
    }

    /// Converts input for property `p` to its stored value, creating linked objects as needed.
    func convert(_ raw: ObjectInput, for p: Property, className: String, update: UpdatePolicy) throws -> Value {
        if p.type == .object {
            guard let target = p.objectClassName.flatMap(layout.classIndex) else {
                throw RealmError.invalidSchema("\(className).\(p.name) links to an unknown class")
            }
            if p.isMap {
                return try convertLinkMap(raw, for: p, target: target, className: className, update: update)
            }
            if p.isList {
                let links: [Value]
                switch raw {
                case .array(let items):
                    links = try items.map { .link(try createObject(target, $0, update: update)) }
                case .value(.list(let items)):
                    links = try items.map { .link(try createObject(target, .value($0), update: update)) }
                case .value(.null):
                    links = []
                default:
                    throw RealmError.typeMismatch(
                        className: className, property: p.name, expected: p.typeDescription, got: "a single value")
                }
                return .list(p.isSet ? SetElements.normalized(links) : links)
            }
            if case .value(.null) = raw { return .null }
            return .link(try createObject(target, raw, update: update))
        }
        switch raw {
        case .value(let v):
            return try p.coerce(v, className: className)
        // A Mixed value given as nested input: a list or dictionary of Mixed.
        case .array where p.type == .mixed && !p.isCollection, .dictionary where p.type == .mixed && !p.isCollection:
            return try p.coerce(try raw.mixedValue(className: className, property: p.name), className: className)
        case .array(let items) where p.isList:
            let elements = try items.map { item -> Value in
                guard case .value(let v) = item else {
                    throw RealmError.typeMismatch(
                        className: className, property: p.name, expected: p.type.rawValue, got: "an object")
                }
                return try p.coerce(v, className: className, element: true)
            }
            return .list(p.isSet ? SetElements.normalized(elements) : elements)
        case .dictionary(let entries) where p.isMap:
            var out = [String: Value](minimumCapacity: entries.count)
            for (key, item) in entries {
                try MapKey.check(key, className: className, property: p.name)
                guard case .value(let v) = item else {
                    throw RealmError.typeMismatch(
                        className: className, property: "\(p.name)['\(key)']", expected: p.type.rawValue,
                        got: "an object")
                }
                out[key] = try p.coerce(v, className: className, element: true)
            }
            return .map(out)
        case .primaryKey(let v):
            return try p.coerce(v, className: className)
        default:
            throw RealmError.typeMismatch(
                className: className, property: p.name, expected: p.typeDescription, got: "an object or array")
        }
    }

    /// A dictionary of links from input: a dictionary of key → (a nested object, `.link(key)`, a
    /// primary key, or nil), or a stored `.map` of links.
    private func convertLinkMap(
        _ raw: ObjectInput, for p: Property, target: Int, className: String,
        update: UpdatePolicy
    ) throws -> Value {
        let entries: [String: ObjectInput]
        switch raw {
        case .dictionary(let d): entries = d
        case .value(.map(let d)): entries = d.mapValues { .value($0) }
        case .value(.null): return .map([:])
        default:
            throw RealmError.typeMismatch(
                className: className, property: p.name, expected: p.typeDescription, got: "not a dictionary")
        }
        var out = [String: Value](minimumCapacity: entries.count)
        for (key, item) in entries {
            try MapKey.check(key, className: className, property: p.name)
            if case .value(.null) = item {
                out[key] = .null
            } else {
                out[key] = .link(try createObject(target, item, update: update))
            }
        }
        return .map(out)
    }
}
