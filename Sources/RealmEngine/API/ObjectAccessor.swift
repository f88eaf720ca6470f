/// The one way to an object's stored values, below both public object types: `DynamicObject`
/// holds one, and so does a managed object of the typed layer (`RealmSwift.Object`), inline, so
/// that neither pays a second allocation per object.
///
/// It names the object (Realm, class, key) and reads and writes its columns. Below that it
/// caches where the object was last found: row `row` of leaf `leaf` of `anchor`. The position
/// is used only while the anchor is current (the Realm reads the same state and has not
/// written since, see `ReadAnchor`); otherwise the object is found again by key. So the cache
/// never changes what a read returns, only how fast it is: an object handed out by iteration
/// reads its properties without a tree lookup, and an object read several times pays one
/// lookup per version.
package struct ObjectAccessor {
    /// The Realm the object lives in.
    package var realm: Realm { unownedRealm.takeUnretainedValue() }
    /// Kept alive by `ownedRealm`, or for an object found by iteration by its anchor (which
    /// holds the Realm): one reference to count per copy instead of two, and not the Realm's
    /// (whose count is slower: it is weakly referenced, so it lives in a side table).
    /// Invariant: `ownedRealm != nil || anchor != nil` (an anchor is replaced, never removed).
    ///
    /// `Unmanaged`, not `unowned(unsafe)`: the checks on every read borrow it through
    /// `_withUnsafeGuaranteedRef`, where a strong load would retain and release the Realm, and
    /// a Realm's count is slow (it is weakly referenced, so it lives in a side table): that was
    /// half the time of a property read.
    private let unownedRealm: Unmanaged<Realm>
    private let ownedRealm: Realm?
    /// The object's class in the Realm's schema.
    package let classIndex: Int
    /// The object's key in its class (changed only by `rewalk`, on an accessor nothing else
    /// holds).
    package private(set) var key: ObjectKey

    /// Where the object was found, valid while `anchor` is current.
    private var anchor: ReadAnchor?
    private var leaf = 0
    private var row = 0
    /// Whether the object was looked up by key once already: an object read once (a lookup by
    /// primary key) does not pay for an anchor; from the second lookup on, it keeps one.
    private var lookedUpBefore = false

    /// The object `key` of class `classIndex`, found on its first read.
    package init(realm: Realm, classIndex: Int, key: ObjectKey) {
        unownedRealm = .passUnretained(realm)
        ownedRealm = realm
        self.classIndex = classIndex
        self.key = key
    }

    /// An object found at `row` of leaf `leaf` of `anchor` (by iteration).
    init(classIndex: Int, key: ObjectKey, anchor: ReadAnchor, leaf: Int, row: Int) {
        unownedRealm = .passUnretained(anchor.realm)
        ownedRealm = nil
        self.classIndex = classIndex
        self.key = key
        self.anchor = anchor
        self.leaf = leaf
        self.row = row
    }

    /// Makes this accessor, of an object made by iteration, the accessor of the object at `row`
    /// of leaf `leaf` of `anchor` (same Realm and class), exactly as
    /// `init(classIndex:key:anchor:leaf:row:)` would: the iterator recycles an object nobody
    /// else holds between two steps of a loop. When the accessor already holds `anchor` (the
    /// usual step: the same leaves), no reference is counted and nothing is destroyed.
    @inline(__always)
    mutating func rewalk(key: ObjectKey, anchor: Unmanaged<ReadAnchor>, leaf: Int, row: Int) {
        guard ownedRealm == nil, let held = self.anchor, held === anchor.takeUnretainedValue() else {
            self = ObjectAccessor(
                classIndex: classIndex, key: key, anchor: anchor.takeUnretainedValue(), leaf: leaf, row: row)
            return
        }
        self.key = key
        self.leaf = leaf
        self.row = row
        lookedUpBefore = false
    }

    /// The class's schema in the Realm's current state.
    package var objectSchema: ObjectSchema { realm.describedVersion.schema.objectSchemas[classIndex] }

    /// The column of persisted property `name`, or nil when the class has none of that name.
    package func column(named name: String) -> Int? {
        realm.describedVersion.column(classIndex: classIndex, named: name)
    }

    /// The column of persisted property `name`; throws `noSuchProperty` when there is none.
    package func column(_ name: String) throws -> Int {
        guard let c = column(named: name) else {
            let schema = objectSchema
            throw RealmError.noSuchProperty(
                className: schema.name, property: name, available: schema.properties.map(\.name))
        }
        return c
    }

    /// The stored value of column `c` (a persisted property's column, from `column(named:)` in
    /// this Realm). Throws `wrongThread`/`closed` from the wrong thread or a closed Realm, and
    /// `invalidatedObject` when the object was deleted.
    package mutating func value(column c: Int) throws -> Value {
        try unownedRealm._withUnsafeGuaranteedRef { try $0.checkThread() }
        if let anchor, anchor.isCurrent(), let v = anchor.value(column: c, leaf: leaf, row: row) { return v }
        return try locatedValue(column: c)
    }

    /// The stored value of persisted property `name`, or nil when the class has no persisted
    /// property of that name. Throws as `value(column:)`.
    package mutating func persistedValue(forKey name: String) throws -> Value? {
        try unownedRealm._withUnsafeGuaranteedRef { try $0.checkThread() }
        // By name through the anchor: it remembers the last name read, so a loop reading one
        // property of many objects compares one string per object instead of looking it up.
        if let anchor, anchor.isCurrent(), let v = anchor.value(name, leaf: leaf, row: row) { return v }
        guard let c = column(named: name) else { return nil }
        return try locatedValue(column: c)
    }

    /// `value(column:)` when the position at hand is not current: finds the object in the
    /// Realm's current state (and remembers where, when the leaf is a validated view).
    private mutating func locatedValue(column c: Int) throws -> Value {
        let state = try realm.readable
        guard let (cluster, row) = try state.locate(classIndex: classIndex, key: key) else {
            // No leaf: the object is gone, or the version reads by key.
            guard try state.contains(classIndex: classIndex, key: key) else { throw RealmError.invalidatedObject }
            try checkPersisted(column: c, in: state)
            return try state.value(classIndex: classIndex, key: key, column: c)
        }
        try checkPersisted(column: c, in: state)
        // Only views are kept: holding a writer's decoded leaf would make its next change copy
        // every column.
        if case .view(let view) = cluster {
            if lookedUpBefore {
                anchor = ReadAnchor(realm, state: state, classIndex: classIndex, leaves: [view])
                leaf = 0
                self.row = row
            }
            lookedUpBefore = true
        }
        return cluster.value(row: row, column: c)
    }

    private func checkPersisted(column c: Int, in state: any ReadableVersion) throws {
        guard c >= 0, c < state.persistedColumnCount(classIndex: classIndex) else {
            throw RealmError.invalidInput("column \(c) is not a persisted property of \(objectSchema.name)")
        }
    }

    /// Sets column `c` inside a write transaction.
    package func setValue(_ value: ObjectInput, column c: Int) throws {
        try realm.checkThread()
        guard let t = realm.transaction else { throw RealmError.notInWriteTransaction }
        try t.setField(classIndex, key, column: c, value)
        realm.noteMutation()
    }

    /// Whether the object was deleted (or its Realm closed).
    package var isInvalidated: Bool {
        (try? realm.readable.contains(classIndex: classIndex, key: key)) != true
    }
}
