import Foundation

// The parts of the query DSL that RealmSwift code uses beyond plain comparisons: ranges,
// string comparisons with options, conditions on the elements and aggregates of a list, and an
// enum's raw value. Each builds the same predicate text `filter(_:)` accepts.

// MARK: Ranges

extension Query where T: _Persistable & Comparable {
    /// Whether the property lies in `range` (the lower bound included, the upper one not).
    public func contains(_ range: Range<T>) -> Query<Bool> {
        Query<Bool>(
            text: "(\(text) >= %@) AND (\(text) < %@)",
            arguments: [storedArgument(range.lowerBound) ?? NSNull(), storedArgument(range.upperBound) ?? NSNull()])
    }
    /// Whether the property lies in `range` (both bounds included).
    public func contains(_ range: ClosedRange<T>) -> Query<Bool> {
        Query<Bool>(
            text: "\(text) BETWEEN {%@, %@}",
            arguments: [storedArgument(range.lowerBound) ?? NSNull(), storedArgument(range.upperBound) ?? NSNull()])
    }
}

extension Query {
    /// Whether the optional property holds a value in `range` (nil is in no range).
    public func contains<W: _Persistable & Comparable>(_ range: Range<W>) -> Query<Bool> where T == W? {
        Query<W>(text: text, isKeyPath: isKeyPath).contains(range)
    }
    /// Whether the optional property holds a value in `range` (nil is in no range).
    public func contains<W: _Persistable & Comparable>(_ range: ClosedRange<W>) -> Query<Bool> where T == W? {
        Query<W>(text: text, isKeyPath: isKeyPath).contains(range)
    }
}

// MARK: Strings

extension Query where T == String {
    /// Whether the string equals `value`, ignoring case or diacritics as `options` say.
    public func equals(_ value: String, options: StringOptions = []) -> Query<Bool> { string("==", value, options) }
    /// Whether the string differs from `value`, ignoring case or diacritics as `options` say.
    public func notEquals(_ value: String, options: StringOptions = []) -> Query<Bool> { string("!=", value, options) }
}

extension Query where T == String? {
    private var nonOptional: Query<String> { Query<String>(text: text, isKeyPath: isKeyPath) }
    /// Whether the string starts with `prefix` (nil never does).
    public func starts(with prefix: String, options: StringOptions = []) -> Query<Bool> {
        nonOptional.starts(with: prefix, options: options)
    }
    /// Whether the string ends with `suffix` (nil never does).
    public func ends(with suffix: String, options: StringOptions = []) -> Query<Bool> {
        nonOptional.ends(with: suffix, options: options)
    }
    /// Whether the string contains `other` (nil never does).
    public func contains(_ other: String, options: StringOptions = []) -> Query<Bool> {
        nonOptional.contains(other, options: options)
    }
    /// Whether the string matches a pattern with `?` and `*` (nil never does).
    public func like(_ pattern: String, caseInsensitive: Bool = false) -> Query<Bool> {
        nonOptional.like(pattern, caseInsensitive: caseInsensitive)
    }
    /// Whether the string equals `value`, ignoring case or diacritics as `options` say.
    public func equals(_ value: String, options: StringOptions = []) -> Query<Bool> {
        nonOptional.equals(value, options: options)
    }
    /// Whether the string differs from `value`, ignoring case or diacritics as `options` say.
    public func notEquals(_ value: String, options: StringOptions = []) -> Query<Bool> {
        nonOptional.notEquals(value, options: options)
    }
}

// MARK: Enums

extension Query where T: RealmEnum {
    /// The enum's raw value, which is what the column stores: `$0.kind.rawValue > 1`.
    public var rawValue: Query<T.RawValue> { Query<T.RawValue>(text: text, isKeyPath: isKeyPath) }
}

/// An optional, for conditions on the type it wraps inside `where { }`.
public protocol _QueryableOptional {
    /// The wrapped type.
    associatedtype _QueryWrapped
}

extension Optional: _QueryableOptional {
    public typealias _QueryWrapped = Wrapped
}

extension Query where T: _QueryableOptional, T._QueryWrapped: RealmEnum {
    /// The optional enum's raw value (nil where the property is): `$0.kind.rawValue == 1`.
    public var rawValue: Query<T._QueryWrapped.RawValue?> {
        Query<T._QueryWrapped.RawValue?>(text: text, isKeyPath: isKeyPath)
    }
}

// MARK: Lists

/// A list, for conditions on its elements inside `where { }`.
public protocol _QueryableList {
    /// The type of the list's elements.
    associatedtype _QueryElement
}

extension List: _QueryableList {
    public typealias _QueryElement = Element
}

extension LinkingObjects: _QueryableList {
    public typealias _QueryElement = Element
}

extension Query where T: _QueryableList {
    /// Whether the list holds `value`.
    public func contains(_ value: T._QueryElement) -> Query<Bool> {
        Query<Bool>(text: "%@ IN \(text)", arguments: [storedArgument(value) ?? NSNull()])
    }
    /// Whether the list holds any of `values`.
    public func containsAny<S: Sequence>(in values: S) -> Query<Bool> where S.Element == T._QueryElement {
        Query<Bool>(text: "ANY \(text) IN %@", arguments: [values.map { storedArgument($0) ?? NSNull() }])
    }
    /// Whether some element equals `rhs`.
    public static func == (lhs: Query, rhs: T._QueryElement) -> Query<Bool> { lhs.any("==", rhs) }
    /// Whether some element differs from `rhs`.
    public static func != (lhs: Query, rhs: T._QueryElement) -> Query<Bool> { lhs.any("!=", rhs) }

