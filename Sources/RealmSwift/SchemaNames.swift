import Foundation

// Realm Swift's names for the schema types the dynamic core defines (`Schema`, `ObjectSchema`,
// `Property`), so code reading a schema the Realm Swift way ports unchanged.

extension Schema {
    /// The classes of the schema (RealmSwift's name for `objectSchemas`).
    public var objectSchema: [ObjectSchema] { objectSchemas }
}

extension ObjectSchema {
    /// The class name (RealmSwift's name for `name`).
    public var className: String { name }

    /// The `Object` subclass stored under this class's name, as Realm Swift has it:
    /// `realm.schema["Dog"]!.objectClass === Dog.self`. A class of the file that no Swift
    /// class of the program is stored as (one only the dynamic API reads) answers
    /// `DynamicObject`, as Realm Swift answers its dynamic object class.
    public var objectClass: AnyClass {
        if let known = ClassInfo.type(named: name) { return known }
        // Not used yet in this process: one of the program's classes may still be stored as it.
        if let declared = ClassDiscovery.objectTypes.first(where: { $0.className() == name }) { return declared }
        return DynamicObject.self
    }
}

extension Property {
    /// Whether the property is a list (RealmSwift's `isArray`; a set, which the dynamic core
    /// marks as a list too, is not one).
    public var isArray: Bool { isList && !isSet }

    /// The name the property is stored under. The schema here already holds stored names
    /// (`propertiesMapping()` is applied by the typed layer), so this is `name`.
    public var columnName: String { name }
}

#if !canImport(ObjectiveC)
    /// Whether two classes are the same class: `schema.objectClass === Dog.self`, as Realm Swift's
    /// code writes it. On Apple platforms a class is an Objective-C object and the standard `===`
    /// compares it; elsewhere a metatype is not an `AnyObject`, so this compares identities.
    public func === (lhs: AnyClass?, rhs: AnyClass?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): return true
        case let (l?, r?): return ObjectIdentifier(l) == ObjectIdentifier(r)
        default: return false
        }
    }

    /// Whether two classes differ (the negation of `===` on classes).
    public func !== (lhs: AnyClass?, rhs: AnyClass?) -> Bool { !(lhs === rhs) }
#endif
