import Foundation

/// Where a list or dictionary nested in a managed Mixed value is: the object, the property and
/// the place inside the property's value (`[]`: the value itself; for a list or dictionary of
/// Mixed, the path starts with the element's position or key). A step into a list keeps to its
/// element, as Realm Core's stable keys of nested collections do: an insertion or removal
/// before it leaves the collection on its element, removing the element invalidates it (see
/// `MixedPlace`).
///
/// A nested collection has no column of its own (Realm format 24 keeps it inside the Mixed
/// value), so the managed `List`/`Map` an `AnyRealmValue` hands out for it reads the property
/// and follows the path on every read (live), and a change rewrites the property's whole value
/// with the collection at the path changed — one property write, so notifications and undo see
/// an ordinary change of the Mixed property.
final class MixedSlot {
    let owner: RealmEngine.DynamicObject
    let property: String
    let place: MixedPlace

    init(owner: RealmEngine.DynamicObject, property: String, place: MixedPlace = MixedPlace()) {
        self.owner = owner
        self.property = property
        self.place = place
    }

    /// The path to the collection as last found.
    var path: [MixedPathElement] { place.path }

    /// The same place in another instance of the file (frozen or live), or nil when the object
    /// is not in that instance's version or no list (`list`) or dictionary is there.
    func bound(to other: Realm, list: Bool) -> MixedSlot? {
        guard let moved = try? other.reading({ try owner.bound(to: other.dynamicRealm) }) else { return nil }
        let slot = MixedSlot(owner: moved, property: property, place: place.copy())
        return other.reading { slot.isInvalidated(list: list) } ? nil : slot
    }

    /// The slot one step deeper: `step` of this collection (for a list, `list` is its
    /// elements as just read).
    func child(_ step: MixedPathElement, in list: [Value]? = nil) -> MixedSlot {
        MixedSlot(owner: owner, property: property, place: place.child(step, in: list))
    }

    /// For messages: `Box.value[2]['k']`.
    var description: String {
        let steps = path.map { step in
            switch step {
            case .index(let index): "[\(index)]"
            case .key(let key): "['\(key)']"
            }
        }
        return "\(owner.className).\(property)" + steps.joined()
    }

    /// Whether the collection is gone: its object was deleted, or the Mixed value no longer
    /// holds a collection of this kind at the path (it was replaced), as a nested collection
    /// of RealmSwift is invalidated then.
    func isInvalidated(list: Bool) -> Bool {
        guard !owner.isInvalidated, let value = try? current() else { return true }
        switch value {
        case .list: return !list
        case .map: return list
        default: return true
        }
    }

    /// The value at the place now; nil where it leads nowhere (its element was removed).
    private func current() throws -> Value? {
        place.resolve(in: try owner.value(forKey: property))
    }

    /// The list's elements; throws when the object was deleted or no list is there any more.
    func list() throws -> [Value] {
        guard case .list(let items)? = try current() else { throw gone("list") }
        return items
    }

    /// The dictionary's entries; throws when the object was deleted or no dictionary is there.
    func entries() throws -> [String: Value] {
        guard case .map(let entries)? = try current() else { throw gone("dictionary") }
        return entries
    }

    private func gone(_ kind: String) -> RealmError {
        if owner.isInvalidated { return .invalidatedObject }
        return .invalidOperation(
            "\(description) no longer holds a \(kind): the nested \(kind) was removed or replaced and is invalidated")
    }

    /// Changes the list in place (inside a write transaction).
    func editList(_ body: (inout [Value]) throws -> Void) throws {
        try rewrite { value in
            guard case .list(var items) = value else { throw gone("list") }
            value = .null  // the only copy of the elements is `items` while they change
            try body(&items)
            value = .list(items)
        }
    }

    /// Changes the dictionary in place (inside a write transaction).
    func editEntries(_ body: (inout [String: Value]) throws -> Void) throws {
        try rewrite { value in
            guard case .map(var entries) = value else { throw gone("dictionary") }
            value = .null
            try body(&entries)
            value = .map(entries)
        }
    }

    /// Checks a key as Realm checks a dictionary's keys (no leading `$`, no `.`).
    func checkKey(_ key: String) throws {
        try MapKey.check(key, className: owner.className, property: property)
    }

    /// The stored value an element input stands for: a Mixed element is always a value (an
    /// object is given as its typed link).
    static func value(of input: ObjectInput) throws -> Value {
        guard case .value(let value) = input else {
            throw RealmError.invalidInput(
                "a nested list or dictionary of a Mixed value holds values only, not \(input)")
        }
        return value
    }

    private func rewrite(_ body: (inout Value) throws -> Void) throws {
        var whole = try owner.value(forKey: property)
        // Brings the positions up to date (the element may have moved since the last look).
        guard place.resolve(in: whole) != nil else {
            throw RealmError.invalidOperation(
                "\(description) no longer holds a collection: the nested collection was removed or replaced and is invalidated"
            )
        }
        try Self.edit(&whole, at: path[...], description: description, body)
        try owner.setValue(whole, forKey: property)
        place.record(whole)
    }

    private static func edit(
        _ value: inout Value, at path: ArraySlice<MixedPathElement>, description: String,
        _ body: (inout Value) throws -> Void
    ) throws {
        guard let step = path.first else { return try body(&value) }
        switch (step, value) {
        case (.index(let index), .list(var items)) where items.indices.contains(index):
            value = .null
            try edit(&items[index], at: path.dropFirst(), description: description, body)
            value = .list(items)
        case (.key(let key), .map(var entries)):
            guard var inner = entries[key] else {
                throw RealmError.invalidOperation(
                    "\(description) no longer holds a collection: the key '\(key)' was removed")
            }
            value = .null
            try edit(&inner, at: path.dropFirst(), description: description, body)
            entries[key] = inner
            value = .map(entries)
        default:
            throw RealmError.invalidOperation(
                "\(description) no longer holds a collection: the nested collection was replaced and is invalidated")
        }
    }
}
