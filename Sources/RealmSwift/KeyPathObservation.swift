import Foundation

// `observe(keyPaths:)` on collections: only changes to those key paths notify.
//
// The dynamic core's collection notifier reports an object as modified when any of its
// properties changed — or a property of an object it links to, up to four links away — without
// saying which. The filter below keeps, for every object of the collection, the values of the
// watched key paths at the last delivered version; on each update it reads them again for the
// objects reported modified (and the inserted ones) and keeps a modification only when one of
// them differs. So `"owner.name"` works through to-one links, lists and linking objects as far
// as the notifier looks (four links).
//
// Invariants: `keys` are the collection's keys at the last delivered version, in order, and
// `values[k]` the watched values of object `k` then. Insertions and deletions are always
// delivered (the collection's content changed); an update left with none of the three is not
// delivered at all. Costs: one read of the watched key paths per object at `.initial`, then per
// modified or inserted object; memory for one value per key path per object.

/// The watched key paths of a collection observer and their last delivered values.
final class KeyPathFilter {
    let paths: [[String]]
    private var keys: [ObjectKey] = []
    private var values: [ObjectKey: [Value]] = [:]

    /// Validates `keyPaths` against `className`'s schema; a property that does not exist (or a
    /// key path that goes on past a non-link) is a programmer error and stops with a message.
    init(keyPaths: [String], className: String, schema: Schema) {
        paths = keyPaths.map { $0.split(separator: ".").map(String.init) }
        for (path, text) in zip(paths, keyPaths) {
            var current = schema[className]
            for (i, name) in path.enumerated() {
                guard let property = current?[name] else {
                    preconditionFailure(
                        "observe(keyPaths:): '\(text)' names no property of \(current?.name ?? className)")
                }
                if i < path.count - 1 {
                    guard let target = property.objectClassName else {
                        preconditionFailure(
                            "observe(keyPaths:): '\(text)' continues past '\(name)', which is not a link")
                    }
                    current = schema[target]
                }
            }
        }
    }

    /// Records the values at the first delivered version.
    func start(_ results: RealmEngine.Results) {
        guard let keys = try? results.keys() else { return }
        self.keys = keys
        values = [:]
        for k in keys { values[k] = read(k, in: results) }
    }

    /// The modifications (indices in the previous version) that changed a watched value; moves
    /// the recorded values to the new version. When the values cannot be read, every
    /// modification is kept: a spurious notification is safe, a missed one is not.
    func filter(_ results: RealmEngine.Results, deletions: [Int], insertions: [Int], modifications: [Int]) -> [Int] {
        guard let newKeys = try? results.keys() else { return modifications }
        let oldKeys = keys
        var kept: [Int] = []
        // Compared with the values before this update, recorded after it: a list holding an
        // object twice reports both places.
        var readNow: [ObjectKey: [Value]?] = [:]
        for m in modifications where oldKeys.indices.contains(m) {
            let k = oldKeys[m]
            let now: [Value]?
            if let known = readNow[k] {
                now = known
            } else {
                now = read(k, in: results)
                readNow[k] = now
            }
            if let now, let was = values[k] ?? nil, Value.identical(now, was) { continue }
            kept.append(m)
        }
        for (k, now) in readNow { values[k] = now }
        for d in deletions where oldKeys.indices.contains(d) { values[oldKeys[d]] = nil }
        for i in insertions where newKeys.indices.contains(i) { values[newKeys[i]] = read(newKeys[i], in: results) }
        keys = newKeys
        return kept
    }

    /// The watched values of object `key` in the results' Realm, or nil when unreadable.
    private func read(_ key: ObjectKey, in results: RealmEngine.Results) -> [Value]? {
        let realm = results.realm
        guard let object = try? realm.object(ofType: results.objectSchema.name, key: key) else { return nil }
        var out: [Value] = []
        for path in paths {
            guard let v = try? Self.value(of: object, path[...], realm: realm) else { return nil }
            out.append(v)
        }
        return out
    }

    /// The value at `path` from `object`: through links and lists of links, a list of the values
    /// reached (`.null` past a nil link).
    static func value(of object: RealmEngine.DynamicObject, _ path: ArraySlice<String>, realm: RealmEngine.Realm) throws
        -> Value
    {
        guard let name = path.first else { return .null }
        let v = try object.value(forKey: name)
        let rest = path.dropFirst()
        if rest.isEmpty { return v }
        guard let target = object.objectSchema[name]?.objectClassName else { return .null }
        func follow(_ link: Value) throws -> Value {
            guard case .link(let k) = link, let next = try realm.object(ofType: target, key: k) else { return .null }
            return try value(of: next, rest, realm: realm)
        }
        if case .list(let items) = v { return .list(try items.map(follow)) }
        return try follow(v)
    }
}

