/// An object of a Realm, addressed by class and key, read and written through property names.
/// A managed object always shows the current state of its Realm (the instance's snapshot, or
/// its write transaction); after the object is deleted, `isInvalidated` is true and reads throw.
public final class DynamicObject: Hashable, CustomStringConvertible {
    /// The Realm the object lives in.
    public var realm: Realm { unownedRealm }
    /// Kept alive by `ownedRealm`, or for an object made by iteration by its anchor (`walked`,
    /// which holds the Realm): one reference to count per object instead of two.
    private unowned(unsafe) let unownedRealm: Realm
    private let ownedRealm: Realm?
    let classIndex: Int
    /// The object's key in its class.
    @exclusivity(unchecked) public private(set) var key: ObjectKey

    /// Where iteration found the object: row `walkedRow` of leaf `walkedLeaf` of `walked`, valid
    /// while the anchor is current (the Realm reads the same state and has not written since),
    /// so reading properties of iterated objects costs no tree lookup.
    ///
    /// Changed only by `rewalk`, when the iterator reuses an object it is the only holder of,
    /// between two steps of a loop; so the read path takes them without reference counting
    /// (`walked` is unmanaged; `walkedOwner` keeps the anchor alive) or exclusivity checks.
    @exclusivity(unchecked) private var walked: Unmanaged<ReadAnchor>?
    @exclusivity(unchecked) private var walkedLeaf: Int
    @exclusivity(unchecked) private var walkedRow: Int
    private var walkedOwner: ReadAnchor?
    /// Where the last lookup by key found the object (its anchor holds that one leaf), so
    /// reading several properties costs one lookup.
    private var found: ReadAnchor?
    private var foundRow = 0
    private var lookedUpBefore = false

    init(realm: Realm, classIndex: Int, key: ObjectKey) {
        unownedRealm = realm
        ownedRealm = realm
        self.classIndex = classIndex
        self.key = key
        walked = nil
        walkedOwner = nil
        walkedLeaf = 0
        walkedRow = 0
    }

    /// An object found at `row` of leaf `leaf` of `anchor` (which keeps its Realm alive).
    init(classIndex: Int, key: ObjectKey, anchor: ReadAnchor, leaf: Int, row: Int) {
        unownedRealm = anchor.realm
        ownedRealm = nil
        self.classIndex = classIndex
        self.key = key
        walked = Unmanaged.passUnretained(anchor)
        walkedOwner = anchor
        walkedLeaf = leaf
        walkedRow = row
    }

    /// Makes this object, made by iteration and held by nobody but the iterator, the object at
    /// `row` of leaf `leaf` of `anchor` (the same Realm and class): iteration hands out one
    /// object per step without allocating when the loop keeps none of them.
    func rewalk(key: ObjectKey, anchor: Unmanaged<ReadAnchor>, leaf: Int, row: Int) {
        self.key = key
        if walked?.toOpaque() != anchor.toOpaque() {
            walkedOwner = anchor.takeUnretainedValue()
            walked = anchor
        }
        walkedLeaf = leaf
        walkedRow = row
        found = nil
        lookedUpBefore = false
    }

    /// The object's class schema.
    public var objectSchema: ObjectSchema { realm.readView.schema.objectSchemas[classIndex] }
    /// The object's class name.
    public var className: String { objectSchema.name }

    /// Whether the object was deleted (or its Realm closed).
    public var isInvalidated: Bool {
        (try? realm.readView.contains(classIndex: classIndex, key: key)) != true
    }

    func column(_ name: String) throws -> Int {
        guard let c = realm.readView.column(classIndex: classIndex, named: name) else {
            throw RealmError.noSuchProperty(className: className, property: name, available: objectSchema.properties.map(\.name))
        }
        return c
    }

    /// The stored value of a property (`.link(key)` for a to-one link, `.list` for a list).
    /// For a linking-objects property: the linking objects' keys as a list of links.
    public func value(forKey name: String) throws -> Value {
        // The anchor is read unmanaged and borrowed for the call: no reference counting per read.
        if let walked {
            let (leaf, row) = (walkedLeaf, walkedRow)
            if let v = try walked._withUnsafeGuaranteedRef({ try $0.readIfCurrent(name, leaf: leaf, row: row) }) { return v }
        } else {
            try realm.checkThread()
        }
        return try locatedValue(forKey: name)
    }

