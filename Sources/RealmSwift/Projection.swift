import Foundation

// `Projection<Root>` and `@Projected`: a view of an object through chosen key paths, as Realm
// Swift has it.
//
// ```swift
// final class PersonView: Projection<Person> {
//     @Projected(\Person.firstName) var name
//     @Projected(\Person.address?.city) var city
// }
// let views = realm.objects(PersonView.self)        // one view per person, live
// let view = PersonView(projecting: person)
// ```
//
// A projection holds its root object and nothing else: every read goes through the root (so a
// view of a managed object is live, like the object), and a write through a writable key path
// changes the root (inside a write transaction when it is managed). Observation observes the
// root, limited to the projected key paths, and reports changes under the projection's names.

/// A view of an object of `Root` through the key paths of its `@Projected` properties.
open class Projection<Root: Object>: Hashable, CustomStringConvertible {
    /// The object the projection reads.
    public let rootObject: Root

    /// A projection of `object` (managed or not).
    public required init(projecting object: Root) {
        rootObject = object
    }

    /// The Realm of the root object, or nil when it is unmanaged.
    public var realm: Realm? { rootObject.realm }
    /// Whether the root object was deleted (or its Realm invalidated).
    public var isInvalidated: Bool { rootObject.isInvalidated }

    /// Projections are equal when their roots are the same object.
    public static func == (lhs: Projection, rhs: Projection) -> Bool { lhs.rootObject == rhs.rootObject }
    /// Hashes the root object.
    public func hash(into hasher: inout Hasher) { hasher.combine(rootObject) }

    /// The projection's class and its projected values, for debugging.
    public var description: String {
        let body = Self.projectedProperties.map {
            "\($0.name) = \($0.read(self).map { String(describing: $0) } ?? "nil")"
        }
        return "\(Self.self)<\(Root.className())> { \(body.joined(separator: "; ")) }"
    }
}

/// What a `Projection` needs of its `@Projected` properties, whatever their types.
protocol AnyProjected {
    /// The property name of the root the key path reads (`"address.city"`); nil for a key
    /// path to a property that is not stored (a computed one), which cannot be observed.
    var rootPath: String? { get }
    /// The projected value read from `root`.
    func read(_ root: Object) -> Any?
}

/// A property of a `Projection` that reads (and, through a writable key path, writes) one key
/// path of the root object: `@Projected(\Person.firstName) var name`.
@propertyWrapper
public struct Projected<T: Object, Value>: AnyProjected {
    /// The key path on the root object.
    public let projectedKeyPath: KeyPath<T, Value>

    /// Projects `projectedKeyPath` of the root object.
    public init(_ projectedKeyPath: KeyPath<T, Value>) {
        self.projectedKeyPath = projectedKeyPath
    }

    /// Not available: `@Projected` is read through its enclosing `Projection`.
    @available(*, unavailable, message: "@Projected can only be used as a property of a Projection")
    public var wrappedValue: Value {
        get { preconditionFailure("@Projected can only be used as a property of a Projection") }
        // swiftlint:disable:next unused_setter_value
        set { preconditionFailure("@Projected can only be used as a property of a Projection") }
    }

    /// Reads the root object's value; a write goes to the root object through a writable key
    /// path (a read-only one, such as a computed property's, stops with a message, as in Realm
    /// Swift).
    public static subscript<P: Projection<T>>(
        _enclosingInstance projection: P,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<P, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<P, Projected<T, Value>>
    ) -> Value {
        get { projection.rootObject[keyPath: projection[keyPath: storageKeyPath].projectedKeyPath] }
        set {
            let keyPath = projection[keyPath: storageKeyPath].projectedKeyPath
            guard let writable = keyPath as? ReferenceWritableKeyPath<T, Value> else {
                preconditionFailure("Cannot set \(keyPath): the projected key path of \(P.self) is read-only")
            }
            projection.rootObject[keyPath: writable] = newValue
        }
    }

    var rootPath: String? {
        let prototype = T()
        let tracer = KeyPathTracer()
        prototype.tracer = tracer
        _ = prototype[keyPath: projectedKeyPath]
        // A stored property reads one name, or a chain through to-one links; a computed
        // property may read several of its object's (`fullName` reads two): not observable.
        var type: Object.Type? = T.self
        for name in tracer.names.dropLast() {
            guard let here = type else { return nil }
            let info = ClassInfo.of(here)
            guard let property = info.objectSchema[info.storedNames[name] ?? name], property.type == .object,
                !property.isCollection, !property.isSet,
                let target = property.objectClassName
            else { return nil }
            type = ClassInfo.type(named: target)
        }
        return tracer.names.isEmpty ? nil : tracer.names.joined(separator: ".")
    }
    func read(_ root: Object) -> Any? {
        guard let root = root as? T else { return nil }
        return unwrapped(root[keyPath: projectedKeyPath])
    }
}

/// One `@Projected` property of a projection class: its name and the root path it reads.
struct ProjectedProperty {
    let name: String
    let projected: any AnyProjected
    /// Asked only to observe: a key path to a property that is not stored has none.
    var rootPath: String? { projected.rootPath }

    func read<Root>(_ projection: Projection<Root>) -> Any? { projected.read(projection.rootObject) }
}

extension Projection {
    /// The class's `@Projected` properties, found once per class from a projection of an
    /// unmanaged root through `Mirror`.
    static var projectedProperties: [ProjectedProperty] {
        ProjectionSchemas.properties(of: self) {
            let prototype = self.init(projecting: Root())
            var mirrors: [Mirror] = []
            var m: Mirror? = Mirror(reflecting: prototype)
            while let current = m {
                mirrors.append(current)
                m = current.superclassMirror
            }
            return mirrors.reversed().flatMap { mirror in
                mirror.children.compactMap { child -> ProjectedProperty? in
                    guard let label = child.label, let projected = child.value as? any AnyProjected else { return nil }
                    let name = label.hasPrefix("_") ? String(label.dropFirst()) : label
                    return ProjectedProperty(name: name, projected: projected)
                }
            }
        }
    }

