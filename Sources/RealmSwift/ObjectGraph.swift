import RealmEngine

// `add` of an unmanaged object whose links reach one unmanaged instance more than once: the
// same dog in a list twice, or in a list and a to-one link, or a cycle (`a.next = b`,
// `b.next = a`, or `a.next = a`).
//
// The engine takes a linked object as nested input, a tree: each occurrence would become an
// object of its own, and a cycle would never end. So such a graph is added in two passes:
// each instance is created once with its values but not its links, then the links are set to
// the objects just created, and every instance becomes managed. A graph where each instance
// is reached once keeps the one-pass tree (no second write per object).

/// The unmanaged objects reachable from a root through links.
struct UnmanagedGraph {
    /// Every unmanaged object reached, the root first, each once.
    private(set) var objects: [Object] = []
    /// Whether some object was reached through more than one link (or the root again).
    private(set) var isShared = false

    init(from root: Object) {
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(root)]
        var pending = [root]
        while let object = pending.popLast() {
            objects.append(object)
            for field in object.fieldHandles() {
                for linked in field.access.links(field.field) where !linked.isManaged {
                    if seen.insert(ObjectIdentifier(linked)).inserted {
                        pending.append(linked)
                    } else {
                        isShared = true
                    }
                }
            }
        }
    }
}

extension Realm {
    /// Adds the objects of a graph where an instance is reached more than once (see the top of
    /// the file): each once, then the links; returns the root's managed object.
    func addShared(_ graph: UnmanagedGraph, update: UpdatePolicy) throws -> DynamicObject {
        var created: [(object: Object, managed: DynamicObject)] = []
        var keys: [ObjectIdentifier: ObjectKey] = [:]
        for object in graph.objects {
            let info = check(Swift.type(of: object))
            var values: [String: ObjectInput] = [:]
            for field in object.fieldHandles() where field.access.links(field.field).isEmpty {
                if let input = field.access.unmanagedInput(field.field, for: self) { values[field.name] = input }
            }
            let managed = DynamicObject(try dynamicRealm.createAccessor(info.objectSchema.name, value: .dictionary(values),
                                                                        update: update))
            keys[ObjectIdentifier(object)] = managed.key
            created.append((object, managed))
        }
        for (object, managed) in created {
            for field in object.fieldHandles() {
                let links = field.access.links(field.field)
                guard !links.isEmpty, let property = managed.objectSchema[field.name] else { continue }
                let inputs = links.map { linked in
                    keys[ObjectIdentifier(linked)].map { ObjectInput.value(.link($0)) } ?? linked._rlmObjectInput(for: self)
                }
                try managed.setValue(property.isList ? .array(inputs) : inputs[0], forKey: field.name)
            }
        }
        return created[0].managed
    }
}
