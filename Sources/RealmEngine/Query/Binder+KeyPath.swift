/// Key path resolution: `owner.address.city`, `dogs.age`, `tags.length`, `dogs.@count`,
/// `ratings.@avg`, `dogs.@max.age` (Cocoa's collection-operator form of `dogs.age.@max`),
/// linking-objects properties and `@links.Class.property`.
extension Binder {
    /// Cocoa's form `collection.@max.property` (also `@min`, `@sum`, `@avg`), which Realm
    /// documents beside `collection.property.@max`, rewritten to the latter: the operator moves
    /// behind the one property that follows it. Other paths come back unchanged.
    static func postfixAggregate(_ components: [PathComponent]) -> [PathComponent] {
        guard components.count >= 3 else { return components }
        let k = components.count - 2
        let op = components[k].name.lowercased()
        guard ["@min", "@max", "@sum", "@avg"].contains(op), !components[k + 1].name.hasPrefix("@") else {
            return components
        }
        var out = components
        out.swapAt(k, k + 1)
        return out
    }

    mutating func bindPath(_ components: [PathComponent], classIndex: Int, variable: String?) throws -> BoundPath {
        let name = components.map(\.name).joined(separator: ".")
        var rest = Binder.postfixAggregate(components)[...]
        if let first = rest.first, first.name.hasPrefix("$") {
            guard first.name == variable else {
                throw RealmError.query(
                    message: variable.map { "unknown variable '\(first.name)'; the SUBQUERY variable is '\($0)'" }
                        ?? "variables like '\(first.name)' can only be used inside SUBQUERY", column: first.column)
            }
            rest = rest.dropFirst()
        }
        var path = BoundPath(
            steps: [], throughCollection: false, postfix: .none, elementType: .object(classIndex), name: name)
        var walked: [String] = []
        var i = rest.startIndex
        while i < rest.endIndex {
            let component = rest[i]
            let prefix = walked.isEmpty ? schema.objectSchemas[classIndex].name : walked.joined(separator: ".")
            if path.postfix != .none {
                throw RealmError.query(
                    message: "nothing can follow '\(walked.last ?? "")' in '\(name)'", column: component.column)
            }
            if component.name.lowercased() == "@links" {
                guard case .object(let current) = path.elementType, i + 2 < rest.endIndex else {
                    throw RealmError.query(
                        message: "@links must be followed by .ClassName.propertyName", column: component.column)
                }
                let className = rest[i + 1]
                let propertyName = rest[i + 2]
                guard let origin = schema.objectSchemas.firstIndex(where: { $0.name == className.name }) else {
                    throw RealmError.query(
                        message: "no class named '\(className.name)'; classes are: "
                            + schema.classNames.joined(separator: ", "), column: className.column)
                }
                let persisted = schema.objectSchemas[origin].persistedProperties
                guard let column = persisted.firstIndex(where: { $0.name == propertyName.name }),
                    persisted[column].type == .object,
                    persisted[column].objectClassName == schema.objectSchemas[current].name
                else {
                    throw RealmError.query(
                        message:
                            "'\(className.name).\(propertyName.name)' is not a link to '\(schema.objectSchemas[current].name)'",
                        column: propertyName.column)
                }
                path.steps.append(.backlinks(classIndex: current, originClass: origin, originColumn: column))
                path.throughCollection = true
                path.elementType = .object(origin)
                dependencies.insert(origin)
                walked += [component.name, className.name, propertyName.name]
                i += 3
                continue
            }
            if let step = try mixedStep(component, path: path, prefix: prefix) {
                path.steps.append(.mixed(step))
                if step == .all { path.throughCollection = true }
                walked.append(component.name)
                i += 1
                continue
            }
            if component.isKey {
                throw RealmError.query(
                    message: "'\(prefix)' is not a dictionary; ['\(component.name)'] needs one",
                    column: component.column)
            }
            if component.name.hasPrefix("@") {
                path.postfix = try collectionOperator(component, path: path, prefix: prefix)
                walked.append(component.name)
                i += 1
                continue
            }
            guard case .object(let current) = path.elementType else {
                if component.name == "length", path.elementType == .string || path.elementType == .data {
                    path.postfix = .length
                    walked.append(component.name)
                    i += 1
                    continue
                }
                throw RealmError.query(
                    message: "'\(prefix)' is \(path.elementType), which has no property '\(component.name)'",
                    column: component.column)
            }
            let objectSchema = schema.objectSchemas[current]
            guard let property = objectSchema[component.name] else {
                throw RealmError.query(
                    message: "class '\(objectSchema.name)' has no property '\(component.name)'"
                        + NameSuggestion.hint(component.name, among: objectSchema.properties.map(\.name))
                        + "; its properties are: "
                        + objectSchema.properties.map(\.name).joined(separator: ", "), column: component.column)
            }
            let target = property.objectClassName.flatMap { n in schema.objectSchemas.firstIndex { $0.name == n } }
            if property.type == .linkingObjects {
                guard let origin = target,
                    let column = schema.objectSchemas[origin].persistedProperties.firstIndex(where: {
                        $0.name == property.linkOriginPropertyName
                    })
                else {
                    throw RealmError.query(
                        message: "linking objects property '\(property.name)' has no origin", column: component.column)
                }
                path.steps.append(.backlinks(classIndex: current, originClass: origin, originColumn: column))
                path.throughCollection = true
                path.elementType = .object(origin)
                dependencies.insert(origin)
            } else {
                guard let column = objectSchema.persistedProperties.firstIndex(where: { $0.name == property.name })
                else {
                    throw RealmError.query(
                        message: "property '\(property.name)' is not stored", column: component.column)
                }
                if property.isMap {
                    // `attrs['k']` / `attrs.k`: one value; `attrs.@keys`: the keys; `attrs`,
                    // `attrs.@values` and `attrs.@count`/`@sum`/…: the values.
                    let next = i + 1 < rest.endIndex ? rest[i + 1] : nil
                    let part: BoundPath.MapPart
                    var consumed = 1
                    switch next {
                    case let n? where n.position == nil && (n.isKey || !n.name.hasPrefix("@")):
                        part = .key(n.name)
                        consumed = 2
                    case let n? where n.name.lowercased() == "@keys":
                        part = .keys
                        consumed = 2
                    case let n? where n.name.lowercased() == "@values":
                        part = .values
                        consumed = 2
                    default:
                        part = .values
                    }
                    path.steps.append(.map(classIndex: current, column: column, part: part))
                    if part == .keys {
                        path.elementType = .string
                    } else {
                        path.elementType = QueryType(property.type, target: target)
                    }
                    if case .key = part {} else { path.throughCollection = true }
                    if let target { dependencies.insert(target) }
                    walked += rest[i..<(i + consumed)].map(\.name)
                    i += consumed
                    continue
                }
                path.steps.append(.column(classIndex: current, column: column))
                if property.isList { path.throughCollection = true }
                path.elementType = QueryType(property.type, target: target)
                if let target { dependencies.insert(target) }
            }
            walked.append(component.name)
            i += 1
        }
        return path
    }