    /// Observes the projection: a `.change` when a projected value of the root object changes
    /// (naming the projection's properties), `.deleted` when the root is deleted. With
    /// `keyPaths` (names of the projection's properties), only those are watched. The root
    /// must be managed; the rules are `Object.observe(keyPaths:on:_:)`'s.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (ObjectChange<Projection<Root>>) -> Void
    ) -> NotificationToken {
        let type = Self.self
        let watched = Self.observed(keyPaths)
        return rootObject.observe(keyPaths: watched.map(\.path), on: queue) { change in
            switch change {
            case .change(let root, let changes):
                // Each changed root property, under the name of each projection property reading it.
                let renamed = watched.compactMap { property -> PropertyChange? in
                    let head = property.path.split(separator: ".").first.map(String.init) ?? property.path
                    guard let change = changes.first(where: { $0.name == head || $0.name == property.path }) else {
                        return nil
                    }
                    return PropertyChange(name: property.name, oldValue: change.oldValue, newValue: change.newValue)
                }
                block(.change(type.init(projecting: root), renamed))
            case .deleted: block(.deleted)
            case .error(let error): block(.error(error))
            }
        }
    }
}

extension Projection {
    /// The projection's properties `keyPaths` names (every stored one for nil) with the root
    /// paths they read. A name that is not a `@Projected` property, or one projecting a
    /// property that is not stored, is a programmer error and stops with a message.
    static func observed(_ keyPaths: [String]?) -> [(name: String, path: String)] {
        let properties = projectedProperties
        guard let keyPaths else { return properties.compactMap { p in p.rootPath.map { (p.name, $0) } } }
        return keyPaths.map { name in
            guard let property = properties.first(where: { $0.name == name }) else {
                preconditionFailure("observe(keyPaths:): '\(name)' is not a @Projected property of \(Self.self)")
            }
            guard let path = property.rootPath else {
                preconditionFailure(
                    "observe(keyPaths:): '\(name)' of \(Self.self) projects a property that is not stored")
            }
            return (name, path)
        }
    }
}

/// The projected properties of each projection class, found once.
enum ProjectionSchemas {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var known: [ObjectIdentifier: [ProjectedProperty]] = [:]

    static func properties(of type: AnyClass, _ discover: () -> [ProjectedProperty]) -> [ProjectedProperty] {
        let id = ObjectIdentifier(type)
        lock.lock()
        if let found = known[id] {
            lock.unlock()
            return found
        }
        lock.unlock()
        // Discovery makes a prototype root, whose initialisers may do anything: outside the lock.
        let found = discover()
        lock.lock()
        defer { lock.unlock() }
        if let raced = known[id] { return raced }
        known[id] = found
        return found
    }
}

/// The projections of the objects of a query: `realm.objects(PersonView.self)`, each element a
/// projection of the object at its position, made when read. Live, like the results it wraps.
public struct ProjectionResults<Element: Projection<Root>, Root: Object>: RandomAccessCollection,
    CustomStringConvertible
{
    /// The results of the root objects.
    public let rootResults: Results<Root>

    init(_ roots: Results<Root>) { rootResults = roots }

    /// The first position (0).
    public var startIndex: Int { 0 }
    /// The position after the last projection (`count`).
    public var endIndex: Int { rootResults.count }
    /// The number of projections.
    public var count: Int { rootResults.count }
    /// The projection of the object at `position`.
    public subscript(position: Int) -> Element { Element(projecting: rootResults[position]) }
    /// The Realm of the results.
    public var realm: Realm? { rootResults.realm }

    /// The projections of the root objects matching `predicate`, written with the root's
    /// property names (as in Realm Swift).
    public func filter(_ predicate: String, _ args: Any...) -> ProjectionResults {
        do { return ProjectionResults(try rootResults.filter(query: predicate, arguments: args)) } catch {
            preconditionFailure("filter(\"\(predicate)\"): \(error)")
        }
    }
    /// The projections of the root objects matching a typed query on the root.
    public func `where`(_ isIncluded: (Query<Root>) -> Query<Bool>) -> ProjectionResults {
        ProjectionResults(rootResults.where(isIncluded))
    }
    /// Sorted by a property of the root.
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> ProjectionResults {
        ProjectionResults(rootResults.sorted(byKeyPath: keyPath, ascending: ascending))
    }

    /// Observes the results as `Results.observe` does (positions of roots entering, leaving or
    /// changed), with the projections.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmCollectionChange<ProjectionResults>) -> Void
    ) -> NotificationToken {
        let rootPaths = Element.observed(keyPaths).map(\.path)
        return rootResults.observe(keyPaths: rootPaths, on: queue) { change in
            switch change {
            case .initial(let roots): block(.initial(ProjectionResults(roots)))
            case .update(let roots, let d, let i, let m):
                block(.update(ProjectionResults(roots), deletions: d, insertions: i, modifications: m))
            case .error(let error): block(.error(error))
            }
        }
    }

    /// The projections, for debugging.
    public var description: String { "ProjectionResults<\(Element.self)>(\(count) projections)" }
}

extension Realm {
    /// The projections of every object of the projection's root class:
    /// `realm.objects(PersonView.self)`.
    public func objects<Element: Projection<Root>, Root: Object>(_ type: Element.Type) -> ProjectionResults<
        Element, Root
    > {
        ProjectionResults(objects(Root.self))
    }
}
