import Foundation

// Frozen Realms, objects and collections.
//
// `freeze()` pins a value to the version its Realm reads now: it never changes again, cannot be
// written (a write is a programmer error and stops with a message saying so), and may be read
// from any thread. `thaw()` gives the live equivalent in this thread's Realm of the same
// configuration, at the newest version (nil for an object deleted meanwhile).
//
// Invariants:
// - A live Realm reuses the frozen Realm of its version while one is alive (`frozenCopy`, weak):
//   freezing many objects of one version costs one reader slot, and they share one frozen
//   Realm; once no frozen value uses it, the version is released.
// - Every typed read of a frozen value runs under the frozen Realm's lock (`Realm.reading`):
//   the dynamic core's readers keep caches (a result's keys, where an object was last found),
//   so concurrent reads from several threads are serialized there. Live values are confined
//   to their thread and need no lock (`reading` is then a plain call).
// - Ignored (non-`@Persisted`) stored properties of a frozen object are plain Swift storage,
//   as on any object: `freeze()` returns a new instance with their defaults, and mutating them
//   from several threads is the caller's business.

extension Realm {
    /// Whether the Realm is frozen: pinned to one version, read-only, usable from any thread.
    public var isFrozen: Bool { frozen }

    /// A frozen Realm showing the version this one reads now: it never changes, cannot be
    /// written, and may be read from any thread. Freezing a frozen Realm returns it.
    ///
    /// ```swift
    /// let frozen = realm.freeze()
    /// Task.detached { print(frozen.objects(Dog.self).count) }   // the count when frozen
    /// ```
    ///
    /// Freezing inside a write transaction is a programmer error (the version being written
    /// is not committed). The frozen Realm holds a reader slot of the lock file while it lives;
    /// when the lock file's reader table is full (hundreds of pinned versions), this stops
    /// with a message — `checkedFreeze()` throws instead.
    public func freeze() -> Realm {
        do { return try checkedFreeze() } catch { preconditionFailure("freeze(): \(error)") }
    }

    /// `freeze()` that throws when the version cannot be pinned (the lock file's reader table
    /// is full) instead of stopping.
    public func checkedFreeze() throws -> Realm {
        if frozen { return self }
        verifyThread()
        precondition(
            !isInWriteTransaction,
            "Cannot freeze a Realm inside a write transaction (its version is not committed yet).")
        if let frozenCopy, frozenCopy.dynamicRealm.version == dynamicRealm.version { return frozenCopy }
        let copy = Realm(wrapping: try dynamicRealm.freeze(), configuration: configuration)
        frozenCopy = copy
        return copy
    }

    /// The live Realm of the same configuration on this thread, moved to the newest version;
    /// a live Realm returns itself.
    ///
    /// The frozen Realm already holds the file open, so opening the live one can only fail
    /// for reasons outside the file's data (the process is out of file descriptors); that stops
    /// with a message — `checkedThaw()` throws instead.
    public func thaw() -> Realm {
        do { return try checkedThaw() } catch { preconditionFailure("thaw(): \(error)") }
    }

    /// `thaw()` that throws instead of stopping when the live Realm cannot be opened.
    public func checkedThaw() throws -> Realm {
        if !frozen { return self }
        let live = try Realm(configuration: configuration)
        if live.dynamicRealm.version < dynamicRealm.version { live.refresh() }
        return live
    }

    /// Runs a read of the dynamic core: under the lock of a frozen Realm (which any thread may
    /// read), directly for a live one.
    @inline(__always)
    func reading<T>(_ body: () throws -> T) rethrows -> T {
        if frozen { return try dynamicRealm.withFrozenAccess(body) }
        return try body()
    }

    /// Stops with a message when asked to change a frozen Realm.
    func refuseFrozenWrite() {
        precondition(
            !frozen,
            "Cannot modify a frozen Realm, object or collection: it shows one version forever. "
                + "Write through the live one (thaw()).")
    }
}

