extension DynamicList {
    /// Removes every element equal to `value` and returns how many went. Equal is Realm's
    /// equality by value, as a set compares (`1` and `1.0` in a list of doubles, `1.0` and `1.00`
    /// in a list of decimals, every NaN); a link is given as `.link(key)`. A value of another type
    /// is a `typeMismatch` naming the property, not a removal of nothing.
    @discardableResult
    public func removeAll(equalTo value: Value) throws -> Int {
        let target: Value
        if property.isLink {
            guard case .link = value else {
                throw RealmError.typeMismatch(
                    className: ownerClassName, property: property.name,
                    expected: property.objectClassName ?? "object", got: value.kindName)
            }
            target = value
        } else {
            target = try property.coerce(value, className: ownerClassName, element: true)
        }
        let items = try elements()
        let kept = items.filter { ValueOrder.sortCompare($0, target) != 0 }
        guard kept.count != items.count else { return 0 }
        try owner.setValue(.value(.list(kept)), forKey: property.name)
        return items.count - kept.count
    }
}