    private func collectionOperator(_ component: PathComponent, path: BoundPath, prefix: String) throws
        -> BoundPath.Postfix
    {
        let op = component.name.lowercased()
        switch op {
        case "@type":
            return .typeOf
        case "@count", "@size":
            if path.throughCollection { return .aggregate(.count) }
            // A string's length, or the size of a list or dictionary held by a Mixed value.
            if path.elementType == .string || path.elementType == .data || path.elementType == .mixed { return .length }
            throw RealmError.query(
                message:
                    "\(component.name) needs a list, set, dictionary, linking objects, a string or data; '\(prefix)' is \(path.elementType)",
                column: component.column)
        case "@min", "@max", "@sum", "@avg":
            guard path.throughCollection else {
                throw RealmError.query(
                    message: "\(component.name) needs a list; '\(prefix)' is not one", column: component.column)
            }
            let aggregate = Aggregate(rawValue: String(op.dropFirst())) ?? .count
            let ok =
                path.elementType.isNumeric || (path.elementType == .date && (aggregate == .min || aggregate == .max))
            guard ok else {
                let wanted = aggregate == .min || aggregate == .max ? "numbers or dates" : "numbers"
                throw RealmError.query(
                    message: "\(component.name) needs \(wanted); '\(prefix)' holds \(path.elementType) values",
                    column: component.column)
            }
            return .aggregate(aggregate)
        default:
            throw RealmError.query(
                message:
                    "unknown collection operator '\(component.name)'; use @count, @size, @min, @max, @sum, @avg or @type",
                column: component.column)
        }
    }

    /// What a sort or distinct key path is for, named in its errors.
    enum OrderingUse {
        case sort, distinct
        var verb: String { self == .sort ? "sort by" : "find distinct values by" }
    }

    /// Resolves a sort or distinct key path: properties of the class and of its to-one links
    /// only. A link itself (`owner`), a list or a path through one (`dogs`, `dogs.name`) and
    /// linking objects cannot be ordered: each throws `RealmError.query` naming the key path.
    static func sortPath(_ keyPath: String, classIndex: Int, schema: Schema, for use: OrderingUse = .sort) throws
        -> BoundPath
    {
        var binder = Binder(schema: schema, arguments: [])
        var column = 1
        var components: [PathComponent] = []
        for part in keyPath.split(separator: ".", omittingEmptySubsequences: false) {
            components.append(PathComponent(name: String(part), column: column))
            column += part.unicodeScalars.count + 1
        }
        let path = try binder.bindPath(components, classIndex: classIndex, variable: nil)
        if path.throughCollection || path.postfix != .none {
            throw RealmError.query(
                message: "cannot \(use.verb) '\(keyPath)': it is or passes through a list or linking objects, "
                    + "which hold no single value per object", column: 1)
        }
        if case .object = path.elementType {
            throw RealmError.query(
                message:
                    "cannot \(use.verb) '\(keyPath)': it is a link; name one of its properties ('\(keyPath).name')",
                column: 1)
        }
        return path
    }
}
