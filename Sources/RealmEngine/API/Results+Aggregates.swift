/// Aggregates and key-value coding over results.
extension Results {
    /// The column of property `name`, which must be numeric (or, for min and max, a date).
    private func numericColumn(_ name: String, datesToo: Bool = true) throws -> (Int, Property) {
        guard let c = objectSchema.persistedProperties.firstIndex(where: { $0.name == name }) else {
            throw RealmError.noSuchProperty(
                className: objectSchema.name, property: name,
                available: objectSchema.persistedProperties.map(\.name))
        }
        let p = objectSchema.persistedProperties[c]
        guard !p.isList, p.type.isNumeric || (datesToo && p.type == .date) else {
            throw RealmError.typeMismatch(
                className: objectSchema.name, property: name,
                expected: datesToo ? "a numeric or date property" : "a numeric property (dates have no sum or average)",
                got: p.typeDescription)
        }
        return (c, p)
    }

    private func columnValues(_ name: String) throws -> [Value] {
        let (c, _) = try numericColumn(name)
        let store = try realm.readable
        return try keys().map { try store.value(classIndex: classIndex, key: $0, column: c) }.filter { !$0.isNull }
    }

    /// The smallest value of a numeric or date property (nil when there are no non-nil values).
    /// NaN counts only when every value is NaN.
    public func min(ofProperty name: String) throws -> Value? {
        let values = try columnValues(name)
        return values.isEmpty ? nil : ValueOrder.extreme(values, smallest: true)
    }

    /// The largest value of a numeric or date property (nil when there are no non-nil values).
    /// NaN counts only when every value is NaN.
    public func max(ofProperty name: String) throws -> Value? {
        let values = try columnValues(name)
        return values.isEmpty ? nil : ValueOrder.extreme(values, smallest: false)
    }

    /// The sum of a numeric property (0 for no values; integers sum as `.int`, and a sum that
    /// does not fit 64 bits is an error; decimals sum exactly as `.decimal128`).
    public func sum(ofProperty name: String) throws -> Value {
        let (_, p) = try numericColumn(name, datesToo: false)
        let values = try columnValues(name)
        if p.type == .decimal128 { return .decimal128(DecimalAggregate.sum(values)) }
        if p.type.isInteger {
            var total: Int64 = 0
            for case .int(let v) in values {
                let (sum, overflow) = total.addingReportingOverflow(v)
                // A wrapped total would be a plausible wrong answer.
                if overflow {
                    throw RealmError.invalidInput(
                        "the sum of \(objectSchema.name).\(name) does not fit a 64-bit integer")
                }
                total = sum
            }
            return .int(total)
        }
        return .double(values.reduce(0) { $0 + (ValueOrder.double($1) ?? 0) })
    }

    /// The average of a numeric property as a value: `.decimal128` (exact sum, divided once)
    /// for a decimal property, `.double` for the others; nil for no values.
    public func averageValue(ofProperty name: String) throws -> Value? {
        let (_, p) = try numericColumn(name, datesToo: false)
        if p.type == .decimal128 { return DecimalAggregate.average(try columnValues(name)).map(Value.decimal128) }
        return try average(ofProperty: name).map(Value.double)
    }

    /// The average of a numeric property (nil for no values; for a decimal property, the exact
    /// average's nearest double — `averageValue` gives the decimal).
    public func average(ofProperty name: String) throws -> Double? {
        let (_, p) = try numericColumn(name, datesToo: false)
        let values = try columnValues(name)
        guard !values.isEmpty else { return nil }
        if p.type == .decimal128 { return DecimalAggregate.average(values)?.doubleValue }
        return values.reduce(0) { $0 + (ValueOrder.double($1) ?? 0) } / Double(values.count)
    }

    /// The value of a property for every object, in result order.
    public func value(forKey name: String) throws -> [Value] {
        try keys().map { try DynamicObject(realm: realm, classIndex: classIndex, key: $0).value(forKey: name) }
    }

    /// Sets a property on every object (inside a write transaction).
    public func setValue(_ value: ObjectInput, forKey name: String) throws {
        try realm.checkThread()
        guard let t = realm.transaction else { throw RealmError.notInWriteTransaction }
        let keys = try keys()
        if case .value(let v) = value, let column = try realm.readView.layout.tables[classIndex].columnIndex[name] {
            let property = try realm.readView.layout.tables[classIndex].columns[column]
            let coerced = try property.coerce(v, className: objectSchema.name)
            defer { realm.noteMutation() }
            try t.setColumn(classIndex, keys: keys, column: column, value: coerced)
            return
        }
        for k in keys {
            try DynamicObject(realm: realm, classIndex: classIndex, key: k).setValue(value, forKey: name)
        }
    }
}
