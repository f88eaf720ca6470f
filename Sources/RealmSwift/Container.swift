import Foundation

// Seed 001's value-type layer, working: structs that map to `Object` subclasses, written
// through a `Container` and read back as live `FetchedResults`.
//
// One deviation from the article: on Linux, Foundation's `NSPredicate(format:)` is not
// implemented, so a query's predicate is a `QueryPredicate` (Realm's query language with
// arguments) rather than an `NSPredicate`.

/// A property name and its new value, for `Container.WriteTransaction.update`.
public typealias PropertyValuePair = (name: String, value: Any)

/// An enum of a value type's properties with values: `.name("Iron Man")`.
public protocol PropertyValueType {
    /// The property and its value.
    var propertyValuePair: PropertyValuePair { get }
}

/// A predicate in Realm's query language with its arguments (`%@`, `%K`, `$0`).
public struct QueryPredicate {
    /// The predicate text.
    public var format: String
    /// Its arguments.
    public var arguments: [Any]

    /// A predicate: `QueryPredicate("publisher.name == %@", "Marvel")`.
    public init(_ format: String, _ arguments: Any...) {
        self.format = format
        self.arguments = arguments
    }
}

/// An enum of a value type's queries: `.publisherName("Marvel")`.
public protocol QueryType {
    /// The filter, or nil for every object.
    var predicate: QueryPredicate? { get }
    /// The order, most significant first.
    var sortDescriptors: [SortDescriptor] { get }
}

/// A value type stored through an `Object` subclass.
public protocol Persistable {
    /// The class that stores it.
    associatedtype ManagedObject: Object
    /// Its properties with values, for partial updates.
    associatedtype PropertyValue: PropertyValueType
    /// Its queries.
    associatedtype Query: QueryType
    /// The value of a stored object.
    init(managedObject: ManagedObject)
    /// An unmanaged object holding the value (linked values included).
    func managedObject() -> ManagedObject
}

/// Stores and queries `Persistable` values in a Realm.
public final class Container {
    /// The Realm the values live in.
    public let realm: Realm

    /// A container over the default Realm.
    public convenience init() throws { try self.init(realm: Realm()) }

    /// A container over `realm`.
    public init(realm: Realm) { self.realm = realm }

    /// Runs `block` in one write transaction; throws (writing nothing) when it throws or when
    /// a value does not fit.
    public func write(_ block: (WriteTransaction) throws -> Void) throws {
        try realm.write { try block(WriteTransaction(realm: realm)) }
    }

    /// The values of a type matching a query, live.
    public func values<T: Persistable>(_ type: T.Type, matching query: T.Query) -> FetchedResults<T> {
        var results = realm.objects(T.ManagedObject.self)
        if let predicate = query.predicate {
            results = results.filter(predicate.format, predicate.arguments)
        }
        if !query.sortDescriptors.isEmpty { results = results.sorted(by: query.sortDescriptors) }
        return FetchedResults(results: results)
    }

    /// The changes a `Container.write` block makes.
    public final class WriteTransaction {
        let realm: Realm
        init(realm: Realm) { self.realm = realm }

        /// Adds a value; with `update`, a stored value with the same primary key (and the
        /// values it links to) is updated instead of duplicated.
        public func add<T: Persistable>(_ value: T, update: Bool) {
            realm.add(value.managedObject(), update: update ? .modified : .error)
        }

        /// Sets some properties of the stored value whose primary key is among `values`.
        public func update<T: Persistable>(_ type: T.Type, values: [T.PropertyValue]) {
            var dictionary: [String: Any] = [:]
            for v in values { dictionary[v.propertyValuePair.name] = v.propertyValuePair.value }
            realm.create(T.ManagedObject.self, value: dictionary, update: .modified)
        }

        /// Deletes the stored value with the same primary key as `value`.
        public func delete<T: Persistable>(_ value: T) {
            let object = value.managedObject()
            guard let pk = T.ManagedObject.sharedSchema().primaryKeyProperty, let key = object.value(forKey: pk.name)
            else {
                preconditionFailure(
                    "\(T.ManagedObject.className()) has no primary key, so a value cannot name its stored object")
            }
            if let stored = realm.object(ofType: T.ManagedObject.self, forPrimaryKey: key) { realm.delete(stored) }
        }
    }
}

/// The live values of a query: `count` and `value(at:)` always show the Realm's current version.
public final class FetchedResults<T: Persistable> {
    /// The objects behind the values.
    public let results: Results<T.ManagedObject>

    init(results: Results<T.ManagedObject>) { self.results = results }

    /// Number of values.
    public var count: Int { results.count }

    /// The value at `index`.
    public func value(at index: Int) -> T { T(managedObject: results[index]) }

    /// Observes the values: the same changes as `Results.observe`. The token keeps these
    /// `FetchedResults` alive until it is invalidated or released, so deliveries go on after
    /// the caller lets them go.
    public func observe(_ block: @escaping (RealmCollectionChange<FetchedResults<T>>) -> Void) -> NotificationToken {
        results.observe { change in
            switch change {
            case .initial: block(.initial(self))
            case .update(_, let d, let i, let m): block(.update(self, deletions: d, insertions: i, modifications: m))
            case .error(let e): block(.error(e))
            }
        }
    }
}
