/// A value given to `create` or `setValue`: what a Realm user passes as `Any` (a dictionary, an
/// array in property order, a nested object), made explicit. How it is read depends on the
/// property it is given for.
///
/// Not `indirect`: nesting goes through `Array` and `Dictionary`, which are already references,
/// so each case is stored inline — a bulk insert then allocates one array per object, not a box
/// per field as well.
public enum ObjectInput: Sendable, Equatable {
    /// A scalar, `nil`, or `.link(key)` naming an existing object of the target class.
    case value(Value)
    /// A dictionary of property name → input: a whole object, or for a link a new (or, with a
    /// primary key and an update policy, upserted) linked object. Keys that are not properties
    /// are ignored.
    case dictionary([String: ObjectInput])
    /// For an object (or a link): values in the order of the class's persisted properties.
    /// For a list property: its elements.
    case array([ObjectInput])
    /// For a link or list element: the existing object of the target class with this primary key.
    case primaryKey(Value)
}

/// What `create` does when an object with the same primary key exists.
public enum UpdatePolicy: Sendable {
    /// Throw `RealmError.primaryKey`.
    case error
    /// Set only the given properties on the existing object (partial update; nil is a value).
    case modified
    /// Set every given property; same as `.modified` here (changes are recorded per value).
    case all
}
