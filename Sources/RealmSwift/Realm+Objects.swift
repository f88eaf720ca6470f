import Foundation

/// Adding, creating, finding and deleting typed objects.
extension Realm {
    /// Every object of a class, live.
    public func objects<Element: Object>(_ type: Element.Type) -> Results<Element> {
        // The stored name from the class's info: `className` may build it from the type's name.
        let info = check(type)
        do {
            return Results(try dynamicRealm.objects(info.objectSchema.name), realm: self)
        } catch {
            preconditionFailure("objects(\(type.className()).self): \(error)")
        }
    }

    /// The object of a class with this primary key, or nil.
    ///
    /// Inlined into the caller, so that the key's type is known there and its conversion is
    /// a plain value, not a dynamic cast per call; the lookup itself is not generic.
    @inlinable
    public func object<Element: Object, Key>(ofType type: Element.Type, forPrimaryKey key: Key) -> Element? {
        let value: Value
        if let i = key as? Int {
            value = .int(Int64(i))
        } else if let s = key as? String {
            value = .string(s)
        } else {
            value = primaryKeyValue(key)
        }
        guard let found = object(ofType: type as Object.Type, primaryKey: value) else { return nil }
        return unsafeDowncast(found, to: Element.self)
    }

    /// A primary key of another type than `Int` and `String` as a stored value.
    @usableFromInline
    func primaryKeyValue<Key>(_ key: Key) -> Value {
        guard let value = try? storedValue(key) else { preconditionFailure("\(Key.self) cannot be a primary key") }
        return value
    }

    /// `object(ofType:forPrimaryKey:)` once the key is a stored value (an object of `type`).
    @usableFromInline
    func object(ofType type: Object.Type, primaryKey value: Value) -> Object? {
        let info = check(type)
        do {
            // The stored name from the class's info: `className` may build it from the type's name.
            guard let accessor = try dynamicRealm.accessor(ofType: info.objectSchema.name, forPrimaryKey: value) else {
                return nil
            }
            return type._rlmMake(accessor, realm: self, info: info)
        } catch {
            preconditionFailure("object(ofType: \(type.className()).self, forPrimaryKey: \(value)): \(error)")
        }
    }

    func requireWrite(_ what: String) {
        refuseFrozenWrite()
        precondition(
            isInWriteTransaction, "Cannot \(what) outside of a write transaction (call it inside realm.write { }).")
    }

    /// Adds an unmanaged object, and the unmanaged objects it links to, to the Realm; each of
    /// these instances becomes managed, one object per instance however often it is linked
    /// (cycles included). With `.modified` or `.all`, an object with the same primary key is
    /// updated instead (a duplicate key with `.error` makes the `write` throw, and leaves every
    /// instance unmanaged).
    public func add(_ object: Object, update: UpdatePolicy = .error) {
        requireWrite("add an object")
        if let owner = object.realm {
            precondition(
                owner.dynamicRealm === dynamicRealm,
                "Object is already managed by another Realm. Use create instead to copy it.")
            if !object.isInvalidated { return }
        }
        do { _ = try addGraph(object, update: update) } catch { record(error) }
    }

    /// Adds every object of a sequence.
    public func add<S: Sequence>(_ objects: S, update: UpdatePolicy = .error) where S.Element: Object {
        for o in objects { add(o, update: update) }
    }

    /// Creates an object from a dictionary (missing keys take the class's defaults, evaluated
    /// for this object; unknown keys are ignored), an array in property order, or another
    /// object (of any Realm: it is copied with the objects it links to). With `.modified` or
    /// `.all`, an existing object with the same primary key gets only the given values.
    ///
    /// A value that does not fit (nil for a required property, a wrong type) makes the
    /// enclosing `write` throw; the returned object is then an unmanaged placeholder.
    @discardableResult
    public func create<Element: Object>(
        _ type: Element.Type, value: Any = [String: Any](), update: UpdatePolicy = .error
    ) -> Element {
        requireWrite("create an object")
        check(type)
        do {
            let input: ObjectInput
            if let object = value as? Object {
                input = .dictionary(object._rlmValues(for: self))
            } else {
                input = try type._rlmNewObjectInput(fromAny: value, realm: self)
            }
            return Element._rlmMake(
                try dynamicRealm.create(type.className(), value: input, update: update), realm: self)
        } catch {
            record(error)
            return Element()
        }
    }

    /// Deletes an object; links to it become nil and it leaves every list.
    public func delete(_ object: Object) {
        requireWrite("delete an object")
        guard let accessor = object.accessor else {
            preconditionFailure("Can only delete an object from the Realm it belongs to.")
        }
        do { try dynamicRealm.delete(accessor) } catch { record(error) }
    }

    /// Deletes every object of a sequence (a `List`, an array). An object the sequence holds
    /// several times (a list may) is deleted once.
    public func delete<S: Sequence>(_ objects: S) where S.Element: Object {
        var seen = Set<S.Element>()
        for o in Array(objects) where seen.insert(o).inserted { delete(o) }
    }

    /// Deletes every object of the results.
    public func delete<Element: Object>(_ results: Results<Element>) {
        requireWrite("delete objects")
        do { try dynamicRealm.delete(results.dynamicResults) } catch { record(error) }
    }

    /// Deletes every object of every class.
    public func deleteAll() {
        requireWrite("delete objects")
        do { try dynamicRealm.deleteAll() } catch { record(error) }
    }
}