    /// `value(forKey:)` without a current position from iteration: finds the object in the
    /// Realm's current state (and remembers where, when the leaf is a validated view).
    private func locatedValue(forKey name: String) throws -> Value {
        if let found, found.isCurrent(), let v = found.value(name, leaf: 0, row: foundRow) {
            return v
        }
        let state = realm.readView
        if let c = state.column(classIndex: classIndex, named: name) {
            guard let (cluster, row) = try state.locate(classIndex: classIndex, key: key) else { throw RealmError.invalidatedObject }
            // Only views are kept: holding a writer's decoded leaf would make its next change
            // copy every column.
            // From the second lookup on: an object read once (a lookup by primary key) does
            // not pay for an anchor.
            if case .view(let view) = cluster {
                if lookedUpBefore {
                    found = ReadAnchor(realm, state: state, classIndex: classIndex, leaves: [view])
                    foundRow = row
                }
                lookedUpBefore = true
            }
            return cluster.value(row: row, column: c)
        }
        if let p = objectSchema[name], p.type == .linkingObjects {
            return .list(try linkingObjects(forKey: name).keys().map { .link($0) })
        }
        throw RealmError.noSuchProperty(className: className, property: name, available: objectSchema.properties.map(\.name))
    }

    /// The value of a property, or nil when the property does not exist or the object is invalid.
    public subscript(name: String) -> Value? {
        try? value(forKey: name)
    }

    /// Sets a property inside a write transaction. Links take `.link(key)`, a nested object
    /// (dictionary or array) or a primary key; lists take an array.
    public func setValue(_ value: ObjectInput, forKey name: String) throws {
        try realm.checkThread()
        guard let t = realm.transaction else { throw RealmError.notInWriteTransaction }
        try t.setField(classIndex, key, column: try column(name), value)
        realm.noteMutation()
    }

    /// Sets a scalar property inside a write transaction.
    public func setValue(_ value: Value, forKey name: String) throws {
        try setValue(.value(value), forKey: name)
    }

    /// The object a to-one link points at, or nil.
    public func linkedObject(forKey name: String) throws -> DynamicObject? {
        let c = try column(name)
        let p = objectSchema.persistedProperties[c]
        guard p.type == .object, !p.isList, let target = p.objectClassName else {
            throw RealmError.typeMismatch(className: className, property: name, expected: "a to-one link", got: p.typeDescription)
        }
        guard case .link(let k) = try value(forKey: name) else { return nil }
        return DynamicObject(realm: realm, classIndex: try realm.classIndex(target), key: k)
    }

    /// A list property, live.
    public func list(forKey name: String) throws -> DynamicList {
        let c = try column(name)
        let p = objectSchema.persistedProperties[c]
        guard p.isList else {
            throw RealmError.typeMismatch(className: className, property: name, expected: "a list", got: p.typeDescription)
        }
        return DynamicList(owner: self, column: c, property: p)
    }

    /// The objects linking here through a linking-objects property, live.
    public func linkingObjects(forKey name: String) throws -> Results {
        guard let p = objectSchema[name], p.type == .linkingObjects, let origin = p.objectClassName,
              let originProperty = p.linkOriginPropertyName else {
            throw RealmError.noSuchProperty(className: className, property: name,
                                            available: objectSchema.computedProperties.map(\.name))
        }
        let originClass = try realm.classIndex(origin)
        guard let originColumn = realm.readView.schema.objectSchemas[originClass].persistedProperties
            .firstIndex(where: { $0.name == originProperty }) else {
            throw RealmError.noSuchProperty(className: origin, property: originProperty, available: [])
        }
        return Results(realm: realm, classIndex: originClass,
                       source: .backlinks(classIndex: classIndex, key: key, originClass: originClass, originColumn: originColumn))
    }

    /// Every persisted property's value, in order.
    public func values() throws -> [Value] {
        try realm.checkThread()
        guard let row = try realm.readView.row(classIndex: classIndex, key: key) else { throw RealmError.invalidatedObject }
        return Array(row.prefix(objectSchema.persistedProperties.count))
    }

    public static func == (a: DynamicObject, b: DynamicObject) -> Bool {
        a.realm === b.realm && a.classIndex == b.classIndex && a.key == b.key
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(classIndex)
        hasher.combine(key)
    }

    public var description: String {
        guard let vals = try? values() else { return "\(className)<invalidated>" }
        let body = zip(objectSchema.persistedProperties, vals).map { "\($0.name) = \($1)" }.joined(separator: "; ")
        return "\(className) { \(body) }"
    }
}