extension Object {
    /// Whether the object is frozen (read from a frozen Realm). An unmanaged object is not.
    public var isFrozen: Bool { realm?.isFrozen ?? false }
}

extension _ObjectObservable {
    /// A frozen copy of the object: its values at the version its Realm reads now, forever,
    /// readable from any thread. Freezing a frozen object returns it.
    ///
    /// Freezing an unmanaged object or a deleted one is a programmer error, as in RealmSwift
    /// (an unmanaged object is a plain Swift object and needs no freezing to cross threads).
    public func freeze() -> Self {
        guard let accessor, let realm else { preconditionFailure("Unmanaged objects cannot be frozen.") }
        if realm.isFrozen { return self }
        let frozen = realm.freeze()
        do {
            guard let copy = try accessor.bound(to: frozen.dynamicRealm) else {
                preconditionFailure("Cannot freeze an object that was deleted or invalidated (\(Self.className())).")
            }
            return Self._rlmMake(copy, realm: frozen)
        } catch {
            preconditionFailure("freeze() of a \(Self.className()): \(error)")
        }
    }

    /// The live object in this thread's Realm of the same configuration (at the newest
    /// version), or nil when it was deleted since. A live object returns itself; an unmanaged
    /// one is a programmer error.
    public func thaw() -> Self? {
        guard let accessor, let realm else { preconditionFailure("Unmanaged objects cannot be thawed.") }
        if !realm.isFrozen { return self }
        let live = realm.thaw()
        guard let object = try? accessor.bound(to: live.dynamicRealm) else { return nil }
        return Self._rlmMake(object, realm: live)
    }
}

extension Results {
    /// Whether the results are frozen.
    public var isFrozen: Bool { owner.isFrozen }

    /// The results frozen at the version their Realm reads now: the same query, evaluated on
    /// that version whenever read, from any thread. Freezing frozen results returns them.
    public func freeze() -> Results {
        if owner.isFrozen { return self }
        let frozen = owner.freeze()
        return Results(dynamicResults.bound(to: frozen.dynamicRealm), realm: frozen)
    }

    /// The same query, live, in this thread's Realm of the same configuration (at the newest
    /// version). Live results return themselves.
    public func thaw() -> Results {
        if !owner.isFrozen { return self }
        let live = owner.thaw()
        return Results(dynamicResults.bound(to: live.dynamicRealm), realm: live)
    }
}

extension AnyRealmCollection {
    /// Whether the collection is frozen.
    public var isFrozen: Bool { _rlmResults.isFrozen }
    /// The collection frozen at the version its Realm reads now (see `Results.freeze()`).
    public func freeze() -> AnyRealmCollection { AnyRealmCollection(_rlmResults.freeze()) }
    /// The collection live again in this thread's Realm (see `Results.thaw()`).
    public func thaw() -> AnyRealmCollection { AnyRealmCollection(_rlmResults.thaw()) }
}

extension LinkingObjects {
    /// Whether the linking objects are frozen (those of an unmanaged object are not).
    public var isFrozen: Bool { results?.isFrozen ?? false }

    /// Whether the object they point at was deleted (those of an unmanaged object never are).
    public var isInvalidated: Bool { results?.isInvalidated ?? false }

    /// The linking objects frozen at the version their Realm reads now. Freezing those of an
    /// unmanaged object is a programmer error.
    public func freeze() -> LinkingObjects {
        guard let results else { preconditionFailure("Unmanaged LinkingObjects cannot be frozen.") }
        return LinkingObjects(originProperty: propertyName, results: results.freeze())
    }

    /// The linking objects live again in this thread's Realm (of the object as it is now, even if
    /// it was deleted: then empty).
    public func thaw() -> LinkingObjects {
        guard let results else { preconditionFailure("Unmanaged LinkingObjects cannot be thawed.") }
        return LinkingObjects(originProperty: propertyName, results: results.thaw())
    }
}

extension List {
    /// Whether the list is frozen (an unmanaged list is not).
    public var isFrozen: Bool { realm?.isFrozen ?? false }