    func any(_ op: String, _ value: T._QueryElement) -> Query<Bool> {
        Query<Bool>(text: "ANY \(text) \(op) %@", arguments: [storedArgument(value) ?? NSNull()])
    }
    /// The number of elements, to compare: `$0.scores.count > 2`.
    public var count: Query<Int> { Query<Int>(text: "\(text).@count", isKeyPath: false) }

    func aggregate(_ name: String) -> Query<T._QueryElement> {
        Query<T._QueryElement>(text: "\(text).@\(name)", isKeyPath: false)
    }
}

extension Query where T: _QueryableList, T._QueryElement: Comparable {
    /// Whether some element is greater than `rhs`.
    public static func > (lhs: Query, rhs: T._QueryElement) -> Query<Bool> { lhs.any(">", rhs) }
    /// Whether some element is at least `rhs`.
    public static func >= (lhs: Query, rhs: T._QueryElement) -> Query<Bool> { lhs.any(">=", rhs) }
    /// Whether some element is less than `rhs`.
    public static func < (lhs: Query, rhs: T._QueryElement) -> Query<Bool> { lhs.any("<", rhs) }
    /// Whether some element is at most `rhs`.
    public static func <= (lhs: Query, rhs: T._QueryElement) -> Query<Bool> { lhs.any("<=", rhs) }
    /// Whether every element lies in `range` (the lower bound included, the upper one not), as
    /// RealmSwift's: the smallest element is at least the lower bound and the largest below the
    /// upper one, so an empty list is in no range.
    public func contains(_ range: Range<T._QueryElement>) -> Query<Bool> {
        let lower = storedArgument(range.lowerBound) ?? NSNull()
        let upper = storedArgument(range.upperBound) ?? NSNull()
        return Query<Bool>(text: "(\(text).@min >= %@) AND (\(text).@max < %@)", arguments: [lower, upper])
    }
    /// Whether every element lies in `range` (both bounds included), as RealmSwift's.
    public func contains(_ range: ClosedRange<T._QueryElement>) -> Query<Bool> {
        let lower = storedArgument(range.lowerBound) ?? NSNull()
        let upper = storedArgument(range.upperBound) ?? NSNull()
        return Query<Bool>(text: "(\(text).@min >= %@) AND (\(text).@max <= %@)", arguments: [lower, upper])
    }
    /// The smallest element, to compare: `$0.scores.min > 2`.
    public var min: Query<T._QueryElement> { aggregate("min") }
    /// The largest element, to compare.
    public var max: Query<T._QueryElement> { aggregate("max") }
    /// The average of the elements, to compare.
    public var avg: Query<T._QueryElement> { aggregate("avg") }
    /// The sum of the elements, to compare.
    public var sum: Query<T._QueryElement> { aggregate("sum") }
}

extension Query where T: _QueryableList {
    // A list of optionals (`List<Int?>`): its elements compare with a value as a list of the
    // wrapped type's do (nil is neither greater nor smaller than any value).
    /// Whether some element is greater than `rhs`.
    public static func > <W: Comparable>(lhs: Query, rhs: W) -> Query<Bool> where T._QueryElement == W? {
        lhs.any(">", rhs)
    }
    /// Whether some element is at least `rhs`.
    public static func >= <W: Comparable>(lhs: Query, rhs: W) -> Query<Bool> where T._QueryElement == W? {
        lhs.any(">=", rhs)
    }
    /// Whether some element is less than `rhs`.
    public static func < <W: Comparable>(lhs: Query, rhs: W) -> Query<Bool> where T._QueryElement == W? {
        lhs.any("<", rhs)
    }
    /// Whether some element is at most `rhs`.
    public static func <= <W: Comparable>(lhs: Query, rhs: W) -> Query<Bool> where T._QueryElement == W? {
        lhs.any("<=", rhs)
    }
}

// MARK: Sets and maps

extension MutableSet: _QueryableList {
    public typealias _QueryElement = Element
}

/// A map, for conditions on its keys and values inside `where { }`.
public protocol _QueryableMap {
    /// The type of the map's values.
    associatedtype _QueryValue
}

extension Map: _QueryableMap where Key == String {
    public typealias _QueryValue = Value
}

/// A map's keys or values in a query: conditions on them read as on a list's elements.
public struct _QueryMapPart<Element>: _QueryableList {
    public typealias _QueryElement = Element
}

extension Query where T: _QueryableMap {
    /// The value under `key`, to compare or to follow (`$0.attrs["color"] == "red"`,
    /// `$0.pets["dog"].name == "Rex"`); a missing key reads as nil.
    public subscript(key: String) -> Query<T._QueryValue> {
        // The query language reads a quoted key as it stands, up to the closing quote: quote it
        // with the mark it does not hold. (A key holding both marks fails the query, naming it.)
        let quote = key.contains("'") ? "\"" : "'"
        return Query<T._QueryValue>(text: "\(text)[\(quote)\(key)\(quote)]", isKeyPath: true)
    }
    /// The map's keys: `$0.attrs.keys.contains("color")`, `$0.attrs.keys == "color"` (some key).
    public var keys: Query<_QueryMapPart<String>> {
        Query<_QueryMapPart<String>>(text: "\(text).@keys", isKeyPath: false)
    }
    /// The map's values: `$0.counts.values.contains(3)`, `$0.counts.values > 2` (some value).
    public var values: Query<_QueryMapPart<T._QueryValue>> {
        Query<_QueryMapPart<T._QueryValue>>(text: "\(text).@values", isKeyPath: false)
    }
    /// The number of entries, to compare: `$0.attrs.count > 2`.
    public var count: Query<Int> { Query<Int>(text: "\(text).@count", isKeyPath: false) }
}
