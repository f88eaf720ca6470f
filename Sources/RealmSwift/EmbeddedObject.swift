import Foundation

/// The base class of an embedded model, as Realm Swift's:
/// `final class Address: EmbeddedObject { @Persisted var city = "" }`, held by its parent through
/// `@Persisted var address: Address?`, `List<Address>` or `Map<String, Address?>`.
///
/// An embedded object belongs to exactly one parent object and lives only through it:
/// - it is made by giving it to the parent (assigning it, appending it to a list, putting it
///   into a map, adding or creating the parent with it): its values are copied into a new
///   embedded object of the parent, and an unmanaged instance given becomes that managed object;
/// - the one it replaces (or that is set to nil, or removed from its collection) is deleted, and
///   deleting the parent deletes its embedded objects (theirs with them);
/// - giving a managed embedded object to another parent makes the enclosing `write` throw (it
///   would have two parents), as do `realm.add(_:)` and `realm.create(_:value:)` of an embedded
///   class on its own; `realm.objects(_:)` of an embedded class stops with a message (Realm Swift
///   refuses both at compile time, where a subclass of `Object` cannot be told apart);
/// - it has no primary key (a Realm opened with one fails with `RealmError.invalidSchema`);
/// - queries, sorting and key-path observation reach into it through its parent's key paths
///   (`$0.address.city == "Oslo"`, `"address.city"`), and a change inside it is a change of its
///   parent; `@Persisted(originProperty:) var owners: LinkingObjects<Parent>` finds the parent.
open class EmbeddedObject: Object {}

extension Object {
    /// Whether the object is an unmanaged instance of an embedded class (copied into its parent,
    /// never added on its own).
    var isUnmanagedEmbedded: Bool { self is EmbeddedObject && !hasAccessor }

    /// The unmanaged embedded objects each property holds, in the order the stored property
    /// gives their keys (`embeddedKeys(in:)`): a property is listed only when every object it
    /// links to is an unmanaged embedded one, which is then paired with its stored copy by position.
    func unmanagedEmbeddedChildren() -> [(name: String, children: [Object])] {
        guard info.hasLinks else { return [] }
        var result: [(name: String, children: [Object])] = []
        for field in fieldHandles() where !field.access.isLinkingObjects {
            let targets = field.access.links(field.field)
            if !targets.isEmpty, targets.allSatisfy(\.isUnmanagedEmbedded) { result.append((field.name, targets)) }
        }
        return result
    }
}

extension Realm {
    /// Makes `instance`, an unmanaged embedded object whose values were just copied into the
    /// embedded object `key`, that managed object; its own unmanaged embedded objects become
    /// theirs, recursively (as Realm Swift makes every instance it stores managed). A copy that
    /// cannot be found (never expected) leaves the instance unmanaged: it is only a copy's source.
    func adoptEmbedded(_ instance: Object, key: ObjectKey) {
        let info = check(type(of: instance))
        guard let object = try? dynamicRealm.object(ofType: info.objectSchema.name, key: key) else { return }
        let children = instance.unmanagedEmbeddedChildren()
        instance.classInfo = info
        instance.manage(object.accessor)
        instance.realm = self
        adoptChildren(children, of: object)
    }

    /// `adoptEmbedded` of each unmanaged embedded child of a parent just stored as `parent`.
    func adoptChildren(_ children: [(name: String, children: [Object])], of parent: RealmEngine.DynamicObject) {
        for (name, instances) in children {
            guard let value = try? parent.value(forKey: name) else { continue }
            let keys = Self.embeddedKeys(in: value)
            guard keys.count == instances.count else { continue }
            for (instance, key) in zip(instances, keys) { adoptEmbedded(instance, key: key) }
        }
    }

    /// The objects a stored link, list or map names, in the order an unmanaged property lists
    /// them (`_rlmLinkedObjects`: a map's by key bytes, nil values left out).
    static func embeddedKeys(in value: Value) -> [ObjectKey] {
        func key(_ v: Value) -> ObjectKey? { if case .link(let k) = v { k } else { nil } }
        switch value {
        case .link(let k): return [k]
        case .list(let items): return items.compactMap(key)
        case .map(let entries):
            return entries.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }.compactMap {
                key($0.value)
            }
        default: return []
        }
    }
}