    /// The list frozen at the version its Realm reads now, readable from any thread. Freezing
    /// a frozen list returns it; freezing an unmanaged list, or one whose object was deleted
    /// (nested in a Mixed: one no longer there), is a programmer error.
    public func freeze() -> List {
        switch storage {
        case .unmanaged:
            preconditionFailure("Unmanaged lists cannot be frozen.")
        case .managed(let list, let realm):
            if realm.isFrozen { return self }
            let (copy, frozen) = realm.frozenBinding(of: "List", "List<\(Element.self)>", list.bound(to:))
            return List(managed: copy, realm: frozen)
        case .inMixed(let slot, let realm):
            if realm.isFrozen { return self }
            let frozen = realm.freeze()
            guard let copy = slot.bound(to: frozen, list: true) else {
                preconditionFailure(
                    "Cannot freeze \(slot.description): its object was deleted or it no longer holds a list.")
            }
            return List(inMixed: copy, realm: frozen)
        }
    }

    /// The list live in this thread's Realm (at the newest version), or nil when its object was
    /// deleted since (nested in a Mixed: or the list is no longer there). A live list returns
    /// itself; an unmanaged one is a programmer error.
    public func thaw() -> List? {
        switch storage {
        case .unmanaged:
            preconditionFailure("Unmanaged lists cannot be thawed.")
        case .managed(let list, let realm):
            if !realm.isFrozen { return self }
            return realm.liveBinding(list.bound(to:)).map { List(managed: $0.0, realm: $0.1) }
        case .inMixed(let slot, let realm):
            if !realm.isFrozen { return self }
            let live = realm.thaw()
            return slot.bound(to: live, list: true).map { List(inMixed: $0, realm: live) }
        }
    }
}

extension MutableSet {
    /// Whether the set is frozen (an unmanaged set is not).
    public var isFrozen: Bool { realm?.isFrozen ?? false }

    /// The set frozen at the version its Realm reads now, readable from any thread. Freezing a
    /// frozen set returns it; freezing an unmanaged set, or one whose object was deleted, is a
    /// programmer error (as in RealmSwift).
    public func freeze() -> MutableSet {
        switch storage {
        case .unmanaged:
            preconditionFailure("Unmanaged sets cannot be frozen.")
        case .managed(let set, let realm):
            if realm.isFrozen { return self }
            let (copy, frozen) = realm.frozenBinding(of: "MutableSet", "MutableSet<\(Element.self)>", set.bound(to:))
            return MutableSet(managed: copy, realm: frozen)
        }
    }

    /// The set live in this thread's Realm (at the newest version), or nil when its object was
    /// deleted since. A live set returns itself; an unmanaged one is a programmer error.
    public func thaw() -> MutableSet? {
        switch storage {
        case .unmanaged:
            preconditionFailure("Unmanaged sets cannot be thawed.")
        case .managed(let set, let realm):
            if !realm.isFrozen { return self }
            return realm.liveBinding(set.bound(to:)).map { MutableSet(managed: $0.0, realm: $0.1) }
        }
    }
}

extension Map {
    /// Whether the map is frozen (an unmanaged map is not).
    public var isFrozen: Bool { realm?.isFrozen ?? false }

    /// The map frozen at the version its Realm reads now, readable from any thread. Freezing a
    /// frozen map returns it; freezing an unmanaged map, or one whose object was deleted (nested
    /// in a Mixed: one no longer there), is a programmer error.
    public func freeze() -> Map {
        switch storage {
        case .unmanaged:
            preconditionFailure("Unmanaged maps cannot be frozen.")
        case .managed(let map, let realm):
            if realm.isFrozen { return self }
            let (copy, frozen) = realm.frozenBinding(of: "Map", "Map<\(Key.self), \(Value.self)>", map.bound(to:))
            return Map(managed: copy, realm: frozen)
        case .inMixed(let slot, let realm):
            if realm.isFrozen { return self }
            let frozen = realm.freeze()
            guard let copy = slot.bound(to: frozen, list: false) else {
                preconditionFailure(
                    "Cannot freeze \(slot.description): its object was deleted or it no longer holds a dictionary.")
            }
            return Map(inMixed: copy, realm: frozen)
        }
    }

