import Foundation

// Two more forms of RealmSwift's query DSL: a property compared with another property of the
// same type, and a property of a list's objects (a condition on it holds when it holds for any
// of them).

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

extension Query where T: _QueryableList, T._QueryElement: Object {
    /// A property of the list's objects: `$0.dogs.age > 5` holds when some dog is older than 5.
    public subscript<V>(dynamicMember keyPath: KeyPath<T._QueryElement, V>) -> Query<V> {
        Query<V>(text: "\(text).\(propertyName(keyPath))", isKeyPath: true)
    }
}
