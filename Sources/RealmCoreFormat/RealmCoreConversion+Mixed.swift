import Foundation
import RealmEngine

/// Mixed columns of a Realm Core file as this engine's Mixed: scalars as they are, typed links
/// naming the class of their table, lists and dictionaries nested in a Mixed (format 24) as
/// nested lists and dictionaries, and the column's own list, set or dictionary of Mixed.
extension RealmCoreConversion {
    /// This engine's value for a Realm Core value of the Mixed `property`.
    static func mixedProperty(
        _ value: CoreValue, for property: Property, in className: String,
        tableClasses: [Int64: String]
    ) throws -> Value {
        let place = "\(className).\(property.name)"
        switch value {
        case .null:
            return property.isMap ? .map([:]) : property.isList ? .list([]) : .null
        case .list(let items) where property.isList && !property.isSet,
            .set(let items) where property.isSet:
            let elements = try items.map { try mixed($0, at: place, tableClasses: tableClasses, depth: 1) }
            guard property.isSet else { return .list(elements) }
            // As for other sets: elements this engine takes as equal but Core kept apart are refused, not merged.
            let set = SetElements.normalized(elements)
            guard set.count == elements.count else {
                throw RealmError.invalidInput(
                    "\(place): a set holds elements this engine takes as equal: \(Value.list(elements))")
            }
            return .list(set)
        case .dictionary(let entries) where property.isMap:
            return try dictionary(entries, at: place, tableClasses: tableClasses, depth: 1)
        default:
            guard !property.isCollection else {
                throw RealmError.invalidInput(
                    "\(place): a \(property.collectionName ?? "collection") of Mixed holds \(value.typeName)")
            }
            return try mixed(value, at: place, tableClasses: tableClasses, depth: 0)
        }
    }

    /// One Mixed value, nested collections included.
    private static func mixed(_ value: CoreValue, at place: String, tableClasses: [Int64: String], depth: Int) throws
        -> Value
    {
        guard depth <= Value.maxMixedDepth else {
            throw RealmError.invalidInput(
                "\(place): a Mixed value nests collections deeper than \(Value.maxMixedDepth) levels")
        }
        switch value {
        case .list(let items):
            return .list(try items.map { try mixed($0, at: place, tableClasses: tableClasses, depth: depth + 1) })
        case .dictionary(let entries):
            return try dictionary(entries, at: place, tableClasses: tableClasses, depth: depth + 1)
        case .typedLink(let tableKey, let key), .link(let tableKey, let key):
            // An unresolved key (an object deleted on another device) reads as nil, as the SDKs show it.
            if key < 0 { return .null }
            guard let target = tableClasses[tableKey] else {
                throw RealmError.invalidInput(
                    "\(place): a Mixed link to table \(tableKey), which the conversion leaves out or the file does not have"
                )
            }
            return .typedLink(TypedLink(className: target, key: ObjectKey(key)))
        case .set:
            throw RealmError.invalidInput("\(place): a set nested in a Mixed value, which Realm does not write")
        default:
            // A scalar converts as in a column of its own type (the property only names it).
            return try Self.value(value, for: Property(name: "", type: .string), in: place)
        }
    }

    private static func dictionary(
        _ entries: [CoreDictionaryEntry], at place: String, tableClasses: [Int64: String], depth: Int
    ) throws -> Value {
        var out = [String: Value](minimumCapacity: entries.count)
        for entry in entries {
            try MapKey.check(entry.key, className: place, property: "")
            guard out[entry.key] == nil else {
                throw RealmError.invalidInput("\(place): the dictionary holds the key '\(entry.key)' twice")
            }
            out[entry.key] = try mixed(entry.value, at: place, tableClasses: tableClasses, depth: depth)
        }
        return .map(out)
    }

    /// `value(_:for:in:)` with this conversion's table classes (for typed links).
    func value(_ value: CoreValue, for property: Property, in className: String) throws -> Value {
        try Self.value(value, for: property, in: className, tableClasses: tableClasses)
    }
}
