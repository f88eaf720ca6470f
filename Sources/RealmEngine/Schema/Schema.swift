/// A set of classes. Stored in every file, so any tool can open any file without compiled models.
public struct Schema: Codable, Hashable, Sendable {
    /// The classes, in the order they were declared.
    public var objectSchemas: [ObjectSchema]

    /// Creates a schema from class descriptions.
    public init(_ objectSchemas: [ObjectSchema]) {
        self.objectSchemas = objectSchemas
    }

    /// The class with this name.
    public subscript(className: String) -> ObjectSchema? {
        objectSchemas.first { $0.name == className }
    }

    /// The class names in declared order.
    public var classNames: [String] { objectSchemas.map(\.name) }

    /// Checks names, limits, keys, indexes and links; throws `RealmError.invalidSchema` or
    /// `.limitExceeded` naming the first problem.
    public func validate() throws {
        var classNames = Set<String>()
        if objectSchemas.count > Limits.maxClasses {
            throw RealmError.limitExceeded("a schema has at most \(Limits.maxClasses) classes")
        }
        for objectSchema in objectSchemas {
            try Schema.checkName(objectSchema.name, what: "class name")
            guard classNames.insert(objectSchema.name).inserted else {
                throw RealmError.invalidSchema("class '\(objectSchema.name)' is declared twice")
            }
        }
        for objectSchema in objectSchemas {
            try validate(objectSchema)
        }
    }

    private func validate(_ objectSchema: ObjectSchema) throws {
        let className = objectSchema.name
        if objectSchema.properties.count > Limits.maxProperties {
            throw RealmError.limitExceeded("class '\(className)' has more than \(Limits.maxProperties) properties")
        }
        var names = Set<String>()
        var primaryKeys = 0
        for property in objectSchema.properties {
            try Schema.checkName(property.name, what: "property name")
            let where_ = "\(className).\(property.name)"
            guard names.insert(property.name).inserted else {
                throw RealmError.invalidSchema("property '\(where_)' is declared twice")
            }
            switch property.type {
            case .object:
                guard let target = property.objectClassName, self[target] != nil else {
                    throw RealmError.invalidSchema(
                        "'\(where_)' links to unknown class '\(property.objectClassName ?? "")'")
                }
                if !property.isList && !property.isOptional {
                    throw RealmError.invalidSchema("to-one link '\(where_)' must be optional")
                }
                if property.isSet && property.isOptional {
                    throw RealmError.invalidSchema("'\(where_)': a set of objects cannot hold nil")
                }
                if property.isSet, self[target]?.isEmbedded == true {
                    throw RealmError.invalidSchema(
                        "'\(where_)': a set cannot hold embedded objects of '\(target)' (use a to-one link, a list or a dictionary)"
                    )
                }
            case .mixed:
                try Schema.checkMixed(property, at: where_)
            case .linkingObjects:
                guard let origin = property.objectClassName, let originSchema = self[origin] else {
                    throw RealmError.invalidSchema(
                        "'\(where_)' names unknown class '\(property.objectClassName ?? "")'")
                }
                guard let originProperty = property.linkOriginPropertyName.flatMap({ originSchema[$0] }),
                    originProperty.type == .object, originProperty.objectClassName == className
                else {
                    throw RealmError.invalidSchema(
                        "'\(where_)': '\(origin).\(property.linkOriginPropertyName ?? "")' is not a link to '\(className)'"
                    )
                }
            default:
                break
            }
            if property.isPrimaryKey {
                primaryKeys += 1
                guard property.type.canBePrimaryKey, !property.isCollection else {
                    throw RealmError.invalidSchema(
                        "'\(where_)' of type \(property.typeDescription) cannot be a primary key")
                }
            }
            if property.isIndexed && !property.isPrimaryKey && (!property.type.canBeIndexed || property.isCollection) {
                throw RealmError.invalidSchema("'\(where_)' of type \(property.typeDescription) cannot be indexed")
            }
            if let value = property.defaultValue, !value.isNull || !property.isOptional {
                _ = try property.coerce(value, className: className)
            }
        }
        if objectSchema.isEmbedded && primaryKeys > 0 {
            throw RealmError.invalidSchema("embedded class '\(className)' cannot have a primary key")
        }
        if primaryKeys > 1 {
            throw RealmError.invalidSchema("class '\(className)' has more than one primary key")
        }
    }

    /// Throws unless `name` has 1–63 bytes of UTF-8.
    static func checkName(_ name: String, what: String) throws {
        let bytes = name.utf8.count
        if bytes == 0 {
            throw RealmError.invalidSchema("a \(what) cannot be empty")
        }
        if bytes > Limits.maxNameBytes {
            throw RealmError.limitExceeded(
                "\(what) '\(name.prefix(20))…' is \(bytes) bytes of UTF-8; the limit is \(Limits.maxNameBytes)")
        }
    }
}