    /// The map live in this thread's Realm (at the newest version), or nil when its object was
    /// deleted since (nested in a Mixed: or the dictionary is no longer there). A live map
    /// returns itself; an unmanaged one is a programmer error.
    public func thaw() -> Map? {
        switch storage {
        case .unmanaged:
            preconditionFailure("Unmanaged maps cannot be thawed.")
        case .managed(let map, let realm):
            if !realm.isFrozen { return self }
            return realm.liveBinding(map.bound(to:)).map { Map(managed: $0.0, realm: $0.1) }
        case .inMixed(let slot, let realm):
            if !realm.isFrozen { return self }
            let live = realm.thaw()
            return slot.bound(to: live, list: false).map { Map(inMixed: $0, realm: live) }
        }
    }
}

extension Realm {
    /// A managed collection of this (live) Realm bound by `bind` to the frozen Realm of its
    /// version, with that Realm: what `freeze()` of `List`, `MutableSet` and `Map` share. An
    /// object deleted meanwhile, or a failed read, is a programmer error (as in RealmSwift);
    /// `kind` and `typeName` name the collection in the message.
    func frozenBinding<Bound>(
        of kind: String, _ typeName: @autoclosure () -> String, _ bind: (RealmEngine.Realm) throws -> Bound?
    ) -> (Bound, Realm) {
        let frozen = freeze()
        do {
            guard let copy = try bind(frozen.dynamicRealm) else {
                preconditionFailure("Cannot freeze a \(kind) whose object was deleted.")
            }
            return (copy, frozen)
        } catch {
            preconditionFailure("freeze() of a \(typeName()): \(error)")
        }
    }

    /// A managed collection of this (frozen) Realm bound by `bind` to this thread's live Realm
    /// at the newest version, with that Realm; nil when its object was deleted since (what
    /// `thaw()` of `List`, `MutableSet` and `Map` share).
    func liveBinding<Bound>(_ bind: (RealmEngine.Realm) throws -> Bound?) -> (Bound, Realm)? {
        let live = thaw()
        guard let copy = try? bind(live.dynamicRealm) else { return nil }
        return (copy, live)
    }
}

/// A frozen Realm value that may be sent to another task or thread: `Frozen(dog.freeze())`.
///
/// Realm objects and collections are not `Sendable` as types (a live one is confined to its
/// thread, an unmanaged object is plain mutable storage), so Swift 6 will not let one cross
/// isolation. A frozen one is safe anywhere (immutable, its reads serialized by its Realm);
/// this box carries that fact across: making it from a value that is not frozen stops with a
/// message, so `value` is always frozen.
///
/// ```swift
/// let box = Frozen(realm.objects(Dog.self).freeze())
/// await Task.detached { box.value.count }.value
/// ```
public struct Frozen<Value: RealmFreezable>: @unchecked Sendable {
    /// The frozen value.
    public let value: Value

    /// Boxes a frozen value; a live or unmanaged one is a programmer error (freeze it first).
    public init(_ value: Value) {
        precondition(value.isFrozen, "Frozen(_:) needs a frozen value: call freeze() first.")
        self.value = value
    }
}

/// A Realm value that can be frozen: `Realm`, objects, `Results`, `List`, `MutableSet`, `Map`,
/// `LinkingObjects`, `AnyRealmCollection`.
public protocol RealmFreezable {
    /// Whether the value is frozen.
    var isFrozen: Bool { get }
}

extension Realm: RealmFreezable {}
extension Object: RealmFreezable {}
extension Results: RealmFreezable {}
extension List: RealmFreezable {}
extension Map: RealmFreezable {}
extension MutableSet: RealmFreezable {}
extension LinkingObjects: RealmFreezable {}
extension AnyRealmCollection: RealmFreezable {}
