extension ObjectInput {
    /// Input for a Mixed value as the value: an array a nested list, a dictionary a nested
    /// dictionary (a Mixed value holds no embedded object, so nested objects are refused).
    func mixedValue(className: String, property: String) throws -> Value {
        switch self {
        case .value(let v): return v
        case .array(let items):
            return .list(try items.map { try $0.mixedValue(className: className, property: property) })
        case .dictionary(let entries):
            return .map(try entries.mapValues { try $0.mixedValue(className: className, property: property) })
        case .primaryKey:
            throw RealmError.typeMismatch(
                className: className, property: property,
                expected: "a Mixed value (a link as Class#key)", got: "a primary key reference")
        }
    }
}
