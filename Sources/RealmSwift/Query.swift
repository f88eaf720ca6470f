import Foundation

/// A type-safe query built from key paths, compiled to the same predicate language as
/// `filter(_:)`: `dogs.where { $0.color == "棕黄色" && $0.name.starts(with: "大") }`.
///
/// `$0.property` names a property (through to-one links: `$0.owner.name`); comparisons with
/// values, string operators, `in(_:)`, `&&`, `||` and `!` build the predicate. Values travel
/// as arguments, never spliced into the text.
@dynamicMemberLookup
public struct Query<T> {
    /// The predicate text, with `%@` for each argument.
    let text: String
    let arguments: [Any]
    /// Whether `text` is a bare key path (a Bool property used as a condition).
    let isKeyPath: Bool

    init(text: String, arguments: [Any] = [], isKeyPath: Bool = false) {
        self.text = text
        self.arguments = arguments
        self.isKeyPath = isKeyPath
    }

    func member<V>(_ name: String) -> Query<V> {
        Query<V>(text: isKeyPath && !text.isEmpty ? "\(text).\(name)" : name, isKeyPath: true)
    }

    /// The predicate of a condition (`isManager` alone means `isManager == true`).
    var predicate: (String, [Any]) {
        isKeyPath ? ("\(text) == true", []) : (text, arguments)
    }

    func compare(_ op: String, _ value: Any?) -> Query<Bool> {
        Query<Bool>(text: "\(text) \(op) %@", arguments: [value ?? NSNull()])
    }
}

extension Query where T: Object {
    /// A property of the object.
    public subscript<V>(dynamicMember keyPath: KeyPath<T, V>) -> Query<V> { member(propertyName(keyPath)) }
}

extension Query {
    /// A property of the linked object.
    public subscript<O: Object, V>(dynamicMember keyPath: KeyPath<O, V>) -> Query<V> where T == O? {
        member(propertyName(keyPath))
    }
}

// MARK: Comparisons

extension Query where T: _Persistable {
    /// Whether the property is equal to `rhs`.
    public static func == (lhs: Query, rhs: T) -> Query<Bool> { lhs.compare("==", storedArgument(rhs)) }
    /// Whether the property is not equal to `rhs`.
    public static func != (lhs: Query, rhs: T) -> Query<Bool> { lhs.compare("!=", storedArgument(rhs)) }
    /// Whether the property is less than `rhs`.
    public static func < (lhs: Query, rhs: T) -> Query<Bool> { lhs.compare("<", storedArgument(rhs)) }
    /// Whether the property is at most `rhs`.
    public static func <= (lhs: Query, rhs: T) -> Query<Bool> { lhs.compare("<=", storedArgument(rhs)) }
    /// Whether the property is greater than `rhs`.
    public static func > (lhs: Query, rhs: T) -> Query<Bool> { lhs.compare(">", storedArgument(rhs)) }
    /// Whether the property is at least `rhs`.
    public static func >= (lhs: Query, rhs: T) -> Query<Bool> { lhs.compare(">=", storedArgument(rhs)) }

    /// Whether the property's value is one of `values`.
    public func `in`<S: Sequence>(_ values: S) -> Query<Bool> where S.Element == T {
        Query<Bool>(text: "\(text) IN %@", arguments: [values.map { storedArgument($0) ?? NSNull() }])
    }
}

/// The argument for a value (the stored value of a scalar or enum, the object of a link). A
/// value no stored value holds is passed as it is, and binding the query reports it.
func storedArgument(_ value: Any) -> Any? {
    if let scalar = value as? any _RealmScalar { return (try? scalar._rlmCheckedValue()) ?? value }
    if let mixed = value as? AnyRealmValue { return mixed._rlmQueryValue ?? value }
    return unwrapped(value)
}

// MARK: Strings

/// Options of string comparisons in queries.
public struct StringOptions: OptionSet, Sendable {
    /// The option bits.
    public let rawValue: Int
    /// Options from bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Ignore case (`[c]`).
    public static let caseInsensitive = StringOptions(rawValue: 1)
    /// Ignore diacritics (`[d]`).
    public static let diacriticInsensitive = StringOptions(rawValue: 2)
}

extension Query where T == String {
    func string(_ op: String, _ value: String, _ options: StringOptions) -> Query<Bool> {
        var flags = ""
        if options.contains(.caseInsensitive) { flags += "c" }
        if options.contains(.diacriticInsensitive) { flags += "d" }
        return Query<Bool>(text: "\(text) \(op)\(flags.isEmpty ? "" : "[\(flags)]") %@", arguments: [value])
    }
    /// Whether the string starts with `prefix`.
    public func starts(with prefix: String, options: StringOptions = []) -> Query<Bool> {
        string("BEGINSWITH", prefix, options)
    }
    /// Whether the string ends with `suffix`.
    public func ends(with suffix: String, options: StringOptions = []) -> Query<Bool> {
        string("ENDSWITH", suffix, options)
    }
    /// Whether the string contains `other`.
    public func contains(_ other: String, options: StringOptions = []) -> Query<Bool> {
        string("CONTAINS", other, options)
    }
    /// Whether the string matches a pattern with `?` and `*`.
    public func like(_ pattern: String, caseInsensitive: Bool = false) -> Query<Bool> {
        string("LIKE", pattern, caseInsensitive ? .caseInsensitive : [])
    }
}

// MARK: Logic

extension Query where T == Bool {
    /// Both conditions.
    public static func && (lhs: Query, rhs: Query) -> Query {
        let (l, la) = lhs.predicate
        let (r, ra) = rhs.predicate
        return Query(text: "(\(l)) AND (\(r))", arguments: la + ra)
    }
    /// Either condition.
    public static func || (lhs: Query, rhs: Query) -> Query {
        let (l, la) = lhs.predicate
        let (r, ra) = rhs.predicate
        return Query(text: "(\(l)) OR (\(r))", arguments: la + ra)
    }
    /// The opposite condition.
    public static prefix func ! (query: Query) -> Query {
        let (q, a) = query.predicate
        return Query(text: "NOT (\(q))", arguments: a)
    }
}

extension RealmCollection {
    /// The objects matching a type-safe query.
    public func `where`(_ isIncluded: (Query<Element>) -> Query<Bool>) -> Results<Element> {
        let (text, arguments) = isIncluded(Query<Element>(text: "", isKeyPath: true)).predicate
        do { return try filter(query: text, arguments: arguments) } catch {
            preconditionFailure("where: \(text): \(error)")
        }
    }
}
