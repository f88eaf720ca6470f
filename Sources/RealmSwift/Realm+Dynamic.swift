import Foundation

/// Realm Swift's dynamic API: objects of a class by its stored name, as `DynamicObject`s, for
/// code that does not know the class at compile time (a browser, a migration, a file of
/// another program). Misuse (an unknown class, an embedded one, writing outside a write
/// transaction) stops with a message as the typed calls do.
extension Realm {
    /// Every object of the class stored as `className`, live (count, filter, sort, observe and
    /// freeze as typed results). An embedded class is refused: its objects are reached through
    /// their parents, as `objects(_:)` refuses one.
    public func dynamicObjects(_ className: String) -> Results<DynamicObject> {
        verifyThread()
        do {
            return Results(try reading { try dynamicRealm.objects(className) }, realm: self)
        } catch {
            preconditionFailure("dynamicObjects(\"\(className)\"): \(error)")
        }
    }

    /// The object of the class stored as `className` with primary key `key`, or nil when there
    /// is none. A class without a primary key, or a key of another type than the class's,
    /// stops with a message.
    public func dynamicObject(ofType className: String, forPrimaryKey key: Any) -> DynamicObject? {
        verifyThread()
        do {
            guard let value = try storedValue(key) else {
                throw RealmError.invalidInput("a \(type(of: key)) cannot be a primary key")
            }
            guard let found = try reading({ try dynamicRealm.object(ofType: className, forPrimaryKey: value) }) else {
                return nil
            }
            return DynamicObject._rlmMake(found, realm: self)
        } catch {
            preconditionFailure("dynamicObject(ofType: \"\(className)\", forPrimaryKey: \(key)): \(error)")
        }
    }

    /// Creates an object of the class stored as `className` from a dictionary (unknown keys are
    /// ignored) or an array in property order. A missing value takes the default of the class's
    /// model when the program has one (as `create(_:value:)` does; so do new linked objects given
    /// by their values), else it is nil, which a required property refuses (the `write` throws,
    /// naming it); a missing collection is empty. With
    /// `.modified` or `.all`, an existing object with the same primary key gets only the given
    /// values. A value that does not fit (nil for a required property, a wrong type, a duplicate
    /// primary key with `.error`) makes the enclosing `write` throw; the returned object is then
    /// an unmanaged placeholder.
    @discardableResult
    public func dynamicCreate(_ className: String, value: Any = [String: Any](), update: UpdatePolicy = .error)
        -> DynamicObject
    {
        requireWrite("create an object")
        guard let objectSchema = schema[className] else {
            preconditionFailure("dynamicCreate(\"\(className)\"): the Realm has no class \(className)")
        }
        do {
            let input = try DynamicInput.object(value, objectSchema, realm: self)
            return DynamicObject._rlmMake(try dynamicRealm.create(className, value: input, update: update), realm: self)
        } catch {
            record(error)
            return DynamicObject()
        }
    }
}