/// Registers a collection observer on `dynamic` whose updates are filtered by `keyPaths` (nil:
/// every change), handing `block` the collection `make` builds from the delivered results.
func observeCollection<C>(
    _ dynamic: RealmEngine.Results, keyPaths: [String]?, on queue: DispatchQueue?,
    make: @escaping (RealmEngine.Results) -> C,
    _ block: @escaping (RealmCollectionChange<C>) -> Void
) -> NotificationToken {
    let filter = keyPaths.map {
        KeyPathFilter(keyPaths: $0, className: dynamic.objectSchema.name, schema: dynamic.realm.schema)
    }
    return dynamic.observe(on: queue) { change in
        switch change {
        case .initial(let r):
            filter?.start(r)
            block(.initial(make(r)))
        case .update(let r, let deletions, let insertions, let modifications):
            var kept = modifications
            if let filter {
                kept = filter.filter(r, deletions: deletions, insertions: insertions, modifications: modifications)
                if deletions.isEmpty && insertions.isEmpty && kept.isEmpty { return }
            }
            block(.update(make(r), deletions: deletions, insertions: insertions, modifications: kept))
        case .error(let error):
            block(.error(error))
        }
    }
}

extension _ObjectObservable {
    /// `observe(keyPaths:on:)` of an object with key paths through links. The dynamic core reports
    /// an object's own changes only, so this watches every new version of the Realm (a
    /// Realm-level registration, on this thread's RunLoop or on `queue`) and compares the key
    /// paths' values with those last delivered: one read per key path per version.
    ///
    /// Invariants: `last` holds the values at the last delivered version (at first, the version
    /// this thread reads now, which is where the registration starts counting); it is read and
    /// written only by the delivering context (one at a time: deliveries are serial). A value
    /// that cannot be read is nil in the change (as `PropertyChange` documents), never a stale
    /// value. On `queue`, the object is looked up by key in the queue's own Realm instance and
    /// handed over bound to it; the observed instance is never touched there. Deletion delivers
    /// `.deleted` once, a failure to look the object up `.error` once; nothing follows either.
    /// A registration the engine refuses (a frozen object, inside a write transaction) is one
    /// `.error`, as for the object's own properties.
    func observeThroughLinks(
        keyPaths: [String], on queue: DispatchQueue?,
        _ block: @escaping (ObjectChange<Self>) -> Void
    ) -> NotificationToken {
        guard let accessor, let realm else { preconditionFailure("Only managed objects can be observed.") }
        let paths = KeyPathFilter(keyPaths: keyPaths, className: accessor.className, schema: realm.schema).paths
        func read(_ object: RealmEngine.DynamicObject) -> [Value?] {
            paths.map { try? KeyPathFilter.value(of: object, $0[...], realm: object.realm) }
        }
        var last = read(accessor)
        var finished = false
        let (className, key, original, configuration) = (accessor.className, accessor.key, self, realm.configuration)
        // The typed wrapper of the queue's instance, made once (the hub keeps one instance).
        var queueRealm: Realm?
        return realm.dynamicRealm.observe(on: queue, failure: { block(.error($0)) }) { _, delivering in
            if finished { return }
            let current: RealmEngine.DynamicObject?
            do {
                current = try delivering.object(ofType: className, key: key)
            } catch {
                finished = true
                block(.error(error))
                return
            }
            guard let current else {
                finished = true
                block(.deleted)
                return
            }
            let now = read(current)
            let changes = paths.indices.filter { !Value.identical(now[$0], last[$0]) }.map {
                PropertyChange(name: keyPaths[$0], old: last[$0], new: now[$0])
            }
            last = now
            guard !changes.isEmpty else { return }
            if queue == nil {
                block(.change(original, changes))
                return
            }
            let typedRealm =
                queueRealm.flatMap { $0.dynamicRealm === delivering ? $0 : nil }
                ?? Realm(wrapping: delivering, configuration: configuration)
            queueRealm = typedRealm
            block(.change(Self._rlmMake(current, realm: typedRealm), changes))
        }
    }
}
