import Foundation

// The rest of RealmSwift's query DSL that ported code uses most: comparisons between two
// properties, ranges, enums by raw value, string equality with options, and queries over lists
// (their elements' properties, membership, any-of, aggregates). Each builds the same predicate
// text `filter(_:)` takes, values as arguments.

// MARK: Two properties

extension Query where T: _Persistable {
    private func compare(_ op: String, _ other: Query) -> Query<Bool> {
        Query<Bool>(text: "\(text) \(op) \(other.text)", arguments: arguments + other.arguments)
    }
    /// Whether the property equals another property of the same type.
    public static func == (lhs: Query, rhs: Query) -> Query<Bool> { lhs.compare("==", rhs) }
    /// Whether the property differs from another property of the same type.
    public static func != (lhs: Query, rhs: Query) -> Query<Bool> { lhs.compare("!=", rhs) }
    /// Whether the property is less than another.
    public static func < (lhs: Query, rhs: Query) -> Query<Bool> { lhs.compare("<", rhs) }
    /// Whether the property is at most another.
    public static func <= (lhs: Query, rhs: Query) -> Query<Bool> { lhs.compare("<=", rhs) }
    /// Whether the property is greater than another.
    public static func > (lhs: Query, rhs: Query) -> Query<Bool> { lhs.compare(">", rhs) }
    /// Whether the property is at least another.
    public static func >= (lhs: Query, rhs: Query) -> Query<Bool> { lhs.compare(">=", rhs) }
}

// MARK: Ranges

extension Query where T: _Persistable & Comparable {
    /// Whether the value lies in `range` (its lower bound included, its upper bound not).
    public func contains(_ range: Range<T>) -> Query<Bool> {
        (self >= range.lowerBound) && (self < range.upperBound)
    }

    /// Whether the value lies in `range`, both bounds included.
    public func contains(_ range: ClosedRange<T>) -> Query<Bool> {
        (self >= range.lowerBound) && (self <= range.upperBound)
    }
}

// MARK: Enums

extension Query where T: PersistableEnum {
    /// The enum's stored raw value, to compare with raw values (`$0.kind.rawValue == 2`).
    public var rawValue: Query<T.RawValue> { Query<T.RawValue>(text: text, arguments: arguments, isKeyPath: isKeyPath) }
}

// MARK: String equality with options

extension Query where T == String {
    /// Whether the string equals `value`, ignoring case or diacritics as `options` say.
    public func equals(_ value: String, options: StringOptions = []) -> Query<Bool> { stringComparison("==", value, options) }
    /// Whether the string differs from `value`, ignoring case or diacritics as `options` say.
    public func notEquals(_ value: String, options: StringOptions = []) -> Query<Bool> { stringComparison("!=", value, options) }

    private func stringComparison(_ op: String, _ value: String, _ options: StringOptions) -> Query<Bool> {
        var flags = ""
        if options.contains(.caseInsensitive) { flags += "c" }
        if options.contains(.diacriticInsensitive) { flags += "d" }
        return Query<Bool>(text: "\(text) \(op)\(flags.isEmpty ? "" : "[\(flags)]") %@", arguments: [value])
    }
}

// MARK: Lists of objects

extension Query where T: RealmCollection {
    /// A property of the list's objects: a comparison on it holds when it holds for any of
    /// them (`$0.dogs.age > 5`: some dog is older than 5).
    public subscript<V>(dynamicMember keyPath: KeyPath<T.Element, V>) -> Query<V> {
        Query<V>(text: "\(text).\(propertyName(keyPath))", isKeyPath: true)
    }

    /// Whether the list holds `object`.
    public func contains(_ object: T.Element) -> Query<Bool> {
        Query<Bool>(text: "%@ IN \(text)", arguments: [object])
    }

    /// Whether the list holds any of `objects`.
    public func containsAny<S: Sequence>(in objects: S) -> Query<Bool> where S.Element == T.Element {
        Query<Bool>(text: "ANY \(text) IN %@", arguments: [Array(objects)])
    }
}

// MARK: Lists of values

/// A list of scalar values (`List<Int>`, `List<String>`…), for the queries over its values.
public protocol _RealmValueList {
    /// The type of the list's values.
    associatedtype Value: _RealmScalar & _Persistable
}

extension List: _RealmValueList where Element: _RealmScalar & _Persistable {
    public typealias Value = Element
}

extension Query where T: _RealmValueList {
    /// Whether the list holds `value`.
    public func contains(_ value: T.Value) -> Query<Bool> {
        Query<Bool>(text: "%@ IN \(text)", arguments: [storedValue(value)])
    }

    /// Whether the list holds any of `values`.
    public func containsAny<S: Sequence>(in values: S) -> Query<Bool> where S.Element == T.Value {
        Query<Bool>(text: "ANY \(text) IN %@", arguments: [values.map { storedValue($0) }])
    }

    /// Whether any value of the list equals `value`.
    public static func == (lhs: Query, rhs: T.Value) -> Query<Bool> { lhs.anyElement("==", rhs) }
    /// Whether any value of the list differs from `value`.
    public static func != (lhs: Query, rhs: T.Value) -> Query<Bool> { lhs.anyElement("!=", rhs) }

    /// The number of values in the list.
    public var count: Query<Int> { Query<Int>(text: "\(text).@count") }
    /// The smallest value of the list.
    public var min: Query<T.Value> { aggregate("@min") }
    /// The largest value of the list.
    public var max: Query<T.Value> { aggregate("@max") }
    /// The sum of the list's values.
    public var sum: Query<T.Value> { aggregate("@sum") }
    /// The average of the list's values.
    public var avg: Query<T.Value> { aggregate("@avg") }

    fileprivate func anyElement(_ op: String, _ value: T.Value) -> Query<Bool> {
        Query<Bool>(text: "ANY \(text) \(op) %@", arguments: [storedValue(value)])
    }

    private func aggregate(_ function: String) -> Query<T.Value> {
        Query<T.Value>(text: "\(text).\(function)", arguments: arguments)
    }
}

extension Query where T: _RealmValueList, T.Value: Comparable {
    /// Whether any value of the list is less than `value`.
    public static func < (lhs: Query, rhs: T.Value) -> Query<Bool> { lhs.anyElement("<", rhs) }
    /// Whether any value of the list is at most `value`.
    public static func <= (lhs: Query, rhs: T.Value) -> Query<Bool> { lhs.anyElement("<=", rhs) }
    /// Whether any value of the list is greater than `value`.
    public static func > (lhs: Query, rhs: T.Value) -> Query<Bool> { lhs.anyElement(">", rhs) }
    /// Whether any value of the list is at least `value`.
    public static func >= (lhs: Query, rhs: T.Value) -> Query<Bool> { lhs.anyElement(">=", rhs) }
}

/// The argument for a scalar: its stored value, or the value itself for one no stored value
/// holds (binding the query then reports it).
private func storedValue(_ value: some _RealmScalar) -> Any {
    (try? value._rlmCheckedValue()) ?? value
}
