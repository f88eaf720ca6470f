import Foundation

/// The name a key path of an `Object` subclass names, as Realm Swift's `_name(for:)` gives it:
/// `_name(for: \Dog.age)` is `"age"`, and through to-one links the dotted path
/// (`_name(for: \Dog.owner?.name)` is `"owner.name"`). The names are the Swift ones, which
/// queries, sorting and key-value coding take (`propertiesMapping()` translates them).
///
/// A key path that reads no `@Persisted` property (a computed one) is a programming error and
/// stops the program, as in Realm Swift.
public func _name<T: Object>(for keyPath: PartialKeyPath<T>) -> String {
    propertyName(keyPath)
}
